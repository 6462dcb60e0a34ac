//! The Ethernet end system: frames arrive at the host (Bernoulli or constant, at an offered
//! load), wait in its queue, and leave through a rate limiter. The limiter follows FECN (the
//! rate in the reflected rate-discovery tag) and QCN (the reaction point, on congestion
//! notifications); its rate is the lower of the two.

use super::reaction_point::{ReactionPoint, RpParams};
use crate::cell::{flag, Cell, CellKind};
use crate::params::{ParamSpec, Params};
use crate::rng::SplitMix64;
use crate::scenario::Traffic;
use crate::time::{from_us, Time, PS_PER_S};

/// Parameters of an Ethernet source (`connections[].params`, `defaults.source`).
pub const ETH_SOURCE_PARAMS: [ParamSpec; 9] = [
    ParamSpec::num(
        "tag_interval_us",
        "µs",
        1000.0,
        1.0,
        1_000_000.0,
        "FECN: a data frame carries a rate-discovery tag every τ",
    ),
    ParamSpec::num(
        "rp_byte_reset_bytes",
        "bytes",
        150_000.0,
        1_500.0,
        1e9,
        "QCN: bytes per byte-counter cycle of the reaction point",
    ),
    ParamSpec::num(
        "rp_time_reset_ms",
        "ms",
        15.0,
        0.01,
        10_000.0,
        "QCN: length of a timer cycle of the reaction point",
    ),
    ParamSpec::int("rp_threshold", "cycles", 5.0, 1.0, 100.0, "QCN: cycles of fast recovery before active increase"),
    ParamSpec::num("rp_ai_mbps", "Mbps", 5.0, 0.0, 100_000.0, "QCN: active-increase step R_AI"),
    ParamSpec::num("rp_hai_mbps", "Mbps", 50.0, 0.0, 100_000.0, "QCN: hyper-active-increase step R_HAI"),
    ParamSpec::num("rp_gd", "", 1.0 / 128.0, 0.0001, 1.0, "QCN: Gd, the cut per unit of quantised feedback"),
    ParamSpec::num("rp_min_dec_fac", "", 0.5, 0.01, 1.0, "QCN: the largest single cut"),
    ParamSpec::num(
        "rp_min_rate_mbps",
        "Mbps",
        10.0,
        0.001,
        100_000.0,
        "QCN: the reaction point never goes below this rate",
    ),
];

#[derive(Debug, Clone)]
pub struct EthSourceConfig {
    /// Line rate of the access link (frames/s) and bits per frame.
    pub line_rate: f64,
    pub frame_bits: f64,
    pub traffic: Traffic,
    pub start: Time,
    pub stop: Option<Time>,
    /// Time between rate-discovery tags; None: the flow sends none (no FECN switch on its
    /// route reads them).
    pub tag_interval: Option<Time>,
    pub rp: RpParams,
}

impl EthSourceConfig {
    pub fn resolve(
        p: &Params,
        line_rate: f64,
        frame_bits: f64,
        traffic: Traffic,
        start: Time,
        stop: Option<Time>,
    ) -> Self {
        let line_bps = line_rate * frame_bits;
        EthSourceConfig {
            line_rate,
            frame_bits,
            traffic,
            start,
            stop,
            tag_interval: Some(from_us(p.get("tag_interval_us")).max(1)),
            rp: RpParams::from_params(p, line_bps),
        }
    }
}

/// One Ethernet flow's sending host.
#[derive(Debug, Clone)]
pub struct EthSource {
    pub cfg: EthSourceConfig,
    /// The rate FECN allows (frames/s): the line rate until a tag comes back.
    fecn_rate: f64,
    pub rp: ReactionPoint,
    rng: SplitMix64,
    /// Frames waiting at the host, and when the next one arrives (ps).
    pub queued: u64,
    /// The most frames that waited at the host at once (offered faster than the limiter let go).
    pub max_queued: u64,
    next_arrival: f64,
    /// Earliest time the limiter lets the next frame go (ps), and when the last one went.
    next_send: f64,
    last_send: Option<f64>,
    last_tag: Option<Time>,
    next_timer: f64,
    pub offered: u64,
    pub sent: u64,
    /// Rate-discovery tags sent so far (the next tag's `Cell::seq`).
    tags: u32,
}

fn period_ps(rate: f64) -> f64 {
    PS_PER_S as f64 / rate
}

impl EthSource {
    pub fn new(cfg: EthSourceConfig, seed: u64, stream: u64) -> Self {
        let mut s = EthSource {
            fecn_rate: cfg.line_rate,
            rp: ReactionPoint::new(cfg.rp),
            rng: SplitMix64::new(seed, stream),
            queued: 0,
            max_queued: 0,
            next_arrival: cfg.start as f64,
            next_send: cfg.start as f64,
            last_send: None,
            last_tag: None,
            next_timer: f64::INFINITY,
            offered: 0,
            sent: 0,
            tags: 0,
            cfg,
        };
        s.next_arrival += s.gap();
        s
    }

    /// Time to the next arrival (ps).
    fn gap(&mut self) -> f64 {
        let slot = period_ps(self.cfg.line_rate);
        match self.cfg.traffic {
            Traffic::Bernoulli { .. } => slot * self.rng.geometric(self.cfg.traffic.load()) as f64,
            Traffic::Constant { .. } => slot / self.cfg.traffic.load(),
        }
    }

    fn stopped(&self, t: f64) -> bool {
        self.cfg.stop.is_some_and(|s| t >= s as f64)
    }

    pub fn active(&self, now: Time) -> bool {
        now >= self.cfg.start && !self.stopped(now as f64)
    }

    /// The offered load (frames/s), for the oracle.
    pub fn demand(&self) -> f64 {
        self.cfg.traffic.load() * self.cfg.line_rate
    }

    /// The limiter's rate (frames/s).
    pub fn rate(&self) -> f64 {
        let qcn = if self.rp.limited { self.rp.current / self.cfg.frame_bits } else { self.cfg.line_rate };
        self.fecn_rate.min(qcn).min(self.cfg.line_rate)
    }

    pub fn next_event_time(&self) -> Option<Time> {
        let t = if self.queued > 0 { self.next_send } else { self.next_arrival.max(self.next_send) };
        (!self.stopped(t)).then(|| t.ceil() as Time)
    }

    /// Arrivals up to `now`, then a frame if the limiter allows one.
    pub fn on_opportunity(&mut self, now: Time, conn: u32) -> Option<Cell> {
        let t = now as f64;
        if self.stopped(t) {
            return None;
        }
        while self.next_arrival <= t {
            self.queued += 1;
            self.offered += 1;
            self.next_arrival += self.gap();
        }
        self.max_queued = self.max_queued.max(self.queued);
        while self.next_timer <= t {
            self.rp.on_timer();
            self.next_timer += self.rp.timer_period_s() * PS_PER_S as f64;
        }
        if self.queued == 0 || self.next_send > t {
            return None;
        }
        self.queued -= 1;
        self.sent += 1;
        let mut cell = Cell::data(conn);
        if self.cfg.tag_interval.is_some_and(|tau| self.last_tag.is_none_or(|last| now - last >= tau)) {
            // A rate-discovery tag: rate unknown (−1) until a switch writes its rate.
            cell.kind = CellKind::Frm;
            cell.er = -1.0;
            cell.ccr = self.rate();
            cell.seq = self.tags;
            self.tags += 1;
            self.last_tag = Some(now);
        }
        if self.rp.on_sent(self.cfg.frame_bits / 8.0) && !self.rp.limited {
            self.next_timer = f64::INFINITY;
        }
        let start = self.next_send.max(t);
        self.last_send = Some(start);
        self.next_send = start + period_ps(self.rate());
        Some(cell)
    }

    /// Feedback reaches the host: a reflected tag (FECN) or a congestion notification (QCN,
    /// `BN` set, quantised feedback in `er`). Returns true when the next sending time changed.
    pub fn on_feedback(&mut self, now: Time, cell: &Cell) -> bool {
        let before = self.rate();
        if cell.has(flag::BN) {
            // A notification restarts both the byte counter and the timer (fast recovery).
            self.rp.on_cnm(cell.er.clamp(1.0, 63.0) as u8);
            self.next_timer = now as f64 + self.rp.timer_period_s() * PS_PER_S as f64;
        } else if cell.er > 0.0 {
            self.fecn_rate = cell.er.min(self.cfg.line_rate);
        }
        let after = self.rate();
        if after == before {
            return false;
        }
        if let Some(last) = self.last_send {
            self.next_send = (last + period_ps(after)).max(now as f64);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::from_ms;
    use std::collections::BTreeMap;

    fn source(traffic: Traffic) -> EthSource {
        let none = BTreeMap::new();
        let p = Params::new(&ETH_SOURCE_PARAMS, &[&none]);
        // 10 Gb/s of 1500-byte frames: 833,333 frames/s.
        let cfg = EthSourceConfig::resolve(&p, 10e9 / 12_000.0, 12_000.0, traffic, 0, None);
        EthSource::new(cfg, 1, 0)
    }

    fn run_until(s: &mut EthSource, end: Time) -> Vec<(Time, Cell)> {
        let mut out = Vec::new();
        while let Some(t) = s.next_event_time() {
            if t > end {
                break;
            }
            if let Some(c) = s.on_opportunity(t, 0) {
                out.push((t, c));
            }
        }
        out
    }

    #[test]
    fn bernoulli_arrivals_offer_the_load_and_an_unlimited_host_sends_them_all() {
        let mut s = source(Traffic::Bernoulli { load_percent: 50.0 });
        let frames = run_until(&mut s, 100 * from_ms(1.0));
        // 50 % of 833,333 frames/s for 100 ms: 41,667 on average.
        let n = frames.len() as f64;
        assert!((n / 41_667.0 - 1.0).abs() < 0.02, "{n} frames");
        assert!(s.queued <= 1);
    }

    #[test]
    fn a_tag_every_tau_and_fecn_feedback_sets_the_limiter() {
        let mut s = source(Traffic::Constant { load_percent: 100.0 });
        let frames = run_until(&mut s, from_ms(10.0));
        let tags = frames.iter().filter(|(_, c)| c.kind == CellKind::Frm).count();
        assert_eq!(tags, 10, "the first frame (at 1.2 µs), then one a millisecond");
        // A reflected tag of 2.5 Gb/s limits the host to a quarter of the line.
        let mut tag = Cell::data(0);
        tag.kind = CellKind::Brm;
        tag.er = 2.5e9 / 12_000.0;
        assert!(s.on_feedback(from_ms(10.0), &tag));
        assert!((s.rate() - 2.5e9 / 12_000.0).abs() < 1e-6);
        let later = run_until(&mut s, from_ms(20.0));
        let rate = later.len() as f64 / 0.01;
        assert!((rate / (2.5e9 / 12_000.0) - 1.0).abs() < 0.01, "{rate} frames/s");
        assert!(s.queued > 0, "the rest of the offered load waits at the host");
    }

    #[test]
    fn a_congestion_notification_cuts_the_rate_through_the_reaction_point() {
        let mut s = source(Traffic::Constant { load_percent: 100.0 });
        run_until(&mut s, from_ms(1.0));
        let mut cnm = Cell::data(0);
        cnm.kind = CellKind::Brm;
        cnm.set(flag::BN);
        cnm.er = 32.0;
        assert!(s.on_feedback(from_ms(1.0), &cnm));
        assert!((s.rate() * 12_000.0 - 7.5e9).abs() < 1.0, "cut by 32/128");
    }

    #[test]
    fn a_notification_restarts_the_reaction_point_timer() {
        // 200 Mb/s offered: the byte counter runs slowly and the limiter stays engaged.
        let mut s = source(Traffic::Constant { load_percent: 2.0 });
        let mut cnm = Cell::data(0);
        cnm.kind = CellKind::Brm;
        cnm.set(flag::BN);
        cnm.er = 63.0;
        run_until(&mut s, from_ms(1.0));
        s.on_feedback(from_ms(1.0), &cnm);
        run_until(&mut s, from_ms(10.0));
        s.on_feedback(from_ms(10.0), &cnm);
        // A timer still running from 1 ms would expire at 16 ms; restarted, it expires at 25.
        run_until(&mut s, from_ms(24.0));
        assert!(s.rp.limited);
        assert_eq!(s.rp.time_stage, 0, "no timer cycle within 15 ms of the last notification");
        run_until(&mut s, from_ms(26.0));
        assert!(s.rp.limited);
        assert_eq!(s.rp.time_stage, 1);
    }
}
