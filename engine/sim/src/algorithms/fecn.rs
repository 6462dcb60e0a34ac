//! FECN: Forward Explicit Congestion Notification (Jiang & Jain, IEEE 802.1au, January 2007).
//! Definition: the switch's main loop, defaults and tag rule are published (the authors'
//! pseudo-code); the bodies of the averaging, limited-increase and capacity-adjustment
//! subroutines are reconstructed (reference §9.1).
//!
//! Every interval T each port computes one advertised rate r_i (bits/s) from the bits received
//! and its queue; sources tag a frame every τ with rate −1, each switch writes min(tag, r_i),
//! the receiver reflects the tag and the source sets its rate limiter to it.
//! ```text
//!   f(q)  = b·Qeq / ((b − 1)·q + Qeq)                q ≤ Qeq   (1 … b)
//!         = max(c, a·Qeq / ((a − 1)·q + Qeq))         q > Qeq
//!   ρ     = bits_received / (T · C · f(q))            effective load
//!   r_i   = min(C, r_{i−1} / ρ)  (ρ > 0);  C if ρ = 0 and the queue is empty, else r_{i−1}
//!   r_i   = α·r_i + (1 − α)·r_{i−1}                   exponential averaging
//!   r_i   = min(r_i, r_{i−1})  if q > Qeq,  else min(r_i, r_{i−1} + C0/N0)   limited increase
//! ```

//!
//! On a switch port the computation runs every interval T and writes the advertised rate into
//! passing rate-discovery tags; the host's side (tagging, reflecting, the rate limiter) is in
//! `ethernet::source`.

use super::{Admit, AlgorithmSpec, Explain, Feedback, Networks, PortAlgorithm, PortInfo, PortView, SwitchAlgorithm};
use crate::cell::{Cell, CellKind};
use crate::params::{ParamSpec, Params};
use crate::time::{from_us, Time};

pub const PARAMS: [ParamSpec; 7] = [
    ParamSpec::num(
        "n0",
        "",
        200.0,
        1.0,
        100_000.0,
        "N₀: the first advertised rate is C/N₀, and increases are limited to C/N₀ per interval",
    ),
    ParamSpec::num("interval_us", "µs", 1000.0, 1.0, 1_000_000.0, "T: the advertised rate is recomputed every T"),
    ParamSpec::num("qeq_bytes", "bytes", 24_000.0, 1.0, 1e10, "Qeq: the queue the control function aims at"),
    ParamSpec::num("a", "", 1.1, 1.0, 10.0, "a: how steeply the queue-control factor falls above Qeq"),
    ParamSpec::num("b", "", 1.002, 1.0, 2.0, "b: the queue-control factor at an empty queue"),
    ParamSpec::num("c", "", 0.1, 0.001, 1.0, "c: the floor of the queue-control factor"),
    ParamSpec::num("alpha", "", 0.5, 0.0, 1.0, "α: weight of the new rate in the exponential average"),
];

pub const SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "fecn",
    name: "FECN",
    short_name: "FECN",
    network: Networks::Ethernet,
    feedback: Feedback::RateTag,
    summary: "802.1Qau FECN: every T the port computes one advertised rate from its load and a hyperbolic function of its queue; sources learn it from rate-discovery tags the receiver reflects.",
    params: &PARAMS,
    build,
};

fn build(p: &Params, port: PortInfo) -> PortAlgorithm {
    let link_bps = port.link_rate * port.unit_bits;
    let interval = from_us(p.get("interval_us")).max(1);
    PortAlgorithm::boxed(Fecn {
        port: FecnPort::new(FecnParams::from_params(p, link_bps)),
        unit_bits: port.unit_bits,
        link_bps,
        interval,
        next_end: interval,
        bits: 0.0,
    })
}

#[derive(Clone)]
pub struct Fecn {
    pub port: FecnPort,
    unit_bits: f64,
    link_bps: f64,
    interval: Time,
    next_end: Time,
    bits: f64,
}

impl Fecn {
    fn catch_up(&mut self, now: Time, queue_cells: u32) {
        while now >= self.next_end {
            let q = queue_cells as f64 * self.unit_bits;
            self.port.end_interval(self.bits, q, self.link_bps);
            self.bits = 0.0;
            self.next_end += self.interval;
        }
    }
}

impl SwitchAlgorithm for Fecn {
    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) -> Admit {
        self.catch_up(port.now, port.queue_cells);
        if !cell.is_backward() {
            self.bits += self.unit_bits;
        }
        if cell.kind == CellKind::Frm {
            // Tags are in frames/s; the port computes in bits/s.
            let tag_bps = if cell.er < 0.0 { -1.0 } else { cell.er * self.unit_bits };
            cell.er = self.port.mark(tag_bps) / self.unit_bits;
        }
        Admit::Keep
    }

    fn on_brm(&mut self, _: &PortView, _: &mut Cell) {}

    fn reconfigure(&mut self, p: &Params) {
        self.interval = from_us(p.get("interval_us")).max(1);
        self.port.p = FecnParams::from_params(p, self.link_bps);
    }

    fn explain(&self) -> Explain {
        let (port, p) = (&self.port, &self.port.p);
        let mut e = Explain::new(
            "every T: ρ = bits / (T·C·f(q)); r = min(C, r_prev / ρ), averaged by α, limited increase; \
             tags leave with min(tag, r)",
        );
        e.value("advertised_rate_mbps", "Advertised rate r", "Mbps", port.rate / 1e6)
            .value("previous_rate_mbps", "Previous rate r_prev", "Mbps", port.prev / 1e6)
            .value("load", "Effective load ρ", "", port.load)
            .value("queue_control_factor", "f(q)", "", port.factor)
            .value("queue_bytes", "Queue q at the interval's end", "bytes", port.queue_bits / 8.0)
            .value("qeq_bytes", "Qeq", "bytes", p.qeq_bits / 8.0)
            .value("capacity_mbps", "C", "Mbps", p.capacity_bps / 1e6)
            .value("n0", "N₀", "", p.n0);
        e
    }

    fn internal_names(&self) -> &'static [&'static str] {
        &["advertised_rate_mbps"]
    }

    fn internal_values(&self, out: &mut Vec<f64>) {
        out.push(self.port.rate / 1e6);
    }
}

/// FECN switch parameters (their defaults, from the authors' pseudo-code, are in `PARAMS`).
#[derive(Debug, Clone, Copy)]
pub struct FecnParams {
    /// Nominal capacity C0 (bits/s).
    pub capacity_bps: f64,
    /// Initial rate divider N0: the first advertised rate is C0/N0, and increases are limited to
    /// C0/N0 per interval.
    pub n0: f64,
    /// Measurement interval T (s).
    pub interval_s: f64,
    pub a: f64,
    pub b: f64,
    pub c: f64,
    /// Exponential-averaging weight α.
    pub alpha: f64,
    /// Queue equilibrium Qeq (bits).
    pub qeq_bits: f64,
}

impl FecnParams {
    /// The port's parameters from the scenario's values over `PARAMS`, on a link of `capacity_bps`.
    pub fn from_params(p: &Params, capacity_bps: f64) -> Self {
        FecnParams {
            capacity_bps,
            n0: p.get("n0"),
            interval_s: p.get("interval_us") * 1e-6,
            a: p.get("a"),
            b: p.get("b"),
            c: p.get("c"),
            alpha: p.get("alpha"),
            qeq_bits: 8.0 * p.get("qeq_bytes"),
        }
    }
}

/// The hyperbolic queue-control function f(q) (q and Qeq in bits).
pub fn queue_control(q: f64, qeq: f64, a: f64, b: f64, c: f64) -> f64 {
    crate::algorithms::measure::hyperbolic(q, qeq, a, b, c)
}

/// One port's advertised-rate computation.
#[derive(Debug, Clone)]
pub struct FecnPort {
    pub p: FecnParams,
    /// Advertised rate of the last interval (bits/s).
    pub rate: f64,
    prev: f64,
    initialized: bool,
    /// The last interval's queue (bits), f(q) and effective load ρ (for `explain`).
    queue_bits: f64,
    factor: f64,
    load: f64,
}

impl FecnPort {
    pub fn new(p: FecnParams) -> Self {
        let r0 = p.capacity_bps / p.n0;
        FecnPort { p, rate: r0, prev: r0, initialized: false, queue_bits: 0.0, factor: 1.0, load: 0.0 }
    }

    /// End of an interval: `bits_received` arrived, the queue is `queue_bits`, the measured
    /// capacity is `capacity_bps`. Returns the new advertised rate.
    pub fn end_interval(&mut self, bits_received: f64, queue_bits: f64, capacity_bps: f64) -> f64 {
        if !self.initialized {
            if bits_received <= 0.0 {
                return self.rate;
            }
            self.initialized = true;
        } else if bits_received <= 0.0 {
            self.prev = self.rate;
            self.rate = self.p.capacity_bps / self.p.n0;
            return self.rate;
        }
        let p = &self.p;
        let last = self.rate;
        let f = queue_control(queue_bits, p.qeq_bits, p.a, p.b, p.c);
        let rho = bits_received / (p.interval_s * capacity_bps * f);
        (self.queue_bits, self.factor, self.load) = (queue_bits, f, rho);
        let mut r = if rho > 0.0 {
            (last / rho).min(capacity_bps)
        } else if queue_bits < 1.0 {
            capacity_bps
        } else {
            last
        };
        r = p.alpha * r + (1.0 - p.alpha) * last;
        r = if queue_bits > p.qeq_bits { r.min(last) } else { r.min(last + p.capacity_bps / p.n0) };
        self.prev = last;
        self.rate = r;
        r
    }

    /// The rate-discovery tag rule: a switch lowers the tag to its rate, or sets an unknown
    /// (negative) tag.
    pub fn mark(&self, tag_bps: f64) -> f64 {
        if tag_bps < 0.0 || tag_bps > self.rate {
            self.rate
        } else {
            tag_bps
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The catalogue's defaults on a 10 Gb/s link, with N₀ = `n0`.
    fn params(n0: f64) -> FecnParams {
        let set = std::collections::BTreeMap::from([("n0".to_string(), n0)]);
        FecnParams::from_params(&Params::new(&PARAMS, &[&set]), 10e9)
    }

    #[test]
    fn queue_control_is_b_when_empty_one_at_qeq_and_floored_at_c() {
        let (a, b, c) = (1.1, 1.002, 0.1);
        assert!((queue_control(0.0, 100.0, a, b, c) - 1.002).abs() < 1e-12);
        assert!((queue_control(100.0, 100.0, a, b, c) - 1.0).abs() < 1e-12);
        // 2·Qeq: 1.1·100 / (0.1·200 + 100) = 110 / 120.
        assert!((queue_control(200.0, 100.0, a, b, c) - 110.0 / 120.0).abs() < 1e-12);
        // 10·Qeq: 110 / 200 = 0.55 (reference: f(10·Qeq) = 0.55).
        assert!((queue_control(1000.0, 100.0, a, b, c) - 0.55).abs() < 1e-12);
        assert!((queue_control(1e6, 100.0, a, b, c) - 0.1).abs() < 1e-12);
    }

    #[test]
    fn first_interval_starts_from_c0_over_n0_and_increases_are_limited() {
        // C = 10 Gb/s, N0 = 10: r0 = 1 Gb/s. Four flows at r0 send 4 Mb in 1 ms with an empty
        // queue: f = b, ρ = 4e6 / (1e-3 · 1e10 · 1.002); r = min(C, r0/ρ) = 2.505 Gb/s;
        // averaged with α = 0.5: 1.7525 Gb/s; limited to r0 + C/N0 = 2 Gb/s: stays 1.7525.
        let mut p = FecnPort::new(params(10.0));
        assert_eq!(p.rate, 1e9);
        let r = p.end_interval(4e6, 0.0, 1e10);
        let expected = 0.5 * (1e9 / (4e6 / (1e-3 * 1e10 * 1.002))) + 0.5 * 1e9;
        assert!((r - expected).abs() < 1.0, "{r} vs {expected}");
        // A big jump is capped at + C0/N0 per interval.
        let r2 = p.end_interval(1e5, 0.0, 1e10);
        assert!((r2 - (expected + 1e9)).abs() < 1.0, "{r2}");
    }

    #[test]
    fn no_increase_while_the_queue_is_above_qeq() {
        let mut p = FecnPort::new(params(10.0));
        p.initialized = true;
        let r = p.end_interval(1e5, 400_000.0, 1e10);
        assert!(r <= 1e9, "queue above Qeq: the rate may only fall, got {r}");
        // Overload with a long queue: the rate falls.
        let r2 = p.end_interval(2e7, 400_000.0, 1e10);
        assert!(r2 < r);
    }

    #[test]
    fn tags_only_go_down() {
        let mut p = FecnPort::new(params(200.0));
        p.rate = 2.5e9;
        assert_eq!(p.mark(-1.0), 2.5e9, "an unknown tag takes the switch's rate");
        assert_eq!(p.mark(1e9), 1e9, "a lower rate upstream stays");
        assert_eq!(p.mark(5e9), 2.5e9);
    }
}
