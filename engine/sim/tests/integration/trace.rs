//! The RM-cell trace: recording never changes a run, and what it records shows the feedback
//! rule of ABR (a switch may only lower the ER a backward RM cell carries).

use crate::common::{all_runs, cut as scenario, library_json, ATM_RUNS};
use abr_sim::scenario::{self, Scenario};
use abr_sim::sim::Simulation;
use abr_sim::trace::{Direction, RmRecord};
use std::collections::{BTreeMap, BTreeSet};

/// Runs with the trace on (room for every event) and returns the run and its records.
fn traced(s: Scenario) -> (Simulation, Vec<RmRecord>) {
    let mut sim = Simulation::new(s);
    sim.set_rm_trace(usize::MAX);
    let mut records = Vec::new();
    while !sim.done() {
        sim.advance(sim.end(), 100_000);
        let events = sim.rm_trace().take();
        records.extend(events.iter().map(|e| RmRecord::new(e, &sim.net)));
    }
    assert_eq!(sim.rm_trace().dropped(), 0);
    (sim, records)
}

#[test]
fn recording_the_rm_trace_leaves_the_digest_unchanged() {
    for (name, ms, alg) in all_runs() {
        let mut plain = Simulation::new(scenario(name, ms, alg));
        plain.run_to_end();
        let (on, records) = traced(scenario(name, ms, alg));
        assert!(!records.is_empty(), "{name}: RM cells were recorded");
        assert_eq!(on.events(), plain.events(), "{name} {alg:?}: events");
        assert_eq!(on.rec().digest(), plain.rec().digest(), "{name} {alg:?}: digest");
        // A small buffer that overflows all the time changes nothing either.
        let mut tiny = Simulation::new(scenario(name, ms, alg));
        tiny.set_rm_trace(3);
        tiny.run_to_end();
        assert!(tiny.rm_trace().dropped() > 0 && tiny.rm_trace().len() == 3, "{name}: the buffer keeps 3");
        assert_eq!(tiny.rec().digest(), plain.rec().digest(), "{name} {alg:?}: digest with a full buffer");
    }
}

#[test]
fn along_its_way_back_a_backward_rm_cell_er_never_rises() {
    for &(name, ms, alg) in ATM_RUNS {
        let (sim, records) = traced(scenario(name, ms, alg));
        // A virtual path's RM cells travel under a member's connection, beside that member's
        // own: `vp` tells their loop apart.
        let loop_of = |r: &RmRecord| if r.vp.is_empty() { r.connection.clone() } else { format!("vp {}", r.vp) };
        let path_index = |conn: &str, node: &str| -> usize {
            let c = sim.net.conns.iter().position(|c| c.id == conn).unwrap();
            sim.net.paths[c].iter().position(|&n| sim.net.node_ids[n] == node).unwrap()
        };
        // Each loop ends where its cells are turned around: a cell at path position i belongs
        // to the loop of the first turnaround node beyond i.
        let mut ends: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
        for r in records.iter().filter(|r| r.direction == Direction::Turnaround) {
            ends.entry(loop_of(r)).or_default().insert(path_index(&r.connection, &r.node));
        }
        // (loop, loop end, rm_seq) → ER as the cell left its last node.
        let mut last: BTreeMap<(String, usize, u32), f64> = BTreeMap::new();
        let (mut backward, mut chained) = (0, 0);
        for r in &records {
            let i = path_index(&r.connection, &r.node);
            let (er_in, er_out) = (r.er_in_mbps.unwrap(), r.er_out_mbps.unwrap());
            let end = match r.direction {
                Direction::Turnaround => i,
                Direction::Backward | Direction::Received => {
                    *ends[&loop_of(r)].range(i + 1..).next().expect("a loop end beyond")
                }
                _ => continue,
            };
            let key = (loop_of(r), end, r.rm_seq);
            if r.direction == Direction::Backward {
                backward += 1;
                assert!(er_out <= er_in, "{name} {alg:?}: ER rose at {}: {r:?}", r.node);
                assert_eq!(r.by.is_empty(), er_out == er_in, "{name}: `by` names who lowered ER: {r:?}");
            }
            if r.direction != Direction::Turnaround {
                let before = last.get(&key).unwrap_or_else(|| panic!("{name}: {r:?} was turned around"));
                assert_eq!(er_in, *before, "{name} {alg:?}: ER changed between nodes: {r:?}");
                chained += 1;
            }
            last.insert(key, er_out);
        }
        assert!(backward > 100, "{name}: {backward} backward events");
        assert!(chained > 100, "{name}: {chained} chained events");
    }
}

#[test]
fn a_virtual_paths_rm_cells_name_their_path_and_go_from_edge_to_edge() {
    let s = scenario("vpc-abr", 80.0, None);
    let paths: BTreeMap<String, (String, String, String)> = s
        .virtual_paths
        .iter()
        .map(|vp| (vp.id.clone(), (vp.connections[0].clone(), vp.from.clone(), vp.to.clone())))
        .collect();
    let (_, records) = traced(s);
    // The members are UBR (TCP): every RM cell is a path's own.
    assert!(records.len() > 100, "vpc-abr: {} RM-cell events", records.len());
    let mut seen = BTreeSet::new();
    for r in &records {
        let (carrier, from, to) = paths.get(&r.vp).unwrap_or_else(|| panic!("a path's RM cell names its path: {r:?}"));
        assert_eq!(&r.connection, carrier, "it travels under the path's first member: {r:?}");
        match r.direction {
            Direction::Sent | Direction::Received => {
                assert_eq!(&r.node, from, "its loop starts and ends at the edge: {r:?}")
            }
            Direction::Turnaround => assert_eq!(&r.node, to, "it turns around at the path's far edge: {r:?}"),
            _ => {}
        }
        seen.insert(r.vp.as_str());
    }
    assert_eq!(seen.len(), paths.len(), "every path's loop is traced");
    let (_, plain) = traced(scenario("two-sources", 20.0, None));
    assert!(plain.iter().all(|r| r.vp.is_empty()), "without virtual paths, no record names one");
}

#[test]
fn an_rm_cell_is_sent_goes_forward_turns_around_and_comes_back_in_order() {
    let (_, records) = traced(scenario("two-sources", 20.0, None));
    let first: Vec<(&str, &str)> = records
        .iter()
        .filter(|r| r.connection == "C1" && r.rm_seq == 5)
        .map(|r| (r.direction.as_str(), r.node.as_str()))
        .collect();
    assert_eq!(
        first,
        [
            ("sent", "S1"),
            ("forward", "SW1"),
            ("forward", "SW2"),
            ("turnaround", "D1"),
            ("backward", "SW2"),
            ("backward", "SW1"),
            ("received", "S1")
        ],
        "two-sources: S1 → SW1 → SW2 → D1 and back"
    );
}

#[test]
fn bn_marks_a_switch_notification_and_not_a_cell_the_destination_turned_around() {
    let (_, atm) = traced(scenario("two-sources", 20.0, None));
    assert!(atm.iter().all(|r| !r.bn), "two-sources: every RM cell is its source's, turned around (BN = 0)");
    let (_, qcn) = traced(scenario("qcn-hotspot", 30.0, None));
    let notes: Vec<&RmRecord> = qcn.iter().filter(|r| r.direction == Direction::Notification).collect();
    assert!(!notes.is_empty(), "qcn-hotspot sends congestion notifications");
    assert!(notes.iter().all(|r| r.bn), "a switch's notification carries BN = 1");
}

/// At each backward RM cell it receives, the source's ACR moves by TM 4.0's rule (§5.10.2, SES
/// rules 8 and 9): CI cuts it by ACR × RDF, else (NI clear) it rises by RIF × PCR; then at most
/// ER and PCR, at least MCR. The trace gives the ACR before and after, and nothing elsewhere.
#[test]
fn a_received_rm_cell_moves_the_sources_acr_by_the_tm4_rule() {
    use abr_sim::network::Host;
    // EFCI switches: their congestion marks come back as CI (decreases); ERICA's ER bounds
    // the increases.
    for algorithm in ["efci", "erica"] {
        let (sim, records) = traced(scenario("two-sources", 5.0, Some(algorithm)));
        let Host::Abr(s) = &sim.net.conns[0].source else { panic!("C1 is an ABR source") };
        let mbps = |cells: f64| cells * sim.net.unit_bits / 1e6;
        let (pcr, mcr, rif, rdf) = (mbps(s.cfg.pcr), mbps(s.cfg.mcr), s.cfg.rif, s.cfg.rdf);
        let (mut cuts, mut rises) = (0, 0);
        for r in &records {
            if r.direction != Direction::Received {
                assert!(r.acr_before_mbps.is_none() && r.acr_after_mbps.is_none(), "{r:?}");
                continue;
            }
            if r.connection != "C1" {
                continue;
            }
            let (before, after) = (r.acr_before_mbps.unwrap(), r.acr_after_mbps.unwrap());
            let moved = if r.ci {
                cuts += 1;
                before - before * rdf
            } else if !r.ni {
                rises += 1;
                (before + rif * pcr).min(pcr)
            } else {
                before
            };
            let er = r.er_out_mbps.unwrap();
            let expected = mcr.max(moved.min(er)).min(pcr);
            assert!(
                (after - expected).abs() < 1e-9 * pcr,
                "{algorithm} at {} µs: {before} → {after}, expected {expected}",
                r.time_us
            );
        }
        match algorithm {
            "efci" => assert!(cuts > 3, "EFCI sends CI back: {cuts} cuts"),
            _ => assert!(rises > 3 && cuts == 0, "ERICA: {rises} rises, {cuts} cuts"),
        }
    }
}

/// QCN's notification carries feedback without a unit, not a rate: its records (sent by the
/// switch, received by the reaction point) give it as `feedback` (no ER), and the CSV in its ER
/// columns.
#[test]
fn a_notification_gives_its_feedback_not_a_rate() {
    let (_, qcn) = traced(scenario("qcn-hotspot", 30.0, None));
    let notes: Vec<&RmRecord> = qcn.iter().filter(|r| r.bn).collect();
    assert!(notes.iter().any(|r| r.direction == Direction::Notification));
    assert!(notes.iter().any(|r| r.direction == Direction::Received), "received at the reaction point");
    for r in &notes {
        assert_eq!(r.ccr_mbps, None);
        let fb = r.feedback.expect("a notification's feedback");
        assert!((1.0..=63.0).contains(&fb) && fb.fract() == 0.0, "QCN's quantised |Fb|: {fb}");
        assert_eq!((r.er_in_mbps, r.er_out_mbps), (None, None));
        let line = r.csv_line();
        let cols: Vec<&str> = line.split(',').collect();
        assert_eq!((cols[5], cols[6]), (fb.to_string().as_str(), fb.to_string().as_str()), "{line}");
    }
    assert!(qcn.iter().filter(|r| !r.bn).all(|r| r.feedback.is_none()));
}

/// A rate-discovery tag belongs to FECN: a flow whose route crosses no FECN switch sends none,
/// so a QCN run records only QCN's notifications (the event log listed empty tags among them).
#[test]
fn only_a_route_through_a_fecn_switch_carries_rate_discovery_tags() {
    let (_, qcn) = traced(scenario("qcn-hotspot", 30.0, None));
    assert!(!qcn.is_empty());
    assert!(qcn.iter().all(|r| r.bn), "qcn-hotspot: every event is a notification's, no tag's");
    let (_, fecn) = traced(scenario("fecn-hotspot", 30.0, None));
    assert!(fecn.iter().any(|r| r.direction == Direction::Sent), "fecn-hotspot: its sources tag frames");
    assert!(fecn.iter().all(|r| !r.bn));
}

#[test]
fn trace_csv_has_the_contract_columns() {
    assert_eq!(
        abr_sim::trace::CSV_COLUMNS.join(","),
        "time_us,connection,rm_seq,node,direction,er_in_mbps,er_out_mbps,ccr_mbps,ci,ni,by"
    );
    let doc = scenario::parse(&library_json("two-sources").to_string()).unwrap();
    let (_, records) = traced(doc);
    let line = records[0].csv_line();
    assert_eq!(line.split(',').count(), abr_sim::trace::CSV_COLUMNS.len(), "{line}");
}

#[test]
fn erica_explains_the_er_it_wrote_into_a_backward_rm_cell() {
    // two-sources at 50 ms: both sources on one 155.52 Mbps bottleneck (SW1 → SW2) at
    // U = 0.9, so by hand: target rate 139.968 Mbps, N = 2, FairShare 69.984 Mbps.
    let mut sim = Simulation::new(scenario("two-sources", 100.0, None));
    sim.set_rm_trace(1 << 16);
    sim.advance(abr_sim::time::from_ms(50.0), u64::MAX);
    sim.rm_trace().take();
    // Event by event to the next backward RM cell SW1 writes into: nothing runs in between.
    let rec = loop {
        sim.advance(sim.end(), 1);
        let events = sim.rm_trace().take();
        let brm =
            events.iter().find(|e| e.direction == Direction::Backward && sim.net.node_ids[e.node as usize] == "SW1");
        if let Some(e) = brm {
            break RmRecord::new(e, &sim.net);
        }
    };
    let ex = sim.explain("SW1", "SW2").expect("SW1 has a port to SW2");
    assert_eq!((ex.algorithm.as_str(), ex.port.as_str()), ("erica", "SW1->SW2"));
    assert_eq!(ex.time_us, rec.time_us);
    let q = |name: &str| ex.get(name).unwrap_or_else(|| panic!("{name} in {ex:?}"));
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
    assert!(close(q("target_rate_mbps"), 155.52 * 0.9), "{ex:?}");
    assert_eq!(q("active_vcs"), 2.0);
    assert!(close(q("fair_share_mbps"), 69.984), "{ex:?}");
    assert_eq!((q("max_alloc"), q("fairshare_first")), (1.0, 1.0), "options A and B on by default");

    let vc = ex.vcs.iter().find(|v| v.connection == rec.connection).expect("the cell's VC is explained");
    let (ccr, z, fs) = (vc.get("ccr_mbps").unwrap(), q("overload"), q("fair_share_mbps"));
    assert_eq!(Some(ccr), rec.ccr_mbps, "the CCR of the VC's last forward RM cell, which the BRM carries back");
    assert!(close(vc.get("vc_share_mbps").unwrap(), ccr / z));
    // ER = max(FairShare, CCR/z), MaxAllocPrevious too while z ≤ 1 + δ, FairShare when
    // CCR < FairShare (option B), at most the target rate.
    let mut er = fs.max(ccr / z);
    if z <= 1.0 + q("delta") {
        er = er.max(q("max_alloc_previous_mbps"));
    }
    if er > fs && ccr < fs {
        er = fs;
    }
    er = er.min(q("target_rate_mbps"));
    let computed = vc.get("last_brm_computed_mbps").unwrap();
    assert!(close(computed, er), "explain's numbers give {er}, ERICA computed {computed}: {ex:?}");
    assert!((vc.get("last_brm_ms").unwrap() - rec.time_us / 1000.0).abs() < 1e-12, "in ms, as the log and the clock");
    assert_eq!(vc.get("last_brm_written_mbps"), rec.er_out_mbps, "the ER the trace saw leave SW1");
    assert_eq!(rec.er_out_mbps, Some(rec.er_in_mbps.unwrap().min(computed)), "ER = min(ER in, ERICA's rate)");
}

#[test]
fn explain_names_the_argument_at_fault() {
    let sim = Simulation::new(scenario("two-sources", 10.0, None));
    let err = |switch: &str, port: &str| sim.explain(switch, port).unwrap_err();
    assert_eq!(err("S1", "SW1").path, "switch");
    let bad_port = err("SW1", "D1");
    assert_eq!(bad_port.path, "port");
    assert!(bad_port.rule.contains("SW1->SW2"), "lists the ports: {}", bad_port.rule);
}

/// The switch port most connections leave by (the bottleneck of the library's hotspots).
fn busiest_port(sim: &Simulation) -> String {
    let ports = sim.net.ports.iter().filter(|p| p.alg.is_some());
    let hop_ids = |path: &Vec<usize>| -> Vec<String> {
        path.windows(2).map(|w| format!("{}->{}", sim.net.node_ids[w[0]], sim.net.node_ids[w[1]])).collect()
    };
    let routes: Vec<Vec<String>> = sim.net.paths.iter().map(hop_ids).collect();
    ports.max_by_key(|p| routes.iter().filter(|r| r.contains(&p.id)).count()).expect("a switch port").id.clone()
}

#[test]
fn every_algorithm_explains_itself_with_at_least_what_its_charts_show() {
    let mut runs: Vec<Simulation> = Vec::new();
    for alg in abr_sim::algorithms::REGISTRY.iter().filter(|a| a.network.allows(false)) {
        runs.push(Simulation::new(scenario("two-sources", 30.0, Some(alg.id))));
    }
    for name in ["fecn-hotspot", "qcn-hotspot", "fqcn-hotspot"] {
        runs.push(Simulation::new(scenario(name, 30.0, None)));
    }
    for mut sim in runs {
        sim.advance(abr_sim::time::from_ms(20.0), u64::MAX);
        let id = busiest_port(&sim);
        let (switch, to) = id.split_once("->").unwrap();
        let ex = sim.explain(switch, to).unwrap();
        assert_eq!(ex.port, id);
        let alg = sim.net.ports.iter().find(|p| p.id == id).unwrap().alg.as_ref().unwrap();
        let mut values = Vec::new();
        alg.internal_values(&mut values);
        for (name, value) in alg.internal_names().iter().zip(values) {
            let q = ex.values.iter().find(|q| q.name == *name);
            let q = q.unwrap_or_else(|| panic!("{}: no {name} in {ex:?}", ex.algorithm));
            assert_eq!(q.value, value.is_finite().then_some(value), "{}: {name}", ex.algorithm);
        }
        assert!(!ex.rule.is_empty() || ex.algorithm == "none", "{} states its rule", ex.algorithm);
        // First, the queue it reads now, as the queue chart's next sample will show it.
        let port = sim.net.ports.iter().find(|p| p.id == id).unwrap();
        if ex.algorithm != "none" {
            assert_eq!(ex.values[0].name, "queue_now_cells");
            assert_eq!(ex.values[0].value, Some(port.queue_len(sim.now()) as f64), "{}", ex.algorithm);
        }
        for v in &ex.vcs {
            assert!(sim.net.conns.iter().any(|c| c.id == v.connection), "{}: VC {}", ex.algorithm, v.connection);
        }
    }
}

/// ERICA's ER from its explanation's numbers: max(FairShare, CCR/z), MaxAllocPrevious too
/// while z ≤ 1 + δ (option A), FairShare when CCR < FairShare (option B), at most the target.
/// Returns the ER and which term gave it.
fn erica_rule(ex: &abr_sim::algorithms::Explain, ccr: f64) -> (f64, &'static str) {
    let q = |name: &str| ex.get(name).unwrap_or_else(|| panic!("{name} in {ex:?}"));
    let (fs, target) = (q("fair_share_mbps"), q("target_rate_mbps"));
    let z = ex.get("overload").unwrap_or(f64::INFINITY);
    let vc_share = if z > 0.0 && z.is_finite() { ccr / z } else { 0.0 };
    let (mut er, mut by) = if vc_share > fs { (vc_share, "CCR/z") } else { (fs, "FairShare") };
    if q("max_alloc") == 1.0 && z <= 1.0 + q("delta") && q("max_alloc_previous_mbps") > er {
        (er, by) = (q("max_alloc_previous_mbps"), "MaxAllocPrevious");
    }
    if q("fairshare_first") == 1.0 && er > fs && ccr < fs {
        (er, by) = (fs, "option B");
    }
    if target < er {
        (er, by) = (target, "target");
    }
    (er, by)
}

#[test]
fn erica_explains_every_er_it_writes_while_sources_come_and_go() {
    // two-sources-staggered: C2 joins at 100 ms and leaves at 200 ms, so SW1 goes through
    // overload, underload and steady state. After every backward RM cell SW1 writes into, its
    // explanation must give the ER it wrote.
    let mut sim = Simulation::new(scenario("two-sources-staggered", 300.0, None));
    sim.set_rm_trace(1 << 16);
    let mut terms: BTreeMap<&str, u32> = BTreeMap::new();
    while !sim.done() {
        sim.advance(sim.end(), 1);
        let events = sim.rm_trace().take();
        let at_sw1 = |e: &&abr_sim::trace::RmEvent| {
            e.direction == Direction::Backward && sim.net.node_ids[e.node as usize] == "SW1"
        };
        let Some(e) = events.iter().find(at_sw1) else { continue };
        let rec = RmRecord::new(e, &sim.net);
        let ex = sim.explain("SW1", "SW2").unwrap();
        let vc = ex.vcs.iter().find(|v| v.connection == rec.connection).unwrap();
        let (er, term) = erica_rule(&ex, vc.get("ccr_mbps").unwrap());
        let computed = vc.get("last_brm_computed_mbps").unwrap();
        assert!(
            (er - computed).abs() <= 1e-9 * er,
            "at {} µs: rule gives {er} ({term}), ERICA {computed}",
            rec.time_us
        );
        assert_eq!(rec.er_out_mbps, Some(rec.er_in_mbps.unwrap().min(computed)), "{rec:?}");
        assert_eq!(vc.get("last_brm_written_mbps"), rec.er_out_mbps);
        *terms.entry(term).or_default() += 1;
    }
    // The run exercised every term of the rule.
    for term in ["CCR/z", "FairShare", "MaxAllocPrevious", "option B"] {
        assert!(terms.contains_key(term), "no ER came from {term}: {terms:?}");
    }
}

/// Steps one event per call until an RM-cell event at `node` (of `direction`) is recorded:
/// what the lab did before `advance_to_rm_event`, and what it must agree with.
fn step_to_rm_event(sim: &mut Simulation, node: &str, direction: Option<Direction>) -> Option<RmRecord> {
    while !sim.done() {
        sim.advance(sim.end(), 1);
        let events = sim.rm_trace().take();
        let records: Vec<RmRecord> = events.iter().map(|e| RmRecord::new(e, &sim.net)).collect();
        if let Some(r) = records
            .into_iter()
            .find(|r| (node.is_empty() || r.node == node) && direction.is_none_or(|d| r.direction == d))
        {
            return Some(r);
        }
    }
    None
}

#[test]
fn advance_to_rm_event_stops_at_the_event_stepping_one_by_one_stops_at() {
    // (scenario, duration, node, direction): vsvd-1's sources are a 275 ms satellite hop away.
    let searches: &[(&str, f64, &str, Option<Direction>)] = &[
        ("two-sources", 30.0, "SW1", None),
        ("two-sources", 30.0, "SW1", Some(Direction::Backward)),
        ("two-sources", 30.0, "D2", Some(Direction::Turnaround)),
        ("parking-lot-3", 30.0, "SW2", Some(Direction::Forward)),
        ("vsvd-1", 700.0, "SW2", Some(Direction::Received)),
        ("qcn-hotspot", 30.0, "SW1", Some(Direction::Notification)),
        // Any node.
        ("parking-lot-3", 30.0, "", None),
        ("two-sources", 30.0, "", Some(Direction::Backward)),
    ];
    for &(name, ms, node, direction) in searches {
        let s = scenario(name, ms, None);
        let mut stepped = Simulation::new(s.clone());
        stepped.set_rm_trace(1000);
        let mut fast = Simulation::new(s);
        fast.set_rm_trace(1000);
        let mut found = 0;
        // Several searches in a row, each from where the last one stopped.
        for k in 0..5 {
            let want = step_to_rm_event(&mut stepped, node, direction);
            let before = fast.events();
            let got =
                fast.advance_to_rm_event(node, direction.map(Direction::as_str), "", fast.end(), u64::MAX).unwrap();
            assert_eq!(got.events, fast.events() - before, "{name} {node}: events counted");
            let got = got.found.map(|e| RmRecord::new(&e, &fast.net));
            assert_eq!(got, want, "{name} {node} {direction:?} search {k}: the same event");
            assert_eq!(
                (fast.events(), fast.now()),
                (stepped.events(), stepped.now()),
                "{name} {node} search {k}: stopped at the same event"
            );
            found += got.is_some() as usize;
            fast.rm_trace().take();
        }
        assert!(found > 0, "{name}: an event at {node} was found");
        stepped.run_to_end();
        fast.run_to_end();
        assert_eq!(fast.rec().digest(), stepped.rec().digest(), "{name}: searching leaves the run unchanged");
    }
}

#[test]
fn advance_to_rm_event_keeps_to_its_limits_and_names_a_bad_argument() {
    let mut sim = Simulation::new(scenario("two-sources", 30.0, None));
    // Trace off: on for the search only, and the event is still returned.
    let first = sim.advance_to_rm_event("SW1", None, "", sim.end(), u64::MAX).unwrap();
    assert!(
        first.found.is_some_and(|e| e.direction == Direction::Forward),
        "the first RM event at SW1 is a forward one"
    );
    assert!(!sim.rm_trace().on() && sim.rm_trace().is_empty(), "the trace is off again");
    let capped = sim.advance_to_rm_event("SW1", Some("received"), "", sim.end(), 10).unwrap();
    assert_eq!((capped.events, capped.found), (10, None), "a switch receives nothing: the event limit stops it");
    let until = sim.now() + abr_sim::time::from_ms(1.0);
    let timed = sim.advance_to_rm_event("SW1", Some("received"), "", until, u64::MAX).unwrap();
    assert_eq!((sim.now(), timed.found), (until, None), "the time limit stops it");
    let bad = sim.advance_to_rm_event("SW9", None, "", sim.end(), 1).unwrap_err();
    assert_eq!(bad.path, "node");
    let bad = sim.advance_to_rm_event("SW1", Some("sideways"), "", sim.end(), 1).unwrap_err();
    assert_eq!(bad.path, "direction");
    let bad = sim.advance_to_rm_event("SW1", None, "C9", sim.end(), 1).unwrap_err();
    assert_eq!((bad.path.as_str(), bad.rule.as_str()), ("connection", "\"C9\" is not a connection of this scenario"));
}

/// The first of `records` of loop `connection` (a connection's, or a virtual path's own: the
/// log's connection filter; "" for any) at `node` ("" for any) of `direction`, among those not
/// yet run when a search starts after the first `ran` records: `advance_to_rm_event` runs on
/// from the engine's next event, which may be at the very time it starts from (a later event
/// of the same instant), so the rule is the trace's order, not a time strictly after.
fn first_in_trace<'a>(
    records: &'a [RmRecord],
    node: &str,
    direction: Option<Direction>,
    connection: &str,
    ran: usize,
) -> Option<(usize, &'a RmRecord)> {
    records.iter().enumerate().skip(ran).find(|(_, r)| {
        (node.is_empty() || r.node == node)
            && direction.is_none_or(|d| r.direction == d)
            && (connection.is_empty() || (if r.vp.is_empty() { &r.connection } else { &r.vp }) == connection)
    })
}

#[test]
fn next_rm_event_finds_an_event_at_the_very_time_the_search_starts_from() {
    // QA: the helper above took events strictly after the search's start time, where the
    // engine finds the next event not yet run, at that time too: S1 and S2 both send their
    // first RM cell at 0 ms, and two searches from 0 ms find both.
    let s = scenario("two-sources", 5.0, None);
    let (_, records) = traced(s.clone());
    let mut sim = Simulation::new(s);
    let (mut ran, mut ties) = (0, 0);
    for k in 0..20 {
        let start = sim.now();
        let (i, want) = first_in_trace(&records, "", None, "", ran).expect("an event");
        let got = sim.advance_to_rm_event("", None, "", sim.end(), u64::MAX).unwrap();
        let got = RmRecord::new(&got.found.expect("found"), &sim.net);
        assert_eq!(&got, want, "search {k}: the trace's next event");
        ties += (sim.now() == start) as usize;
        ran = i + 1;
    }
    assert!(ties > 0, "some search found an event at the very time it started from");
}

#[test]
fn next_rm_event_of_a_connection_stops_at_that_connections_event_not_another_ones() {
    // QA: with node SW1, direction backward and connection C2, the search stopped at C1's first
    // backward RM cell at SW1 (0.17 ms), which the log's C2 filter then hid. C2 starts at 100 ms.
    let s = scenario("two-sources-staggered", 150.0, None);
    let (_, records) = traced(s.clone());
    let mut sim = Simulation::new(s.clone());
    let mut ran = 0;
    for k in 0..3 {
        let (i, want) = first_in_trace(&records, "SW1", Some(Direction::Backward), "C2", ran)
            .unwrap_or_else(|| panic!("the trace has a {k}th backward RM cell of C2 at SW1"));
        let got = sim.advance_to_rm_event("SW1", Some("backward"), "C2", sim.end(), u64::MAX).unwrap();
        let got = RmRecord::new(&got.found.expect("found"), &sim.net);
        assert_eq!(&got, want, "search {k}: the trace's next backward RM cell of C2 at SW1");
        assert_eq!(sim.now() as f64 / abr_sim::time::PS_PER_US as f64, want.time_us, "search {k}: paused at its time");
        ran = i + 1;
    }
    // Any node and direction: the connection alone.
    let mut sim = Simulation::new(s);
    let got = sim.advance_to_rm_event("", None, "C2", sim.end(), u64::MAX).unwrap();
    assert_eq!(
        Some(&RmRecord::new(&got.found.unwrap(), &sim.net)),
        first_in_trace(&records, "", None, "C2", 0).map(|(_, r)| r),
        "C2's first RM-cell event"
    );
}

#[test]
fn next_rm_event_of_a_virtual_path_is_its_own_cell_not_the_member_it_travels_under() {
    // vpc-abr: VP3's RM cells travel under C9's index; its members send none of their own.
    let s = scenario("vpc-abr", 60.0, None);
    let (_, records) = traced(s.clone());
    let mut sim = Simulation::new(s.clone());
    let got = sim.advance_to_rm_event("", Some("turnaround"), "VP3", sim.end(), u64::MAX).unwrap();
    let got = RmRecord::new(&got.found.expect("VP3 has a turnaround"), &sim.net);
    assert_eq!(Some(&got), first_in_trace(&records, "", Some(Direction::Turnaround), "VP3", 0).map(|(_, r)| r));
    assert_eq!((got.vp.as_str(), got.connection.as_str()), ("VP3", "C9"));
    let mut sim = Simulation::new(s);
    let member = sim.advance_to_rm_event("", None, "C9", sim.end(), u64::MAX).unwrap();
    assert_eq!(member.found, None, "C9 has no RM cell of its own, though VP3's carry its index");
    assert!(sim.done());
    let bad = sim.advance_to_rm_event("", None, "VP9", sim.end(), 1).unwrap_err();
    assert_eq!(
        (bad.path.as_str(), bad.rule.as_str()),
        ("connection", "\"VP9\" is not a connection or virtual path of this scenario")
    );
}

#[test]
fn an_rm_cell_a_full_buffer_drops_ends_with_a_lost_record_at_that_switch() {
    // Two-sources with room for a few cells at SW1, and S1 ignoring feedback at 150 Mbps on a
    // 622 Mbps access link: SW1's buffer overflows and drops RM cells with the data.
    let s = crate::common::load(
        "two-sources",
        &[
            "run.duration_ms=30",
            "nodes.SW1.buffer_cells=3",
            "links.L1.rate_mbps=622.08",
            r#"connections.C1.behavior={"kind":"fixed_rate","from_ms":0,"rate_mbps":150}"#,
        ],
    );
    let (sim, records) = traced(s);
    let lost: Vec<&RmRecord> = records.iter().filter(|r| r.direction == Direction::Lost).collect();
    assert!(!lost.is_empty(), "a 3-cell buffer in front of an overloaded link drops RM cells");
    assert!(lost.iter().all(|r| r.node == "SW1"), "only SW1's buffer is that small");
    // Backward RM cells lost: exactly the engine's count of them.
    let brm_lost: u64 = sim.net.conns.iter().map(|c| c.brm_lost).sum();
    let backward = lost.iter().filter(|r| after_turnaround(&records, r)).count() as u64;
    assert_eq!(backward, brm_lost, "one lost record per backward RM cell dropped");
    // A lost cell has no later record: its (connection, rm_seq) next appears only when sent again.
    for r in &lost {
        let next = records
            .iter()
            .filter(|o| o.connection == r.connection && o.rm_seq == r.rm_seq && o.time_us > r.time_us)
            .find(|o| o.direction != Direction::Sent);
        assert!(next.is_none(), "{} #{} was lost at {} µs but seen again: {next:?}", r.connection, r.rm_seq, r.time_us);
    }
}

/// Whether the cell of record `r` had turned around before it (a backward cell).
fn after_turnaround(records: &[RmRecord], r: &RmRecord) -> bool {
    records
        .iter()
        .filter(|o| o.connection == r.connection && o.rm_seq == r.rm_seq && o.time_us <= r.time_us)
        .any(|o| o.direction == Direction::Turnaround)
}
