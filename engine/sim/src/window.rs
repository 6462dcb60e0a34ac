//! What a run's summary needs from its samples, gathered as they are taken, so that the
//! summary is exact whatever the history keeps (see [`crate::history`]).
//!
//! - [`SteadyWindow`]: the steady-state window from `run.steady_from_ms` to the last sample —
//!   its first and last times and counters, and per series the sum over the window's rows
//!   before the last, added in row order (the same floating-point sums as adding the stored
//!   rows up afterwards).
//! - [`Convergence`]: the first sample from which on the rates the network sets stay within
//!   10 % of their shares.

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
/// most 1 % of them are more than 10 % off their target share.
#[derive(Clone)]
pub struct Convergence {
    /// (rate column, target column) of each rate judged.
    pairs: Vec<(usize, usize)>,
    /// The first judged sample since the last one off, if any.
    since_last_off: Option<f64>,
}

impl Convergence {
    pub fn new(pairs: Vec<(usize, usize)>) -> Self {
        Convergence { pairs, since_last_off: None }
    }

    /// How many rates are judged.
    pub fn judged(&self) -> usize {
        self.pairs.len()
    }

    pub fn add(&mut self, row: &[f64]) {
        let mut active = 0;
        let mut off = 0;
        for &(col_rate, col_share) in &self.pairs {
            let (rate, target) = (row[col_rate], row[col_share]);
            if rate.is_nan() || target.is_nan() {
                continue;
            }
            active += 1;
            if (rate - target).abs() > 0.1 * target {
                off += 1;
            }
        }
        if active > 0 && off as f64 > 0.01 * active as f64 {
            self.since_last_off = None;
        } else if active > 0 && self.since_last_off.is_none() {
            self.since_last_off = Some(row[0]);
        }
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
        let mut c = Convergence::new(vec![(1, 2)]);
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
}
