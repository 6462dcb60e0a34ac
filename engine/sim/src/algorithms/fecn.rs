//! FECN on an Ethernet switch port: computes the advertised rate every interval T and writes it
//! into passing rate-discovery tags (see `ethernet::fecn` for the control law and its source).

use super::{Admit, AlgorithmSpec, Networks, PortInfo, PortView, SwitchAlgorithm};
use crate::cell::{Cell, CellKind};
use crate::ethernet::fecn::{FecnParams, FecnPort};
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
    network: Networks::Ethernet,
    summary: "802.1Qau FECN: every T the port computes one advertised rate from its load and a hyperbolic function of its queue; sources learn it from rate-discovery tags the receiver reflects.",
    params: &PARAMS,
    build,
};

fn build(p: &Params, port: PortInfo) -> Box<dyn SwitchAlgorithm> {
    let mut f = Fecn {
        port: FecnPort::new(FecnParams::default()),
        unit_bits: port.unit_bits,
        link_bps: port.link_rate * port.unit_bits,
        interval: 1,
        next_end: 0,
        bits: 0.0,
    };
    f.reconfigure(p);
    f.port = FecnPort::new(f.port.p);
    f.next_end = f.interval;
    Box::new(f)
}

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
        self.port.p = FecnParams {
            capacity_bps: self.link_bps,
            n0: p.get("n0"),
            interval_s: p.get("interval_us") * 1e-6,
            a: p.get("a"),
            b: p.get("b"),
            c: p.get("c"),
            alpha: p.get("alpha"),
            qeq_bits: 8.0 * p.get("qeq_bytes"),
        };
    }

    fn internal_names(&self) -> &'static [&'static str] {
        &["advertised_rate_mbps"]
    }

    fn internal_values(&self, out: &mut Vec<f64>) {
        out.push(self.port.rate / 1e6);
    }
}
