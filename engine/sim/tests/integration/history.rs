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
