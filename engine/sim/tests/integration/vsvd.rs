//! VS/VD: a switch that ends the previous control loop and starts its own bounds the
//! bottleneck's queue by the short loop before it; end-to-end control lets it grow with the
//! whole path's delay (the argument of the VS/VD studies).

use crate::common::{load, run};
use abr_sim::metrics::{PortSummary, Summary};
use abr_sim::probes::SeriesKind;
use abr_sim::scenario::{About, Link, NodeKind, Scenario};

/// The study's bound, from the file: a VS/VD switch's queue for the bottleneck can grow only
/// while the loop before it still sends at its old rate, one round trip of that loop, by at most
/// the difference between the link into the switch and the bottleneck. Returns the bottleneck
/// port and the bound (cells).
fn previous_loop_bound(s: &Scenario) -> (String, f64) {
    let switch = |id: &str| s.nodes.iter().any(|n| n.id == id && n.kind == NodeKind::Switch);
    let trunk: Vec<&Link> = s.links.iter().filter(|l| switch(&l.from) && switch(&l.to)).collect();
    let bottleneck = trunk.iter().min_by(|a, b| a.rate_mbps.total_cmp(&b.rate_mbps)).unwrap();
    let previous = trunk.iter().find(|l| l.to == bottleneck.from).unwrap();
    let round_trip_s = 2.0 * previous.delay_us() * 1e-6;
    let bound = round_trip_s * (previous.rate_mbps - bottleneck.rate_mbps) * 1e6 / 424.0;
    (format!("{}->{}", bottleneck.from, bottleneck.to), bound)
}

fn port<'a>(s: &'a Summary, id: &str) -> &'a PortSummary {
    s.ports.iter().find(|p| p.id == id).unwrap()
}

/// The study's conclusion (issue 15 item 3): with every switch a virtual source/destination the
/// bottleneck switch holds at most the previous loop's round trip times the bandwidth
/// difference (2,607 cells for a 10 ms loop from 155.52 into 45 Mb/s, 5,213 for vsvd-3's 20 ms),
/// counting its virtual sources' per-VC queues with the port's queue, as the study does; end to
/// end the same switch holds far more, since its loop is the whole satellite path.
#[test]
fn vsvd_bounds_the_bottleneck_switch_by_the_previous_loop_and_end_to_end_does_not() {
    for id in ["vsvd-1", "vsvd-2", "vsvd-3"] {
        let scenario = load(id, &[]);
        let (bottleneck, bound) = previous_loop_bound(&scenario);
        let (_, with) = run(scenario);
        let (_, without) = run(load(&format!("{id}-end-to-end"), &[]));
        let held = port(&with, &bottleneck).max_buffer_cells.expect("virtual sources feed the bottleneck");
        assert!((held as f64) < bound, "{id}: {bottleneck} held {held} cells with VS/VD, bound {bound:.0}");
        // A model without the short loop breaks the bound many times over: the test can fail.
        let end_to_end = port(&without, &bottleneck).max_queue_cells;
        assert!(end_to_end as f64 > 5.0 * bound, "{id}: end to end {end_to_end}, bound {bound:.0}");
        assert!(!with.virtual_sources.is_empty() && without.virtual_sources.is_empty());
    }
}

/// Where ours meets configuration 1's published figures and where it does not (the files'
/// `reference`, Kalyanaraman's dissertation ch. 9). With VS/VD the queue moves to switch 1, the
/// end of the satellite loop: after an idle gap longer than ADTF (0.5 s, shorter than the
/// 0.55 s round trip) the five TCP sources restart at ICR, 5 × 10 = 50 Mb/s against the 45 the
/// next loop carries, and only hear of it one satellite round trip later. That is the study's
/// bound applied to switch 1: (N·ICR − bottleneck) × 550 ms = 6,486 cells; ours 6,978, the
/// study's 7,100. Switch 2, the bottleneck, holds ~270 cells where the study reports 4,700: our
/// VD turns the previous loop's RM cells around with ER ≤ the next loop's ACR and allocation, so
/// switch 1's virtual sources never run much faster than switch 2 drains, and with five sources
/// restarting at ICR the difference is 5 Mb/s, not the 110 of the bound (a 10 ms loop holds
/// ~120 cells of it). The study's 4,700 is above its own bound for a 10 ms loop (2,607 cells);
/// no setting we tried (ICR up to PCR, longer averaging intervals, ERICA's options A and E off)
/// brings switch 2 above 1,600.
#[test]
fn vsvd_config_1_moves_the_queue_to_switch_1_as_published_but_keeps_switch_2_far_below_it() {
    let scenario = load("vsvd-1", &[]);
    let satellite = scenario.links.iter().find(|l| l.from == "S1").unwrap();
    let n = scenario.connections.len() as f64;
    let icr = scenario.defaults.source["icr_mbps"];
    let predicted = (n * icr - 45.0) * 1e6 * 2.0 * satellite.delay_us() * 1e-6 / 424.0;
    let (_, with) = run(scenario);
    let (_, without) = run(load("vsvd-1-end-to-end", &[]));
    let switch_1 = port(&with, "SW1->SW2").max_buffer_cells.unwrap() as f64;
    assert!((switch_1 / predicted - 1.0).abs() < 0.15, "switch 1 held {switch_1}, predicted {predicted:.0}");
    assert!(switch_1 > port(&without, "SW1->SW2").max_queue_cells as f64, "the queue moves to switch 1");

    let row =
        |s: &Summary, port: &str| s.reference.iter().find(|r| r.about == About::Port(port.into())).cloned().unwrap();
    // Agreeing (within each figure's tolerance): switch 1 with and without VS/VD.
    for r in [row(&with, "SW1->SW2"), row(&without, "SW1->SW2")] {
        assert_eq!(r.within_tolerance, Some(true), "{r:?}");
    }
    // Disagreeing, pinned: switch 2 with VS/VD is an order of magnitude below the published 4,700.
    let r = row(&with, "SW2->SW3");
    assert!(r.ours.unwrap() < 0.1 * r.published, "{r:?}");
    // End to end, switch 2's peak is the same order as the published 61,615 (ours ~41,000): it
    // is one TCP burst against a 560 ms loop, and moves with the phase of the bursts (ICR from 5
    // to 25 Mb/s gives 32,000 to 69,000 cells here).
    let r = row(&without, "SW2->SW3");
    assert!((0.5..2.0).contains(&(r.ours.unwrap() / r.published)), "{r:?}");
    // The sources hold their whole TCP window less what is in flight (the 34,000 × 2^8-byte
    // windows are fully open by 15 s): ~170,000 cells, where the study reports 73,000 end to
    // end; windows of 4 MB would give ~75,000 here and leave the switches' queues unchanged.
    let tcp = &load("vsvd-1", &[]).connections[0].tcp.clone().unwrap();
    let window_cells = (tcp.window_bytes / tcp.mss_bytes as f64).floor() * 192.0;
    for s in [&with, &without] {
        let held = s.connections.iter().map(|c| c.max_source_queue_cells.unwrap()).max().unwrap() as f64;
        assert!(held > 0.9 * window_cells && held < window_cells, "sources held {held} of {window_cells}");
    }
}

#[test]
fn vsvd_keeps_tcp_goodput_at_the_bottleneck_bound() {
    let (sim, s) = run(load("vsvd-1", &[]));
    // 45 Mb/s of cells, 31 of 32 carrying data, 192 cells per 9140-byte segment.
    let bound = 45.0 * 31.0 / 32.0 * 9140.0 * 8.0 / (192.0 * 424.0);
    let total: f64 = s.connections.iter().map(|c| c.goodput_mbps.unwrap()).sum();
    assert!(total > 0.95 * bound, "goodput {total:.1} of {bound:.1}");
    assert!(
        s.jain_index.unwrap_or(1.0) > 0.99
            || s.connections.windows(2).all(|w| (w[0].goodput_mbps.unwrap() - w[1].goodput_mbps.unwrap()).abs() < 0.5)
    );
    for i in 0..sim.net.conns.len() {
        assert!(sim.cells_conserved(i), "cells in VS queues are counted");
    }
}

#[test]
fn abr_vpcs_keep_the_core_queue_short_and_the_paths_fair_where_ubr_vpcs_do_not() {
    // Windows of twice each connection's share × RTT (93,600 bytes), not the library's link
    // bandwidth × RTT: this is the aggregation without edge loss, judged over a short run.
    let windows: Vec<String> = (1..=20).map(|c| format!("connections.C{c}.tcp.window_bytes=93600")).collect();
    let mut o = vec!["run.duration_ms=1500", "run.steady_from_ms=750"];
    o.extend(windows.iter().map(String::as_str));
    let (sim, abr) = run(load("vpc-abr", &o));
    let (_, ubr) = run(load("vpc-ubr", &o));
    let core = |s: &abr_sim::metrics::Summary| s.ports.iter().find(|p| p.id == "C1->C2").unwrap().max_queue_cells;
    assert_eq!(core(&ubr), 10_000, "UBR VPCs at line rate fill the core FIFO");
    assert!(core(&abr) < 2_000, "UT holds the core queue down: {}", core(&abr));
    let jain_among_vpcs = |s: &abr_sim::metrics::Summary| {
        abr_sim::metrics::jain(&s.virtual_paths.iter().map(|v| v.goodput_mbps.unwrap()).collect::<Vec<_>>()).unwrap()
    };
    assert!(jain_among_vpcs(&abr) > 0.99, "ABR: {}", jain_among_vpcs(&abr));
    assert!(jain_among_vpcs(&abr) > jain_among_vpcs(&ubr));
    // ABR VPCs fill UT's 90 % target: each VPC sends its own RM cell every 32 cells, and a
    // 1536-byte segment takes ceil((1536 + 40 + 8 + 8) / 48) = 34 cells.
    let bound = 0.9 * 149.76 * 31.0 / 32.0 * 1536.0 * 8.0 / (34.0 * 424.0);
    let total: f64 = abr.connections.iter().map(|c| c.goodput_mbps.unwrap()).sum();
    assert!((total / bound - 1.0).abs() < 0.03, "ABR VPC goodput {total:.1} vs {bound:.1}");
    // The queue moved to the edges, where each VPC's per-VC queues wait.
    assert!(abr.virtual_paths.iter().all(|v| v.max_queue_cells > 1_000));
    // Each ABR VPC's ACR settles at its share: UT's 90 % of the core link over five VPCs (its
    // members' max-min shares together), and the run converges on that; UBR VPCs have no ACR.
    let (acr, target) =
        (sim.rec().column(SeriesKind::VpAcr, 0).unwrap(), sim.rec().column(SeriesKind::VpTarget, 0).unwrap());
    let last = sim.rec().history().row(sim.rec().history().row_count() - 1);
    for k in 0..5 {
        assert!((last[target + k] - 0.9 * 149.76 / 5.0).abs() < 0.01, "VP{} share {}", k + 1, last[target + k]);
        assert!((last[acr + k] / last[target + k] - 1.0).abs() < 0.05, "VP{} ACR {}", k + 1, last[acr + k]);
    }
    assert!(abr.convergence_ms.is_some() && ubr.convergence_ms.is_none());
    for i in 0..sim.net.conns.len() {
        assert!(sim.cells_conserved(i), "cells waiting at the edges are counted");
    }
}

#[test]
fn a_virtual_path_must_share_its_switches() {
    let mut doc = crate::common::library_json("vpc-abr");
    abr_sim::scenario::apply_override(&mut doc, "virtual_paths.VP1.to=\"E2\"").unwrap();
    let p = abr_sim::scenario::from_value(doc).unwrap_err();
    assert!(
        p.iter().any(|p| p.path.starts_with("virtual_paths[0].connections") && p.rule.contains("must cross switch")),
        "{p:?}"
    );
}

/// A virtual destination acts as a TM 4.0 destination for the loop it ends: EFCI marked in that
/// loop comes back as CI to the loop's sources, and the virtual source starts the next loop with
/// EFCI = 0, so the next loop does not answer for congestion it never saw.
#[test]
fn a_virtual_destination_returns_its_loops_efci_and_the_next_loop_starts_clean() {
    // two-sources: S1, S2 → SW1 → SW2 → D1, D2; SW1 → SW2 is the congested EFCI port, in the
    // loop that SW2 (VS/VD) ends. SW2's own ports carry one VC each, never congested.
    let set = [
        "nodes.SW1.algorithm=\"efci\"",
        "nodes.SW2.algorithm=\"efci\"",
        "nodes.SW2.vsvd=true",
        "defaults.source.rif=0.0625",
        "run.duration_ms=300",
        "run.steady_from_ms=150",
    ];
    let (sim, s) = run(load("two-sources", &set));
    assert_eq!(sim.net.vs.len(), 2);
    for vs in &sim.net.vs {
        assert!(vs.src.acr > 0.99 * vs.src.cfg.pcr, "the second loop saw no congestion: ACR {:.0}", vs.src.acr);
    }
    // The first loop's sources hear of SW1's queue: EFCI keeps them near their share.
    for c in &s.connections {
        let (rate, share) = (c.mean_rate_mbps.unwrap(), c.target_share_mbps.unwrap());
        assert!((rate / share - 1.0).abs() < 0.25, "{}: {rate:.1} Mb/s, share {share:.1}", c.id);
    }
}

/// A virtual source's per-VC queues live in the switch's buffer: a source that ignores its
/// feedback fills them only up to the output port's buffer, the rest is lost and counted.
#[test]
fn virtual_source_queues_share_the_output_ports_buffer() {
    let set = [
        "nodes.SW1.vsvd=true",
        "nodes.SW1.buffer_cells=300",
        "connections.C1.behavior={\"kind\":\"dishonest\",\"from_ms\":0,\"factor\":3,\"greedy_ms\":100,\"normal_ms\":0}",
        "run.duration_ms=100",
    ];
    let (sim, s) = run(load("two-sources", &set));
    let max_vs: u64 = sim.net.vs.iter().map(|v| v.max_queue).max().unwrap();
    assert!(max_vs <= 150, "a VS queue holds at most its half of the 300-cell buffer: {max_vs}");
    let lost = |id: &str| s.connections.iter().find(|c| c.id == id).unwrap().lost_cells;
    assert!(lost("C1") > 0, "the dishonest source loses what does not fit");
    assert_eq!(lost("C2"), 0, "the honest one keeps its room");
    for i in 0..sim.net.conns.len() {
        assert!(sim.cells_conserved(i), "{}", sim.net.conns[i].id);
    }
}

/// A connection that stops while cells wait at a virtual source: the VS still sends them on,
/// and the room they took in the buffer comes back.
#[test]
fn a_virtual_source_drains_what_its_connection_sent_before_stopping() {
    let set = ["nodes.SW1.vsvd=true", "nodes.SW1.buffer_cells=300", "connections.C2.stop_ms=50", "run.duration_ms=150"];
    let (sim, s) = run(load("two-sources", &set));
    let c2_vs = sim.net.vs.iter().find(|v| sim.net.conns[v.conn].id == "C2").unwrap();
    assert!(c2_vs.queue.is_empty(), "C2's VS queue drained");
    let c2 = s.connections.iter().find(|c| c.id == "C2").unwrap();
    assert_eq!(c2.delivered_cells, c2.sent_cells, "all C2 sent arrived");
    let c1 = s.connections.iter().find(|c| c.id == "C1").unwrap();
    assert_eq!(c1.lost_cells, 0);
    for i in 0..sim.net.conns.len() {
        assert!(sim.cells_conserved(i), "{}", sim.net.conns[i].id);
    }
}
