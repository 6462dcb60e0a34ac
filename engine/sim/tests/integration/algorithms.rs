//! Every switch algorithm against its published behaviour: max-min allocations (scaled by the
//! algorithm's target utilisation), ERICA+'s queue target, Series-D's normal region, EFCI's
//! fair oscillation and beat-down, mixed networks, and the per-VC scheduler.

use crate::common::{library_json, run};
use abr_sim::metrics::Summary;
use abr_sim::probes::SeriesKind;
use abr_sim::scenario::{apply_override, from_value, Scenario};
use abr_sim::sim::Simulation;

/// A library scenario with every switch running `alg` (its default parameters), a buffer big
/// enough for every algorithm's thresholds, and extra `--set` overrides.
fn with_algorithm(name: &str, alg: &str, extra: &[&str]) -> Scenario {
    let mut doc = library_json(name);
    for node in doc["nodes"].as_array_mut().unwrap() {
        if node["kind"] == "switch" {
            node["algorithm"] = alg.into();
            node["params"] = serde_json::json!({});
            node["buffer_cells"] = 10_000.into();
        }
    }
    for o in extra {
        apply_override(&mut doc, o).unwrap();
    }
    from_value(doc).unwrap()
}

/// The same network with every link 1 km long (a LAN version).
fn lan(mut s: Scenario) -> Scenario {
    for l in &mut s.links {
        l.distance_km = Some(1.0);
        l.delay_us = None;
    }
    s
}

fn rate_errors(summary: &Summary) -> Vec<f64> {
    summary.connections.iter().map(|c| c.mean_rate_mbps.unwrap() / c.target_share_mbps.unwrap() - 1.0).collect()
}

fn assert_maxmin(s: Scenario, tol: f64) -> Summary {
    let (_, summary) = run(s);
    let errors = rate_errors(&summary);
    assert!(
        errors.iter().all(|e| e.abs() <= tol),
        "{} with {}: rate/share − 1 = {errors:.3?}",
        summary.scenario,
        "the algorithm"
    );
    summary
}

/// Binary schemes need gentle increases (RIF = 1/16), as in the EPRCA and EFCI studies.
const GENTLE: &str = "defaults.source.rif=0.0625";

#[test]
fn the_registry_has_every_algorithm_id() {
    let ids: Vec<&str> = abr_sim::algorithms::REGISTRY.iter().map(|a| a.id).collect();
    assert_eq!(ids, ["erica", "erica_plus", "debra", "series_d", "ut", "eprca", "efci", "fecn", "qcn", "none"]);
    let mut shorts = std::collections::BTreeSet::new();
    for a in abr_sim::algorithms::REGISTRY {
        // Where room is short: a name of its own, at most 8 characters.
        let n = a.short_name.chars().count();
        assert!((1..=8).contains(&n) && shorts.insert(a.short_name), "{}: short name '{}'", a.id, a.short_name);
        for p in a.params {
            assert!(!p.meaning.is_empty() && p.min <= p.max, "{}.{}", a.id, p.name);
            if let Some(d) = p.default {
                assert!(p.check(d).is_ok(), "{}.{} default out of its own range", a.id, p.name);
            }
        }
    }
}

#[test]
fn every_on_off_parameter_is_declared_as_one() {
    // A whole number from 0 to 1 is a switch, and the lab shows it as a checkbox only when its
    // unit says so (QCN's fair_feedback was a number field).
    let c = abr_sim::catalogue::catalogue();
    let all = c.algorithms.iter().flat_map(|a| a.params.iter().map(move |p| (a.id, p)));
    let sources = c.source_params.iter().chain(c.ethernet_source_params).map(|p| ("source", p));
    let mut on_off = 0;
    for (owner, p) in all.chain(sources) {
        if p.integer && p.min == 0.0 && p.max == 1.0 {
            assert_eq!(p.unit, abr_sim::params::SWITCH_UNIT, "{owner}.{}", p.name);
            assert!(matches!(p.default, Some(d) if d == 0.0 || d == 1.0), "{owner}.{}", p.name);
            on_off += 1;
        }
    }
    assert!(on_off >= 7, "ERICA's and ERICA+'s three options and QCN's fair_feedback, found {on_off}");
}

#[test]
fn explicit_rate_algorithms_reach_maxmin_on_two_sources() {
    for alg in ["erica", "erica_plus", "debra", "series_d", "ut"] {
        assert_maxmin(with_algorithm("two-sources", alg, &["run.duration_ms=300"]), 0.05);
    }
    assert_maxmin(with_algorithm("two-sources", "eprca", &["run.duration_ms=300", GENTLE]), 0.05);
}

#[test]
fn explicit_rate_algorithms_reach_maxmin_on_the_two_bottleneck_core_edge_network() {
    // SW5→SW7 limits VC3…VC7; VC1 and VC2 take what VC3 and VC4 leave on SW1→SW2.
    for alg in ["erica", "erica_plus", "debra", "series_d", "ut"] {
        assert_maxmin(with_algorithm("core-edge", alg, &[]), 0.05);
    }
}

#[test]
fn eprca_reaches_maxmin_on_the_two_bottleneck_network_at_lan_distances() {
    assert_maxmin(lan(with_algorithm("core-edge", "eprca", &[GENTLE])), 0.05);
}

#[test]
fn erica_plus_holds_the_queue_near_target_delay_times_capacity() {
    let mean_queue = |t0_us: f64| {
        let s = with_algorithm(
            "two-sources",
            "erica_plus",
            &[&format!("nodes.SW1.params.target_delay_us={t0_us}"), "run.duration_ms=300"],
        );
        let link_cells = abr_sim::time::mbps_to_cells(s.links[2].rate_mbps);
        let (_, summary) = run(s);
        let q = summary.ports.iter().find(|p| p.id == "SW1->SW2").unwrap().mean_queue_cells.unwrap();
        (q, t0_us * 1e-6 * link_cells)
    };
    for t0 in [250.0, 500.0, 1000.0] {
        let (q, q0) = mean_queue(t0);
        // ERICA's load factor may rest anywhere in [1, 1 + δ]; with f(q) = 1/z that puts the
        // queue between Q0 and about 1.8·Q0.
        assert!((0.9 * q0..=1.8 * q0).contains(&q), "T0 = {t0} µs: queue {q:.0} cells, Q0 = {q0:.0}");
    }
}

/// GFC-1 under ERICA+ (the library file: T0 = 2 ms) with buffers that never overflow: on every
/// inter-switch link the queue rests where ERICA's max-min rule lets it, between Q0 = T0·C and
/// the queue at which f(q) = 1/(1 + δ), q_δ = Q0·(a(1 + δ) − 1)/(a − 1): 1.77·Q0 with
/// δ = 0.1, 1.15·Q0 with δ = 0.02, and the rates stay at their max-min shares. The study's
/// queues near 710 cells (Q0 at 150 Mbps) lie in either band; ours at δ = 0.1 in its upper
/// part (the file's 1000-cell buffer then loses cells at SW3->SW4, as its lesson says).
#[test]
fn erica_plus_holds_gfc1s_queues_between_target_and_the_one_plus_delta_bound() {
    for delta in [0.1, 0.02] {
        let mut doc = library_json("gfc1");
        for o in ["nodes.*.buffer_cells=100000".to_string(), format!("nodes.*.params.delta={delta}")] {
            apply_override(&mut doc, &o).unwrap();
        }
        let s = from_value(doc).unwrap();
        let a = 1.15; // gain_over, the default the file keeps
        let t0_s = 2e-3;
        let links: Vec<(String, f64)> = s
            .links
            .iter()
            .filter(|l| l.from.starts_with("SW") && l.to.starts_with("SW"))
            .map(|l| (format!("{}->{}", l.from, l.to), abr_sim::time::mbps_to_cells(l.rate_mbps)))
            .collect();
        assert_eq!(links.len(), 4);
        let (sim, summary) = run(s);
        let errors = rate_errors(&summary);
        assert!(errors.iter().all(|e| e.abs() <= 0.05), "δ = {delta}: {errors:.3?}");
        assert!(sim.net.conns.iter().all(|c| c.lost == 0), "δ = {delta}: no buffer overflows");
        for (port, cells_per_s) in links {
            let q0 = t0_s * cells_per_s;
            let q_delta = q0 * (a * (1.0 + delta) - 1.0) / (a - 1.0);
            let q = summary.ports.iter().find(|p| p.id == port).unwrap().mean_queue_cells.unwrap();
            assert!(
                (0.95 * q0..=q_delta).contains(&q),
                "δ = {delta}: {port} at {q:.0} cells, Q0 {q0:.0}, q_δ {q_delta:.0}"
            );
        }
    }
}

/// Series-D's bottleneck queue (SW1->SW2) from `from_ms` on: its mean is in the normal region
/// (Q2 = 300 to Q3 = 1000 cells) and 95 % of its samples within `near` (it may rest on the
/// region's lower edge, where region 2's increases and region 3's cuts meet). The samples.
fn assert_series_d_queue_normal(sim: &Simulation, from_ms: f64, near: std::ops::RangeInclusive<f64>) -> Vec<f64> {
    let col = sim.rec().meta.iter().position(|m| m.id == "queue:SW1->SW2").unwrap() + 1;
    let window: Vec<f64> = (0..sim.rec().history().row_count())
        .map(|i| sim.rec().history().row(i))
        .filter(|r| r[0] >= from_ms)
        .map(|r| r[col])
        .collect();
    let mean = window.iter().sum::<f64>() / window.len() as f64;
    assert!((300.0..=1000.0).contains(&mean), "mean queue {mean:.0}");
    let inside = window.iter().filter(|q| near.contains(q)).count();
    assert!(inside as f64 >= 0.95 * window.len() as f64, "{inside} of {} samples near the normal region", window.len());
    window
}

#[test]
fn series_d_holds_the_queue_in_its_normal_region_with_per_vc_queues() {
    let text = std::fs::read_to_string(crate::common::library_path("seriesd-lan")).unwrap();
    let s = abr_sim::scenario::parse(&text).unwrap();
    assert_eq!(s.nodes.iter().find(|n| n.id == "SW1").unwrap().scheduler, Some(abr_sim::scenario::Scheduler::PerVc));
    let (sim, summary) = run(s);
    let errors = rate_errors(&summary);
    assert!(errors.iter().all(|e| e.abs() <= 0.05), "{errors:.3?}");
    assert_series_d_queue_normal(&sim, 150.0, 240.0..=1000.0);
}

/// The study found Series-D insensitive to scale_MRF3: with 2 (seriesd-lan-staggered) or 0.5
/// (seriesd-lan-staggered-mrf3), once S4…S8 have left the five others settle at the same share,
/// C/5 of the 149.76 Mbps bottleneck, and the queue is held in the normal region either way.
#[test]
fn series_d_is_insensitive_to_scale_mrf3_in_the_staggered_lan_run() {
    let mut means = Vec::new();
    for id in ["seriesd-lan-staggered", "seriesd-lan-staggered-mrf3"] {
        let (sim, summary) = run(crate::common::load(id, &[]));
        let remaining: Vec<_> = summary.connections.iter().filter(|c| c.target_share_mbps.unwrap() > 0.0).collect();
        assert_eq!(remaining.len(), 5, "{id}");
        for c in remaining {
            let rate = c.mean_rate_mbps.unwrap();
            assert!((rate / (149.76 / 5.0) - 1.0).abs() <= 0.01, "{id}: {} at {rate:.3} Mbps", c.id);
        }
        let window = assert_series_d_queue_normal(&sim, 250.0, 240.0..=1000.0);
        means.push(window.iter().sum::<f64>() / window.len() as f64);
    }
    assert!(means[0] != means[1], "scale_mrf3 is read at all: the queues differ ({means:?})");
}

/// Over a WAN (12.5 ms of feedback delay) Series-D must hold on, not only settle: MACR once
/// fell 16 to 500 times within a round trip (a round ended on forward RM cells still sent at the
/// old rate, or on one VC alone), the queue emptied for hundreds of ms and the sources got 60 %
/// of their share from 0.6 s on. A round now waits for every VC that sent in the last one, at the
/// rate its last backward RM cell gave it.
#[test]
fn series_d_holds_on_over_a_wan_for_seconds() {
    let s = crate::common::load("seriesd-wan", &["run.duration_ms=3000", "run.steady_from_ms=1000"]);
    let (sim, summary) = run(s);
    let errors = rate_errors(&summary);
    assert!(errors.iter().all(|e| e.abs() <= 0.05), "{errors:.3?}");
    let bottleneck = summary.links.iter().map(|l| l.mean_utilization.unwrap()).fold(0.0, f64::max);
    assert!(bottleneck >= 0.95, "bottleneck utilisation {bottleneck:.3}");
    let window = assert_series_d_queue_normal(&sim, 1000.0, 200.0..=1000.0);
    assert!(window.iter().all(|&q| q > 0.0), "the queue emptied");
}

/// vsvd-1-end-to-end under Series-D (every switch, its defaults): five TCP sources a 275 ms
/// satellite hop away, a 45 Mbps bottleneck, a loop of about 560 ms. Rounds in which no VC was
/// slowed last a few cells, and cuts timed by them came every 2.5 ms once the queue reached
/// region 5: MACR fell to 1e-70 of TR and nothing was delivered in the steady window. A cut now
/// waits for a VC told to slow down to be heard at its new rate.
#[test]
fn series_d_does_not_cut_again_before_a_slowed_vc_is_heard() {
    let mut sets = Vec::new();
    for sw in ["SW1", "SW2", "SW3"] {
        sets.push(format!("nodes.{sw}.algorithm=\"series_d\""));
        sets.push(format!("nodes.{sw}.params={{}}"));
    }
    let refs: Vec<&str> = sets.iter().map(String::as_str).collect();
    let (sim, summary) = run(crate::common::load("vsvd-1-end-to-end", &refs));
    for c in &summary.connections {
        let (rate, share) = (c.mean_rate_mbps.unwrap(), c.fair_share_mbps.unwrap());
        assert!(rate >= 0.6 * share, "{}: {rate:.2} Mbps of its {share:.1}", c.id);
    }
    let bottleneck = summary.links.iter().map(|l| l.mean_utilization.unwrap()).fold(0.0, f64::max);
    assert!(bottleneck >= 0.7, "bottleneck utilisation {bottleneck:.3}");
    let col = sim.rec().meta.iter().position(|m| m.id == "algorithm:SW2->SW3:macr_pct_of_target").unwrap() + 1;
    let lowest = (0..sim.rec().history().row_count()).map(|i| sim.rec().history().row(i)[col]).fold(f64::MAX, f64::min);
    assert!(lowest > 0.5, "MACR fell to {lowest:.3e} % of TR");
}

#[test]
fn efci_is_fair_but_oscillates_on_one_bottleneck() {
    let (sim, summary) = run(with_algorithm("two-sources", "efci", &["run.duration_ms=300", GENTLE]));
    assert!(summary.jain_index.unwrap() >= 0.95);
    for e in rate_errors(&summary) {
        // Binary feedback overshoots and undershoots: the queue empties now and then, so the
        // mean sits a little below the share.
        assert!((-0.1..=0.02).contains(&e), "rate/share − 1 = {e:.3}");
    }
    let col = sim.rec().column(SeriesKind::Acr, 0).unwrap();
    let acr: Vec<f64> = (0..sim.rec().history().row_count())
        .map(|i| sim.rec().history().row(i))
        .filter(|r| r[0] >= 200.0)
        .map(|r| r[col])
        .collect();
    let mean = acr.iter().sum::<f64>() / acr.len() as f64;
    let sd = (acr.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / acr.len() as f64).sqrt();
    assert!(sd > 0.1 * mean, "EFCI's ACR oscillates (sd {sd:.1} of mean {mean:.1})");
}

#[test]
fn efci_beats_down_vcs_that_cross_two_congested_ports() {
    // VC3 and VC4 are marked at SW1→SW2 and at SW5→SW7: they get less than their share,
    // while the single-hop VC5…VC7 get more (the "beat-down" problem of binary feedback).
    let (_, summary) = run(lan(with_algorithm("core-edge", "efci", &[GENTLE])));
    let e = rate_errors(&summary);
    assert!(e[2] < -0.2 && e[3] < -0.2, "VC3, VC4: {:.3} {:.3}", e[2], e[3]);
    assert!(e[4] > 0.0 && e[5] > 0.0 && e[6] > 0.0, "VC5…VC7: {:.3?}", &e[4..]);
}

#[test]
fn edge_and_core_switches_with_different_algorithms_reach_maxmin() {
    for (edge, core) in [("erica", "ut"), ("debra", "erica_plus"), ("ut", "erica")] {
        let mut overrides: Vec<String> = Vec::new();
        for sw in ["SW1", "SW4", "SW6", "SW7"] {
            overrides.push(format!("nodes.{sw}.algorithm=\"{edge}\""));
        }
        for sw in ["SW2", "SW3", "SW5"] {
            overrides.push(format!("nodes.{sw}.algorithm=\"{core}\""));
        }
        let refs: Vec<&str> = overrides.iter().map(String::as_str).collect();
        let s = with_algorithm("core-edge", "erica", &refs);
        let summary = assert_maxmin(s, 0.05);
        assert!(summary.jain_index.unwrap() > 0.99, "{edge} at the edge, {core} in the core");
    }
}

#[test]
fn per_vc_round_robin_gives_a_slow_vc_its_rate_where_fifo_does_not() {
    // No feedback: S1 sends at 155.52 Mbps, S2 at 50 Mbps into one 155.52 Mbps port with a
    // buffer that never fills. Round-robin serves S2 whenever it has a cell (max-min: 50 and
    // 105.52); FIFO serves the cells as they come (in proportion: 37.8 and 117.7).
    let throughput = |scheduler: &str| {
        let s = with_algorithm(
            "two-sources",
            "none",
            &[
                &format!("nodes.SW1.scheduler=\"{scheduler}\""),
                "nodes.SW1.buffer_cells=1000000",
                "connections.C1.params={\"icr_mbps\": 155.52}",
                "connections.C2.params={\"icr_mbps\": 50, \"pcr_mbps\": 50}",
                "run.duration_ms=60",
            ],
        );
        let (sim, summary): (Simulation, Summary) = run(s);
        for i in 0..sim.net.conns.len() {
            assert!(sim.cells_conserved(i), "conservation");
        }
        (summary.connections[0].mean_rate_mbps.unwrap(), summary.connections[1].mean_rate_mbps.unwrap())
    };
    let (rr1, rr2) = throughput("per_vc");
    assert!((rr2 - 50.0).abs() < 0.5 && (rr1 - 105.52).abs() < 1.0, "round-robin: {rr1:.2}, {rr2:.2}");
    let (f1, f2) = throughput("fifo");
    let expect2 = 155.52 * 50.0 / 205.52;
    assert!((f2 - expect2).abs() < 1.0 && (f1 - (155.52 - expect2)).abs() < 1.0, "FIFO: {f1:.2}, {f2:.2}");
}

/// GFC-1 with ERICA+ (T0 = 2 ms): the study reports every queue converging near its target,
/// about 710 cells on the 150 Mbps links, without steady-state loss. Ours does not, and this
/// test pins why. ERICA+ keeps ERICA's max-min rule (option A, as in ATM Forum/98-0408's
/// ERICA+): while the load factor z ≤ 1 + δ a VC may keep MaxAllocPrevious, and MaxAllocCurrent
/// restarts from what was given, so the largest allocation cannot fall inside that band. With
/// U = 1, z = 1 / f(q), and z ≤ 1.1 holds for every queue up to f(q) = 1/1.1, i.e. q ≈ 1.77 Q0
/// ≈ 1,250 cells: any queue the start-up leaves between Q0 and that is never drained. On
/// SW3->SW4 the start-up leaves it at the 1,000-cell buffer, which then overflows now and then.
/// Without option A the same queue control settles every port at its target (second half).
#[test]
fn gfc1_erica_plus_queues_rest_in_the_max_alloc_band_above_the_target_and_at_it_without_option_a() {
    use crate::common::{load, run};
    let queue = |s: &abr_sim::metrics::Summary, port: &str| {
        let p = s.ports.iter().find(|p| p.id == port).unwrap();
        (p.mean_queue_cells.unwrap(), p.dropped_cells)
    };
    // Q0 = T0 · C: 2 ms of a 150 Mbps port, and of the 100 Mbps SW4->SW5.
    let q0 = |mbps: f64| 2e-3 * mbps * 1e6 / 424.0;
    let (_, with_a) = run(load("gfc1", &[]));
    let (mean, dropped) = queue(&with_a, "SW3->SW4");
    assert!(mean > 1.3 * q0(150.0) && dropped > 0, "pinned: SW3->SW4 at {mean:.0} cells, {dropped} dropped");
    let (_, without_a) = run(load("gfc1", &["nodes.*.params.max_alloc=0"]));
    for (port, mbps) in [("SW2->SW3", 150.0), ("SW3->SW4", 150.0), ("SW4->SW5", 100.0)] {
        let (mean, dropped) = queue(&without_a, port);
        assert!((mean / q0(mbps) - 1.0).abs() < 0.05, "{port}: {mean:.0} cells against Q0 = {:.0}", q0(mbps));
        assert_eq!(dropped, 0, "{port}");
    }
}

/// The Series-D study ran its generic fairness configuration with Series-D at every switch,
/// per-VC queues and unbounded buffers: so does `gfc-edge`, and each group reaches the share the
/// study published within 5 %, without a cell lost.
#[test]
fn gfc_edge_runs_series_d_with_per_vc_queues_as_the_study_did_and_reaches_its_published_shares() {
    use crate::common::{load, run};
    use abr_sim::scenario::{NodeKind, Scheduler};
    let s = load("gfc-edge", &[]);
    for n in s.nodes.iter().filter(|n| n.kind == NodeKind::Switch) {
        assert_eq!(n.algorithm.as_deref(), Some("series_d"), "{}", n.id);
        assert_eq!(n.scheduler, Some(Scheduler::PerVc), "{}", n.id);
        assert!(n.buffer_cells.unwrap_or(0.0) >= 1e6, "{}: an unbounded buffer", n.id);
    }
    let (_, summary) = run(s);
    for (group, published) in [("A", 4.5), ("B", 11.1), ("C", 38.8), ("D", 4.5), ("E", 11.1), ("F", 51.5)] {
        let rates: Vec<f64> =
            summary.connections.iter().filter(|c| c.id.starts_with(group)).map(|c| c.mean_rate_mbps.unwrap()).collect();
        let mean = rates.iter().sum::<f64>() / rates.len() as f64;
        assert!((mean / published - 1.0).abs() < 0.05, "group {group}: {mean:.2} Mbps, published {published}");
    }
    assert_eq!(summary.connections.iter().map(|c| c.lost_cells).sum::<u64>(), 0);
}

/// Case 2 of the Series-D study puts group A's sources 800 km from SW1: A hears SW1 8 ms later
/// (its first increase comes a round trip of the new access links after case 1's), yet it settles
/// at its share as the lesson says: within 5 % of it from 150 ms to the end, and within 1 % on
/// average over the steady window.
#[test]
fn gfc_edge_case2_far_group_a_hears_its_switch_8_ms_later_and_still_settles_at_its_share() {
    use crate::common::{load, run};
    use abr_sim::probes::SeriesKind;
    let first_increase_ms = |sim: &abr_sim::sim::Simulation, vc: usize| {
        let (rec, acr) = (sim.rec(), sim.rec().column(SeriesKind::Acr, vc).unwrap());
        let icr = rec.history().row(0)[acr];
        (0..rec.history().row_count()).map(|r| rec.history().row(r)).find(|row| row[acr] > icr).unwrap()[0]
    };
    let (near, _) = run(load("gfc-edge", &[]));
    let (far, summary) = run(load("gfc-edge-case2", &[]));
    let later = first_increase_ms(&far, 0) - first_increase_ms(&near, 0);
    assert!((6.0..=10.0).contains(&later), "A1's first increase {later} ms after case 1's");
    let rec = far.rec();
    for (vc, c) in far.net.conns.iter().enumerate().filter(|(_, c)| c.id.starts_with('A')) {
        let (acr, target) = (rec.column(SeriesKind::Acr, vc).unwrap(), rec.column(SeriesKind::Target, vc).unwrap());
        for row in (0..rec.history().row_count()).map(|r| rec.history().row(r)).filter(|row| row[0] >= 150.0) {
            let off = row[acr] / row[target] - 1.0;
            assert!(off.abs() <= 0.05, "{} at {} ms: {:+.1} % off its share", c.id, row[0], 100.0 * off);
        }
        let mean = summary.connections[vc].mean_rate_mbps.unwrap();
        assert!((mean / 4.5 - 1.0).abs() < 0.01, "{}: {mean:.3} Mbps", c.id);
    }
}

/// ERICA+ on both cases of the Series-D GFC (every switch, default parameters): the summary's
/// convergence time is late in case 2 (329 ms against 34 ms) but not because of far group A. A
/// settles a round trip of its new access links (2 × 800 km × 5 µs = 8 ms) after case 1's A. The
/// late reset is F's, which crosses none of the moved links: ERICA's max-min rule (option A) leaves
/// F, the largest allocation at SW3->SW4, its rate while z ≤ 1 + δ, so that port's queue creeps up
/// until one interval's z exceeds 1.1 and F gets CCR/z, a cut of more than 1 − 1/1.1 ≈ 9.1 %, at
/// the summary's 10 % line. Case 1 has such cuts too. The gfc-edge-case2 lesson says so.
#[test]
fn gfc_edge_case2_erica_plus_converges_late_on_a_max_alloc_cut_of_f_not_on_far_group_a() {
    let delta = 0.1; // ERICA's δ, the default
    let rows = |sim: &Simulation| {
        let h = sim.rec().history();
        (0..h.row_count()).map(|r| h.row(r).to_vec()).collect::<Vec<_>>()
    };
    let cols = |sim: &Simulation, group: char| -> Vec<(usize, usize)> {
        let rec = sim.rec();
        (sim.net.conns.iter().enumerate().filter(|(_, c)| c.id.starts_with(group)))
            .map(|(vc, _)| (rec.column(SeriesKind::Acr, vc).unwrap(), rec.column(SeriesKind::Target, vc).unwrap()))
            .collect()
    };
    let off = |row: &[f64], (acr, target): (usize, usize)| (row[acr] / row[target] - 1.0).abs() > 0.1;
    // The first sample from which every VC of `group` stays within 10 % of its share.
    let settled = |sim: &Simulation, group: char| {
        let (rows, cols) = (rows(sim), cols(sim, group));
        let last_off = rows.iter().rposition(|row| cols.iter().any(|&c| off(row, c))).unwrap();
        rows[last_off + 1][0]
    };
    let (near, near_summary) = run(with_algorithm("gfc-edge", "erica_plus", &[]));
    let (far, far_summary) = run(with_algorithm("gfc-edge-case2", "erica_plus", &[]));
    let later = settled(&far, 'A') - settled(&near, 'A');
    assert!((6.0..=10.0).contains(&later), "A settles {later} ms after case 1's A");
    let (t_near, t_far) = (near_summary.convergence_ms.unwrap(), far_summary.convergence_ms.unwrap());
    assert!(t_near < 50.0 && t_far > 300.0, "pinned: convergence {t_near} ms (case 1), {t_far} ms (case 2)");

    // The sample that last put a rate more than 10 % off: only F's are, each cut by CCR/z > 1 + δ.
    let rows_far = rows(&far);
    let at = rows_far.iter().position(|row| row[0] == t_far).unwrap() - 1;
    let (row, before) = (&rows_far[at], &rows_far[at - 1]);
    for group in ['A', 'B', 'C', 'D', 'E'] {
        assert!(cols(&far, group).iter().all(|&c| !off(row, c)), "{group} is off at {} ms", row[0]);
    }
    for (acr, target) in cols(&far, 'F') {
        assert!(off(row, (acr, target)) && row[acr] < row[target], "F below its share at {} ms", row[0]);
        assert!(before[acr] / row[acr] > 1.0 + delta, "F cut {:.2} → {:.2} Mbps", before[acr], row[acr]);
    }
    // Case 1 has the same cuts, after start-up, that stay (just) inside 10 % in its samples.
    let f1 = cols(&near, 'F')[0].0;
    let cuts = rows(&near).windows(2).filter(|w| w[0][0] >= 100.0 && w[0][f1] / w[1][f1] > 1.0 + delta).count();
    assert!(cuts >= 1, "no cut of F by more than 1 − 1/(1 + δ) in case 1");
}
