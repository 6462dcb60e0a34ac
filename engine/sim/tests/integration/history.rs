//! A long run keeps a bounded history of min/max buckets, and its summary is the one it would
//! have had with every row kept.

use crate::common::load;
use abr_sim::metrics::summarize;
use abr_sim::probes::SeriesKind;
use abr_sim::sim::Simulation;

#[test]
fn a_run_longer_than_its_history_budget_keeps_every_peak_and_the_same_summary() {
    // Two seconds of two-sources, sampled every 500 µs: 4,001 rows.
    let scenario = load("two-sources", &["run.duration_ms=2000", "run.steady_from_ms=1000"]);
    let mut full = Simulation::new(scenario.clone());
    full.run_to_end();
    let mut small = Simulation::new(scenario);
    let width = small.rec().width();
    small.set_history_budget(8 * width * 100);
    small.run_to_end();

    let kept = small.rec().history();
    assert_eq!(full.rec().history().row_count(), 4001);
    assert!(kept.decimated() && kept.row_count() <= 100, "{} rows kept", kept.row_count());
    assert_eq!(kept.samples(), 4001);
    assert_eq!(full.rec().digest(), small.rec().digest(), "the history does not change the run");

    // The summary does not read the history: it is the same to the last bit.
    let (a, b) = (summarize(&full), summarize(&small));
    assert_eq!(serde_json::to_value(&a).unwrap(), serde_json::to_value(&b).unwrap());

    // Each queue's peak survives decimation: the largest value kept is the largest queue.
    for (p, port) in small.net.ports.iter().enumerate() {
        let Some(col) = small.rec().column(SeriesKind::QueuePeak, p) else { continue };
        let top = (0..kept.row_count()).map(|r| kept.row(r)[col]).fold(0.0, f64::max);
        assert_eq!(top, port.max_queue as f64, "{}", port.id);
    }
    // And every bucket's extremes are those of the rows it replaced.
    let per = kept.samples_per_bucket() as usize;
    let col = small.rec().column(SeriesKind::Acr, 0).unwrap();
    for b in 0..kept.row_count() / 2 {
        let rows = (b * per..((b + 1) * per).min(4001)).map(|r| full.rec().history().row(r)[col]);
        let (lo, hi) = rows.fold((f64::NAN, f64::NAN), |(lo, hi), v| (lo.min(v), hi.max(v)));
        assert_eq!((kept.row(2 * b)[col], kept.row(2 * b + 1)[col]), (lo, hi), "bucket {b}");
    }
}

#[test]
fn streamed_rows_are_every_sample_once_whatever_the_history_keeps() {
    let scenario = load("two-sources", &["run.duration_ms=300"]);
    let mut full = Simulation::new(scenario.clone());
    full.run_to_end();
    let mut streamed = Simulation::new(scenario);
    streamed.stream_samples();
    streamed.set_history_budget(0);
    let mut rows = Vec::new();
    while !streamed.done() {
        let until = streamed.now() + 7 * streamed.sample_interval() + 3;
        streamed.advance(until, u64::MAX);
        rows.extend(streamed.take_samples());
    }
    assert_eq!(rows.len(), full.rec().history().rows().len());
    assert!(rows.iter().zip(full.rec().history().rows()).all(|(a, b)| a.to_bits() == b.to_bits()));
}

/// FNV-1a over the bytes of every value (little-endian), as the digest is defined.
fn fnv1a(values: &[f64]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for v in values {
        for b in v.to_bits().to_le_bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

#[test]
fn the_digest_is_fnv1a_of_every_row_so_far_at_any_moment_and_in_a_checkpoint() {
    // The latest row is hashed only by the next sample (`Recorder::last`): the digest asked for
    // between samples, after slices cut anywhere, must still cover every row recorded.
    let mut sim = Simulation::new(load("two-sources", &["run.duration_ms=40"]));
    sim.stream_samples();
    let mut rows = Vec::new();
    let mut checked = 0;
    let mut checkpoint = None;
    while !sim.done() {
        sim.advance(sim.end(), 251);
        rows.extend(sim.take_samples());
        assert_eq!(sim.rec().digest(), fnv1a(&rows), "after {} rows", rows.len() / sim.rec().width());
        checked += 1;
        if checked == 10 {
            checkpoint = Some((sim.clone(), rows.clone()));
        }
    }
    let width = sim.rec().width();
    assert!(rows.len() / width > 70 && checked > 40, "{} rows, {checked} checks", rows.len() / width);
    // A checkpoint goes on to the same digest as the run it was taken from.
    let (mut copy, mut copied) = checkpoint.expect("a checkpoint");
    copy.run_to_end();
    copied.extend(copy.take_samples());
    assert_eq!(copied, rows);
    assert_eq!(copy.rec().digest(), sim.rec().digest());
}
