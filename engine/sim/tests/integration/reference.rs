//! Published figures beside ours: each row's "ours" is the summary's own number for the same
//! element and quantity, and a scenario's figures never change its run.

use crate::common::{load, run};
use abr_sim::scenario::{About, RefQuantity};

const FIGURES: &str = r#"reference=[
  {"about":{"connection":"C1"},"quantity":"mean_rate_mbps","published":77.76,"tolerance":0.5,"source":"Fig. 1"},
  {"about":{"port":"SW1->SW2"},"quantity":"max_queue_cells","published":1,"source":"Table 2"},
  {"about":{"link":"L3"},"quantity":"throughput_mbps","published":155.52,"tolerance":0.0001,"source":"Fig. 2"},
  {"about":"network","quantity":"jain_index","published":1,"tolerance":0.01,"source":"Fig. 3"}
]"#;

#[test]
fn each_published_figure_sits_beside_the_summarys_own_value_with_the_difference() {
    let (_, s) = run(load("two-sources", &[FIGURES]));
    let rows = &s.reference;
    assert_eq!(rows.len(), 4);
    let c1 = s.connections.iter().find(|c| c.id == "C1").unwrap().mean_rate_mbps.unwrap();
    assert_eq!((rows[0].about.clone(), rows[0].quantity), (About::Connection("C1".into()), RefQuantity::MeanRateMbps));
    assert_eq!(rows[0].ours, Some(c1));
    assert_eq!(rows[0].difference, Some(c1 - 77.76));
    assert_eq!(rows[0].relative_difference, Some((c1 - 77.76) / 77.76));
    assert_eq!(rows[0].within_tolerance, Some((c1 - 77.76).abs() <= 0.5 * 77.76));
    assert_eq!(rows[0].unit, "Mbps");
    let port = s.ports.iter().find(|p| p.id == "SW1->SW2").unwrap();
    assert_eq!(rows[1].ours, Some(port.max_queue_cells as f64));
    assert_eq!((rows[1].unit, rows[1].within_tolerance), ("cells", None), "no tolerance: no verdict");
    let u = s.links.iter().find(|l| l.id == "L3").unwrap().mean_utilization.unwrap();
    assert_eq!(rows[2].ours, Some(u * 155.52));
    // ERICA runs the link at its 90 % target: far outside a 0.01 % tolerance of the full rate.
    assert_eq!(rows[2].within_tolerance, Some(false));
    assert_eq!(rows[3].ours, s.jain_index);
    assert_eq!(rows[3].about_label, "network");
}

#[test]
fn published_figures_do_not_change_the_run() {
    let (_, plain) = run(load("two-sources", &[]));
    let (_, with) = run(load("two-sources", &[FIGURES]));
    assert!(plain.reference.is_empty());
    assert_eq!((plain.digest, plain.events), (with.digest, with.events));
}

#[test]
fn a_groups_rate_is_the_mean_of_its_members_and_its_drops_their_sum() {
    let (_, s) = run(load(
        "gfc1",
        &[r#"reference=[
          {"about":{"group":"F"},"quantity":"mean_rate_mbps","published":50,"source":"x"},
          {"about":{"group":"F"},"quantity":"dropped_cells","published":0,"source":"x"}]"#],
    ));
    let f: Vec<_> = s.connections.iter().filter(|c| c.id.starts_with('F')).collect();
    let mean = f.iter().map(|c| c.mean_rate_mbps.unwrap()).sum::<f64>() / f.len() as f64;
    assert_eq!(s.reference[0].ours, Some(mean));
    assert_eq!(s.reference[1].ours, Some(f.iter().map(|c| c.lost_cells as f64).sum()));
    assert_eq!(s.reference[1].relative_difference, None, "a published 0 has no relative difference");
}

/// The VS/VD studies measure a switch's queue as everything it holds for the next link: the
/// output port's own queue and the virtual sources' per-VC queues waiting for it. Without
/// virtual sources that is the port's queue; a source's figure is its host queue.
#[test]
fn a_switchs_buffer_figure_counts_its_virtual_sources_queues_and_a_sources_its_host_queue() {
    let figures = r#"reference=[
      {"about":{"port":"SW1->SW2"},"quantity":"max_buffer_cells","published":7100,"source":"x"},
      {"about":{"connection":"C1"},"quantity":"max_source_queue_cells","published":73000,"source":"x"}]"#;
    let cut = ["run.duration_ms=5000", "run.steady_from_ms=4000", figures];
    let (sim, with) = run(load("vsvd-1", &cut));
    let port = with.ports.iter().find(|p| p.id == "SW1->SW2").unwrap();
    let buffer = port.max_buffer_cells.expect("virtual sources feed SW1->SW2");
    let at_sw1: Vec<u64> =
        with.virtual_sources.iter().filter(|v| v.switch == "SW1").map(|v| v.max_queue_cells).collect();
    // At least the largest moment of any one part, at most all the parts' largest moments.
    assert!(buffer as u64 >= *at_sw1.iter().max().unwrap() && buffer >= port.max_queue_cells);
    assert!(buffer as u64 <= port.max_queue_cells as u64 + at_sw1.iter().sum::<u64>());
    assert!(buffer > 10 * port.max_queue_cells, "SW1's queue waits at its virtual sources: {buffer}");
    assert_eq!(with.reference[0].ours, Some(buffer as f64));
    assert_eq!(with.reference[0].unit, "cells");
    let c1 = &with.connections[0];
    assert_eq!(with.reference[1].ours, c1.max_source_queue_cells.map(|q| q as f64));
    assert!(sim.net.vs.iter().all(|v| v.queue.len() as u32 <= buffer));

    let (_, without) = run(load("vsvd-1-end-to-end", &cut));
    let port = without.ports.iter().find(|p| p.id == "SW1->SW2").unwrap();
    assert_eq!(port.max_buffer_cells, None, "no virtual source: the port's queue is the figure");
    assert_eq!(without.reference[0].ours, Some(port.max_queue_cells as f64));
}

#[test]
fn a_buffer_figure_is_about_a_port_and_a_source_queue_about_a_connection() {
    let mut doc = crate::common::library_json("two-sources");
    let bad = r#"reference=[
      {"about":{"connection":"C1"},"quantity":"max_buffer_cells","published":1,"source":"x"},
      {"about":{"port":"SW1->SW2"},"quantity":"max_source_queue_cells","published":1,"source":"x"}]"#;
    abr_sim::scenario::apply_override(&mut doc, bad).unwrap();
    let problems = abr_sim::scenario::from_value(doc).unwrap_err();
    for i in 0..2 {
        assert!(problems.iter().any(|p| p.path.starts_with(&format!("reference[{i}]"))), "{problems:?}");
    }
}

/// gfc1's queue figures were measured under ERICA+ (queues near its 2 ms target); its rate
/// figures are the max-min allocation, which holds whatever the scheme. A run with a switch on
/// another scheme judges the second and not the first, saying why.
#[test]
fn a_figure_measured_under_one_scheme_is_not_judged_where_a_switch_runs_another() {
    let (_, plain) = run(load("gfc1", &[]));
    let queues: Vec<_> = plain.reference.iter().filter(|r| r.algorithm.as_deref() == Some("erica_plus")).collect();
    assert_eq!(queues.len(), 2, "gfc1's two queue figures name ERICA+");
    for r in &plain.reference {
        assert_eq!(r.not_judged_note, None, "{}", r.about_label);
        assert!(r.within_tolerance.is_some(), "{}", r.about_label);
    }
    let (_, other) = run(load("gfc1", &[r#"nodes.SW2.algorithm="eprca""#, "nodes.SW2.params={}"]));
    for r in &other.reference {
        if r.algorithm.is_some() {
            assert_eq!(r.within_tolerance, None, "{}", r.about_label);
            let note = r.not_judged_note.as_deref().expect("a note says why");
            assert!(note.contains("measured under ERICA+") && note.contains("SW2 runs EPRCA"), "{note}");
            assert!(r.ours.is_some(), "ours is still shown beside it");
        } else {
            assert_eq!(r.not_judged_note, None, "{}", r.about_label);
            assert!(r.within_tolerance.is_some(), "{}", r.about_label);
        }
    }
}

/// A switch that runs no scheme (`none`, a plain FIFO) takes no part in the question.
#[test]
fn a_switch_running_none_does_not_stop_a_figure_being_judged() {
    let s = load("seriesd-lan", &[r#"reference.0.algorithm="series_d""#]);
    assert!(s.nodes.iter().any(|n| n.algorithm.as_deref() == Some("none")));
    assert_eq!(abr_sim::reference::not_judged_note(&s, &s.reference[0]), None);
    let s = load("seriesd-lan", &[r#"reference.0.algorithm="erica""#]);
    let note = abr_sim::reference::not_judged_note(&s, &s.reference[0]).expect("Series-D is not ERICA");
    assert!(note.contains("runs Series-D") && !note.contains("runs none"), "{note}");
}
