//! DEBRA: Dynamic Explicit Bid Rate Algorithm (Gurski & Williamson, TeleSim report, 1996),
//! built on loss-load curves (Williamson, IEEE/ACM ToN 4(6), 1996); described in Zoranovic &
//! Williamson, MASCOTS 1999. Definition: reconstructed — the idea, the parameters K, C, V and
//! the selective discard are published, these equations are ours.
//!
//! Each interval the port takes every active VC's bid (the CCR of its forward RM cells) and
//! the ABR capacity C_abr = C · link:
//! ```text
//!   Σ bids > C_abr:  F = the fair-loss water level, Σ min(bid_i, F) = C_abr   (cut at once)
//!   otherwise:       F* = the same level with VCs bidding ≈ F (they follow the advertised
//!                    rate, so they would take more) counted as unlimited;
//!                    F = F + (F* − F) / K                                     (probe up, damped)
//!   advertised ER = V · F
//! ```
//! Low bids are always met in full; a greedy bid gains nothing above F. While the queue is
//! above `discard_threshold_cells`, data cells of VCs measured 25 % above V·F are dropped,
//! which protects cooperating sources from a greedy one.

use super::measure::INTERVAL_PARAMS;
use super::measure::{water_level, Interval, VcSet};
use super::{Admit, AlgorithmSpec, Explain, Feedback, Networks, PortAlgorithm, PortInfo, PortView, SwitchAlgorithm};
use crate::cell::{flag, Cell, CellKind};
use crate::params::{ParamSpec, Params};
use crate::time::cells_to_mbps;

pub const PARAMS: [ParamSpec; 6] = [
    ParamSpec::num(
        "k",
        "",
        4.0,
        1.0,
        100.0,
        "K: damping of increases; larger K is less aggressive and converges more slowly",
    ),
    ParamSpec::num("target_utilization", "", 0.95, 0.1, 1.0, "C: the fraction of the link allocated to ABR bids"),
    ParamSpec::num("advertised_fraction", "", 1.0, 0.1, 2.0, "V: the advertised rate is V × the allocation"),
    ParamSpec::int(
        "discard_threshold_cells",
        "cells",
        300.0,
        1.0,
        10_000_000.0,
        "Above this queue, data cells of VCs sending above their allocation are dropped",
    ),
    INTERVAL_PARAMS[0],
    INTERVAL_PARAMS[1],
];

pub const SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "debra",
    name: "DEBRA",
    short_name: "DEBRA",
    network: Networks::Atm,
    feedback: Feedback::ExplicitRate,
    summary: "Loss-load allocation of the sources' bids: bids that fit are met, otherwise a fair water level; selective discard of over-senders.",
    params: &PARAMS,
    build,
};

fn build(p: &Params, port: PortInfo) -> PortAlgorithm {
    let mut d = Debra {
        k: 1.0,
        c: 1.0,
        v: 1.0,
        discard_threshold: 0,
        link_rate: port.link_rate,
        interval: Interval::new(1.0, 1.0),
        vcs: VcSet::new(port.n_vcs),
        bid: vec![0.0; port.n_vcs],
        cells: vec![0; port.n_vcs],
        measured: vec![0.0; port.n_vcs],
        allocation: 0.0,
        aggregate_bid: 0.0,
        scratch: Vec::new(),
        known: vec![false; port.n_vcs],
        n_known: 0,
    };
    d.reconfigure(p);
    d.allocation = d.c * port.link_rate;
    PortAlgorithm::boxed(d)
}

#[derive(Clone)]
pub struct Debra {
    k: f64,
    c: f64,
    v: f64,
    discard_threshold: u32,
    link_rate: f64,
    interval: Interval,
    vcs: VcSet,
    /// Latest bid (CCR) per VC (cells/s).
    bid: Vec<f64>,
    /// Cells per VC in the current interval, and the rate they made in the last one.
    cells: Vec<u32>,
    measured: Vec<f64>,
    /// F (cells/s).
    pub allocation: f64,
    pub aggregate_bid: f64,
    scratch: Vec<f64>,
    known: Vec<bool>,
    n_known: u32,
}

impl Debra {
    /// Recomputes the allocation from the bids of the VCs in `active`.
    pub fn allocate(&mut self, active: &[usize]) {
        let cap = self.c * self.link_rate;
        if active.is_empty() {
            self.aggregate_bid = 0.0;
            self.allocation = cap;
            return;
        }
        self.aggregate_bid = active.iter().map(|&v| self.bid[v]).sum();
        self.scratch.clear();
        if self.aggregate_bid > cap {
            self.scratch.extend(active.iter().map(|&v| self.bid[v]));
            self.allocation = water_level(&mut self.scratch, cap);
            return;
        }
        let advertised = self.v * self.allocation;
        self.scratch.extend(active.iter().map(|&v| {
            if self.bid[v] >= 0.95 * advertised {
                f64::INFINITY
            } else {
                self.bid[v]
            }
        }));
        let level = water_level(&mut self.scratch, cap).min(cap);
        self.allocation =
            if level > self.allocation { self.allocation + (level - self.allocation) / self.k } else { level };
    }

    fn close(&mut self, now: crate::time::Time) {
        let Some(len) = self.interval.close(now) else { return };
        let active: Vec<usize> = (0..self.bid.len()).filter(|&v| self.vcs.seen_now(v)).collect();
        for v in 0..self.cells.len() {
            self.measured[v] = self.cells[v] as f64 / len;
            self.cells[v] = 0;
        }
        self.allocate(&active);
        self.vcs.rotate();
    }
}

impl SwitchAlgorithm for Debra {
    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) -> Admit {
        if self.interval.expired(port.now) {
            self.close(port.now);
        }
        let vc = port.vc as usize;
        let mut admit = Admit::Keep;
        if !cell.is_backward() {
            if self.vcs.mark(vc) == Some(false) && !self.known[vc] {
                // A VC never seen before: offer no more than an equal share at once, instead
                // of the whole capacity its first feedback would otherwise carry.
                self.known[vc] = true;
                self.n_known += 1;
                self.allocation = self.allocation.min(self.c * self.link_rate / self.n_known as f64);
            }
            self.cells[vc] += 1;
            if cell.kind == CellKind::Frm && !cell.has(flag::CLP) {
                self.bid[vc] = cell.ccr;
            }
            if cell.kind == CellKind::Data
                && port.queue_cells > self.discard_threshold
                && self.measured[vc] > 1.25 * self.v * self.allocation
            {
                admit = Admit::Drop;
            }
        }
        if self.interval.count() {
            self.close(port.now);
        }
        admit
    }

    fn on_brm(&mut self, port: &PortView, cell: &mut Cell) {
        if self.interval.expired(port.now) {
            self.close(port.now);
        }
        cell.er = cell.er.min(self.v * self.allocation);
    }

    fn reconfigure(&mut self, p: &Params) {
        self.k = p.get("k");
        self.c = p.get("target_utilization");
        self.v = p.get("advertised_fraction");
        self.discard_threshold = p.get("discard_threshold_cells") as u32;
        self.interval.set_limits(p.get("interval_us"), p.get("interval_cells"));
    }

    fn target_utilization(&self) -> f64 {
        self.c
    }

    fn explain(&self) -> Explain {
        let advertised = self.v * self.allocation;
        let mut e = Explain::new(
            "Σ bids > C·link: F = water level of the bids; else F += (F* − F)/K;  ER = min(ER, V·F); \
             while q > threshold, drop data of VCs above 1.25·V·F",
        );
        e.value("aggregate_bid_mbps", "Σ bids", "Mbps", cells_to_mbps(self.aggregate_bid))
            .value("capacity_mbps", "C·link", "Mbps", cells_to_mbps(self.c * self.link_rate))
            .value("allocation_mbps", "Allocation F", "Mbps", cells_to_mbps(self.allocation))
            .value("advertised_mbps", "Advertised ER = V·F", "Mbps", cells_to_mbps(advertised))
            .value("k", "K", "", self.k)
            .value("discard_threshold_cells", "Discard above queue", "cells", self.discard_threshold as f64);
        for vc in (0..self.bid.len()).filter(|&v| self.known[v]) {
            e.vc(
                vc,
                &[
                    ("bid_mbps", "Bid (CCR)", "Mbps", cells_to_mbps(self.bid[vc])),
                    ("measured_mbps", "Measured rate", "Mbps", cells_to_mbps(self.measured[vc])),
                    (
                        "over_limit",
                        "Above 1.25·V·F (discard candidate)",
                        "0/1",
                        (self.measured[vc] > 1.25 * advertised) as u8 as f64,
                    ),
                ],
            );
        }
        e
    }

    fn internal_names(&self) -> &'static [&'static str] {
        &["aggregate_bid_mbps", "allocation_mbps"]
    }

    fn internal_values(&self, out: &mut Vec<f64>) {
        out.push(cells_to_mbps(self.aggregate_bid));
        out.push(cells_to_mbps(self.allocation));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn debra() -> Debra {
        let none = BTreeMap::new();
        let p = Params::new(&PARAMS, &[&none]);
        let mut d = Debra {
            k: 1.0,
            c: 1.0,
            v: 1.0,
            discard_threshold: 0,
            link_rate: 1000.0,
            interval: Interval::new(1.0, 1.0),
            vcs: VcSet::new(3),
            bid: vec![0.0; 3],
            cells: vec![0; 3],
            measured: vec![0.0; 3],
            allocation: 0.0,
            aggregate_bid: 0.0,
            scratch: Vec::new(),
            known: vec![false; 3],
            n_known: 0,
        };
        d.reconfigure(&p);
        d
    }

    #[test]
    fn overload_is_cut_at_once_to_the_fair_loss_level() {
        let mut d = debra();
        d.allocation = 500.0;
        // C_abr = 950; bids 100, 600, 600 (1,300 > 950): level (950 − 100) / 2 = 425.
        d.bid = vec![100.0, 600.0, 600.0];
        d.allocate(&[0, 1, 2]);
        assert!((d.allocation - 425.0).abs() < 1e-9);
        assert!((d.aggregate_bid - 1300.0).abs() < 1e-9);
    }

    #[test]
    fn underload_probes_up_by_one_kth_of_the_gap() {
        let mut d = debra();
        d.allocation = 300.0;
        // Bids 100, 300, 300: the two at the advertised rate count as unlimited;
        // F* = (950 − 100) / 2 = 425, K = 4: F = 300 + 125 / 4.
        d.bid = vec![100.0, 300.0, 300.0];
        d.allocate(&[0, 1, 2]);
        assert!((d.allocation - 331.25).abs() < 1e-9);
    }
}
