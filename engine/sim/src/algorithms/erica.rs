//! ERICA: Explicit Rate Indication for Congestion Avoidance.
//! Source: Jain, Kalyanaraman, Goyal, Fahmy, Viswanathan, "ERICA switch algorithm: a complete
//! description", ATM Forum/96-1172, and Kalyanaraman's dissertation (1997), appendix C.
//! Definition: published (options A, B, C and E of the OSU pseudo-code; load averaging omitted).
//! ERICA+ (`erica_plus.rs`) is this algorithm with a queue-control factor on the capacity.
//!
//! Per output port, every averaging interval (ends after `interval_us` or `interval_cells`
//! arriving cells, whichever comes first):
//!
//! ```text
//!   ABRCapacity = U · link_rate − VBR rate           cells/s (CBR/VBR cells measured apart)
//!   z           = InputRate / ABRCapacity            overload factor
//!   FairShare   = ABRCapacity / N_active
//! ```
//! On each backward RM cell of VC i (CCR_i from its last forward RM cell):
//! ```text
//!   VCShare = CCR_i / z
//!   ER = max(FairShare, VCShare)                      if z > 1 + δ   (overload)
//!      = max(FairShare, VCShare, MaxAllocPrevious)    otherwise      (option A)
//!   if ER > FairShare and CCR_i < FairShare: ER = FairShare           (option B)
//!   ER_cell = min(ER_cell, ER, ABRCapacity)
//! ```
//! With option C (off by default), a VC's second and later backward RM cells in one interval
//! get the ER its first one got, instead of a new one from the same z and a CCR the first may
//! already have lowered (two cuts by CCR/z in one interval).

use super::measure::{Interval, VcSet};
use super::{Admit, AlgorithmSpec, Explain, Feedback, Networks, PortAlgorithm, PortInfo, PortView, SwitchAlgorithm};
use crate::cell::{flag, Cell, CellKind};
use crate::params::{ParamSpec, Params};
use crate::time::{cells_to_mbps, Time};

/// Why MaxAllocPrevious may read above the target rate (and the link's): MaxAllocCurrent keeps
/// each ER before the last step caps it at the target (the definition's order: the
/// dissertation's appendix C and 98-0408 eq. 8–13), and while z ≤ 1 + δ each interval's
/// largest ER is at least the last one's, so a large CCR/z (a source that declares more than
/// the port measured) stays in it. Harmless: every ER written is capped.
pub const MAX_ALLOC_ABOVE_TARGET: &str = "Above the target, as ERICA defines it: each VC's ER \
     before the cap (CCR/z), kept while z ≤ 1 + δ. Every ER sent is capped at the target.";

/// Parameters shared by ERICA and ERICA+ (the averaging interval and options A, B, C, E).
pub const COMMON_PARAMS: [ParamSpec; 7] = [
    ParamSpec::num("interval_us", "µs", 1000.0, 1.0, 1_000_000.0, "Averaging interval by time: measurements close after this long at most"),
    ParamSpec::int("interval_cells", "cells", 100.0, 1.0, 1_000_000.0, "Averaging interval by count: measurements close after this many arriving cells at most"),
    ParamSpec::num("delta", "", 0.1, 0.0, 1.0, "Overload tolerance δ: MaxAllocPrevious is used only while z ≤ 1 + δ"),
    ParamSpec::on_off("max_alloc", true, "Option A: in underload, let a VC rise to the largest allocation of the previous interval"),
    ParamSpec::on_off("fairshare_first", true, "Option B: a VC below FairShare gets at most FairShare (avoids transient overload)"),
    ParamSpec::on_off("count_brm", true, "Option E: a VC also counts as active when its backward RM cell passes, and a newly active VC lowers FairShare at once"),
    ParamSpec::on_off("single_feedback", false, "Option C: a VC's later backward RM cells in an interval get the ER its first one got (one feedback per VC per interval)"),
];

pub const PARAMS: [ParamSpec; 8] = [
    ParamSpec::num(
        "target_utilization",
        "",
        0.9,
        0.1,
        1.0,
        "Fraction U of the link that ERICA allocates; the rest absorbs bursts",
    ),
    COMMON_PARAMS[0],
    COMMON_PARAMS[1],
    COMMON_PARAMS[2],
    COMMON_PARAMS[3],
    COMMON_PARAMS[4],
    COMMON_PARAMS[5],
    COMMON_PARAMS[6],
];

pub const SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "erica",
    name: "ERICA",
    short_name: "ERICA",
    network: Networks::Atm,
    feedback: Feedback::ExplicitRate,
    summary: "Measures the port's load factor z each interval and gives each VC max(FairShare, CCR/z): fair and efficient at a target utilisation.",
    params: &PARAMS,
    build,
};

fn build(p: &Params, port: PortInfo) -> PortAlgorithm {
    PortAlgorithm::Erica(Box::new(Erica::new(p, port, None)))
}

/// ERICA+'s queue control: the capacity ERICA allocates is scaled by f(q) (§3 of the
/// reference): above 1 while the queue is below its target Q0 = T0 · capacity, below 1 above.
#[derive(Debug, Clone, Copy)]
pub struct QueueControl {
    /// Target queueing delay T0 (s).
    pub target_delay_s: f64,
    /// b: the largest factor, at an empty queue.
    pub gain_under: f64,
    /// a: sets how fast the factor falls above Q0.
    pub gain_over: f64,
    /// Floor of the factor (queue drain limit factor).
    pub qdlf: f64,
}

impl QueueControl {
    /// f(q) for a queue of `q` cells on a port of `capacity` cells/s.
    pub fn factor(&self, q: f64, capacity: f64) -> f64 {
        let q0 = self.target_delay_s * capacity;
        if q0 <= 0.0 {
            return self.qdlf;
        }
        super::measure::hyperbolic(q, q0, self.gain_over, self.gain_under, self.qdlf)
    }
}

/// Parameter values in engine units.
#[derive(Debug, Clone, Copy)]
struct Config {
    u: f64,
    interval_us: f64,
    interval_cells: f64,
    delta: f64,
    max_alloc: bool,
    fairshare_first: bool,
    count_brm: bool,
    single_feedback: bool,
    queue_control: Option<QueueControl>,
}

impl Config {
    fn read(p: &Params, plus: bool) -> Self {
        Config {
            u: if plus { 1.0 } else { p.get("target_utilization") },
            interval_us: p.get("interval_us"),
            interval_cells: p.get("interval_cells"),
            delta: p.get("delta"),
            max_alloc: p.flag("max_alloc"),
            fairshare_first: p.flag("fairshare_first"),
            count_brm: p.flag("count_brm"),
            single_feedback: p.flag("single_feedback"),
            queue_control: plus.then(|| QueueControl {
                target_delay_s: p.get("target_delay_us") * 1e-6,
                gain_under: p.get("gain_under"),
                gain_over: p.get("gain_over"),
                qdlf: p.get("qdlf"),
            }),
        }
    }
}

/// ERICA (and, with queue control, ERICA+) state for one output port.
#[derive(Clone)]
pub struct Erica {
    cfg: Config,
    link_rate: f64,

    // Current interval.
    interval: Interval,
    vcs: VcSet,
    /// CBR/VBR cells in the interval: their rate is taken off the ABR capacity.
    vbr_cells: u64,
    /// Active VCs of the last interval, raised at once when a new VC shows up (option E).
    active_last: u32,
    max_alloc_current: f64,

    // Results of the last completed interval (cells/s, or a ratio for z and f).
    /// Cells/s that entered the port (CBR/VBR included), and the capacity before f(q).
    input_rate: f64,
    capacity: f64,
    /// The queue (cells) when the interval closed: what f(q) was computed from.
    queue_at_close: u32,
    pub abr_capacity: f64,
    pub queue_factor: f64,
    pub z: f64,
    pub fair_share: f64,
    max_alloc_previous: f64,
    /// Intervals closed so far: which interval a VC's last feedback was in (option C).
    intervals: u64,

    // Per VC.
    ccr: Vec<f64>,
    /// What the last backward RM cell of each VC got (for `explain` only).
    last_brm: Vec<Option<LastBrm>>,
}

/// A VC's last backward RM cell at this port.
#[derive(Debug, Clone, Copy)]
struct LastBrm {
    at: Time,
    /// The interval it came in (`Erica::intervals` then).
    interval: u64,
    /// The rate ERICA computed for the VC, and the ER it left in the cell (lower when the cell
    /// already carried less).
    computed: f64,
    written: f64,
}

impl Erica {
    pub fn new(p: &Params, port: PortInfo, plus: Option<()>) -> Self {
        let cfg = Config::read(p, plus.is_some());
        let capacity = cfg.u * port.link_rate;
        Erica {
            cfg,
            link_rate: port.link_rate,
            interval: Interval::new(cfg.interval_us, cfg.interval_cells),
            vcs: VcSet::new(port.n_vcs),
            vbr_cells: 0,
            active_last: 0,
            max_alloc_current: 0.0,
            input_rate: 0.0,
            capacity,
            queue_at_close: 0,
            abr_capacity: capacity,
            queue_factor: 1.0,
            z: 0.0,
            fair_share: capacity,
            max_alloc_previous: 0.0,
            intervals: 0,
            ccr: vec![0.0; port.n_vcs],
            last_brm: vec![None; port.n_vcs],
        }
    }

    fn mark_active(&mut self, vc: usize) {
        // Immediate fair-share update: a VC that was silent in the last interval would
        // otherwise be offered the whole previous share at its first feedback.
        if self.vcs.mark(vc) == Some(false) && self.cfg.count_brm {
            self.active_last += 1;
            self.fair_share = self.abr_capacity / self.active_last as f64;
        }
    }

    /// Closes the averaging interval at `now` (queue `q` cells) and computes capacity, load
    /// and fair share.
    pub fn end_interval(&mut self, now: Time, q: u32) {
        let cells = self.interval.cells();
        let Some(len) = self.interval.close(now) else { return };
        let vbr_rate = self.vbr_cells as f64 / len;
        self.vbr_cells = 0;
        let capacity = (self.cfg.u * self.link_rate - vbr_rate).max(0.0);
        self.queue_factor = self.cfg.queue_control.map_or(1.0, |qc| qc.factor(q as f64, capacity));
        self.abr_capacity = capacity * self.queue_factor;
        let input_rate = cells as f64 / len;
        self.z = if self.abr_capacity > 0.0 { input_rate / self.abr_capacity } else { f64::INFINITY };
        (self.input_rate, self.capacity, self.queue_at_close) = (input_rate, capacity, q);
        // The count of VCs really seen (an idle interval counts none, so the first VC back is
        // the only one); max(1) only guards the division.
        self.active_last = self.vcs.rotate();
        self.fair_share = self.abr_capacity / self.active_last.max(1) as f64;
        self.max_alloc_previous = self.max_alloc_current;
        self.max_alloc_current = self.fair_share;
        self.intervals += 1;
    }

    /// The explicit rate ERICA gives a VC whose last CCR was `ccr` (cells/s).
    pub fn explicit_rate(&mut self, ccr: f64) -> f64 {
        let (er, allocated) = self.rate_for(ccr);
        self.max_alloc_current = self.max_alloc_current.max(allocated);
        er
    }

    /// VCShare = CCR/z (0 without a finite positive load), with the rules of the module
    /// comment.
    fn vc_share(&self, ccr: f64) -> f64 {
        // Boundary cases (dissertation Table 6.1): no input → VCShare forced to 0.
        if self.z > 0.0 && self.z.is_finite() {
            ccr / self.z
        } else {
            0.0
        }
    }

    /// (the ER for `ccr` now, the allocation before option B that MaxAlloc remembers): reads
    /// only, so `explain` can show it.
    fn rate_for(&self, ccr: f64) -> (f64, f64) {
        let fs = self.fair_share;
        let mut er = fs.max(self.vc_share(ccr));
        if self.cfg.max_alloc && self.z <= 1.0 + self.cfg.delta {
            er = er.max(self.max_alloc_previous);
        }
        let allocated = er;
        if self.cfg.fairshare_first && er > fs && ccr < fs {
            er = fs;
        }
        (er.min(self.abr_capacity), allocated)
    }

    fn maybe_end_by_time(&mut self, port: &PortView) {
        if self.interval.expired(port.now) {
            self.end_interval(port.now, port.queue_cells);
        }
    }

    /// `on_arrival`, any cell: it may close the interval (by time before it, by count with it).
    /// Out of line, on references natively: values would keep the caller's cell and view in
    /// registers across the common way, where x86-64 then spills more than it saves (+4.5 M
    /// instructions on the ten-source benchmark).
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(never)]
    fn arrival_out(&mut self, port: &PortView, cell: &Cell) {
        self.arrival(port.now, port.queue_cells, port.vc, cell.kind, cell.flags, cell.ccr);
    }

    /// `arrival_out` in wasm, on values: a reference keeps the caller's cell and view in its
    /// stack in linear memory, written and read back on every cell (−53 instructions per
    /// delivered cell in V8 with `Simulation::arrive_parts`).
    #[cfg(target_arch = "wasm32")]
    #[inline(never)]
    fn arrival_out(&mut self, now: Time, queue_cells: u32, vc: u32, kind: CellKind, flags: u8, ccr: f64) {
        self.arrival(now, queue_cells, vc, kind, flags, ccr);
    }

    /// `arrival_out`'s body.
    #[inline(always)]
    fn arrival(&mut self, now: Time, queue_cells: u32, vc: u32, kind: CellKind, flags: u8, ccr: f64) {
        if self.interval.expired(now) {
            self.end_interval(now, queue_cells);
        }
        if flags & flag::VBR != 0 {
            self.vbr_cells += 1;
            return;
        }
        let full = self.interval.count();
        let vc = vc as usize;
        match kind {
            CellKind::Data => self.mark_active(vc),
            CellKind::Frm => {
                self.mark_active(vc);
                self.ccr[vc] = ccr;
            }
            CellKind::Brm | CellKind::Ack => {}
        }
        if full {
            self.end_interval(now, queue_cells);
        }
    }
}

impl SwitchAlgorithm for Erica {
    // Inlined into the ports' enqueue (`PortAlgorithm::on_arrival`): short, and on every cell.
    #[inline(always)]
    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) -> Admit {
        // Most cells: a data cell of a VC already seen in an interval it does not close. It is
        // only counted; this check keeps the general way (which may close the interval) out of
        // the common one, a function call away.
        if cell.kind == CellKind::Data
            && !cell.has(flag::VBR)
            && self.vcs.seen_now(port.vc as usize)
            && self.interval.count_within(port.now)
        {
            return Admit::Keep;
        }
        // ERICA keeps every cell (`Admit`, 16 bytes, would come back through memory).
        #[cfg(not(target_arch = "wasm32"))]
        self.arrival_out(port, cell);
        #[cfg(target_arch = "wasm32")]
        self.arrival_out(port.now, port.queue_cells, port.vc, cell.kind, cell.flags, cell.ccr);
        Admit::Keep
    }

    fn on_brm(&mut self, port: &PortView, cell: &mut Cell) {
        self.maybe_end_by_time(port);
        let vc = port.vc as usize;
        if self.cfg.count_brm {
            self.mark_active(vc);
        }
        let er = match self.last_brm[vc] {
            // Option C: this interval's feedback to the VC is given already.
            Some(last) if self.cfg.single_feedback && last.interval == self.intervals => last.computed,
            _ => self.explicit_rate(self.ccr[vc]),
        };
        cell.er = cell.er.min(er);
        self.last_brm[vc] = Some(LastBrm { at: port.now, interval: self.intervals, computed: er, written: cell.er });
    }

    fn reconfigure(&mut self, p: &Params) {
        self.cfg = Config::read(p, self.cfg.queue_control.is_some());
        self.interval.set_limits(self.cfg.interval_us, self.cfg.interval_cells);
    }

    fn target_utilization(&self) -> f64 {
        self.cfg.u
    }

    fn internal_names(&self) -> &'static [&'static str] {
        if self.cfg.queue_control.is_some() {
            &["overload", "fair_share_mbps", "queue_control_factor", "target_capacity_mbps"]
        } else {
            &["overload", "fair_share_mbps"]
        }
    }

    fn explain(&self) -> Explain {
        let plus = self.cfg.queue_control;
        let mut e = Explain::new(
            "ER = min(ER, max(FairShare, CCR/z [, MaxAllocPrevious while z ≤ 1 + δ]), target); \
             FairShare when CCR < FairShare (option B)",
        );
        e.value("input_rate_mbps", "Measured input rate", "Mbps", cells_to_mbps(self.input_rate));
        match plus {
            None => {
                e.value("target_rate_mbps", "Target rate U·C − VBR", "Mbps", cells_to_mbps(self.abr_capacity));
                e.value("target_utilization", "U", "", self.cfg.u);
            }
            Some(qc) => {
                e.value("capacity_mbps", "Capacity C − VBR", "Mbps", cells_to_mbps(self.capacity));
                e.value("queue_cells", "Queue q at the interval's end", "cells", self.queue_at_close as f64);
                e.value("target_queue_cells", "Target queue Q0 = T0·C", "cells", qc.target_delay_s * self.capacity);
                e.value("queue_control_factor", "f(Tq)", "", self.queue_factor);
                e.value("target_capacity_mbps", "Target capacity f(Tq)·C", "Mbps", cells_to_mbps(self.abr_capacity));
            }
        }
        e.value("overload", "Load factor z", "", self.z)
            .value("active_vcs", "Active VCs N", "", self.active_last as f64)
            .value("fair_share_mbps", "FairShare = target / N", "Mbps", cells_to_mbps(self.fair_share))
            .value("max_alloc_previous_mbps", "MaxAllocPrevious", "Mbps", cells_to_mbps(self.max_alloc_previous))
            .value("delta", "δ", "", self.cfg.delta)
            .value("max_alloc", "Option A (MaxAlloc)", "0/1", self.cfg.max_alloc as u8 as f64)
            .value("fairshare_first", "Option B (FairShare first)", "0/1", self.cfg.fairshare_first as u8 as f64)
            .value(
                "single_feedback",
                "Option C (one feedback per VC per interval)",
                "0/1",
                self.cfg.single_feedback as u8 as f64,
            );
        if self.max_alloc_previous > self.abr_capacity {
            e.note("max_alloc_previous_mbps", MAX_ALLOC_ABOVE_TARGET);
        }
        for vc in 0..self.ccr.len() {
            let last = self.last_brm[vc];
            if self.ccr[vc] == 0.0 && last.is_none() {
                continue; // a VC whose forward cells do not leave through this port
            }
            let (now, _) = self.rate_for(self.ccr[vc]);
            let nan = f64::NAN;
            e.vc(
                vc,
                &[
                    ("ccr_mbps", "CCR (last forward RM cell)", "Mbps", cells_to_mbps(self.ccr[vc])),
                    ("vc_share_mbps", "VCShare = CCR/z", "Mbps", cells_to_mbps(self.vc_share(self.ccr[vc]))),
                    ("er_now_mbps", "ER it would get now", "Mbps", cells_to_mbps(now)),
                    ("last_brm_ms", "Last backward RM cell at", "ms", last.map_or(nan, |l| l.at as f64 / 1e9)),
                    (
                        "last_brm_computed_mbps",
                        "ER computed for it",
                        "Mbps",
                        last.map_or(nan, |l| cells_to_mbps(l.computed)),
                    ),
                    (
                        "last_brm_written_mbps",
                        "ER written into it",
                        "Mbps",
                        last.map_or(nan, |l| cells_to_mbps(l.written)),
                    ),
                ],
            );
        }
        e
    }

    fn internal_values(&self, out: &mut Vec<f64>) {
        out.push(self.z);
        out.push(cells_to_mbps(self.fair_share));
        if self.cfg.queue_control.is_some() {
            out.push(self.queue_factor);
            out.push(cells_to_mbps(self.abr_capacity));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn erica(link_rate: f64) -> Erica {
        let none = BTreeMap::new();
        let p = Params::new(&PARAMS, &[&none]);
        Erica::new(&p, PortInfo { link_rate, n_vcs: 4, unit_bits: 424.0, seed: 1, stream: 0 }, None)
    }

    fn feed(e: &mut Erica, now: Time, vc: u32, kind: CellKind, ccr: f64) {
        let mut c = Cell::data(vc);
        c.kind = kind;
        c.ccr = ccr;
        e.on_arrival(&PortView { now, queue_cells: 0, vc_queue_cells: 0, vc }, &mut c);
    }

    #[test]
    fn overload_factor_and_fair_share_follow_the_definitions() {
        // 100 cells in 100 µs = 1e6 cells/s on a 1e6 cells/s link at U = 0.9: z = 1/0.9.
        let mut e = erica(1e6);
        for k in 0..100u64 {
            feed(&mut e, k * 1_000_000, (k % 2) as u32, CellKind::Data, 0.0);
        }
        // The 100th cell closed the interval at t = 99 µs (99 µs long).
        let expected_z = (100.0 / 99e-6) / 0.9e6;
        assert!((e.z - expected_z).abs() < 1e-9 * expected_z, "z = {}", e.z);
        assert!((e.fair_share - 0.45e6).abs() < 1e-6, "two active VCs share 0.9e6");
    }

    #[test]
    fn after_an_idle_interval_the_first_vc_back_is_offered_the_whole_capacity() {
        let mut e = erica(1e6);
        for k in 0..100u64 {
            feed(&mut e, k * 1_000_000, (k % 2) as u32, CellKind::Data, 0.0);
        }
        assert!((e.fair_share - 0.45e6).abs() < 1e-6);
        // Silence for 10 ms, then VC 0 alone: it is the only VC, not one of two.
        feed(&mut e, 10 * crate::time::PS_PER_MS, 0, CellKind::Frm, 0.0);
        assert!((e.fair_share - e.abr_capacity).abs() < 1e-6, "{} of {}", e.fair_share, e.abr_capacity);
    }

    #[test]
    fn overloaded_port_gives_max_of_fair_share_and_vc_share() {
        let mut e = erica(1e6);
        e.z = 2.0;
        e.fair_share = 0.3e6;
        e.abr_capacity = 0.9e6;
        // VCShare = 0.8e6 / 2 = 0.4e6 > FairShare.
        assert!((e.explicit_rate(0.8e6) - 0.4e6).abs() < 1e-6);
        // VCShare = 0.2e6 / 2 = 0.1e6 < FairShare; in overload MaxAlloc is ignored.
        assert!((e.explicit_rate(0.2e6) - 0.3e6).abs() < 1e-6);
    }

    #[test]
    fn underloaded_port_lets_vcs_reach_the_previous_max_allocation_but_fairshare_first() {
        let mut e = erica(1e6);
        e.z = 0.5;
        e.fair_share = 0.3e6;
        e.abr_capacity = 0.9e6;
        e.max_alloc_previous = 0.6e6;
        // CCR above FairShare: ER = max(0.3, 0.35/0.5 = 0.7, 0.6) = 0.7e6.
        assert!((e.explicit_rate(0.35e6) - 0.7e6).abs() < 1e-6);
        // CCR below FairShare: ER would be 0.6e6 but option B caps it at FairShare.
        assert!((e.explicit_rate(0.1e6) - 0.3e6).abs() < 1e-6);
    }

    #[test]
    fn explicit_rate_never_exceeds_abr_capacity() {
        let mut e = erica(1e6);
        e.z = 0.1;
        e.fair_share = 0.9e6;
        e.abr_capacity = 0.9e6;
        assert!((e.explicit_rate(0.5e6) - 0.9e6).abs() < 1e-6);
    }

    /// QA saw MaxAllocPrevious above the link rate in the inspector. The definition records
    /// each ER in MaxAllocCurrent before the cap at the target, so it may; what is written is
    /// capped, and the explanation says why the value reads so.
    #[test]
    fn max_alloc_previous_keeps_the_uncapped_er_and_the_inspector_says_why() {
        let mut e = erica(1e6);
        let view = |now| PortView { now, queue_cells: 0, vc_queue_cells: 0, vc: 0 };
        // VC 0 declares 0.9e6 cells/s but the port sees 10 cells in the first 1 ms interval.
        feed(&mut e, 0, 0, CellKind::Frm, 0.9e6);
        for k in 1..10u64 {
            feed(&mut e, k * 1_000_000, 0, CellKind::Data, 0.0);
        }
        let ms = crate::time::PS_PER_MS;
        let mut brm = Cell::data(0);
        brm.kind = CellKind::Brm;
        brm.er = 1e6;
        e.on_brm(&view(ms + 1), &mut brm);
        let (z, target) = (e.z, e.abr_capacity);
        assert!(z < 0.02, "an underloaded port, z = {z}");
        let uncapped = 0.9e6 / z; // VCShare = CCR/z, far above FairShare = the target
        assert!((brm.er - target).abs() < 1e-6, "the ER written is capped at the target: {}", brm.er);
        assert!(e.explain().get("max_alloc_previous_mbps").unwrap() <= cells_to_mbps(target));
        assert!(e.explain().values.iter().all(|q| q.note.is_none()), "nothing to explain yet");
        // The next interval's MaxAllocPrevious is that ER before the cap: above the link rate.
        feed(&mut e, 2 * ms + 1, 0, CellKind::Data, 0.0);
        assert!((e.max_alloc_previous - uncapped).abs() < 1e-6 * uncapped, "{} vs {uncapped}", e.max_alloc_previous);
        assert!(e.max_alloc_previous > 1e6);
        let x = e.explain();
        let q = x.values.iter().find(|q| q.name == "max_alloc_previous_mbps").unwrap();
        assert_eq!(q.note, Some(MAX_ALLOC_ABOVE_TARGET));
        assert!(x.values.iter().filter(|q| q.note.is_some()).count() == 1);
    }

    #[test]
    fn brm_feedback_only_lowers_the_cell_er() {
        let mut e = erica(1e6);
        feed(&mut e, 0, 0, CellKind::Frm, 0.5e6);
        e.z = 1.0;
        e.fair_share = 0.45e6;
        e.max_alloc_previous = 0.4e6;
        let mut brm = Cell::data(0);
        brm.kind = CellKind::Brm;
        brm.er = 0.2e6;
        e.on_brm(&PortView { now: 1, queue_cells: 0, vc_queue_cells: 0, vc: 0 }, &mut brm);
        assert_eq!(brm.er, 0.2e6, "a switch never raises ER");
        brm.er = 1e6;
        e.on_brm(&PortView { now: 2, queue_cells: 0, vc_queue_cells: 0, vc: 0 }, &mut brm);
        assert!((brm.er - 0.5e6).abs() < 1e-6, "ER = CCR / z = 0.5e6, got {}", brm.er);
    }

    /// Two backward RM cells of one VC in one interval, the forward RM cell between them
    /// carrying the CCR the first one cut: the ERs they leave, with and without option C.
    fn two_feedbacks_in_one_interval(single_feedback: bool) -> (f64, f64) {
        let on = BTreeMap::from([("single_feedback".to_string(), if single_feedback { 1.0 } else { 0.0 })]);
        let p = Params::new(&PARAMS, &[&on]);
        let mut e = Erica::new(&p, PortInfo { link_rate: 1e6, n_vcs: 4, unit_bits: 424.0, seed: 1, stream: 0 }, None);
        let view = |now| PortView { now, queue_cells: 0, vc_queue_cells: 0, vc: 0 };
        let brm = |e: &mut Erica, now| {
            let mut c = Cell::data(0);
            c.kind = CellKind::Brm;
            c.er = 1e6;
            e.on_brm(&view(now), &mut c);
            c.er
        };
        feed(&mut e, 0, 0, CellKind::Frm, 0.8e6);
        // Overload z = 1.25, beyond 1 + δ; VC 0 sends at 0.8e6 and FairShare is below CCR/z.
        (e.z, e.fair_share, e.abr_capacity) = (1.25, 0.3e6, 0.9e6);
        let first = brm(&mut e, 10);
        // The source obeyed: its next forward RM cell carries the lower rate, still in the interval.
        feed(&mut e, 20, 0, CellKind::Frm, first);
        (first, brm(&mut e, 30))
    }

    #[test]
    fn option_c_gives_a_vc_one_feedback_per_interval_instead_of_a_second_cut_by_the_same_z() {
        // Without option C the second cell divides the already cut rate by the same z again:
        // 0.8e6 / 1.25 = 0.64e6, then 0.64e6 / 1.25 = 0.512e6.
        let (first, second) = two_feedbacks_in_one_interval(false);
        assert!((first - 0.64e6).abs() < 1e-6 && (second - 0.512e6).abs() < 1e-6, "{first} {second}");
        // With it the second cell gets the first one's ER.
        let (first, second) = two_feedbacks_in_one_interval(true);
        assert!((first - 0.64e6).abs() < 1e-6 && (second - first).abs() < 1e-9, "{first} {second}");
    }

    #[test]
    fn option_c_computes_afresh_once_the_interval_closes() {
        let on = BTreeMap::from([("single_feedback".to_string(), 1.0)]);
        let p = Params::new(&PARAMS, &[&on]);
        let mut e = Erica::new(&p, PortInfo { link_rate: 1e6, n_vcs: 4, unit_bits: 424.0, seed: 1, stream: 0 }, None);
        feed(&mut e, 0, 0, CellKind::Frm, 0.8e6);
        (e.z, e.fair_share, e.abr_capacity) = (1.25, 0.3e6, 0.9e6);
        let mut c = Cell::data(0);
        c.kind = CellKind::Brm;
        c.er = 1e6;
        e.on_brm(&PortView { now: 10, queue_cells: 0, vc_queue_cells: 0, vc: 0 }, &mut c);
        assert!((c.er - 0.64e6).abs() < 1e-6);
        // The interval closes (by time); the next interval's feedback is ERICA's own again.
        e.end_interval(2 * crate::time::PS_PER_MS, 0);
        (e.z, e.fair_share, e.abr_capacity) = (2.0, 0.3e6, 0.9e6);
        c.er = 1e6;
        e.on_brm(&PortView { now: 2 * crate::time::PS_PER_MS + 10, queue_cells: 0, vc_queue_cells: 0, vc: 0 }, &mut c);
        assert!((c.er - 0.4e6).abs() < 1e-6, "CCR/z = 0.8e6 / 2, got {}", c.er);
    }
}
