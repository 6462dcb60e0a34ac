//! The same scenario gives bit-identical samples; any change in input changes the digest.

use crate::common::{load, run};

#[test]
fn the_same_scenario_gives_identical_samples() {
    let (a, sa) = run(load("two-sources-staggered", &[]));
    let (b, sb) = run(load("two-sources-staggered", &[]));
    assert_eq!(sa.digest, sb.digest);
    assert_eq!(a.rec().history().rows().len(), b.rec().history().rows().len());
    assert!(a.rec().history().rows().iter().zip(b.rec().history().rows()).all(|(x, y)| x.to_bits() == y.to_bits()));
}

#[test]
fn a_parameter_change_changes_the_digest() {
    let (_, base) = run(load("two-sources", &[]));
    let (_, changed) = run(load("two-sources", &["nodes.SW1.params.target_utilization=0.85"]));
    assert_ne!(base.digest, changed.digest);
}

#[test]
fn one_row_per_sample_interval_including_time_zero() {
    let (sim, _) = run(load("two-sources", &[]));
    let s = &sim.scenario.run;
    let expected = (s.duration_ms * 1000.0 / s.sample_interval_us).floor() as usize + 1;
    assert_eq!(sim.rec().history().row_count(), expected);
    assert_eq!(sim.rec().history().row(0)[0], 0.0);
    assert_eq!(sim.rec().history().row(expected - 1)[0], s.duration_ms);
}

#[test]
fn advancing_in_slices_gives_the_same_run_as_one_go() {
    let s = load("two-sources", &[]);
    let mut whole = abr_sim::sim::Simulation::new(s.clone());
    whole.run_to_end();
    let mut sliced = abr_sim::sim::Simulation::new(s);
    let mut until = 0;
    while !sliced.done() {
        until += 1_234_567_891; // ~1.2 ms
        sliced.advance(until, 777);
    }
    assert_eq!(whole.rec().digest(), sliced.rec().digest());
    assert_eq!(whole.events(), sliced.events());
}

#[test]
fn a_live_parameter_change_is_recorded_and_replays_identically() {
    let s = load("two-sources", &[]);
    let mut live = abr_sim::sim::Simulation::new(s);
    // Play in uneven slices, change ERICA's target at ~40 ms, play on.
    live.advance(abr_sim::time::from_ms(40.0), u64::MAX);
    live.advance(abr_sim::time::from_ms(40.0) + 12_345, 3);
    live.set_param("SW1", "target_utilization", 0.6).expect("valid change");
    live.run_to_end();
    assert_eq!(live.scenario.changes.len(), 1);

    // The recorded scenario, saved and loaded again, reproduces the run bit for bit.
    let saved = serde_json::to_string(&live.scenario).unwrap();
    let mut saved = abr_sim::scenario::parse(&saved).unwrap();
    saved.run.steady_from_ms = Some(80.0);
    let mut replay = abr_sim::sim::Simulation::new(saved);
    replay.run_to_end();
    assert_eq!(live.rec().digest(), replay.rec().digest());

    // And the change took effect: the sources end near 0.6 of the link shared by two.
    let summary = abr_sim::metrics::summarize(&replay);
    let rate = summary.connections[0].mean_rate_mbps.unwrap();
    assert!((rate / (155.52 * 0.6 / 2.0) - 1.0).abs() < 0.1, "rate {rate}");
}

#[test]
fn an_invalid_live_change_is_refused_with_its_rule() {
    let mut sim = abr_sim::sim::Simulation::new(load("two-sources", &[]));
    let p = sim.set_param("SW1", "target_utilization", 7.0).unwrap_err();
    assert_eq!(p.path, "value");
    assert!(p.rule.contains("between 0.1 and 1"));
    assert_eq!(sim.set_param("S1", "rif", 1.0).unwrap_err().path, "node");
    assert_eq!(sim.set_param("SW1", "gain", 1.0).unwrap_err().path, "param");
    assert!(sim.scenario.changes.is_empty(), "refused changes are not recorded");
}

#[test]
fn a_live_change_replaces_the_later_recorded_changes_of_that_parameter() {
    // A scenario that recorded target_utilization = 0.95 at 50 ms (and another switch's change),
    // gone back to 20 ms, where the user sets 0.6: from then on it is 0.6, and the recording says so.
    let recorded = ["changes=[{\"at_ms\":50,\"node\":\"SW1\",\"param\":\"target_utilization\",\"value\":0.95},\
                  {\"at_ms\":60,\"node\":\"SW2\",\"param\":\"target_utilization\",\"value\":0.8}]"];
    let mut live = abr_sim::sim::Simulation::new(load("two-sources", &recorded));
    live.advance(abr_sim::time::from_ms(20.0), u64::MAX);
    let replaced = live.set_param("SW1", "target_utilization", 0.6).expect("valid change");
    assert_eq!(replaced.len(), 1);
    assert_eq!((replaced[0].at_ms, replaced[0].value), (50.0, 0.95));
    live.run_to_end();
    let kept: Vec<(f64, &str, f64)> =
        live.scenario.changes.iter().map(|c| (c.at_ms, c.node.as_str(), c.value)).collect();
    assert_eq!(kept, vec![(60.0, "SW2", 0.8), (20.0, "SW1", 0.6)]);

    // The same run as a scenario that only ever had the two changes kept.
    let only = ["changes=[{\"at_ms\":20,\"node\":\"SW1\",\"param\":\"target_utilization\",\"value\":0.6},\
                  {\"at_ms\":60,\"node\":\"SW2\",\"param\":\"target_utilization\",\"value\":0.8}]"];
    let (_, straight) = run(load("two-sources", &only));
    assert_eq!(live.rec().digest(), straight.digest);
    // Not the run that kept 0.95 at 50 ms as well.
    let all = ["changes=[{\"at_ms\":20,\"node\":\"SW1\",\"param\":\"target_utilization\",\"value\":0.6},\
                  {\"at_ms\":50,\"node\":\"SW1\",\"param\":\"target_utilization\",\"value\":0.95},\
                  {\"at_ms\":60,\"node\":\"SW2\",\"param\":\"target_utilization\",\"value\":0.8}]"];
    assert_ne!(run(load("two-sources", &all)).1.digest, straight.digest);
}
