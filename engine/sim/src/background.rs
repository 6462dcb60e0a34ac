//! CBR/VBR background sources: higher-priority traffic that ignores feedback, so that ABR sees a
//! varying available capacity. An on/off source alternates exponentially distributed on and off
//! times (its own seeded stream) and sends at its peak while on.

use crate::cell::{flag, Cell};
use crate::rng::SplitMix64;
use crate::scenario::Background;
use crate::time::{mbps_to_cells, Time, PS_PER_MS, PS_PER_S};

#[derive(Debug, Clone)]
pub struct BackgroundSource {
    /// Cells/s while on.
    peak: f64,
    /// Mean on and off times (ps); `None` for CBR (always on).
    on_off: Option<(f64, f64)>,
    rng: SplitMix64,
    pub on: bool,
    phase_end: f64,
    next_tx: f64,
    start: Time,
    stop: Option<Time>,
}

impl BackgroundSource {
    pub fn new(b: &Background, start: Time, stop: Option<Time>, seed: u64, stream: u64) -> Self {
        let (peak, on_off) = match *b {
            Background::Cbr { rate_mbps } => (mbps_to_cells(rate_mbps), None),
            Background::OnOff { peak_mbps, mean_on_ms, mean_off_ms } => {
                (mbps_to_cells(peak_mbps), Some((mean_on_ms * PS_PER_MS as f64, mean_off_ms * PS_PER_MS as f64)))
            }
        };
        let mut s = BackgroundSource {
            peak,
            on_off,
            rng: SplitMix64::new(seed, stream),
            on: true,
            phase_end: f64::INFINITY,
            next_tx: start as f64,
            start,
            stop,
        };
        if let Some((mean_on, _)) = on_off {
            s.phase_end = start as f64 + s.exponential(mean_on);
        }
        s
    }

    fn exponential(&mut self, mean: f64) -> f64 {
        -mean * libm::log(self.rng.uniform()) // libm: identical natively and in wasm
    }

    fn stopped(&self, t: f64) -> bool {
        self.stop.is_some_and(|s| t >= s as f64)
    }

    /// VBR: it turns on and off at random; CBR sends at its rate throughout.
    pub fn is_on_off(&self) -> bool {
        self.on_off.is_some()
    }

    pub fn active(&self, now: Time) -> bool {
        now >= self.start && !self.stopped(now as f64)
    }

    /// The rate it sends at now (cells/s).
    pub fn rate(&self) -> f64 {
        if self.on {
            self.peak
        } else {
            0.0
        }
    }

    pub fn next_event_time(&self) -> Option<Time> {
        let t = if self.on { self.next_tx.min(self.phase_end) } else { self.phase_end };
        (t.is_finite() && !self.stopped(t)).then(|| t.ceil() as Time)
    }

    pub fn on_opportunity(&mut self, now: Time, conn: u32) -> Option<Cell> {
        let t = now as f64;
        if self.stopped(t) {
            return None;
        }
        while self.phase_end <= t {
            let (mean_on, mean_off) = self.on_off.expect("only on/off sources have phases");
            self.on = !self.on;
            let len = self.exponential(if self.on { mean_on } else { mean_off });
            if self.on {
                self.next_tx = self.phase_end;
            }
            self.phase_end += len;
        }
        if !self.on || self.next_tx > t {
            return None;
        }
        self.next_tx = self.next_tx.max(t) + PS_PER_S as f64 / self.peak;
        let mut cell = Cell::data(conn);
        cell.set(flag::VBR);
        Some(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::from_ms;

    fn count(s: &mut BackgroundSource, end: Time) -> u64 {
        let mut n = 0;
        while let Some(t) = s.next_event_time() {
            if t > end {
                break;
            }
            n += s.on_opportunity(t, 0).is_some() as u64;
        }
        n
    }

    #[test]
    fn cbr_sends_at_its_rate_with_the_vbr_flag() {
        let mut s = BackgroundSource::new(&Background::Cbr { rate_mbps: 42.4 }, 0, None, 1, 0);
        // 42.4 Mb/s = 100,000 cells/s: 1,001 cells in 10 ms (both ends included).
        assert_eq!(count(&mut s, from_ms(10.0)), 1001);
        let mut s = BackgroundSource::new(&Background::Cbr { rate_mbps: 42.4 }, 0, None, 1, 0);
        assert!(s.on_opportunity(0, 3).unwrap().has(flag::VBR));
    }

    #[test]
    fn on_off_sends_at_peak_for_the_on_fraction_on_average() {
        let b = Background::OnOff { peak_mbps: 42.4, mean_on_ms: 2.0, mean_off_ms: 6.0 };
        let mut s = BackgroundSource::new(&b, 0, None, 7, 3);
        let n = count(&mut s, from_ms(4000.0)) as f64;
        // Peak 100,000 cells/s for a quarter of 4 s: 100,000 cells on average.
        assert!((n / 100_000.0 - 1.0).abs() < 0.1, "{n} cells");
    }
}
