//! UT: Uniform Tracking.
//! Source: C. Fulton, S.-Q. Li, C.S. Lim, "UT: ABR feedback control with tracking", IEEE
//! INFOCOM 1997, and ATM Forum/97-0239 (neither available to us).
//! Definition: reconstructed from the published idea (track the measured aggregate rate with an
//! effective number of connections), not the original equations.
//!
//! Every measurement interval, with A the measured arrival rate, C_t = ρ_T · link, and R the
//! largest CCR declared in the interval's forward RM cells (the rate of the VCs that follow
//! the explicit rate):
//! ```text
//!   N_eff = max(1, A / R)                a VC sending at R counts 1, a slower one less
//!   ER    = R · (C_t / A)^g              = C_t / N_eff for g = 1   (uniform tracking)
//!   ER    = min(ER, C_t);  ER = C_t when nothing arrived;  C_t = ρ_T · (link − VBR rate)
//! ```
//! The fixed point is max-min fair: unconstrained VCs share what the constrained ones leave.
//! Tracking from the declared rate R rather than from the last advertised ER keeps the rate
//! and the load it produced in step when the feedback delay spans many intervals (the same
//! reason ERICA scales CCR by the load); g < 1 damps the correction.

use super::measure::Interval;
use super::measure::INTERVAL_PARAMS;
use super::{Admit, AlgorithmSpec, Explain, Feedback, Networks, PortAlgorithm, PortInfo, PortView, SwitchAlgorithm};
use crate::cell::{flag, Cell, CellKind};
use crate::params::{ParamSpec, Params};
use crate::time::cells_to_mbps;

pub const PARAMS: [ParamSpec; 4] = [
    ParamSpec::num(
        "target_utilization",
        "",
        0.95,
        0.1,
        1.0,
        "ρ_T: the fraction of the link the tracked rate aims to fill",
    ),
    ParamSpec::num(
        "gain",
        "",
        0.5,
        0.05,
        1.0,
        "g: fraction (as an exponent) of the tracking correction applied per interval",
    ),
    INTERVAL_PARAMS[0],
    INTERVAL_PARAMS[1],
];

pub const SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "ut",
    name: "Uniform Tracking",
    short_name: "UT",
    network: Networks::Atm,
    feedback: Feedback::ExplicitRate,
    summary: "Tracks the measured aggregate rate: scales one explicit rate for all VCs by target capacity / measured load each interval.",
    params: &PARAMS,
    build,
};

fn build(p: &Params, port: PortInfo) -> PortAlgorithm {
    let mut ut = UniformTracking {
        rho: 0.0,
        gain: 1.0,
        link_rate: port.link_rate,
        interval: Interval::new(1.0, 1.0),
        er: 0.0,
        effective_vcs: 0.0,
        arrival_rate: 0.0,
        declared_rate: 0.0,
        target: 0.0,
        max_ccr: 0.0,
        vbr_cells: 0,
        known: vec![false; port.n_vcs],
        n_known: 0,
    };
    ut.reconfigure(p);
    ut.er = ut.rho * port.link_rate;
    PortAlgorithm::boxed(ut)
}

#[derive(Clone)]
pub struct UniformTracking {
    rho: f64,
    gain: f64,
    link_rate: f64,
    interval: Interval,
    /// The tracked explicit rate (cells/s).
    pub er: f64,
    effective_vcs: f64,
    /// The last step's inputs (cells/s): arrival rate A, declared rate R, target C_t.
    arrival_rate: f64,
    declared_rate: f64,
    target: f64,
    /// The largest CCR seen in the current interval (0: none).
    max_ccr: f64,
    /// CBR/VBR cells in the interval: their rate is taken off the target capacity.
    vbr_cells: u64,
    known: Vec<bool>,
    n_known: u32,
}

impl UniformTracking {
    /// One tracking step from an interval with arrival rate `a` and largest declared rate
    /// `r` (cells/s; 0 when no forward RM cell came, then the last ER stands for it).
    pub fn track(&mut self, a: f64, r: f64) {
        self.track_with_vbr(a, r, 0.0);
    }

    /// The same with `vbr` cells/s of higher-priority traffic on the link.
    pub fn track_with_vbr(&mut self, a: f64, r: f64, vbr: f64) {
        let target = self.rho * (self.link_rate - vbr).max(0.0);
        (self.arrival_rate, self.declared_rate, self.target) = (a, r, target);
        if a <= 0.0 {
            self.effective_vcs = 0.0;
            self.er = target;
            return;
        }
        let base = if r > 0.0 { r } else { self.er };
        self.effective_vcs = (a / base).max(1.0);
        // libm, not the platform's pow: identical natively and in wasm.
        self.er = (base * libm::pow(target / a, self.gain)).min(target);
    }

    fn close(&mut self, now: crate::time::Time) {
        let cells = self.interval.cells();
        if let Some(len) = self.interval.close(now) {
            self.track_with_vbr(cells as f64 / len, self.max_ccr, self.vbr_cells as f64 / len);
            self.max_ccr = 0.0;
            self.vbr_cells = 0;
        }
    }
}

impl SwitchAlgorithm for UniformTracking {
    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) -> Admit {
        if self.interval.expired(port.now) {
            self.close(port.now);
        }
        if cell.has(flag::VBR) {
            self.vbr_cells += 1;
            return Admit::Keep;
        }
        if cell.kind == CellKind::Frm && !cell.has(flag::CLP) {
            self.max_ccr = self.max_ccr.max(cell.ccr);
        }
        let vc = port.vc as usize;
        if !cell.is_backward() && !self.known[vc] {
            // A VC never seen before: at most an equal share at once, not the whole target.
            self.known[vc] = true;
            self.n_known += 1;
            self.er = self.er.min(self.rho * self.link_rate / self.n_known as f64);
        }
        if self.interval.count() {
            self.close(port.now);
        }
        Admit::Keep
    }

    fn on_brm(&mut self, port: &PortView, cell: &mut Cell) {
        if self.interval.expired(port.now) {
            self.close(port.now);
        }
        cell.er = cell.er.min(self.er);
    }

    fn reconfigure(&mut self, p: &Params) {
        self.rho = p.get("target_utilization");
        self.gain = p.get("gain");
        self.interval.set_limits(p.get("interval_us"), p.get("interval_cells"));
    }

    fn target_utilization(&self) -> f64 {
        self.rho
    }

    fn explain(&self) -> Explain {
        let mut e =
            Explain::new("ER = min(C_t, R·(C_t / A)^g) = C_t / N_eff for g = 1;  ER = C_t when nothing arrived");
        e.value("tracked_rate_mbps", "Tracked rate ER", "Mbps", cells_to_mbps(self.er))
            .value("arrival_rate_mbps", "Arrival rate A", "Mbps", cells_to_mbps(self.arrival_rate))
            .value("declared_rate_mbps", "Largest declared CCR R", "Mbps", cells_to_mbps(self.declared_rate))
            .value("target_capacity_mbps", "Target C_t = ρ_T·(C − VBR)", "Mbps", cells_to_mbps(self.target))
            .value("effective_vcs", "N_eff = A / R", "", self.effective_vcs)
            .value("gain", "g", "", self.gain);
        e
    }

    fn internal_names(&self) -> &'static [&'static str] {
        &["tracked_rate_mbps", "effective_vcs"]
    }

    fn internal_values(&self, out: &mut Vec<f64>) {
        out.push(cells_to_mbps(self.er));
        out.push(self.effective_vcs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn ut(gain: f64) -> UniformTracking {
        let mut m = BTreeMap::new();
        m.insert("gain".to_string(), gain);
        let p = Params::new(&PARAMS, &[&m]);
        let mut u = UniformTracking {
            rho: 0.0,
            gain: 0.0,
            link_rate: 1e6,
            interval: Interval::new(1.0, 1.0),
            er: 0.0,
            effective_vcs: 0.0,
            arrival_rate: 0.0,
            declared_rate: 0.0,
            target: 0.0,
            max_ccr: 0.0,
            vbr_cells: 0,
            known: Vec::new(),
            n_known: 0,
        };
        u.reconfigure(&p);
        u
    }

    #[test]
    fn full_gain_jumps_to_target_over_effective_vcs() {
        let mut u = ut(1.0);
        // Four VCs at 100,000 plus one at half of it: A = 450,000; C_t = 950,000.
        u.track(450_000.0, 100_000.0);
        assert!((u.effective_vcs - 4.5).abs() < 1e-12);
        assert!((u.er - 950_000.0 / 4.5).abs() < 1e-6);
    }

    #[test]
    fn half_gain_moves_by_the_square_root_of_the_correction() {
        let mut u = ut(0.5);
        u.track(237_500.0, 100_000.0); // C_t / A = 4
        assert!((u.er - 200_000.0).abs() < 1e-6);
    }

    #[test]
    fn never_above_the_target_capacity_and_reset_when_idle() {
        let mut u = ut(1.0);
        u.track(10_000.0, 900_000.0);
        assert!((u.er - 950_000.0).abs() < 1e-6);
        u.er = 1.0;
        u.track(0.0, 0.0);
        assert!((u.er - 950_000.0).abs() < 1e-6);
    }
}
