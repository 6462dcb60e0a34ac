//! The sample rows a run keeps, within a memory budget.
//!
//! While the rows fit the budget every one is kept as it was sampled. When the next row would
//! not fit, the history is decimated: consecutive samples are grouped into buckets of 2^k
//! samples, and each bucket is kept as two rows, the minimum and the maximum of every series
//! over the bucket (the first row carries the bucket's first sample time, the second its last).
//! Each time the budget is reached again, neighbouring buckets merge and k grows by one, so a
//! run of any length keeps at most `capacity` rows, and a chart drawn from them still shows
//! every peak and trough of every series.
//!
//! ```text
//!  raw:      t0 t1 t2 t3 t4 t5 t6 t7 …        (level 0: one row per sample)
//!  level 2:  [min max](t0..t3) [min max](t4..t7) …
//!  level 3:  [min max](t0..t7) …
//! ```
//!
//! NaN (an inactive series) is ignored by min and max; a bucket where a series was inactive
//! throughout keeps NaN.

/// The budget of a run's history in bytes, natively (8 bytes per value, the time included).
pub const HISTORY_BUDGET_BYTES: usize = 128 << 20;

/// The fewest rows a history keeps whatever the network's width, so that even a network of
/// a very large number of series keeps a usable outline (its history then exceeds the budget,
/// in proportion to its size).
pub const MIN_HISTORY_ROWS: usize = 64;

#[derive(Clone)]
pub struct History {
    width: usize,
    capacity: usize,
    /// Samples per bucket: 2^level (level 0: raw rows).
    level: u32,
    rows: Vec<f64>,
    /// Samples in the last bucket (level > 0).
    open: u64,
    samples: u64,
}

impl History {
    /// A history of rows of `width` values (the time first) within `budget_bytes`.
    pub fn new(width: usize, budget_bytes: usize) -> Self {
        let capacity = (budget_bytes / (8 * width.max(1))).max(MIN_HISTORY_ROWS) & !1;
        History { width, capacity, level: 0, rows: Vec::new(), open: 0, samples: 0 }
    }

    /// The most rows kept.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Samples per bucket: 1 while every row is kept, then 4, 8, 16…
    pub fn samples_per_bucket(&self) -> u64 {
        1 << self.level
    }

    /// Whether rows come in (min, max) pairs.
    pub fn decimated(&self) -> bool {
        self.level > 0
    }

    /// Samples recorded, kept or not.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    pub fn rows(&self) -> &[f64] {
        &self.rows
    }

    pub fn row_count(&self) -> usize {
        self.rows.len() / self.width
    }

    pub fn row(&self, i: usize) -> &[f64] {
        &self.rows[i * self.width..(i + 1) * self.width]
    }

    pub fn push(&mut self, row: &[f64]) {
        debug_assert_eq!(row.len(), self.width);
        self.samples += 1;
        if self.level == 0 {
            if self.row_count() < self.capacity {
                // Grow by doubling up to the capacity, never past it.
                if self.rows.len() == self.rows.capacity() {
                    let want = (2 * self.rows.len()).max(16 * self.width).min(self.capacity * self.width);
                    self.rows.reserve_exact(want - self.rows.len());
                }
                self.rows.extend_from_slice(row);
                return;
            }
            self.merge_raw();
        }
        if self.open == self.samples_per_bucket() && self.row_count() + 2 > self.capacity {
            self.merge_buckets();
        }
        if self.open < self.samples_per_bucket() {
            self.widen_last(row);
        } else {
            // A new bucket of one sample.
            self.rows.extend_from_slice(row);
            self.rows.extend_from_slice(row);
            self.open = 1;
        }
    }

    /// Extends the last bucket by one sample.
    fn widen_last(&mut self, row: &[f64]) {
        let w = self.width;
        let n = self.rows.len();
        let (lo, hi) = self.rows[n - 2 * w..].split_at_mut(w);
        for c in 1..w {
            lo[c] = lo[c].min(row[c]);
            hi[c] = hi[c].max(row[c]);
        }
        hi[0] = row[0];
        self.open += 1;
    }

    /// Raw rows to buckets of four samples (the last one possibly still open), in place: bucket
    /// j's two rows go where raw rows 2j and 2j + 1 were, once raw rows 4j… are read.
    fn merge_raw(&mut self) {
        let w = self.width;
        let raw = self.row_count();
        self.level = 2;
        let mut bucket = vec![0.0; 2 * w];
        for j in 0..raw.div_ceil(4) {
            let from = 4 * j * w;
            let samples = (raw - 4 * j).min(4);
            bucket[..w].copy_from_slice(&self.rows[from..from + w]);
            bucket[w..].copy_from_slice(&self.rows[from..from + w]);
            for k in 1..samples {
                let sample = &self.rows[from + k * w..from + (k + 1) * w];
                for c in 1..w {
                    bucket[c] = bucket[c].min(sample[c]);
                    bucket[w + c] = bucket[w + c].max(sample[c]);
                }
                bucket[w] = sample[0];
            }
            self.rows[2 * j * w..(2 * j + 2) * w].copy_from_slice(&bucket);
            self.open = samples as u64;
        }
        self.rows.truncate(raw.div_ceil(4) * 2 * w);
    }

    /// Neighbouring buckets merge in place: half the rows, twice the samples per bucket.
    fn merge_buckets(&mut self) {
        let w = self.width;
        let buckets = self.row_count() / 2;
        for b in 0..buckets {
            let (to, from) = (b / 2 * 2 * w, b * 2 * w);
            if b % 2 == 0 {
                self.rows.copy_within(from..from + 2 * w, to);
            } else {
                for c in 1..w {
                    self.rows[to + c] = self.rows[to + c].min(self.rows[from + c]);
                    self.rows[to + w + c] = self.rows[to + w + c].max(self.rows[from + w + c]);
                }
                self.rows[to + w] = self.rows[from + w];
            }
        }
        self.rows.truncate(buckets.div_ceil(2) * 2 * w);
        self.level += 1;
        // An odd bucket out is the last one, half full at the new size.
        self.open = if buckets % 2 == 1 { self.samples_per_bucket() / 2 } else { self.samples_per_bucket() };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of two series: a ramp and a sawtooth with NaN gaps.
    fn sample(i: u64) -> [f64; 3] {
        let saw = if i % 10 == 7 { f64::NAN } else { (i % 13) as f64 };
        [i as f64, i as f64 * 0.5, saw]
    }

    fn min_max(from: u64, to: u64, col: usize) -> (f64, f64) {
        (from..=to).map(|i| sample(i)[col]).fold((f64::NAN, f64::NAN), |(lo, hi), v| (lo.min(v), hi.max(v)))
    }

    #[test]
    fn rows_are_kept_as_sampled_while_they_fit() {
        let mut h = History::new(3, 8 * 3 * 100);
        for i in 0..100 {
            h.push(&sample(i));
        }
        assert!(!h.decimated());
        assert_eq!(h.row_count(), 100);
        assert_eq!(h.row(42)[0], 42.0);
        assert!(h.row(7)[2].is_nan());
    }

    #[test]
    fn a_long_run_stays_within_capacity_and_every_bucket_holds_the_extremes_of_its_samples() {
        let mut h = History::new(3, 8 * 3 * 100);
        assert_eq!(h.capacity(), 100);
        for n in 1..=5000u64 {
            h.push(&sample(n - 1));
            assert!(h.row_count() <= h.capacity(), "{} rows after {n} samples", h.row_count());
            if !h.decimated() {
                continue;
            }
            // Buckets are consecutive and cover every sample so far exactly once.
            let per = h.samples_per_bucket();
            let buckets = h.row_count() / 2;
            for b in 0..buckets {
                let first = b as u64 * per;
                let last = ((b as u64 + 1) * per - 1).min(n - 1);
                assert_eq!(h.row(2 * b)[0], first as f64, "bucket {b} start after {n} samples");
                assert_eq!(h.row(2 * b + 1)[0], last as f64, "bucket {b} end after {n} samples");
                for col in 1..3 {
                    let (lo, hi) = min_max(first, last, col);
                    assert_eq!(h.row(2 * b)[col], lo, "min of column {col}, bucket {b}, {n} samples");
                    assert_eq!(h.row(2 * b + 1)[col], hi, "max of column {col}, bucket {b}, {n} samples");
                }
            }
            assert_eq!(buckets as u64, n.div_ceil(per), "buckets after {n} samples");
        }
        assert_eq!(h.samples(), 5000);
        assert!(h.samples_per_bucket() >= 5000 / 100);
    }

    #[test]
    fn a_series_inactive_over_a_whole_bucket_stays_nan() {
        let mut h = History::new(2, 8 * 2 * 64);
        for i in 0..1000 {
            h.push(&[i as f64, if (200..600).contains(&i) { f64::NAN } else { 1.0 }]);
        }
        let per = h.samples_per_bucket() as usize;
        let inside = (0..h.row_count() / 2).find(|b| b * per >= 200 && (b + 1) * per <= 600).expect("a bucket inside");
        assert!(h.row(2 * inside)[1].is_nan() && h.row(2 * inside + 1)[1].is_nan());
        assert_eq!(h.row(0)[1], 1.0);
    }
}
