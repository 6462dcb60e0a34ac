//! Ethernet hot spots: FECN converges to the fair share with the queue at Qeq and follows the
//! offered load when flows leave; N0 and the loop delay trade drops for speed; QCN keeps the
//! link full around its Qeq but leaves the flows unequal, FQCN's feedback evens them out;
//! Bernoulli runs are reproducible per seed.

use crate::common::{load, run};
use abr_sim::metrics::Summary;

fn rates(s: &Summary) -> Vec<f64> {
    s.connections.iter().map(|c| c.mean_rate_mbps.unwrap()).collect()
}

fn lost(s: &Summary) -> u64 {
    s.connections.iter().map(|c| c.lost_cells).sum()
}

fn queue(s: &Summary) -> f64 {
    s.ports.iter().find(|p| p.id == "SW1->EP4").unwrap().mean_queue_cells.unwrap()
}

/// A flow offered 5 Gb/s and let through about 2.5 holds the rest at its host: the summary's
/// largest backlog is what was offered and not sent (offered load × time − frames sent), the
/// backlog that lets a flow average more than it offers once its limit rises.
#[test]
fn an_ethernet_flows_host_backlog_is_what_it_was_offered_and_did_not_send() {
    let (_, s) = run(load("fecn-hotspot", &["run.duration_ms=80", "run.steady_from_ms=40"]));
    // 5 Gb/s of 1,500-byte frames from 5 ms to 80 ms.
    let offered = 5e9 / (1500.0 * 8.0) * 0.075;
    for c in &s.connections {
        let backlog = offered - c.sent_cells as f64;
        let max = c.max_source_queue_cells.expect("an Ethernet flow reports its host backlog") as f64;
        assert!(backlog > 10_000.0, "{}: half the offered load waits", c.id);
        assert!((max / backlog - 1.0).abs() < 0.02, "{}: largest backlog {max}, offered − sent {backlog:.0}", c.id);
    }
}

#[test]
fn fecn_gives_four_flows_a_quarter_each_with_the_queue_at_qeq() {
    let (_, s) = run(load("fecn-hotspot", &["run.duration_ms=80", "run.steady_from_ms=40"]));
    for (r, c) in rates(&s).iter().zip(&s.connections) {
        let share = c.target_share_mbps.unwrap();
        assert!((share - 2500.0).abs() < 1e-6, "the oracle: 10 Gb/s over four");
        assert!((r / share - 1.0).abs() < 0.05, "{}: {r:.0} Mb/s", c.id);
    }
    // Qeq = 24 KB = 16 frames of 1500 bytes.
    let q = queue(&s);
    assert!((8.0..=32.0).contains(&q), "mean queue {q:.1} frames, Qeq 16");
    assert_eq!(lost(&s), 0);
}

#[test]
fn fecn_and_fqcn_let_the_remaining_flows_rise_to_their_offered_load() {
    for id in ["fecn-hotspot", "fqcn-hotspot"] {
        let (_, s) = run(load(id, &[]));
        let r = rates(&s);
        assert!(r[0] < 1.0 && r[1] < 1.0, "{id}: F0 and F1 stopped at 80 ms");
        for x in &r[2..] {
            assert!((x / 5000.0 - 1.0).abs() < 0.03, "{id}: {x:.0} Mb/s, offered 5,000");
        }
    }
}

#[test]
fn a_small_n0_overflows_the_buffer_where_a_larger_one_does_not() {
    let (_, n1) = run(load("fecn-n0-1", &[]));
    let (_, n10) = run(load("fecn-n0-10", &[]));
    assert!(lost(&n1) > 0, "N0 = 1: every source starts at the line rate");
    assert_eq!(lost(&n10), 0);
    // N0 = 200 starts at 50 Mb/s and climbs by 50 Mb/s a millisecond: too slow to fill the
    // link before the window.
    let (_, n200) = run(load("fecn-n0-200", &[]));
    let util200 = n200.links.iter().find(|l| l.id == "L4").unwrap().mean_utilization.unwrap();
    let util10 = n10.links.iter().find(|l| l.id == "L4").unwrap().mean_utilization.unwrap();
    assert!(util200 < util10 - 0.1, "N0 = 200: {util200:.2}, N0 = 10: {util10:.2}");
}

#[test]
fn a_long_loop_drops_frames_and_a_larger_qeq_drops_fewer() {
    let (_, short) = run(load("fecn-qeq-24kb-delay-16us", &[]));
    let (_, long_small) = run(load("fecn-qeq-24kb-delay-1000us", &[]));
    let (_, long_big) = run(load("fecn-qeq-150kb-delay-1000us", &[]));
    assert_eq!(lost(&short), 0);
    assert!(lost(&long_small) > 0);
    assert!(lost(&long_big) < lost(&long_small), "{} vs {}", lost(&long_big), lost(&long_small));
}

fn l4_utilization(s: &Summary) -> f64 {
    s.links.iter().find(|l| l.id == "L4").unwrap().mean_utilization.unwrap()
}

/// Issue 15, item 2: the study (Jiang, Jain, So-In, ICC 2008) finds that Qeq = 150 KB keeps
/// near-full throughput with few drops up to a 1000 µs control loop, while Qeq = 16 frames
/// loses stability from 400 µs on (many drops). Our model does not reproduce that, and this
/// test pins what it does instead (the lessons of `fecn-qeq-*` and `fecn-delay-sweep` say why):
/// * at 400 µs neither Qeq drops a frame: the loop is shorter than T = τ = 1 ms, so the advertised
///   rate that comes back is at most one interval stale; only the 16-frame queue runs empty now
///   and then (f(q) falls steeply above so small a Qeq), costing a few per cent of the link;
/// * at 1000 µs both oscillate with a period of ~10 ms, overshooting by the limited increase
///   (C/N₀ = 1 Gb/s per interval per flow, N₀ = 10) for the 2–3 intervals the news takes to
///   arrive, and overflow the 600 KB buffer; 150 KB drops fewer and keeps more of the link
///   (the study's direction) but still thousands of frames, not "few".
/// The loop delay is the round trip (four link crossings, a quarter each), as the study defines
/// it; sources starting at C/8 instead of the line rate would only remove the start-up drops.
#[test]
fn fecn_qeq_against_loop_delay_pins_where_we_part_from_the_study() {
    let (_, big_400) = run(load("fecn-qeq-150kb-delay-400us", &[]));
    let (_, small_400) = run(load("fecn-qeq-24kb-delay-400us", &[]));
    assert_eq!(lost(&big_400), 0, "150 KB, 400 µs");
    // The study: many drops here. Ours: none.
    assert_eq!(lost(&small_400), 0, "16 frames, 400 µs");
    let (u_big, u_small) = (l4_utilization(&big_400), l4_utilization(&small_400));
    assert!(u_big > 0.99, "150 KB, 400 µs: utilisation {u_big:.3}");
    assert!(u_small < u_big - 0.01, "16 frames, 400 µs: {u_small:.3} vs 150 KB {u_big:.3}");

    let (_, big_1000) = run(load("fecn-qeq-150kb-delay-1000us", &[]));
    let (_, small_1000) = run(load("fecn-qeq-24kb-delay-1000us", &[]));
    let (d_big, d_small) = (lost(&big_1000), lost(&small_1000));
    assert!(d_big < d_small, "1000 µs: 150 KB drops {d_big}, 16 frames {d_small}");
    // The study: few drops at 150 KB. Ours: the limit cycle overflows the buffer.
    assert!(d_big > 1000, "150 KB, 1000 µs: {d_big} drops");
    assert!(l4_utilization(&big_1000) > l4_utilization(&small_1000) + 0.1);
}

#[test]
fn qcn_keeps_the_link_full_with_the_queue_near_qeq() {
    for id in ["qcn-hotspot", "fqcn-hotspot"] {
        let (_, s) = run(load(id, &["run.duration_ms=80", "run.steady_from_ms=40"]));
        let util = s.links.iter().find(|l| l.id == "L4").unwrap().mean_utilization.unwrap();
        assert!(util > 0.97, "{id}: utilisation {util:.3}");
        // Qeq = 33 KB = 22 frames.
        let q = queue(&s);
        assert!((11.0..=44.0).contains(&q), "{id}: mean queue {q:.1} frames, Qeq 22");
        assert_eq!(lost(&s), 0, "{id}");
    }
}

#[test]
fn fqcn_gives_four_flows_a_quarter_each() {
    let (_, s) = run(load("fqcn-hotspot", &["run.duration_ms=80", "run.steady_from_ms=40"]));
    for (r, c) in rates(&s).iter().zip(&s.connections) {
        assert!((r / 2500.0 - 1.0).abs() < 0.03, "{}: {r:.0} Mb/s, fair share 2,500", c.id);
    }
}

/// Standard QCN cuts a flow as often as its frames are sampled and recovers it as fast as it
/// sends, so nothing evens out the rates the start-up leaves; FQCN's per-flow feedback does.
#[test]
fn fqcn_evens_out_the_rates_that_qcn_leaves_unequal() {
    for seed in 1..=3 {
        let set = ["run.duration_ms=80", "run.steady_from_ms=40", &format!("run.seed={seed}")];
        let (_, qcn) = run(load("qcn-hotspot", &set));
        let (_, fqcn) = run(load("fqcn-hotspot", &set));
        let spread = |s: &Summary| {
            let r = rates(s);
            r.iter().cloned().fold(0.0, f64::max) / r.iter().cloned().fold(f64::MAX, f64::min)
        };
        assert!(spread(&fqcn) < 1.05, "seed {seed}: FQCN max/min {:.2}", spread(&fqcn));
        assert!(spread(&qcn) > 1.5, "seed {seed}: QCN max/min {:.2}", spread(&qcn));
    }
}

#[test]
fn bernoulli_runs_repeat_per_seed_and_differ_across_seeds() {
    let (_, a) = run(load("fecn-hotspot", &["run.duration_ms=20", "run.steady_from_ms=10"]));
    let (_, b) = run(load("fecn-hotspot", &["run.duration_ms=20", "run.steady_from_ms=10"]));
    let (_, c) = run(load("fecn-hotspot", &["run.duration_ms=20", "run.steady_from_ms=10", "run.seed=2"]));
    assert_eq!(a.digest, b.digest);
    assert_ne!(a.digest, c.digest);
}

#[test]
fn atm_and_ethernet_settings_do_not_mix() {
    let mut doc = crate::common::library_json("fecn-hotspot");
    abr_sim::scenario::apply_override(&mut doc, "nodes.SW1.algorithm=\"erica\"").unwrap();
    let p = abr_sim::scenario::from_value(doc).unwrap_err();
    assert!(p.iter().any(|p| p.path == "nodes[0].algorithm" && p.rule.contains("ATM networks only")), "{p:?}");
    let mut doc = crate::common::library_json("two-sources");
    abr_sim::scenario::apply_override(&mut doc, "connections.C1.traffic={\"kind\":\"bernoulli\",\"load_percent\":50}")
        .unwrap();
    abr_sim::scenario::apply_override(&mut doc, "nodes.SW1.algorithm=\"fecn\"").unwrap();
    let p = abr_sim::scenario::from_value(doc).unwrap_err();
    assert!(p.iter().any(|p| p.path == "connections[0].traffic"), "{p:?}");
    assert!(p.iter().any(|p| p.path == "nodes[2].algorithm" && p.rule.contains("Ethernet networks only")), "{p:?}");
}
