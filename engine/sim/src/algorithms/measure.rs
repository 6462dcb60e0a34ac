//! Measurement helpers shared by the interval-based algorithms.

use crate::params::ParamSpec;
use crate::time::{from_us, to_s, Time};

/// The measurement interval's two limits, shared by the interval-based algorithms.
pub const INTERVAL_PARAMS: [ParamSpec; 2] = [
    ParamSpec::num(
        "interval_us",
        "µs",
        1000.0,
        1.0,
        1_000_000.0,
        "Measurement interval by time: closes after this long at most",
    ),
    ParamSpec::int(
        "interval_cells",
        "cells",
        100.0,
        1.0,
        1_000_000.0,
        "Measurement interval by count: closes after this many arriving cells at most",
    ),
];

/// An averaging interval that closes after a time or a cell count, whichever comes first.
#[derive(Debug, Clone)]
pub struct Interval {
    pub max_len: Time,
    pub max_cells: u64,
    start: Time,
    cells: u64,
}

impl Interval {
    pub fn new(max_len_us: f64, max_cells: f64) -> Self {
        Interval { max_len: from_us(max_len_us).max(1), max_cells: max_cells.max(1.0) as u64, start: 0, cells: 0 }
    }

    pub fn set_limits(&mut self, max_len_us: f64, max_cells: f64) {
        self.max_len = from_us(max_len_us).max(1);
        self.max_cells = max_cells.max(1.0) as u64;
    }

    /// Counts one arriving cell; true when the count limit is reached.
    pub fn count(&mut self) -> bool {
        self.cells += 1;
        self.cells >= self.max_cells
    }

    /// Counts one arriving cell at `now` when that neither closes the interval by time (it
    /// has not `expired`) nor by count (the limit is not reached): true when counted. Else
    /// nothing changes, and the caller takes the general way (`expired`, `count`).
    #[inline]
    pub fn count_within(&mut self, now: Time) -> bool {
        let open = !self.expired(now) && self.cells + 1 < self.max_cells;
        self.cells += open as u64;
        open
    }

    pub fn cells(&self) -> u64 {
        self.cells
    }

    pub fn expired(&self, now: Time) -> bool {
        now.saturating_sub(self.start) >= self.max_len
    }

    /// Closes the interval at `now`: its length (s), or `None` if it has no length yet.
    pub fn close(&mut self, now: Time) -> Option<f64> {
        let len = to_s(now.saturating_sub(self.start));
        if len <= 0.0 {
            return None;
        }
        self.start = now;
        self.cells = 0;
        Some(len)
    }
}

/// Which VCs were seen in the current and in the previous interval (generation stamps: no
/// clearing per interval).
#[derive(Debug, Clone)]
pub struct VcSet {
    gen: u32,
    stamp: Vec<u32>,
    /// VCs seen in the current interval.
    pub count: u32,
}

impl Default for VcSet {
    fn default() -> Self {
        VcSet::new(0)
    }
}

impl VcSet {
    pub fn new(n_vcs: usize) -> Self {
        // Stamps start at 0, which must mean "never seen", not "seen last interval".
        VcSet { gen: 2, stamp: vec![0; n_vcs], count: 0 }
    }

    /// Marks `vc` seen; returns `Some(was_seen_last_interval)` the first time in an interval.
    pub fn mark(&mut self, vc: usize) -> Option<bool> {
        if self.stamp[vc] == self.gen {
            return None;
        }
        let last = self.stamp[vc] == self.gen.wrapping_sub(1);
        self.stamp[vc] = self.gen;
        self.count += 1;
        Some(last)
    }

    pub fn seen_now(&self, vc: usize) -> bool {
        self.stamp[vc] == self.gen
    }

    pub fn seen_last(&self, vc: usize) -> bool {
        self.stamp[vc] == self.gen.wrapping_sub(1)
    }

    /// Starts a new interval; returns how many VCs the closed one saw.
    pub fn rotate(&mut self) -> u32 {
        let n = self.count;
        self.gen = self.gen.wrapping_add(1);
        self.count = 0;
        n
    }
}

/// The hyperbolic queue-control function f(q) of ERICA+ and FECN: from b at an empty queue down
/// to 1 at the target `q0`, then towards 0 above it, never below `floor` (q and q0 in the same
/// unit).
pub fn hyperbolic(q: f64, q0: f64, a: f64, b: f64, floor: f64) -> f64 {
    if q <= q0 {
        b * q0 / ((b - 1.0) * q + q0)
    } else {
        (a * q0 / ((a - 1.0) * q + q0)).max(floor)
    }
}

/// The water level F with Σ min(bid_i, F) = capacity (∞ when the bids fit). Bids of
/// `f64::INFINITY` stand for VCs that would take any rate offered.
pub fn water_level(bids: &mut [f64], capacity: f64) -> f64 {
    bids.sort_by(|a, b| a.total_cmp(b));
    let mut left = capacity;
    let n = bids.len();
    for (i, &b) in bids.iter().enumerate() {
        let level = left / (n - i) as f64;
        if b > level {
            return level.max(0.0);
        }
        left -= b;
    }
    f64::INFINITY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn water_level_gives_low_bidders_their_bid_and_splits_the_rest() {
        // Capacity 100, bids 10, 50, 80: 10 fits; (100 − 10) / 2 = 45 < 50 → F = 45.
        assert!((water_level(&mut [80.0, 10.0, 50.0], 100.0) - 45.0).abs() < 1e-12);
        assert_eq!(water_level(&mut [10.0, 20.0], 100.0), f64::INFINITY);
        assert!((water_level(&mut [f64::INFINITY, 30.0], 100.0) - 70.0).abs() < 1e-12);
    }

    #[test]
    fn interval_closes_by_count_or_time() {
        let mut i = Interval::new(10.0, 3.0);
        assert!(!i.count());
        assert!(!i.count());
        assert!(i.count());
        assert!(!i.expired(9_999_999));
        assert!(i.expired(10_000_000));
        assert!((i.close(10_000_000).unwrap() - 1e-5).abs() < 1e-15);
        assert_eq!(i.cells(), 0);
    }

    #[test]
    fn vc_set_tells_new_vcs_from_returning_ones() {
        let mut s = VcSet::new(3);
        assert_eq!(s.mark(0), Some(false));
        assert_eq!(s.mark(0), None);
        assert_eq!(s.rotate(), 1);
        assert_eq!(s.mark(0), Some(true));
        assert_eq!(s.mark(1), Some(false));
        assert!(s.seen_now(1) && !s.seen_last(1));
    }
}
