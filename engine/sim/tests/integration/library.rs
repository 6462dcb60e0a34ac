//! The scenario library: every file reproduces what its study reports, with the tolerance and
//! steady-state window the file itself sets, and the max-min shares the oracle computes from
//! its topology match the numbers published for it.

use crate::common::{library_json, run};
use abr_sim::metrics::Summary;
use abr_sim::probes::SeriesKind;
use abr_sim::scenario::{parse, Scenario};
use std::collections::BTreeMap;

fn library() -> Vec<Scenario> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files.iter().map(|p| parse(&std::fs::read_to_string(p).unwrap()).unwrap()).collect()
}

fn load(id: &str) -> Scenario {
    library().into_iter().find(|s| s.id == id).unwrap_or_else(|| panic!("no scenario {id}"))
}

#[test]
fn every_library_scenario_reaches_the_shares_its_study_reports_and_conserves_cells() {
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut digests = BTreeMap::new();
    for s in library() {
        let tol = s.run.tolerance.unwrap_or(0.05);
        let expect = s.run.expect_maxmin.unwrap_or(true);
        let (sim, summary) = run(s);
        digests.insert(summary.scenario.clone(), format!("{} {}", summary.digest, summary.events));
        for (i, c) in sim.net.conns.iter().enumerate() {
            if !sim.cells_conserved(i) {
                failures.push(format!("{}: {} does not conserve cells", summary.scenario, c.id));
            }
        }
        // The chart's queue peaks miss nothing: their largest is the summary's largest queue.
        // No port sends more than its capacity: no utilisation above 100 %.
        let rec = sim.rec();
        for (p, _) in sim.net.ports.iter().enumerate() {
            let Some(col) = rec.column(SeriesKind::Utilization, p) else { continue };
            let top = (0..rec.history().row_count()).map(|r| rec.history().row(r)[col]).fold(0.0, f64::max);
            if top > 100.0 {
                failures.push(format!("{}: {} at {top} % utilisation", summary.scenario, sim.net.ports[p].id));
            }
        }
        for l in &summary.links {
            if l.mean_utilization.into_iter().chain(l.reverse_mean_utilization).any(|u| u > 1.0) {
                failures.push(format!("{}: link {} used above its capacity: {l:?}", summary.scenario, l.id));
            }
        }
        for (p, port) in sim.net.ports.iter().enumerate() {
            let Some(col) = rec.column(SeriesKind::QueuePeak, p) else { continue };
            let peak = (0..rec.history().row_count()).map(|r| rec.history().row(r)[col]).fold(0.0, f64::max);
            if peak != port.max_queue as f64 {
                failures.push(format!(
                    "{}: {} peaks at {peak} in its samples, but its largest queue is {}",
                    summary.scenario, port.id, port.max_queue
                ));
            }
        }
        if !expect {
            continue;
        }
        checked += 1;
        for c in summary.connections.iter().filter(|c| c.kind != "background") {
            let (rate, share) = (c.mean_rate_mbps.unwrap(), c.target_share_mbps.unwrap());
            let ok = if share > 0.0 { (rate / share - 1.0).abs() <= tol } else { rate < 0.01 };
            if !ok {
                failures.push(format!("{}: {} at {rate:.3} Mbps, share {share:.3} (±{tol})", summary.scenario, c.id));
            }
        }
    }
    assert!(checked >= 15, "only {checked} scenarios expect max-min");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    check_golden_digests(&digests);
}

/// Every library run's sample digest and event count, as committed in `tests/golden-digests.json`:
/// a refactoring must leave them all unchanged; a change in behaviour moves some, and its
/// commit says which and why. `ABR_BLESS=1 cargo test` rewrites the file.
fn check_golden_digests(digests: &BTreeMap<String, String>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden-digests.json");
    if std::env::var_os("ABR_BLESS").is_some() {
        std::fs::write(&path, serde_json::to_string_pretty(digests).unwrap() + "\n").unwrap();
        return;
    }
    let golden: BTreeMap<String, String> =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("golden digests")).unwrap();
    let moved: Vec<String> = golden
        .keys()
        .chain(digests.keys())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .filter(|id| golden.get(*id) != digests.get(*id))
        .map(|id| format!("{id}: golden {:?}, now {:?}", golden.get(id), digests.get(id)))
        .collect();
    assert!(moved.is_empty(), "digest (and event count) moved:\n{}", moved.join("\n"));
}

/// Mean plain max-min share (Mbps) per report group, from the oracle at the start of the run.
fn group_shares(id: &str) -> BTreeMap<String, f64> {
    let s = load(id);
    let groups: Vec<String> = s.connections.iter().map(|c| c.group.clone().unwrap_or(c.id.clone())).collect();
    let mut sim = abr_sim::sim::Simulation::new(s);
    sim.advance(0, u64::MAX); // the first sample computes the shares
    let mut sums: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for (g, share) in groups.iter().zip(&sim.epochs()[0].share) {
        let e = sums.entry(g.clone()).or_default();
        e.0 += abr_sim::time::cells_to_mbps(*share);
        e.1 += 1.0;
    }
    sums.into_iter().map(|(g, (sum, n))| (g, sum / n)).collect()
}

/// The published shares are rounded: compare to the precision they were printed with.
fn assert_published(id: &str, published: &[(&str, f64)]) {
    let shares = group_shares(id);
    for (group, value) in published {
        let got = shares[*group];
        let digits = format!("{value}").split('.').nth(1).map_or(0, str::len) as i32;
        let half_ulp = 0.5 * 10f64.powi(-digits) + 1e-9;
        assert!(
            (got - value).abs() <= half_ulp.max(0.011 * value),
            "{id}: group {group} gets {got:.3}, published {value}"
        );
    }
}

/// Every node of a library scenario is drawn where no other is (QA: core-edge drew D3 on D7,
/// one circle with two names and their lanes on one line).
#[test]
fn no_two_nodes_of_a_library_scenario_are_drawn_at_one_place() {
    for s in library() {
        let mut at: BTreeMap<(i64, i64), &str> = BTreeMap::new();
        for n in &s.nodes {
            let (Some(x), Some(y)) = (n.x, n.y) else { continue };
            if let Some(other) = at.insert(((x * 10.0).round() as i64, (y * 10.0).round() as i64), &n.id) {
                panic!("{}: {} and {other} are both drawn at ({x}, {y})", s.id, n.id);
            }
        }
    }
}

#[test]
fn upstream_shares_are_the_published_10_37_and_72_6() {
    assert_published("upstream", &[("S1-S15", 10.37), ("S16-S17", 72.6)]);
}

/// upstream's and core-edge's published figures are max-min allocations of the full links
/// (targets), so they carry no tolerance; the reason each file gives says where ERICA's run
/// lies instead: between U = 0.9 of the figure and (1 + δ)·U of it, the load factor z resting
/// anywhere in [1, 1 + δ] under the max-alloc option. QA: the reason said "near 90 %", while
/// upstream's S16-S17 rest at 95 % of theirs.
#[test]
fn erica_lies_where_the_no_tolerance_reasons_say_between_u_and_one_plus_delta_times_u() {
    for id in ["upstream", "core-edge"] {
        let s = load(id);
        assert!(s.nodes.iter().filter(|n| n.algorithm.is_some()).all(|n| n.algorithm.as_deref() == Some("erica")));
        let (_, summary) = run(s);
        let rows = abr_sim::reference::compare(&load(id), &summary);
        assert!(!rows.is_empty());
        for r in rows {
            let reason = r.no_tolerance_reason.as_deref().expect("a max-min target has no tolerance, and says why");
            assert!(reason.contains("between 90 % and 99 %"), "{id}: {reason}");
            let ratio = r.ours.unwrap() / r.published;
            assert!(
                (0.9 * 0.995..=0.9 * 1.1 * 1.005).contains(&ratio),
                "{id}: {}: ours / published = {ratio:.3}",
                r.about_label
            );
        }
    }
}

#[test]
fn core_edge_shares_are_the_published_45_and_30() {
    let s = group_shares("core-edge");
    for (vc, published) in
        [("VC1", 45.0), ("VC2", 45.0), ("VC3", 30.0), ("VC4", 30.0), ("VC5", 30.0), ("VC6", 30.0), ("VC7", 30.0)]
    {
        assert!((s[vc] - published).abs() < 1e-9, "{vc}: {}", s[vc]);
    }
}

#[test]
fn gfc1_shares_are_the_published_ones() {
    assert_published("gfc1", &[("A", 5.55), ("B", 11.1), ("C", 33.3), ("D", 5.55), ("E", 11.1), ("F", 50.0)]);
}

#[test]
fn gfc_edge_capacities_give_the_published_shares() {
    assert_published("gfc-edge", &[("A", 4.5), ("B", 11.1), ("C", 38.8), ("D", 4.5), ("E", 11.1), ("F", 51.5)]);
}

#[test]
fn gfc_edge_case2_has_case_1s_shares_which_do_not_depend_on_delays() {
    assert_published("gfc-edge-case2", &[("A", 4.5), ("B", 11.1), ("C", 38.8), ("D", 4.5), ("E", 11.1), ("F", 51.5)]);
}

/// Case 2 of the Series-D study is case 1 with group A's sources 800 km from their switch: the
/// two files differ in those three access links' distance and in their texts, in nothing else.
#[test]
fn gfc_edge_case2_is_case_1_with_only_group_a_access_links_at_800_km() {
    let (one, mut two) = (library_json("gfc-edge"), library_json("gfc-edge-case2"));
    let a_sources: Vec<&str> = one["connections"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["group"] == "A")
        .map(|c| c["from"].as_str().unwrap())
        .collect();
    assert_eq!(a_sources.len(), 3);
    let mut moved = 0;
    for (l1, l2) in one["links"].as_array().unwrap().iter().zip(two["links"].as_array_mut().unwrap()) {
        if a_sources.iter().any(|s| l1["from"] == *s) {
            let km = (l1["distance_km"].as_f64(), l2["distance_km"].as_f64());
            assert_eq!(km, (Some(3.2), Some(800.0)), "link {}", l1["id"]);
            l2["distance_km"] = l1["distance_km"].clone();
            moved += 1;
        }
    }
    assert_eq!(moved, 3, "group A's three access links");
    assert_eq!(two["id"], "gfc-edge-case2");
    for text in ["id", "name", "description", "source", "lesson"] {
        two[text] = one[text].clone();
    }
    assert!(one == two, "gfc-edge-case2 differs from gfc-edge in more than group A's access links");
}

/// The study's scale_MRF3 variant is its staggered LAN run with one parameter changed, and it
/// is judged as that run is: the same groups (the report's rows) and the same published share
/// (the study found Series-D insensitive to scale_MRF3). QA: the variant had neither, so the
/// report and the Result tab had no published figure for it and listed its ten VCs one by one.
#[test]
fn seriesd_mrf3_is_the_staggered_run_with_only_scale_mrf3_changed() {
    let (one, mut two) = (library_json("seriesd-lan-staggered"), library_json("seriesd-lan-staggered-mrf3"));
    let sw1 = |doc: &mut serde_json::Value| -> serde_json::Value {
        let nodes = doc["nodes"].as_array_mut().unwrap();
        let sw = nodes.iter_mut().find(|n| n["id"] == "SW1").unwrap();
        sw["params"]["scale_mrf3"].take()
    };
    assert_eq!(sw1(&mut one.clone()).as_f64(), Some(2.0));
    assert_eq!(sw1(&mut two).as_f64(), Some(0.5));
    let mut one_without = one.clone();
    sw1(&mut one_without);
    for text in ["id", "name", "description", "source", "lesson"] {
        two[text] = one[text].clone();
    }
    let (refs_one, refs_two) = (one["reference"].as_array().unwrap(), two["reference"].as_array_mut().unwrap());
    assert_eq!(refs_one.len(), refs_two.len(), "the same published figures");
    for (a, b) in refs_one.iter().zip(refs_two.iter_mut()) {
        assert!(b["source"].as_str().unwrap().contains("scale_MRF3"), "the source says why the figure carries over");
        b["source"] = a["source"].clone();
    }
    assert!(
        one_without == two,
        "seriesd-lan-staggered-mrf3 differs from seriesd-lan-staggered in more than scale_mrf3"
    );
}

#[test]
fn source_bottleneck_leaves_the_rest_to_the_others() {
    let s = group_shares("source-bottleneck");
    assert!((s["C1"] - 20.0).abs() < 1e-9);
    assert!((s["C2"] - (155.52 - 20.0) / 2.0).abs() < 1e-9 && (s["C3"] - s["C2"]).abs() < 1e-9);
}

fn delivered(summary: &Summary, id: &str) -> u64 {
    summary.connections.iter().find(|c| c.id == id).unwrap().delivered_cells
}

#[test]
fn a_dishonest_source_takes_more_than_its_share_from_erica_and_debra_discards_its_excess() {
    let (_, erica) = run(load("dishonest"));
    assert!(delivered(&erica, "C1") as f64 > 1.05 * delivered(&erica, "C2") as f64, "S1 gains under ERICA");
    let mut s = load("dishonest");
    for n in s.nodes.iter_mut().filter(|n| n.id.starts_with("SW")) {
        n.algorithm = Some("debra".into());
    }
    let (sim, debra) = run(s);
    let (c1, c2) = (&sim.net.conns[0], &sim.net.conns[1]);
    assert!(c1.lost > 0, "DEBRA drops the over-sender's cells");
    assert!(
        c1.lost as f64 / c1.sent as f64 > 10.0 * (c2.lost as f64 / c2.sent.max(1) as f64),
        "…and not the honest one's"
    );
    assert!(delivered(&debra, "C2") as f64 >= 0.95 * delivered(&erica, "C2") as f64);
}

#[test]
fn an_honest_fast_source_takes_more_than_its_share_and_overflows_the_buffer() {
    // S1 sends 100 Mbps whatever it is told; ERICA still gives S2 its fair share, so the
    // bottleneck is offered more than it carries: the buffer overflows and tail drop splits the
    // link in proportion to what each offers — S1 above its share, S2 below.
    let (sim, s) = run(load("honest-one-high"));
    let (c1, c2) = (&s.connections[0], &s.connections[1]);
    assert!(c1.mean_rate_mbps.unwrap() > c1.target_share_mbps.unwrap());
    assert!(c2.mean_rate_mbps.unwrap() < 0.97 * c2.target_share_mbps.unwrap());
    assert!(sim.net.conns[1].lost > 0, "the honest-to-feedback source loses cells too");
}

#[test]
fn vbr_background_is_served_first_and_erica_shares_what_it_leaves() {
    let (sim, s) = run(load("vbr-background"));
    let v = s.connections.iter().find(|c| c.id == "V1").unwrap();
    assert_eq!(v.kind, "background");
    assert_eq!(v.lost_cells, 0, "strict priority: background cells are never squeezed out");
    // The ABR shares follow the VBR source's state: (0.9 · 155.52 − VBR) / 2 on average.
    for c in s.connections.iter().filter(|c| c.kind == "abr") {
        let (rate, share) = (c.mean_rate_mbps.unwrap(), c.target_share_mbps.unwrap());
        assert!(share < 0.9 * 155.52 / 2.0 - 5.0, "the background takes its part first: {share}");
        assert!((rate / share - 1.0).abs() < 0.05, "{}: {rate} vs {share}", c.id);
    }
    // What VBR sent arrived at its own rate: on about half the time at 100 Mb/s.
    let vbr_rate = v.mean_rate_mbps.unwrap();
    assert!((20.0..80.0).contains(&vbr_rate), "{vbr_rate}");
    let vi = sim.net.conns.iter().position(|c| c.id == "V1").unwrap();
    assert!(sim.cells_conserved(vi));
    // Background traffic has no share of its own (its rate comes off the links first), and
    // its rate is not called an ACR.
    assert_eq!((v.fair_share_mbps, v.target_share_mbps), (None, None));
    assert!(sim.rec().column(SeriesKind::Share, vi).is_none() && sim.rec().column(SeriesKind::Target, vi).is_none());
    let acr = &sim.rec().meta[sim.rec().column(SeriesKind::Acr, vi).unwrap() - 1];
    assert_eq!(acr.label, "V1 rate (VBR background, on/off)");
}

/// Convergence is the first sample from which on every controlled source stays within 10 % of
/// its target share: off just before it, within at every sample after.
#[test]
fn convergence_is_the_first_sample_from_which_every_source_stays_near_its_share() {
    let (sim, s) = run(load("two-sources"));
    let t = s.convergence_ms.expect("two-sources settles");
    assert!(t > 0.0, "the sources start at ICR, far below their share");
    let (acr, target) =
        (sim.rec().column(SeriesKind::Acr, 0).unwrap(), sim.rec().column(SeriesKind::Target, 0).unwrap());
    let near = |row: &[f64]| (0..2).all(|k| (row[acr + k] - row[target + k]).abs() <= 0.1 * row[target + k]);
    let rows: Vec<&[f64]> = (0..sim.rec().history().row_count()).map(|i| sim.rec().history().row(i)).collect();
    let at = rows.iter().position(|r| r[0] == t).unwrap();
    assert!(!near(rows[at - 1]), "the sample before {t} ms is still off");
    assert!(rows[at..].iter().all(|r| near(r)), "within 10 % from {t} ms to the end");
}

/// A source that sends a fixed rate regardless of feedback (honest-one-low's S1 from 100 ms)
/// keeps an ACR that follows the network, but it is not what it sends: it is judged only until
/// then, and the run converges once S2 has picked up what S1 leaves.
#[test]
fn a_source_ignoring_feedback_is_not_judged_by_its_acr() {
    let (sim, s) = run(load("honest-one-low"));
    let t = s.convergence_ms.expect("S2 settles at its share");
    assert!(t >= 100.0, "S1 turns to its fixed rate at 100 ms and S2 has to follow: {t} ms");
    let c2 = &s.connections[1];
    let (mean, target) = (c2.mean_rate_mbps.unwrap(), c2.target_share_mbps.unwrap());
    assert!((mean - target).abs() <= 0.1 * target, "S2 averages {mean} Mbps against a target of {target}");
    // S1's ACR is still far from its 20 Mbps target: judging it would never converge.
    let (acr, target) =
        (sim.rec().column(SeriesKind::Acr, 0).unwrap(), sim.rec().column(SeriesKind::Target, 0).unwrap());
    let history = sim.rec().history();
    let last = history.row(history.row_count() - 1);
    assert!((last[acr] - last[target]).abs() > 0.1 * last[target], "S1's ACR {} against {}", last[acr], last[target]);
    assert_eq!(s.on_target_fraction, Some(1.0));
}

/// A target that keeps moving (a VBR background switching on and off) is followed a round trip
/// late, so there is no time from which on the rates stay within 10 %; the part of the steady
/// window they are within says how well they track it.
#[test]
fn a_moving_target_gives_no_convergence_time_but_its_on_target_fraction() {
    let (sim, s) = run(load("vbr-background"));
    assert_eq!(s.convergence_ms, None);
    let on = s.on_target_fraction.expect("two ABR rates judged");
    // The same count from the recorded rows: samples in the steady window with both rates near.
    let (acr, target) =
        (sim.rec().column(SeriesKind::Acr, 0).unwrap(), sim.rec().column(SeriesKind::Target, 0).unwrap());
    let rows: Vec<&[f64]> = (0..sim.rec().history().row_count()).map(|i| sim.rec().history().row(i)).collect();
    let steady: Vec<&&[f64]> = rows.iter().filter(|r| r[0] >= s.steady_from_ms).collect();
    let near =
        steady.iter().filter(|r| (0..2).all(|k| (r[acr + k] - r[target + k]).abs() <= 0.1 * r[target + k])).count();
    assert_eq!(on, near as f64 / steady.len() as f64);
    assert!(on > 0.8 && on < 1.0, "ERICA tracks the background most of the time: {on}");
}

/// UBR sources send at PCR whatever happens: their ACR says nothing, so they are reported as
/// `ubr` and do not count for convergence (none at all in an all-UBR run).
#[test]
fn ubr_sources_are_reported_as_such_and_not_judged_by_their_acr() {
    let (_, s) = run(load("tcp-over-ubr-epd"));
    assert!(s.connections.iter().all(|c| c.kind == "ubr"));
    assert_eq!(s.convergence_ms, None);
    assert_eq!(s.judged_rates, 0);
    let (_, s) = run(load("tcp-over-abr"));
    assert!(s.connections.iter().all(|c| c.kind == "abr"));
    assert!(s.convergence_ms.is_some());
    assert_eq!(s.judged_rates, 2);
}
