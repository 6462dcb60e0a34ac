//! EPRCA: Enhanced Proportional Rate Control Algorithm (L. Roberts, ATM Forum/94-0735R1).
//! Sources read: R. Jain, "Congestion control and traffic management in ATM networks: recent
//! advances and a survey" (1996). Definition: published for the MACR average and the AV, DPF,
//! ERF, MRF values; the queue thresholds QT/DQT are our defaults. MACR starts at the first CCR
//! the port sees (usually a source's ICR), not at the link rate: the published description
//! leaves the start open, and starting at the link rate would let the first VCs overshoot.
//!
//! ```text
//!   on FRM:  if not congested or CCR < MACR:  MACR += AV · (CCR − MACR)
//!   FairShare = DPF · MACR
//!   on BRM:  q > DQT (very congested):            ER = min(ER, MRF · MACR), CI = 1
//!            q > QT and CCR > FairShare:          ER = min(ER, ERF · MACR)
//! ```

use super::{Admit, AlgorithmSpec, Explain, Feedback, Networks, PortAlgorithm, PortInfo, PortView, SwitchAlgorithm};
use crate::cell::{flag, Cell, CellKind};
use crate::params::{ParamSpec, Params};
use crate::time::cells_to_mbps;

pub const PARAMS: [ParamSpec; 6] = [
    ParamSpec::num(
        "av",
        "",
        1.0 / 16.0,
        0.001,
        1.0,
        "Averaging weight of MACR, the running mean of the CCRs in forward RM cells",
    ),
    ParamSpec::num("dpf", "", 7.0 / 8.0, 0.1, 1.0, "Down-pressure factor: FairShare = DPF × MACR"),
    ParamSpec::num(
        "erf",
        "",
        15.0 / 16.0,
        0.1,
        1.0,
        "Explicit reduction factor: a congested port gives VCs above FairShare ERF × MACR",
    ),
    ParamSpec::num(
        "mrf",
        "",
        0.25,
        0.01,
        1.0,
        "Major reduction factor: a very congested port gives everyone MRF × MACR and CI = 1",
    ),
    ParamSpec::int(
        "queue_threshold_cells",
        "cells",
        300.0,
        1.0,
        10_000_000.0,
        "QT: the port is congested above this queue",
    ),
    ParamSpec::int("dqt_cells", "cells", 800.0, 1.0, 10_000_000.0, "DQT: the port is very congested above this queue"),
];

pub const SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "eprca",
    name: "EPRCA",
    short_name: "EPRCA",
    network: Networks::Atm,
    feedback: Feedback::ExplicitRate,
    summary:
        "Keeps MACR, a running mean of the sources' CCRs; when the queue passes a threshold, cuts VCs above DPF × MACR.",
    params: &PARAMS,
    build,
};

fn build(p: &Params, port: PortInfo) -> PortAlgorithm {
    let mut e =
        Eprca { av: 0.0, dpf: 0.0, erf: 0.0, mrf: 0.0, qt: 0, dqt: 0, macr: port.link_rate, seeded: false, level: 0 };
    e.reconfigure(p);
    PortAlgorithm::boxed(e)
}

#[derive(Clone)]
pub struct Eprca {
    av: f64,
    dpf: f64,
    erf: f64,
    mrf: f64,
    qt: u32,
    dqt: u32,
    /// Mean allowed cell rate (cells/s).
    pub macr: f64,
    seeded: bool,
    /// 0 uncongested, 1 congested, 2 very congested (at the last look).
    level: u8,
}

impl Eprca {
    fn congestion(&mut self, q: u32) -> u8 {
        self.level = if q > self.dqt {
            2
        } else if q > self.qt {
            1
        } else {
            0
        };
        self.level
    }

    /// The MACR update on a forward RM cell carrying `ccr`.
    pub fn on_ccr(&mut self, ccr: f64, congested: bool) {
        if !self.seeded {
            self.macr = ccr;
            self.seeded = true;
        } else if !congested || ccr < self.macr {
            self.macr += self.av * (ccr - self.macr);
        }
    }
}

impl SwitchAlgorithm for Eprca {
    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) -> Admit {
        if cell.kind == CellKind::Frm && !cell.has(flag::CLP) {
            let congested = self.congestion(port.queue_cells) > 0;
            self.on_ccr(cell.ccr, congested);
        }
        Admit::Keep
    }

    fn on_brm(&mut self, port: &PortView, cell: &mut Cell) {
        match self.congestion(port.queue_cells) {
            2 => {
                cell.er = cell.er.min(self.mrf * self.macr);
                cell.set(flag::CI);
            }
            1 if cell.ccr > self.dpf * self.macr => cell.er = cell.er.min(self.erf * self.macr),
            _ => {}
        }
    }

    fn reconfigure(&mut self, p: &Params) {
        self.av = p.get("av");
        self.dpf = p.get("dpf");
        self.erf = p.get("erf");
        self.mrf = p.get("mrf");
        self.qt = p.get("queue_threshold_cells") as u32;
        self.dqt = (p.get("dqt_cells") as u32).max(self.qt);
    }

    fn explain(&self) -> Explain {
        let mut e =
            Explain::new("q > DQT: ER = min(ER, MRF·MACR), CI = 1;  q > QT and CCR > DPF·MACR: ER = min(ER, ERF·MACR)");
        e.value("macr_mbps", "MACR", "Mbps", cells_to_mbps(self.macr))
            .value("fair_share_mbps", "FairShare = DPF·MACR", "Mbps", cells_to_mbps(self.dpf * self.macr))
            .value("congestion_level", "Thresholds crossed (0 none, 1 QT, 2 DQT)", "", self.level as f64)
            .value("qt_cells", "QT (congested)", "cells", self.qt as f64)
            .value("dqt_cells", "DQT (very congested)", "cells", self.dqt as f64)
            .value("er_congested_mbps", "ER when congested = ERF·MACR", "Mbps", cells_to_mbps(self.erf * self.macr))
            .value(
                "er_very_congested_mbps",
                "ER when very congested = MRF·MACR",
                "Mbps",
                cells_to_mbps(self.mrf * self.macr),
            );
        e
    }

    fn internal_names(&self) -> &'static [&'static str] {
        &["macr_mbps", "congestion_level"]
    }

    fn internal_values(&self, out: &mut Vec<f64>) {
        out.push(cells_to_mbps(self.macr));
        out.push(self.level as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eprca() -> Eprca {
        Eprca {
            av: 1.0 / 16.0,
            dpf: 0.875,
            erf: 0.9375,
            mrf: 0.25,
            qt: 300,
            dqt: 800,
            macr: 0.0,
            seeded: false,
            level: 0,
        }
    }

    fn brm(ccr: f64) -> Cell {
        let mut c = Cell::data(0);
        c.kind = CellKind::Brm;
        c.ccr = ccr;
        c.er = 1e9;
        c
    }

    #[test]
    fn macr_is_an_exponential_average_of_ccr_frozen_upwards_when_congested() {
        let mut e = eprca();
        e.on_ccr(1600.0, false);
        assert_eq!(e.macr, 1600.0, "seeded by the first CCR");
        e.on_ccr(3200.0, false);
        assert!((e.macr - 1700.0).abs() < 1e-9, "MACR + (CCR − MACR)/16");
        e.on_ccr(3200.0, true);
        assert!((e.macr - 1700.0).abs() < 1e-9, "congested: no increase");
        e.on_ccr(100.0, true);
        assert!((e.macr - 1600.0).abs() < 1e-9, "congested: decreases still count");
    }

    #[test]
    fn feedback_depends_on_the_congestion_level() {
        let mut e = eprca();
        e.macr = 1000.0;
        let view = |q| PortView { now: 0, queue_cells: q, vc_queue_cells: 0, vc: 0 };
        let mut c = brm(2000.0);
        e.on_brm(&view(100), &mut c);
        assert_eq!(c.er, 1e9, "uncongested: untouched");
        let mut c = brm(2000.0);
        e.on_brm(&view(400), &mut c);
        assert!((c.er - 937.5).abs() < 1e-9, "congested, above FairShare 875: ERF × MACR");
        let mut c = brm(800.0);
        e.on_brm(&view(400), &mut c);
        assert_eq!(c.er, 1e9, "congested but below FairShare: untouched");
        let mut c = brm(800.0);
        e.on_brm(&view(900), &mut c);
        assert!((c.er - 250.0).abs() < 1e-9 && c.has(flag::CI), "very congested: MRF × MACR and CI");
    }
}
