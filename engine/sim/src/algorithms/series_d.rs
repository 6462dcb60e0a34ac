//! Series-D: the Fore/Nortel queue-region explicit-rate algorithm, as evaluated by Pindi, Akar
//! and Frost, "Performance evaluation of an edge switch ABR algorithm" (ITTC-FY97-TR-13200-01).
//! Definition: reconstructed — the vendor pseudo-code is not public; the regions, modes and
//! parameters are the study's, the update equations are ours (reference §5.2).
//!
//! Every `update_cells` arriving cells the port looks at its ABR queue q and its growth
//! g = Δq / N, finds q's region (thresholds Q1…Q4) and applies the region's mode:
//! ```text
//!   1 constant increase:  MAIR = const_MAIR                                  MRF = 1
//!   2 default increase:   MAIR = min(max_MAIR, default_MAIR·(1 + s_MAIR2·max(0, −g)))
//!   3 normal:             g < 0: MAIR = min(max_MAIR, default_MAIR·s_MAIR3·(−g))
//!                         g ≥ 0: MRF = max(min_MRF, 1 − (1 − default_MRF)·s_MRF3·g)
//!   4 default decrease:   g < 0: MAIR as in 3 with s_MAIR4
//!                         g ≥ 0: MRF = max(min_MRF, 1 − (1 − default_MRF)·(1 + s_MRF4·g))
//!   5 constant decrease:  MRF = max(min_MRF, 1 − (1 − default_MRF)·s_MRF5)   (none while g < 0)
//!   MACR = min(TR, MACR·MRF + MAIR);   MACR_adv += AVF·(MACR − MACR_adv), or MACR at once if lower
//! ```
//! MACR changes at most once per feedback round: after a change, every VC sending forward RM
//! cells must have had a backward RM cell pass (carrying the new rate) and then sent a forward
//! RM cell at the new rate before the next change ("the port counts FRM cells to decide when
//! MACR may be increased"). The round is our reading of that sentence: without it the same
//! queue growth, seen at every update within one feedback delay, compounds into a collapse of
//! MACR. Two details make it a round on a WAN too: an FRM counts only once its CCR is at most
//! the ER of the VC's last BRM (those sent before the source took that rate keep arriving for
//! twice the access link's delay), and the round waits for as many VCs as sent FRMs in the
//! round before (not only those seen since the change, which may be one). Without them
//! seriesd-wan's MACR fell 16 to 500 times within a round trip and its queue emptied for
//! hundreds of milliseconds, again and again after 0.6 s.
//!
//! On a backward RM cell the VC's own queue picks the ER: min(MACR_adv, IFA·CCR) below the low
//! threshold (the VC ramps up by IFA per feedback), MACR_adv below the medium one,
//! MRF·MACR_adv below the high one, else min(PFA, MACR_adv). The study uses per-VC queues; on a
//! FIFO port the VC's cells in the shared queue are counted instead.

use super::measure::VcSet;
use super::{Admit, AlgorithmSpec, Explain, Feedback, Networks, PortAlgorithm, PortInfo, PortView, SwitchAlgorithm};
use crate::cell::{flag, Cell, CellKind};
use crate::params::{ParamSpec, Params};
use crate::time::{cells_to_mbps, mbps_to_cells, Time};

pub const PARAMS: [ParamSpec; 25] = [
    ParamSpec::num(
        "target_rate_mbps",
        "Mbps",
        150.0,
        0.001,
        100_000.0,
        "TR: the rate MACR never exceeds (the ABR target of the port)",
    ),
    ParamSpec::int(
        "update_cells",
        "cells",
        32.0,
        1.0,
        100_000.0,
        "N: MAIR, MRF and MACR are updated every N arriving cells",
    ),
    ParamSpec::num(
        "pfa_mbps",
        "Mbps",
        15.5,
        0.0,
        100_000.0,
        "PFA: the fixed rate given to a VC whose queue is above its high threshold",
    ),
    ParamSpec::num("macr0_mbps", "Mbps", 147.25, 0.001, 100_000.0, "MACR₀: the initial mean allowed cell rate"),
    ParamSpec::num("avf", "", 1.0 / 16.0, 0.001, 1.0, "AVF: averaging factor of the advertised MACR"),
    ParamSpec::int("q1_cells", "cells", 50.0, 0.0, 10_000_000.0, "Q1: top of region 1 (constant increase)"),
    ParamSpec::int(
        "q2_cells",
        "cells",
        300.0,
        0.0,
        10_000_000.0,
        "Q2: top of region 2 (default increase); the normal region starts here",
    ),
    ParamSpec::int("q3_cells", "cells", 1000.0, 0.0, 10_000_000.0, "Q3: top of region 3 (normal)"),
    ParamSpec::int(
        "q4_cells",
        "cells",
        1500.0,
        0.0,
        10_000_000.0,
        "Q4: top of region 4 (default decrease); region 5 (constant decrease) above",
    ),
    ParamSpec::num("min_mrf", "", 0.375, 0.01, 1.0, "The smallest multiplicative reduction factor"),
    ParamSpec::num("default_mrf", "", 0.8, 0.01, 1.0, "The default multiplicative reduction factor"),
    ParamSpec::num("max_mair_mbps", "Mbps", 1.0, 0.0, 100_000.0, "The largest additive increase per update"),
    ParamSpec::num(
        "const_mair_mbps",
        "Mbps",
        0.5,
        0.0,
        100_000.0,
        "The additive increase per update in the constant-increase region",
    ),
    ParamSpec::num("default_mair_mbps", "Mbps", 0.2, 0.0, 100_000.0, "The default additive increase per update"),
    ParamSpec::num("scale_mrf3", "", 2.0, 0.0, 100.0, "How strongly queue growth cuts MACR in region 3"),
    ParamSpec::num("scale_mrf4", "", 4.0, 0.0, 100.0, "How strongly queue growth cuts MACR in region 4"),
    ParamSpec::num("scale_mrf5", "", 8.0, 0.0, 100.0, "The cut in region 5"),
    ParamSpec::num("scale_mair2", "", 64.0, 0.0, 10_000.0, "How strongly a draining queue raises MAIR in region 2"),
    ParamSpec::num("scale_mair3", "", 32.0, 0.0, 10_000.0, "How strongly a draining queue raises MAIR in region 3"),
    ParamSpec::num("scale_mair4", "", 4.0, 0.0, 10_000.0, "How strongly a draining queue raises MAIR in region 4"),
    ParamSpec::int(
        "vc_low_cells",
        "cells",
        5.0,
        0.0,
        10_000_000.0,
        "Per-VC queue below which the VC gets IFA × MACR (it may grow)",
    ),
    ParamSpec::int("vc_med_cells", "cells", 150.0, 0.0, 10_000_000.0, "Per-VC queue below which the VC gets MACR"),
    ParamSpec::int(
        "vc_high_cells",
        "cells",
        300.0,
        0.0,
        10_000_000.0,
        "Per-VC queue below which the VC gets MRF × MACR; above, min(PFA, MACR)",
    ),
    ParamSpec::num(
        "ifa",
        "",
        1.5,
        1.0,
        10.0,
        "IFA: a VC with a short queue may raise its ACR by this factor per feedback",
    ),
    ParamSpec::num("min_er_mbps", "Mbps", 0.0, 0.0, 100_000.0, "A floor on the explicit rate written (0: none)"),
];

pub const SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "series_d",
    name: "Series-D",
    short_name: "Series-D",
    network: Networks::Atm,
    feedback: Feedback::ExplicitRate,
    summary: "Splits the ABR queue into five regions; each adapts an additive increase (MAIR) and a multiplicative reduction (MRF) of the mean allowed rate MACR; per-VC queues shape each VC's ER.",
    params: &PARAMS,
    build,
};

/// A cut a VC must be heard to have taken before MACR is cut again ahead of its round: told a
/// rate more than 5 % below the one it sends at. Smaller trims, region 3's answer to a queue
/// that creeps, still follow one another at the pace of the last round. Measured, not derived:
/// with 10 % seriesd-wan's queue crept into region 4 at the end of its run and its sources were
/// cut by a quarter; with 30 % vsvd-1-end-to-end under Series-D carried 6 % less.
const FELT_CUT: f64 = 0.95;

/// A VC told to slow down that has sent no FRM for this long has left (or has nothing to send):
/// it no longer holds back a cut. A source that sends sends an FRM at least every Trm (100 ms)
/// once it has sent Mrm cells, or out of rate every 1/TCR (100 ms) below TCR.
const GONE_AFTER: Time = 500 * crate::time::PS_PER_MS;

fn build(p: &Params, port: PortInfo) -> PortAlgorithm {
    let mut d = SeriesD::new(port.n_vcs);
    d.reconfigure(p);
    d.macr = d.cfg.macr0;
    d.macr_adv = d.cfg.macr0;
    PortAlgorithm::boxed(d)
}

#[derive(Debug, Clone, Copy, Default)]
struct Config {
    tr: f64,
    n: u32,
    pfa: f64,
    macr0: f64,
    avf: f64,
    q: [u32; 4],
    min_mrf: f64,
    default_mrf: f64,
    max_mair: f64,
    const_mair: f64,
    default_mair: f64,
    scale_mrf: [f64; 3],
    scale_mair: [f64; 3],
    vc: [u32; 3],
    ifa: f64,
    min_er: f64,
}

#[derive(Debug, Clone, Default)]
pub struct SeriesD {
    cfg: Config,
    count: u32,
    q_prev: u32,
    /// VCs that sent an FRM since MACR last changed.
    frm_round: VcSet,
    /// VCs that sent an FRM in the previous round: they must all complete this one too.
    prev_sending: u32,
    /// Change generation; per VC, the generation at which its BRM, then its FRM, came.
    gen: u32,
    brm_gen: Vec<u32>,
    frm_gen: Vec<u32>,
    /// Per VC, the ER written into its last BRM: an FRM whose CCR is above it (and above the
    /// VC's MCR, below which no source goes) left the source before that BRM arrived there,
    /// still at the old rate, and does not end the VC's round.
    er_sent: Vec<f64>,
    mcr: Vec<f64>,
    /// Per VC, the CCR of its latest FRM (the rate it sends at, as fresh as the port knows
    /// it) and when that FRM came.
    frm_ccr: Vec<f64>,
    frm_at: Vec<Time>,
    /// Per VC: told by a BRM to go at least `FELT_CUT` below that rate, and not yet heard at
    /// the rate told.
    slowing: Vec<bool>,
    /// VCs that completed the round (BRM then FRM) since the last change.
    round_done: u32,
    /// When MACR last changed, and how long the last complete round took.
    changed_at: Time,
    /// The last update.
    updated_at: Time,
    last_round: Time,
    /// Region 1…5 at the last update, and the queue's growth g then (cells per cell).
    pub region: u8,
    growth: f64,
    /// Rates in cells/s.
    pub mair: f64,
    pub mrf: f64,
    pub macr: f64,
    pub macr_adv: f64,
}

impl SeriesD {
    fn new(n_vcs: usize) -> Self {
        SeriesD {
            frm_round: VcSet::new(n_vcs),
            gen: 1,
            // No change to wait for at the start: every VC counts as having had its BRM.
            brm_gen: vec![1; n_vcs],
            frm_gen: vec![0; n_vcs],
            er_sent: vec![f64::INFINITY; n_vcs],
            frm_ccr: vec![f64::INFINITY; n_vcs],
            frm_at: vec![0; n_vcs],
            slowing: vec![false; n_vcs],
            ..SeriesD::default()
        }
    }

    /// The VCs a feedback round waits for: those that sent an FRM in it or in the round before.
    fn round_waits_for(&self) -> u32 {
        self.frm_round.count.max(self.prev_sending)
    }

    pub fn region_of(&self, q: u32) -> u8 {
        1 + self.cfg.q.iter().filter(|&&t| q >= t).count() as u8
    }

    /// One update after N cells, at `now`, with the queue now `q`.
    pub fn update(&mut self, now: Time, q: u32) {
        let c = &self.cfg;
        let g = (q as f64 - self.q_prev as f64) / c.n as f64;
        self.updated_at = now;
        self.q_prev = q;
        self.growth = g;
        self.region = self.region_of(q);
        let grow = |scale: f64| (c.default_mair * scale * (-g)).min(c.max_mair);
        let (mair, mrf) = match self.region {
            1 => (c.const_mair, 1.0),
            2 => ((c.default_mair * (1.0 + c.scale_mair[0] * (-g).max(0.0))).min(c.max_mair), 1.0),
            3 if g < 0.0 => (grow(c.scale_mair[1]), 1.0),
            3 => (0.0, (1.0 - (1.0 - c.default_mrf) * c.scale_mrf[0] * g).max(c.min_mrf)),
            4 if g < 0.0 => (grow(c.scale_mair[2]), 1.0),
            4 => (0.0, (1.0 - (1.0 - c.default_mrf) * (1.0 + c.scale_mrf[1] * g)).max(c.min_mrf)),
            // Already draining: a further cut would only overshoot downwards.
            _ if g < 0.0 => (0.0, 1.0),
            _ => (0.0, (1.0 - (1.0 - c.default_mrf) * c.scale_mrf[2]).max(c.min_mrf)),
        };
        self.mair = mair;
        self.mrf = mrf;
        // A VC that sent an FRM and then left must not freeze MACR: a round also ends after
        // twice as long as the last complete one took. But a round in which no VC was slowed
        // can end a few cells after it began even on a loop of half a second, so a cut does not
        // end a round early while a VC told to slow down is still sending at its old rate:
        // timed by such rounds, region 5 cut MACR every few milliseconds of a 560 ms loop
        // until it was 1e-70 of TR, and the sources never came back (vsvd-1-end-to-end).
        let sending = self.round_waits_for().max(1);
        let elapsed = now.saturating_sub(self.changed_at);
        let complete = self.round_done >= sending;
        let timed_out =
            self.last_round > 0 && elapsed > 2 * self.last_round && (mrf >= 1.0 || self.slowing_vcs(now) == 0);
        if (mrf < 1.0 || mair > 0.0) && (complete || timed_out) {
            if complete {
                self.last_round = elapsed;
            }
            self.macr = (self.macr * mrf + mair).min(c.tr);
            self.prev_sending = self.frm_round.rotate();
            self.gen = self.gen.wrapping_add(1);
            self.round_done = 0;
            self.changed_at = now;
        }
        // Increases reach the advertised rate smoothed by AVF; cuts at once (a lagging cut lets
        // the queue run on and invites further cuts).
        self.macr_adv =
            if self.macr < self.macr_adv { self.macr } else { self.macr_adv + c.avf * (self.macr - self.macr_adv) };
    }

    /// VCs told to slow down that still send (an FRM within `GONE_AFTER`) and have not yet
    /// been heard at the rate told.
    fn slowing_vcs(&self, now: Time) -> usize {
        (0..self.slowing.len()).filter(|&vc| self.slowing[vc] && now < self.frm_at[vc] + GONE_AFTER).count()
    }

    /// The explicit rate for a VC with `vc_queue` cells waiting that declared `ccr`.
    pub fn explicit_rate(&self, vc_queue: u32, ccr: f64) -> f64 {
        let c = &self.cfg;
        let er = if vc_queue < c.vc[0] {
            self.macr_adv.min(c.ifa * ccr)
        } else if vc_queue < c.vc[1] {
            self.macr_adv
        } else if vc_queue < c.vc[2] {
            self.mrf * self.macr_adv
        } else {
            c.pfa.min(self.macr_adv)
        };
        er.max(c.min_er)
    }
}

impl SwitchAlgorithm for SeriesD {
    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) -> Admit {
        if cell.kind == CellKind::Frm && !cell.has(flag::CLP) {
            let vc = port.vc as usize;
            self.frm_round.mark(vc);
            // The FRM must have been sent after the source took the BRM's rate: on a path with
            // a long access link, FRMs sent at the old rate still arrive for 2 × its delay.
            let floor = self.mcr.get(vc).copied().unwrap_or(0.0);
            let at_new_rate = cell.ccr <= self.er_sent[vc].max(floor) * (1.0 + 1e-9);
            if self.brm_gen[vc] == self.gen && self.frm_gen[vc] != self.gen && at_new_rate {
                self.frm_gen[vc] = self.gen;
                self.round_done += 1;
            }
            self.slowing[vc] &= !at_new_rate;
            self.frm_ccr[vc] = cell.ccr;
            self.frm_at[vc] = port.now;
        }
        self.count += 1;
        if self.count >= self.cfg.n {
            self.count = 0;
            self.update(port.now, port.queue_cells);
        }
        Admit::Keep
    }

    fn on_brm(&mut self, port: &PortView, cell: &mut Cell) {
        let vc = port.vc as usize;
        self.brm_gen[vc] = self.gen;
        cell.er = cell.er.min(self.explicit_rate(port.vc_queue_cells, cell.ccr));
        self.er_sent[vc] = cell.er;
        let floor = self.mcr.get(vc).copied().unwrap_or(0.0);
        self.slowing[vc] |= cell.er.max(floor) < FELT_CUT * self.frm_ccr[vc].min(cell.ccr);
    }

    fn set_vc_mcrs(&mut self, mcr: &[f64]) {
        self.mcr = mcr.to_vec();
    }

    fn reconfigure(&mut self, p: &Params) {
        let m = |name: &str| mbps_to_cells(p.get(name));
        let mut q =
            [p.get("q1_cells") as u32, p.get("q2_cells") as u32, p.get("q3_cells") as u32, p.get("q4_cells") as u32];
        q.sort_unstable();
        self.cfg = Config {
            tr: m("target_rate_mbps"),
            n: p.get("update_cells") as u32,
            pfa: m("pfa_mbps"),
            macr0: m("macr0_mbps"),
            avf: p.get("avf"),
            q,
            min_mrf: p.get("min_mrf"),
            default_mrf: p.get("default_mrf"),
            max_mair: m("max_mair_mbps"),
            const_mair: m("const_mair_mbps"),
            default_mair: m("default_mair_mbps"),
            scale_mrf: [p.get("scale_mrf3"), p.get("scale_mrf4"), p.get("scale_mrf5")],
            scale_mair: [p.get("scale_mair2"), p.get("scale_mair3"), p.get("scale_mair4")],
            vc: [p.get("vc_low_cells") as u32, p.get("vc_med_cells") as u32, p.get("vc_high_cells") as u32],
            ifa: p.get("ifa"),
            min_er: m("min_er_mbps"),
        };
    }

    fn needs_vc_queue(&self) -> bool {
        true
    }

    fn explain(&self) -> Explain {
        let c = &self.cfg;
        let mut e = Explain::new(
            "every N cells: region of q → MAIR, MRF; MACR = min(TR, MACR·MRF + MAIR); \
             on BRM, by the VC's queue: min(MACR_adv, IFA·CCR) | MACR_adv | MRF·MACR_adv | min(PFA, MACR_adv)",
        );
        e.value("queue_region", "Region (1 constant increase … 5 constant decrease)", "", self.region as f64)
            .value("queue_cells", "Queue q at the last update", "cells", self.q_prev as f64)
            .value("growth", "Growth g = Δq / N", "", self.growth)
            .value("mair_mbps", "MAIR", "Mbps", cells_to_mbps(self.mair))
            .value("mrf", "MRF", "", self.mrf)
            .value("macr_mbps", "MACR", "Mbps", cells_to_mbps(self.macr))
            .value("macr_pct_of_target", "MACR / TR", "%", 100.0 * self.macr / c.tr)
            .value("macr_adv_mbps", "MACR_adv (advertised)", "Mbps", cells_to_mbps(self.macr_adv))
            .value("target_rate_mbps", "TR", "Mbps", cells_to_mbps(c.tr))
            // A round ends once every VC that sent an FRM in it or in the one before has had
            // its BRM and then an FRM at the new rate (right after a change both are 0 and the
            // round waits for the VCs of the last one).
            .value("round_done", "VCs through this feedback round", "", self.round_done as f64)
            .value("round_vcs", "VCs the round waits for", "", self.round_waits_for() as f64)
            .value(
                "slowing_vcs",
                "VCs told to slow down, not yet heard at the rate told (no cut before them)",
                "",
                self.slowing_vcs(self.updated_at) as f64,
            );
        for (k, name) in ["q1_cells", "q2_cells", "q3_cells", "q4_cells"].into_iter().enumerate() {
            e.value(name, ["Q1", "Q2", "Q3", "Q4"][k], "cells", c.q[k] as f64);
        }
        e
    }

    fn internal_names(&self) -> &'static [&'static str] {
        &["macr_pct_of_target", "queue_region", "mair_mbps", "mrf"]
    }

    fn internal_values(&self, out: &mut Vec<f64>) {
        out.push(100.0 * self.macr / self.cfg.tr);
        out.push(self.region as f64);
        out.push(cells_to_mbps(self.mair));
        out.push(self.mrf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn series_d() -> SeriesD {
        let none = BTreeMap::new();
        let mut d = SeriesD::new(4);
        d.reconfigure(&Params::new(&PARAMS, &[&none]));
        d.macr = 100_000.0;
        d.macr_adv = 100_000.0;
        d.mrf = 1.0;
        d
    }

    #[test]
    fn regions_follow_the_thresholds() {
        let d = series_d();
        let regions: Vec<u8> =
            [0, 49, 50, 299, 300, 999, 1000, 1499, 1500, 5000].iter().map(|&q| d.region_of(q)).collect();
        assert_eq!(regions, vec![1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    }

    #[test]
    fn a_growing_queue_in_the_normal_region_cuts_macr() {
        let mut d = series_d();
        rm(&mut d, CellKind::Frm, 0);
        d.q_prev = 500;
        // Growth of 16 cells in 32: g = 0.5; MRF = 1 − 0.2·2·0.5 = 0.8.
        d.update(0, 516);
        assert_eq!(d.region, 3);
        assert!((d.mrf - 0.8).abs() < 1e-12);
        assert!((d.macr - 80_000.0).abs() < 1e-6);
        assert!((d.macr_adv - 80_000.0).abs() < 1e-6, "a cut is advertised at once");
    }

    #[test]
    fn a_draining_queue_adds_mair() {
        let mut d = series_d();
        rm(&mut d, CellKind::Frm, 0);
        d.q_prev = 532;
        d.update(0, 500); // g = −1: MAIR = min(1 Mbps, 0.2 Mbps · 32 · 1) = 1 Mbps
        assert!((cells_to_mbps(d.mair) - 1.0).abs() < 1e-9);
        assert!((d.macr - (100_000.0 + mbps_to_cells(1.0))).abs() < 1e-6);
        assert!((d.macr_adv - (100_000.0 + mbps_to_cells(1.0) / 16.0)).abs() < 1e-6, "increases move by AVF");
    }

    fn rm(d: &mut SeriesD, kind: CellKind, vc: u32) {
        rm_at(d, kind, vc, 0.0, 0.0);
    }

    /// An RM cell with its rates (cells/s): the ER it carries, the CCR its source wrote.
    fn rm_at(d: &mut SeriesD, kind: CellKind, vc: u32, er: f64, ccr: f64) -> Cell {
        rm_when(d, kind, vc, er, ccr, 0)
    }

    fn rm_when(d: &mut SeriesD, kind: CellKind, vc: u32, er: f64, ccr: f64, now: Time) -> Cell {
        let mut c = Cell::data(vc);
        c.kind = kind;
        c.er = er;
        c.ccr = ccr;
        let view = PortView { now, queue_cells: 0, vc_queue_cells: 0, vc };
        if kind == CellKind::Brm {
            d.on_brm(&view, &mut c);
        } else {
            d.count = 0;
            d.on_arrival(&view, &mut c);
        }
        c
    }

    /// A round ends with FRMs sent at the rate the last BRM gave: those still at the old rate
    /// (on their way when the BRM reached the source) do not end it; a source held at its MCR,
    /// above that rate, does.
    #[test]
    fn a_round_ends_on_frms_sent_at_the_new_rate_or_at_the_vcs_mcr() {
        let cut = |mcr: f64| {
            let mut d = series_d();
            d.set_vc_mcrs(&[mcr, 0.0, 0.0, 0.0]);
            rm_at(&mut d, CellKind::Frm, 0, f64::INFINITY, 90_000.0);
            d.q_prev = 500;
            d.update(0, 516); // a cut to 80,000 cells/s, the round of VC 0 alone
            let er = rm_at(&mut d, CellKind::Brm, 0, f64::INFINITY, 90_000.0).er;
            assert!(er < 90_000.0, "the BRM carries the cut ({er})");
            d
        };
        let mut d = cut(0.0);
        rm_at(&mut d, CellKind::Frm, 0, f64::INFINITY, 90_000.0); // still at the old rate
        assert_eq!(d.round_done, 0);
        rm_at(&mut d, CellKind::Frm, 0, f64::INFINITY, 60_000.0); // at the new one
        assert_eq!(d.round_done, 1);
        // VC 0's MCR is above the ER it got: its source sends at its MCR, which ends the round.
        let mut d = cut(85_000.0);
        rm_at(&mut d, CellKind::Frm, 0, f64::INFINITY, 90_000.0);
        assert_eq!(d.round_done, 0);
        rm_at(&mut d, CellKind::Frm, 0, f64::INFINITY, 85_000.0);
        assert_eq!(d.round_done, 1);
        // Without its MCR known, the same FRM would not.
        let mut d = cut(0.0);
        rm_at(&mut d, CellKind::Frm, 0, f64::INFINITY, 85_000.0);
        assert_eq!(d.round_done, 0);
    }

    /// A round of 1 ms, then a cut that tells VC 0 `told` cells/s while it sends at 90,000: the
    /// next update comes 2.5 ms later, past twice the last round, with the queue still growing.
    fn cut_then_wait(told_below_ccr: f64) -> SeriesD {
        let ms = crate::time::PS_PER_MS;
        let mut d = series_d();
        d.macr = 90_000.0 / told_below_ccr;
        d.macr_adv = d.macr;
        rm_when(&mut d, CellKind::Frm, 0, f64::INFINITY, 90_000.0, ms);
        d.q_prev = 500;
        d.update(ms, 516); // complete after 1 ms: a cut by 0.8
        let told = rm_when(&mut d, CellKind::Brm, 0, f64::INFINITY, 90_000.0, ms + ms / 10).er;
        assert!((told - 0.8 * 90_000.0 / told_below_ccr).abs() < 1e-6);
        rm_when(&mut d, CellKind::Frm, 0, f64::INFINITY, 90_000.0, ms + ms / 5); // still the old rate
        d.q_prev = 500;
        d.update(ms * 7 / 2, 516);
        d
    }

    /// A round in which no VC was slowed can be a few cells long on a loop of half a second: a
    /// cut may not end the next round early while a VC told to go more than 5 % slower still
    /// sends at its old rate, or cuts compound before any source has heard the first one.
    #[test]
    fn a_cut_does_not_time_out_while_a_slowed_vc_is_unheard() {
        let ms = crate::time::PS_PER_MS;
        let mut d = cut_then_wait(1.0); // told 72,000 while sending 90,000
        assert!((d.macr - 72_000.0).abs() < 1e-6, "no second cut ({})", d.macr);
        assert_eq!(d.explain().values.iter().find(|v| v.name == "slowing_vcs").unwrap().value, Some(1.0));
        // The VC falls silent (it left): after GONE_AFTER it no longer holds the cut back.
        d.q_prev = 500;
        d.update(ms + ms / 5 + GONE_AFTER + 1, 516);
        assert!((d.macr - 57_600.0).abs() < 1e-6, "the round timed out ({})", d.macr);
        // A cut to 2 % below the VC's rate is a trim: the next one times out as before.
        let d = cut_then_wait(0.8 / 0.98);
        assert!((d.macr - 0.98 * 90_000.0 * 0.8).abs() < 1e-6, "a trim times out ({})", d.macr);
    }

    #[test]
    fn macr_changes_once_per_feedback_round() {
        let mut d = series_d();
        rm(&mut d, CellKind::Frm, 0);
        rm(&mut d, CellKind::Frm, 1);
        d.q_prev = 500;
        d.update(0, 516); // a cut: the round had two VCs
        assert!((d.macr - 80_000.0).abs() < 1e-6);
        // VC 0 got the new rate (BRM) and sent at it (FRM); VC 1 only sent an FRM.
        rm(&mut d, CellKind::Brm, 0);
        rm(&mut d, CellKind::Frm, 0);
        rm(&mut d, CellKind::Frm, 1);
        d.q_prev = 500;
        d.update(0, 516);
        assert!((d.macr - 80_000.0).abs() < 1e-6, "VC 1 has not followed the cut yet");
        rm(&mut d, CellKind::Brm, 1);
        rm(&mut d, CellKind::Frm, 1);
        d.q_prev = 500;
        d.update(0, 516);
        assert!((d.macr - 64_000.0).abs() < 1e-6);
    }

    #[test]
    fn constant_decrease_region_cuts_by_the_floor() {
        let mut d = series_d();
        rm(&mut d, CellKind::Frm, 0);
        d.q_prev = 2000;
        d.update(0, 2000);
        // 1 − 0.2 · 8 = −0.6 → min_MRF = 0.375.
        assert!((d.mrf - 0.375).abs() < 1e-12);
        assert!((d.macr - 37_500.0).abs() < 1e-6);
    }

    #[test]
    fn no_constant_decrease_while_the_queue_already_drains() {
        let mut d = series_d();
        rm(&mut d, CellKind::Frm, 0);
        d.q_prev = 2100;
        d.update(0, 2000);
        assert_eq!(d.region, 5);
        assert_eq!(d.mrf, 1.0);
        assert!((d.macr - 100_000.0).abs() < 1e-6);
    }

    #[test]
    fn the_vc_queue_picks_the_explicit_rate() {
        let mut d = series_d();
        d.mrf = 0.8;
        assert!((d.explicit_rate(0, 10_000.0) - 15_000.0).abs() < 1e-6, "IFA × CCR below MACR");
        assert!((d.explicit_rate(0, 90_000.0) - 100_000.0).abs() < 1e-6, "but never above MACR");
        assert!((d.explicit_rate(100, 10_000.0) - 100_000.0).abs() < 1e-6);
        assert!((d.explicit_rate(200, 10_000.0) - 80_000.0).abs() < 1e-6);
        assert!((d.explicit_rate(400, 10_000.0) - mbps_to_cells(15.5)).abs() < 1e-6, "min(PFA, MACR)");
    }
}
