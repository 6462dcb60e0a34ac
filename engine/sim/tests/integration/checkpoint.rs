//! Going back in time: a copy of a run (a checkpoint, `Simulation::clone`) played on from any
//! later time gives the very samples, summary and digest of the run that never went back.

use crate::common::{all_runs, cut};
use abr_sim::metrics::summarize;
use abr_sim::scenario::Scenario;
use abr_sim::sim::Simulation;
use abr_sim::time::{from_ms, Time};

/// Advances to `until` in uneven slices (as the browser's worker does) and returns the rows
/// recorded on the way.
fn play(sim: &mut Simulation, until: Time) -> Vec<f64> {
    let step = from_ms(0.731);
    let mut t = sim.now();
    while t < until.min(sim.end()) {
        t = (t + step).min(until);
        sim.advance(t, 5_000);
    }
    sim.advance(until, u64::MAX);
    sim.take_samples()
}

fn streaming(s: Scenario) -> Simulation {
    let mut sim = Simulation::new(s);
    sim.stream_samples();
    sim
}

#[test]
fn a_checkpoint_played_on_gives_the_samples_of_the_run_that_never_went_back() {
    for (name, ms, alg) in all_runs() {
        let s = cut(name, ms, alg);
        let mut straight = streaming(s.clone());
        let end = straight.end();
        let all = play(&mut straight, end);

        // Play to 30 %, keep a checkpoint, play on to 80 % (past the time scrubbed back to).
        let mut live = streaming(s);
        let mut rows = play(&mut live, end * 3 / 10);
        let checkpoint = live.clone();
        play(&mut live, end * 8 / 10);
        // Back to 55 %: a copy of the checkpoint replays to there, then plays to the end.
        let mut back = checkpoint.clone();
        rows.extend(play(&mut back, end * 55 / 100));
        rows.extend(play(&mut back, end));

        let same_bits = rows.len() == all.len() && rows.iter().zip(&all).all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(same_bits, "{name} {alg:?}: the same rows ({} vs {})", rows.len(), all.len());
        assert_eq!(back.rec().digest(), straight.rec().digest(), "{name} {alg:?}: digest");
        assert_eq!(back.events(), straight.events(), "{name} {alg:?}: events");
        let json = |sim: &Simulation| serde_json::to_string(&summarize(sim)).unwrap();
        assert_eq!(json(&back), json(&straight), "{name} {alg:?}: summary");
        // The copy left the run it was taken from alone, and the checkpoint too.
        play(&mut live, end);
        assert_eq!(live.rec().digest(), straight.rec().digest(), "{name} {alg:?}: the original played on");
        assert_eq!(checkpoint.now(), end * 3 / 10, "{name}: the checkpoint stayed where it was taken");
    }
}

#[test]
fn a_checkpoint_keeps_the_live_changes_made_before_it() {
    let s = cut("two-sources", 100.0, None);
    let mut live = streaming(s);
    let mut rows = play(&mut live, from_ms(20.0));
    live.set_param("SW1", "target_utilization", 0.6).expect("valid change");
    rows.extend(play(&mut live, from_ms(30.0)));
    let checkpoint = live.clone();
    let mut back = checkpoint.clone();
    rows.extend(play(&mut back, Time::MAX));
    play(&mut live, Time::MAX);
    assert_eq!(back.rec().digest(), live.rec().digest());
    // And the change did change the run (this test could fail).
    let mut plain = streaming(cut("two-sources", 100.0, None));
    let plain_rows = play(&mut plain, Time::MAX);
    assert_eq!(rows.len(), plain_rows.len());
    assert_ne!(back.rec().digest(), plain.rec().digest());
}

#[test]
fn a_copy_of_a_run_grows_with_the_cells_on_their_way_not_with_the_runs_length() {
    let mut sim = Simulation::new(cut("gfc1", 400.0, None));
    sim.set_history_budget(0); // as in the browser: the page keeps the rows
    let start = sim.state_bytes();
    play(&mut sim, from_ms(100.0));
    let early = sim.state_bytes();
    play(&mut sim, from_ms(400.0));
    let late = sim.state_bytes();
    assert!(early > start, "cells on their way count: {start} -> {early}");
    assert!(late < 2 * early, "the length of the run does not: {early} -> {late}");
}
