//! QCN's reaction point (IEEE 802.1Qau-2010), the rate limiter of an Ethernet host: a
//! congestion notification cuts the current rate CR by Gd·QntzFb (at most rpgMinDecFac) after
//! remembering it as the target TR; then byte-counter and timer cycles recover: fast recovery
//! CR = (CR + TR)/2, active increase TR += R_AI, hyper-active increase TR += i·R_HAI.
//! Definition: the state machine of public simulator code (ns3-rdma); defaults are the
//! standard's as widely quoted, declared in the host's parameters (reference §9.2). The
//! congestion point is the `qcn` switch algorithm (`algorithms/qcn.rs`).

use crate::params::Params;

/// Reaction-point parameters (802.1Qau managed objects; defaults in the host's catalogue).
#[derive(Debug, Clone, Copy)]
pub struct RpParams {
    /// Line rate, the largest rate (bits/s).
    pub max_rate_bps: f64,
    /// The smallest rate (bits/s).
    pub min_rate_bps: f64,
    /// Gd: the cut per unit of QntzFb (1/128).
    pub gd: f64,
    /// The largest single cut (0.5).
    pub min_dec_fac: f64,
    /// Bytes per byte-counter cycle (150,000).
    pub byte_reset: f64,
    /// Seconds per timer cycle (15 ms).
    pub time_reset_s: f64,
    /// Cycles of fast recovery before active increase (5).
    pub threshold: u32,
    /// Active-increase step R_AI (5 Mb/s).
    pub ai_bps: f64,
    /// Hyper-active-increase step R_HAI (50 Mb/s).
    pub hai_bps: f64,
}

impl RpParams {
    /// The host's reaction-point parameters (`rp_*` in its catalogue) on a line of `line_bps`.
    pub fn from_params(p: &Params, line_bps: f64) -> Self {
        RpParams {
            max_rate_bps: line_bps,
            min_rate_bps: p.get("rp_min_rate_mbps") * 1e6,
            gd: p.get("rp_gd"),
            min_dec_fac: p.get("rp_min_dec_fac"),
            byte_reset: p.get("rp_byte_reset_bytes"),
            time_reset_s: p.get("rp_time_reset_ms") * 1e-3,
            threshold: p.get("rp_threshold") as u32,
            ai_bps: p.get("rp_ai_mbps") * 1e6,
            hai_bps: p.get("rp_hai_mbps") * 1e6,
        }
    }
}

/// Phase of the reaction point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RpStage {
    FastRecovery,
    ActiveIncrease,
    HyperIncrease,
}

/// The reaction point of one rate limiter.
#[derive(Debug, Clone)]
pub struct ReactionPoint {
    pub p: RpParams,
    /// Current rate CR and target rate TR (bits/s).
    pub current: f64,
    pub target: f64,
    pub byte_stage: u32,
    pub time_stage: u32,
    /// Bytes left in the byte-counter cycle.
    bytes_left: f64,
    /// Set once a CNM has limited the rate; a free limiter sends at line rate.
    pub limited: bool,
}

impl ReactionPoint {
    pub fn new(p: RpParams) -> Self {
        ReactionPoint {
            current: p.max_rate_bps,
            target: p.max_rate_bps,
            byte_stage: 0,
            time_stage: 0,
            bytes_left: p.byte_reset,
            limited: false,
            p,
        }
    }

    pub fn stage(&self) -> RpStage {
        let t = self.p.threshold;
        if self.byte_stage < t && self.time_stage < t {
            RpStage::FastRecovery
        } else if self.byte_stage < t || self.time_stage < t {
            RpStage::ActiveIncrease
        } else {
            RpStage::HyperIncrease
        }
    }

    /// A congestion notification with quantised feedback `fb` (1…63) arrives.
    pub fn on_cnm(&mut self, fb: u8) {
        if self.byte_stage != 0 || self.time_stage != 0 || !self.limited {
            self.target = self.current;
        }
        let cut = (self.p.gd * fb as f64).min(self.p.min_dec_fac);
        self.current = (self.current * (1.0 - cut)).max(self.p.min_rate_bps);
        self.byte_stage = 0;
        self.time_stage = 0;
        self.bytes_left = self.p.byte_reset;
        self.limited = true;
    }

    /// `bytes` were sent; returns true when a byte-counter cycle ended (and the rate changed).
    pub fn on_sent(&mut self, bytes: f64) -> bool {
        if !self.limited {
            return false;
        }
        self.bytes_left -= bytes;
        if self.bytes_left > 0.0 {
            return false;
        }
        self.byte_stage += 1;
        // Hyper-active increase runs the byte counter at half the cycle.
        let cycle = if self.stage() == RpStage::HyperIncrease { self.p.byte_reset / 2.0 } else { self.p.byte_reset };
        self.bytes_left += cycle;
        self.cycle();
        true
    }

    /// The timer expired (every `time_reset_s`, half that in hyper-active increase).
    pub fn on_timer(&mut self) {
        if self.limited {
            self.time_stage += 1;
            self.cycle();
        }
    }

    /// The timer period that applies now (s).
    pub fn timer_period_s(&self) -> f64 {
        if self.stage() == RpStage::HyperIncrease {
            self.p.time_reset_s / 2.0
        } else {
            self.p.time_reset_s
        }
    }

    fn cycle(&mut self) {
        let t = self.p.threshold;
        let increase = match self.stage() {
            RpStage::FastRecovery => 0.0,
            RpStage::ActiveIncrease => self.p.ai_bps,
            RpStage::HyperIncrease => self.p.hai_bps * (self.byte_stage.min(self.time_stage) - t + 1) as f64,
        };
        if (self.byte_stage == 1 || self.time_stage == 1) && self.target > 10.0 * self.current {
            self.target /= 8.0; // a stale target far above the rate
        } else {
            self.target += increase;
        }
        self.current = ((self.current + self.target) / 2.0).min(self.p.max_rate_bps);
        if self.current >= self.p.max_rate_bps {
            // At line rate with no notification: the limiter is released.
            self.limited = false;
            self.target = self.p.max_rate_bps;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ethernet::source::ETH_SOURCE_PARAMS;

    fn defaults() -> RpParams {
        let p = Params::new(&ETH_SOURCE_PARAMS, &[]);
        RpParams::from_params(&p, 10e9)
    }

    #[test]
    fn a_cnm_cuts_by_gd_times_feedback_at_most_half() {
        let mut rp = ReactionPoint::new(defaults());
        rp.on_cnm(32); // 1 − 32/128 = 0.75
        assert!((rp.current - 7.5e9).abs() < 1.0);
        assert!((rp.target - 10e9).abs() < 1.0, "the pre-cut rate becomes the target");
        rp.on_cnm(63); // Gd·63 ≈ 0.49
        assert!((rp.current - 7.5e9 * (1.0 - 63.0 / 128.0)).abs() < 1.0);
        let mut rp = ReactionPoint::new(RpParams { gd: 1.0 / 64.0, ..defaults() });
        rp.on_cnm(63); // 63/64 > 0.5: capped at the largest single cut
        assert!((rp.current - 5e9).abs() < 1.0);
    }

    #[test]
    fn recovery_goes_fast_then_active_then_hyper() {
        let mut rp = ReactionPoint::new(defaults());
        rp.on_cnm(63);
        rp.p.max_rate_bps = 1e12; // keep the limiter from being released at line rate here
        let (cr0, tr) = (rp.current, rp.target);
        // Five byte-counter cycles of fast recovery halve the gap to TR each time.
        for k in 1..=4 {
            assert!(rp.on_sent(150_000.0));
            assert_eq!(rp.stage(), RpStage::FastRecovery);
            let expected = tr - (tr - cr0) / 2f64.powi(k);
            assert!((rp.current - expected).abs() < 1.0, "cycle {k}: {} vs {expected}", rp.current);
        }
        rp.on_sent(150_000.0); // byte stage 5: active increase (timer stage still 0)
        assert_eq!(rp.stage(), RpStage::ActiveIncrease);
        assert!((rp.target - (tr + 5e6)).abs() < 1.0, "TR += R_AI");
        for _ in 0..5 {
            rp.on_timer();
        }
        assert_eq!(rp.stage(), RpStage::HyperIncrease, "both counters past the threshold");
        assert!(rp.timer_period_s() < defaults().time_reset_s);
    }

    #[test]
    fn the_limiter_is_released_at_line_rate() {
        let mut rp = ReactionPoint::new(defaults());
        rp.on_cnm(8);
        for _ in 0..40 {
            rp.on_sent(150_000.0);
        }
        assert!(!rp.limited && rp.current == 10e9);
    }
}
