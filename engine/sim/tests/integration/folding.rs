//! Folded hops give the very run that explicit hops give: the same cells reach their
//! destinations at the same times, and the same samples and summary. Three hops are folded: a
//! FIFO port into a destination delivers its data cells without an event of their own, a
//! source alone on its access link makes each send of a data cell when the cell reaches the
//! first switch, in one event instead of two (`Conn::defer`), and a FIFO port between two
//! switches takes the data cells bound for a folded port there to that switch without an event
//! (`Port::lazy`): their arrivals are made when something reads the switch.

use abr_sim::metrics::summarize;
use abr_sim::scenario;
use abr_sim::sim::Simulation;

/// S1 → D1 plain ABR (deferred sends, at PCR = the link rate; folded egress: data cells without
/// events, RM cells with), S2 → D2 TCP over ABR (sends not deferred; folded egress, every cell
/// keeps its event: it may be acknowledged), S3 → D3 through a per-VC switch (deferred sends; its
/// egress port is scheduled, so not folded, nor is its hop into SW2), S4 → D1 on/off (deferred),
/// S5 → D2 and S5 → D1 (not deferred: two connections share S5's link); all share SW1 → SW2,
/// which is overloaded so that queues form; C3 starts late and stops early, so cells arrive
/// around samples at changing times. S6 → SW4 → SW2 → D1 reaches SW2 by a second lazy port, so
/// that SW2 → D1 takes the arrivals of two in time order; SW2's target utilisation changes during the run
/// (a change reads the switch).
fn mixed() -> scenario::Scenario {
    let node = |id: &str, kind: &str| serde_json::json!({ "id": id, "kind": kind, "x": 0, "y": 0 });
    let link = |id: &str, from: &str, to: &str, km: f64| serde_json::json!({ "id": id, "from": from, "to": to, "rate_mbps": 149.76, "distance_km": km });
    let mut sw3 = node("SW3", "switch");
    sw3["scheduler"] = "per_vc".into();
    // Short averaging intervals: an arrival made late would change the feedback SW2 writes.
    let mut sw2 = node("SW2", "switch");
    sw2["params"] = serde_json::json!({ "interval_cells": 4 });
    let doc = serde_json::json!({
        "version": 1,
        "id": "folding",
        "name": "Folded and explicit hops",
        "run": { "duration_ms": 40, "sample_interval_us": 100, "seed": 3 },
        "nodes": [
            node("S1", "source"), node("S2", "source"), node("S3", "source"), node("S4", "source"),
            node("S5", "source"), node("S6", "source"),
            node("SW1", "switch"), sw2, sw3, node("SW4", "switch"),
            node("D1", "destination"), node("D2", "destination"), node("D3", "destination"),
        ],
        "links": [
            link("L1", "S1", "SW1", 1.0), link("L2", "S2", "SW1", 3.0), link("L3", "S3", "SW1", 0.5),
            link("L4", "SW1", "SW2", 100.0), link("L5", "SW2", "D1", 2.0), link("L6", "SW2", "D2", 0.2),
            link("L7", "SW2", "SW3", 1.0), link("L8", "SW3", "D3", 7.0), link("L9", "S4", "SW1", 4.0),
            link("L10", "S5", "SW1", 0.7), link("L11", "S6", "SW4", 1.3), link("L12", "SW4", "SW2", 37.1),
        ],
        "connections": [
            { "id": "C1", "from": "S1", "to": "D1" },
            { "id": "C2", "from": "S2", "to": "D2",
              "tcp": { "mss_bytes": 1460, "window_bytes": 200000, "timer_granularity_ms": 10, "service": "abr" } },
            { "id": "C3", "from": "S3", "to": "D3", "start_ms": 7.3, "stop_ms": 31.1 },
            { "id": "C4", "from": "S4", "to": "D1", "behavior": { "kind": "on_off", "on_ms": 2.7, "off_ms": 3.1 } },
            { "id": "C5", "from": "S5", "to": "D2", "start_ms": 3.0 },
            { "id": "C6", "from": "S5", "to": "D1", "start_ms": 1.0 },
            { "id": "C7", "from": "S6", "to": "D1", "start_ms": 0.4 },
        ],
        "changes": [{ "at_ms": 17.33, "node": "SW2", "param": "target_utilization", "value": 0.7 }],
    });
    scenario::from_value(doc).unwrap_or_else(|p| panic!("the test scenario is invalid: {p:?}"))
}

#[derive(Clone, Copy, PartialEq)]
enum Hops {
    Folded,
    /// Folded egress ports, deferred sends, every hop between switches with its events.
    SwitchHopsUnfolded,
    /// Folded egress ports alone.
    SendsUndeferred,
    Explicit,
}

fn play(hops: Hops) -> (Vec<(u64, u32)>, String, u64, Simulation) {
    let mut sim = Simulation::new(mixed());
    match hops {
        Hops::Folded => {}
        Hops::SwitchHopsUnfolded => sim.unfold_switch_hops(),
        Hops::SendsUndeferred => {
            sim.unfold_switch_hops();
            sim.undefer_sends();
        }
        Hops::Explicit => sim.unfold_hops(),
    }
    sim.record_deliveries();
    // In slices, as the lab plays: a reader between slices sees every cell that has arrived.
    let mut seen = Vec::new();
    while !sim.done() {
        sim.advance(sim.now() + 333_333_333, u64::MAX);
        seen.push(sim.net.conns.iter().map(|c| c.delivered_all).collect::<Vec<_>>());
    }
    let mut deliveries = sim.deliveries().to_vec();
    // Folded cells are delivered in batches, port by port: compare in time order.
    deliveries.sort_unstable();
    let summary = summarize(&sim);
    let text = format!("{} {:?}", summary.digest, seen);
    (deliveries, text, summary.events, sim)
}

#[test]
fn a_folded_hop_and_an_explicit_one_deliver_the_same_cells_at_the_same_times() {
    let (folded, folded_run, folded_events, sim) = play(Hops::Folded);
    let (switched, switched_run, switched_events, _) = play(Hops::SwitchHopsUnfolded);
    let (undeferred, undeferred_run, undeferred_events, _) = play(Hops::SendsUndeferred);
    let (explicit, explicit_run, explicit_events, _) = play(Hops::Explicit);
    // The network exercises every kind of port and source, and every connection delivers.
    assert!(sim.net.ports.iter().any(|p| p.id == "SW2->D1"));
    let n = sim.net.conns.len();
    for c in 0..n as u32 {
        assert!(explicit.iter().filter(|d| d.1 == c).count() > 100, "connection {c} delivers");
    }
    let runs = [
        ("folded", &folded, &folded_run),
        ("switch hops unfolded", &switched, &switched_run),
        ("undeferred", &undeferred, &undeferred_run),
    ];
    for (run, deliveries, text) in runs {
        assert_eq!(deliveries.len(), explicit.len(), "{run}");
        if let Some(i) = (0..deliveries.len()).find(|&i| deliveries[i] != explicit[i]) {
            panic!("delivery {i}: {run} {:?}, explicit {:?}", deliveries[i], explicit[i]);
        }
        assert_eq!(text, &explicit_run, "{run}: the same samples, and the same counts between slices");
    }
    // Each fold saves about an event per data cell it covers: the egress fold those of C1 and
    // C4, C5, C6 and C7 (plain ABR into D1 and D2; not C3's, whose last port is scheduled),
    // deferred sends those of C1, C3, C4 and C7 (alone on their links; not TCP's C2, not C5
    // and C6, which share S5's link). A deferred send is made early
    // (with its event) when something reads the source first: a sample every 100 µs reads the
    // sends of the access hop's last D (cell time + delay) before it, so a fraction D/100 µs.
    // The switch hops save an event for each data cell of C1, C4, C5, C6 (SW1 → SW2) and C7
    // (SW4 → SW2) that reaches SW2: all but their RM cells (one in 32), those lost at SW1 and
    // those still on the way at the end.
    let sent = |c: usize| sim.net.conns[c].sent as f64;
    let reached = |c: usize| (sim.net.conns[c].sent - sim.net.conns[c].lost) as f64;
    let saved_by_switch_hops = (switched_events - folded_events) as f64;
    let saved_by_defer = (undeferred_events - switched_events) as f64;
    let saved_by_egress = (explicit_events - undeferred_events) as f64;
    let hop_us = |km: f64| 53.0 * 8.0 / 149.76 + 5.0 * km;
    let deferrable = sent(0) * (1.0 - hop_us(1.0) / 100.0)
        + sent(2) * (1.0 - hop_us(0.5) / 100.0)
        + sent(3) * (1.0 - hop_us(4.0) / 100.0)
        + sent(6) * (1.0 - hop_us(1.3) / 100.0);
    let deferred = sent(0) + sent(2) + sent(3) + sent(6);
    let egress = sent(0) + sent(3) + sent(4) + sent(5) + sent(6);
    let switch_hops = reached(0) + reached(3) + reached(4) + reached(5) + reached(6);
    assert!(
        saved_by_defer > 0.9 * deferrable && saved_by_defer <= deferred,
        "deferred sends save {saved_by_defer} events of {deferred} cells, {deferrable:.0} expected"
    );
    assert!(
        saved_by_egress > 0.9 * egress && saved_by_egress <= egress,
        "the egress fold saves {saved_by_egress} of {egress}"
    );
    assert!(
        saved_by_switch_hops > 0.9 * switch_hops && saved_by_switch_hops <= switch_hops,
        "the switch hops save {saved_by_switch_hops} of {switch_hops}"
    );
    for c in 0..n {
        assert!(sim.cells_conserved(c));
    }
}
