//! EFCI: binary congestion marking (TM 4.0 §5.10.6, EFCI marking).
//! Source: ATM Forum TM 4.0; the hysteresis follows the binary switch of the YATS simulator
//! (luayats `abrmux.h`). Definition: published (the thresholds are the simulator's choice).
//!
//! The port is congested once its queue reaches `high_threshold_cells` and stays so until it
//! falls to `low_threshold_cells`. While congested it sets the EFCI bit of forward data cells;
//! the destination returns CI = 1 in its next backward RM cell and the source cuts ACR by RDF;
//! otherwise the source adds RIF·PCR. Rates oscillate around the fair share.

use super::{Admit, AlgorithmSpec, Explain, Feedback, Networks, PortAlgorithm, PortInfo, PortView, SwitchAlgorithm};
use crate::cell::{flag, Cell, CellKind};
use crate::params::{ParamSpec, Params};

pub const PARAMS: [ParamSpec; 2] = [
    ParamSpec::int(
        "high_threshold_cells",
        "cells",
        100.0,
        1.0,
        10_000_000.0,
        "Congestion starts when the queue reaches this length",
    ),
    ParamSpec::int(
        "low_threshold_cells",
        "cells",
        50.0,
        0.0,
        10_000_000.0,
        "Congestion ends when the queue falls to this length",
    ),
];

pub const SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "efci",
    name: "EFCI marking",
    short_name: "EFCI",
    network: Networks::Atm,
    feedback: Feedback::CongestionBit,
    summary: "Binary feedback: sets EFCI on data cells while the queue is above a threshold (with hysteresis); sources react with RIF/RDF.",
    params: &PARAMS,
    build,
};

fn build(p: &Params, _: PortInfo) -> PortAlgorithm {
    let mut e = Efci { high: 0, low: 0, congested: false };
    e.reconfigure(p);
    PortAlgorithm::boxed(e)
}

#[derive(Clone)]
pub struct Efci {
    high: u32,
    low: u32,
    pub congested: bool,
}

impl Efci {
    pub fn update(&mut self, queue: u32) {
        if queue >= self.high {
            self.congested = true;
        } else if queue <= self.low {
            self.congested = false;
        }
    }
}

impl SwitchAlgorithm for Efci {
    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) -> Admit {
        self.update(port.queue_cells);
        if self.congested && cell.kind == CellKind::Data {
            cell.set(flag::EFCI);
        }
        Admit::Keep
    }

    fn on_brm(&mut self, _: &PortView, _: &mut Cell) {}

    fn reconfigure(&mut self, p: &Params) {
        self.high = p.get("high_threshold_cells") as u32;
        self.low = (p.get("low_threshold_cells") as u32).min(self.high);
    }

    fn explain(&self) -> Explain {
        let mut e = Explain::new("marks EFCI on data cells from q ≥ high until q ≤ low (hysteresis)");
        e.value("congested", "Marking EFCI", "0/1", self.congested as u8 as f64)
            .value("high_cells", "Start marking at q ≥", "cells", self.high as f64)
            .value("low_cells", "Stop marking at q ≤", "cells", self.low as f64);
        e
    }

    fn internal_names(&self) -> &'static [&'static str] {
        &["congested"]
    }

    fn internal_values(&self, out: &mut Vec<f64>) {
        out.push(self.congested as u8 as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_data_cells_with_hysteresis() {
        let mut e = Efci { high: 10, low: 4, congested: false };
        let view = |q| PortView { now: 0, queue_cells: q, vc_queue_cells: 0, vc: 0 };
        let mut c = Cell::data(0);
        e.on_arrival(&view(9), &mut c);
        assert!(!c.has(flag::EFCI));
        e.on_arrival(&view(10), &mut c);
        assert!(c.has(flag::EFCI), "at the high threshold");
        let mut c = Cell::data(0);
        e.on_arrival(&view(5), &mut c);
        assert!(c.has(flag::EFCI), "still congested above the low threshold");
        let mut c = Cell::data(0);
        e.on_arrival(&view(4), &mut c);
        assert!(!c.has(flag::EFCI), "congestion over at the low threshold");
        let mut rm = Cell::data(0);
        rm.kind = CellKind::Frm;
        e.on_arrival(&view(20), &mut rm);
        assert!(!rm.has(flag::EFCI), "RM cells are not marked");
    }
}
