//! Folded hops (a FIFO port into a destination delivers its data cells without an event of
//! their own) give the very run that explicit hops give: the same cells reach their
//! destinations at the same times, and the same samples and summary.

use abr_sim::metrics::summarize;
use abr_sim::scenario;
use abr_sim::sim::Simulation;

/// S1 → D1 plain ABR (folded egress: data cells without events, RM cells with), S2 → D2 TCP over
/// ABR (folded egress, every cell keeps its event: it may be acknowledged), S3 → D3 through a
/// per-VC switch (its egress port is scheduled, so not folded); all share SW1 → SW2, which is
/// overloaded so that queues form; C3 starts late and stops early, so cells arrive around
/// samples at changing times.
fn mixed() -> scenario::Scenario {
    let node = |id: &str, kind: &str| serde_json::json!({ "id": id, "kind": kind, "x": 0, "y": 0 });
    let link = |id: &str, from: &str, to: &str, km: f64| serde_json::json!({ "id": id, "from": from, "to": to, "rate_mbps": 149.76, "distance_km": km });
    let mut sw3 = node("SW3", "switch");
    sw3["scheduler"] = "per_vc".into();
    let doc = serde_json::json!({
        "version": 1,
        "id": "folding",
        "name": "Folded and explicit hops",
        "run": { "duration_ms": 40, "sample_interval_us": 100, "seed": 3 },
        "nodes": [
            node("S1", "source"), node("S2", "source"), node("S3", "source"),
            node("SW1", "switch"), node("SW2", "switch"), sw3,
            node("D1", "destination"), node("D2", "destination"), node("D3", "destination"),
        ],
        "links": [
            link("L1", "S1", "SW1", 1.0), link("L2", "S2", "SW1", 3.0), link("L3", "S3", "SW1", 0.5),
            link("L4", "SW1", "SW2", 100.0), link("L5", "SW2", "D1", 2.0), link("L6", "SW2", "D2", 0.2),
            link("L7", "SW2", "SW3", 1.0), link("L8", "SW3", "D3", 7.0),
        ],
        "connections": [
            { "id": "C1", "from": "S1", "to": "D1" },
            { "id": "C2", "from": "S2", "to": "D2",
              "tcp": { "mss_bytes": 1460, "window_bytes": 200000, "timer_granularity_ms": 10, "service": "abr" } },
            { "id": "C3", "from": "S3", "to": "D3", "start_ms": 7.3, "stop_ms": 31.1 },
        ],
    });
    scenario::from_value(doc).unwrap_or_else(|p| panic!("the test scenario is invalid: {p:?}"))
}

fn play(folded: bool) -> (Vec<(u64, u32)>, String, u64, Simulation) {
    let mut sim = Simulation::new(mixed());
    if !folded {
        sim.unfold_hops();
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
    let (folded, folded_run, folded_events, sim) = play(true);
    let (explicit, explicit_run, explicit_events, _) = play(false);
    // The network exercises both kinds of port, and every connection delivers.
    assert!(sim.net.ports.iter().any(|p| p.id == "SW2->D1"));
    for c in 0..3u32 {
        assert!(explicit.iter().filter(|d| d.1 == c).count() > 100, "connection {c} delivers");
    }
    assert_eq!(folded.len(), explicit.len());
    if let Some(i) = (0..folded.len()).find(|&i| folded[i] != explicit[i]) {
        panic!("delivery {i}: folded {:?}, explicit {:?}", folded[i], explicit[i]);
    }
    assert_eq!(folded_run, explicit_run, "the same samples, and the same counts between slices");
    assert!(folded_events < explicit_events, "folding saves events: {folded_events} vs {explicit_events}");
    for c in 0..3 {
        assert!(sim.cells_conserved(c));
    }
}
