//! What a run's summary needs from its samples, gathered as they are taken, so that the
//! summary is exact whatever the history keeps (see [`crate::history`]).
//!
//! - [`SteadyWindow`]: the steady-state window from `run.steady_from_ms` to the last sample —
//!   its first and last times and counters, and per series the sum over the window's rows
//!   before the last, added in row order (the same floating-point sums as adding the stored
//!   rows up afterwards).
//! - [`Convergence`]: the first sample from which on the rates the network sets stay within
//!   10 % of their shares, and the part of the steady window's samples in which they are.

/// The steady-state window's first and last samples and per-series sums.
#[derive(Clone)]
pub struct SteadyWindow {
    from_ms: f64,
    /// Time and counters of the window's first sample, once it has one.
    first: Option<(f64, Vec<f64>)>,
    /// Samples in the window so far, the first and the last included.
    rows: usize,
    /// Per column, the sum over the window's rows before the last (inactive, NaN, as 0).
    before_last: Vec<f64>,
    last: Vec<f64>,
    last_counters: Vec<f64>,
}

/// A closed window: two samples at least.
pub struct Window<'a> {
    w: &'a SteadyWindow,
    first_counters: &'a [f64],
    first_ms: f64,
}

impl SteadyWindow {
    pub fn new(from_ms: f64) -> Self {
        SteadyWindow {
            from_ms,
            first: None,
            rows: 0,
            before_last: Vec::new(),
            last: Vec::new(),
            last_counters: Vec::new(),
        }
    }

    pub fn add(&mut self, row: &[f64], counters: &[f64]) {
        if self.first.is_some() {
            for (sum, v) in self.before_last.iter_mut().zip(&self.last) {
                *sum += if v.is_nan() { 0.0 } else { *v };
            }
            self.rows += 1;
        } else if row[0] >= self.from_ms - 1e-9 {
            self.first = Some((row[0], counters.to_vec()));
            self.before_last = vec![0.0; row.len()];
            self.rows = 1;
        }
        self.last.clear();
        self.last.extend_from_slice(row);
        self.last_counters.clear();
        self.last_counters.extend_from_slice(counters);
    }

    /// The window, if it has two samples or more.
    pub fn closed(&self) -> Option<Window<'_>> {
        match &self.first {
            Some((first_ms, counters)) if self.rows >= 2 => {
                Some(Window { w: self, first_counters: counters, first_ms: *first_ms })
            }
            _ => None,
        }
    }
}

impl Window<'_> {
    /// Seconds from the first sample to the last.
    pub fn span_s(&self) -> f64 {
        (self.w.last[0] - self.first_ms) / 1000.0
    }

    /// How much the counter at `at` grew over the window.
    pub fn increase(&self, at: usize) -> f64 {
        self.w.last_counters[at] - self.first_counters[at]
    }

    /// Mean of a column over the window's rows but the last, inactive counted as 0.
    pub fn mean_before_last(&self, col: usize) -> f64 {
        self.w.before_last[col] / (self.w.rows - 1) as f64
    }

    /// Mean of a column over every row of the window, the last included.
    pub fn mean(&self, col: usize) -> f64 {
        (self.w.before_last[col] + self.w.last[col]) / self.w.rows as f64
    }
}

/// The convergence time of the rates the network sets: the first sample from which on at
/// most 1 % of them are more than 10 % off their target share. A sample with more off is
/// "off target".
///
/// Where the target moves all the time (a VBR background switching on and off, a source
/// that comes and goes) the rates follow it a round trip late, so some sample after every
/// move is off and there is no such first sample, however well they track. The part of the
/// steady window's samples that are on target tells such a run apart from one that never
/// settles.
#[derive(Clone)]
pub struct Convergence {
    /// (rate column, target column, judged before this time in ms) of each rate judged.
    pairs: Vec<(usize, usize, f64)>,
    /// The first judged sample since the last one off, if any.
    since_last_off: Option<f64>,
    /// Where the steady window starts (ms).
    steady_from_ms: f64,
    /// The steady window's samples with a rate judged, and those of them on target.
    steady_judged: u64,
    steady_on: u64,
}

impl Convergence {
    /// `pairs`: (rate column, target column, the time from which on the rate is no longer
    /// the network's to set, in ms: a source that ignores feedback from then on, or infinity).
    pub fn new(pairs: Vec<(usize, usize, f64)>, steady_from_ms: f64) -> Self {
        Convergence { pairs, since_last_off: None, steady_from_ms, steady_judged: 0, steady_on: 0 }
    }

    /// How many rates are judged.
    pub fn judged(&self) -> usize {
        self.pairs.len()
    }

    pub fn add(&mut self, row: &[f64]) {
        let mut active = 0;
        let mut off = 0;
        for &(col_rate, col_share, until_ms) in &self.pairs {
            let (rate, target) = (row[col_rate], row[col_share]);
            if rate.is_nan() || target.is_nan() || row[0] >= until_ms {
                continue;
            }
            active += 1;
            if (rate - target).abs() > 0.1 * target {
                off += 1;
            }
        }
        if active == 0 {
            return;
        }
        let on = off as f64 <= 0.01 * active as f64;
        if !on {
            self.since_last_off = None;
        } else if self.since_last_off.is_none() {
            self.since_last_off = Some(row[0]);
        }
        // The same test of the window's start as `SteadyWindow::add`.
        if row[0] >= self.steady_from_ms - 1e-9 {
            self.steady_judged += 1;
            self.steady_on += on as u64;
        }
    }

    /// The part (0 to 1) of the steady window's samples with a rate judged in which the rates
    /// are on target; None if no such sample.
    pub fn on_target_fraction(&self) -> Option<f64> {
        (self.steady_judged > 0).then(|| self.steady_on as f64 / self.steady_judged as f64)
    }

    /// None while no sample has settled since the last one off (or none was ever judged).
    pub fn time_ms(&self) -> Option<f64> {
        self.since_last_off
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_starts_at_its_first_sample_and_sums_in_row_order() {
        let mut w = SteadyWindow::new(2.0);
        for t in 0..6 {
            let v = if t == 3 { f64::NAN } else { t as f64 };
            w.add(&[t as f64, v], &[10.0 * t as f64]);
        }
        let win = w.closed().expect("samples at 2, 3, 4, 5");
        assert_eq!(win.span_s(), 0.003);
        assert_eq!(win.increase(0), 30.0);
        assert_eq!(win.mean_before_last(1), (2.0 + 0.0 + 4.0) / 3.0);
        assert_eq!(win.mean(1), (2.0 + 0.0 + 4.0 + 5.0) / 4.0);
    }

    #[test]
    fn a_window_of_one_sample_is_no_window() {
        let mut w = SteadyWindow::new(5.0);
        for t in 0..6 {
            w.add(&[t as f64], &[]);
        }
        assert!(w.closed().is_none());
    }

    #[test]
    fn convergence_is_the_first_judged_sample_after_the_last_one_off() {
        let mut c = Convergence::new(vec![(1, 2, f64::INFINITY)], 0.0);
        let rows =
            [[0.0, f64::NAN, 1.0], [1.0, 5.0, 10.0], [2.0, 10.0, 10.0], [3.0, 20.0, 10.0], [4.0, f64::NAN, 10.0]];
        for r in &rows {
            c.add(r);
        }
        assert_eq!(c.time_ms(), None, "off at 3 ms, nothing judged since");
        c.add(&[5.0, 10.5, 10.0]);
        c.add(&[6.0, 10.0, 10.0]);
        assert_eq!(c.time_ms(), Some(5.0));
    }

    #[test]
    fn on_target_counts_the_steady_windows_judged_samples_within_10_percent() {
        // Two rates against targets of 10: a sample is off when either is more than 1 off
        // (one of two is more than 1 % of them). The window starts at 2 ms.
        let mut c = Convergence::new(vec![(1, 2, f64::INFINITY), (3, 4, f64::INFINITY)], 2.0);
        assert_eq!(c.on_target_fraction(), None, "no sample yet");
        let rows = [
            [0.0, 20.0, 10.0, 20.0, 10.0],         // off, before the window
            [1.0, 10.0, 10.0, 10.0, 10.0],         // on, before the window
            [2.0, 10.5, 10.0, 9.0, 10.0],          // on (9 is exactly 10 % off)
            [3.0, 10.0, 10.0, 8.9, 10.0],          // off
            [4.0, f64::NAN, 10.0, f64::NAN, 10.0], // nothing judged: not counted
            [5.0, 10.0, 10.0, 11.0, 10.0],         // on
        ];
        for r in &rows {
            c.add(r);
        }
        assert_eq!(c.on_target_fraction(), Some(2.0 / 3.0));
        assert_eq!(c.time_ms(), Some(5.0), "on since 5 ms, after the last one off at 3 ms");
    }

    #[test]
    fn a_rate_is_not_judged_once_its_source_ignores_feedback() {
        // The second rate stops being the network's at 2 ms (its source sends a fixed rate).
        let mut c = Convergence::new(vec![(1, 2, f64::INFINITY), (3, 4, 2.0)], 0.0);
        c.add(&[1.0, 10.0, 10.0, 50.0, 10.0]);
        assert_eq!(c.time_ms(), None, "off while both are judged");
        c.add(&[2.0, 10.0, 10.0, 50.0, 10.0]);
        c.add(&[3.0, 10.0, 10.0, 50.0, 10.0]);
        assert_eq!(c.time_ms(), Some(2.0));
        assert_eq!(c.on_target_fraction(), Some(2.0 / 3.0));
    }
}
