//! The ATM Forum TM 4.0 ABR source and destination end systems (af-tm-0056.000 §5.10; rules as
//! numbered in `shared/reference/algorithms.md` §1.2–1.3).
//!
//! The source is a pure state machine driven by the event loop: `next_event_time` says when it
//! next wants to send, `on_opportunity` decides which cell goes (rules 3, 5, 6, 7, 11) and
//! `on_brm` applies the feedback (rules 8, 9). Rates are cells/s; times are picoseconds.

use crate::cell::{flag, Cell, CellKind};
use crate::params::{ParamSpec, Params};
use crate::time::{from_ms, mbps_to_cells, Time, PS_PER_S};
use std::collections::VecDeque;

/// TM 4.0 source parameters (Table 5-7), as named in scenario files.
pub const SOURCE_PARAMS: [ParamSpec; 13] = [
    ParamSpec {
        name: "pcr_mbps",
        unit: "Mbps",
        default: None,
        default_note: "the rate of the source's access link",
        min: 0.001,
        max: 100_000.0,
        integer: false,
        meaning: "Peak cell rate: the source never sends faster",
    },
    ParamSpec::num("mcr_mbps", "Mbps", 0.0, 0.0, 100_000.0, "Minimum cell rate: ACR never falls below it"),
    ParamSpec::num(
        "icr_mbps",
        "Mbps",
        25.0,
        0.001,
        100_000.0,
        "Initial cell rate at start and after an idle period (limited to TBE/FRTT)",
    ),
    ParamSpec::num(
        "rif",
        "",
        1.0,
        1.0 / 32768.0,
        1.0,
        "Rate increase factor: at most RIF·PCR more per backward RM cell (1, as in the ER studies; TM 4.0's default 1/16 is what EFCI and EPRCA assume)",
    ),
    ParamSpec::num(
        "rdf",
        "",
        1.0 / 16.0,
        1.0 / 32768.0,
        1.0,
        "Rate decrease factor: ACR·RDF less per backward RM with CI = 1",
    ),
    ParamSpec::int("nrm", "cells", 32.0, 2.0, 256.0, "At most Nrm − 1 in-rate cells between forward RM cells"),
    ParamSpec::int(
        "mrm",
        "cells",
        2.0,
        1.0,
        256.0,
        "At least Mrm in-rate cells between forward RM cells sent because Trm expired",
    ),
    ParamSpec::num("trm_ms", "ms", 100.0, 0.78125, 100.0, "Upper bound on the time between forward RM cells"),
    ParamSpec::num(
        "adtf_ms",
        "ms",
        500.0,
        10.0,
        10_230.0,
        "ACR decrease time factor: after this long without FRM, ACR falls back to ICR",
    ),
    ParamSpec::num(
        "cdf",
        "",
        1.0 / 16.0,
        0.0,
        1.0,
        "Cutoff decrease factor: ACR·CDF less per FRM while CRM backward RMs are missing (0 disables)",
    ),
    ParamSpec::num(
        "tbe_cells",
        "cells",
        16_777_215.0,
        1.0,
        16_777_215.0,
        "Transient buffer exposure: cells the source may send before the first feedback",
    ),
    ParamSpec {
        name: "frtt_us",
        unit: "µs",
        default: None,
        default_note: "the round-trip propagation and transmission delay of the path",
        min: 0.0,
        max: 10_000_000.0,
        integer: false,
        meaning: "Fixed round-trip time, used with TBE to limit ICR and to derive CRM",
    },
    ParamSpec::num(
        "tcr_cells_per_s",
        "cells/s",
        10.0,
        1.0,
        10_000.0,
        "Tagged cell rate: the rate of out-of-rate forward RM cells while ACR < TCR",
    ),
];

/// A source's parameters resolved to engine units. What every cell reads comes first (see
/// `AbrSource`).
#[derive(Debug, Clone)]
#[repr(C)]
pub struct SourceConfig {
    /// UBR: sends at PCR, no RM cells, ignores feedback.
    pub ubr: bool,
    pub nrm: u32,
    pub mrm: u32,
    pub trm: Time,
    pub tcr: f64,
    pub start: Time,
    pub stop: Option<Time>,
    pub behavior: SourceBehavior,
    pub pcr: f64,
    pub mcr: f64,
    /// Effective ICR = min(ICR, PCR, TBE/FRTT), never below MCR.
    pub icr: f64,
    pub rif: f64,
    pub rdf: f64,
    pub adtf: Time,
    pub cdf: f64,
    /// Missing-BRM limit: ceil(TBE / Nrm).
    pub crm: u64,
    /// Data cells to send before leaving (`None`: unlimited).
    pub volume_cells: Option<u64>,
}

/// Cells a TCP sender has handed to the source: whole AAL5 frames, sent in order.
#[derive(Debug, Clone, Default)]
pub struct HostBuffer {
    /// (segment, cells of it still to send).
    frames: VecDeque<(u64, u32)>,
    pub cells: u64,
    pub cells_per_segment: u32,
    /// Largest number of cells waiting at the host so far.
    pub max_cells: u64,
}

impl HostBuffer {
    pub fn new(cells_per_segment: u32) -> Self {
        HostBuffer { cells_per_segment, ..Default::default() }
    }

    pub fn push(&mut self, segment: u64) {
        self.frames.push_back((segment, self.cells_per_segment));
        self.cells += self.cells_per_segment as u64;
        self.max_cells = self.max_cells.max(self.cells);
    }

    /// The next data cell: its segment and whether it ends the frame.
    fn pop(&mut self) -> Option<(u64, bool)> {
        let front = self.frames.front_mut()?;
        front.1 -= 1;
        let out = (front.0, front.1 == 0);
        if front.1 == 0 {
            self.frames.pop_front();
        }
        self.cells -= 1;
        Some(out)
    }
}

/// How the source uses its allowed rate, in engine units (see `scenario::Behavior`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SourceBehavior {
    Greedy,
    Dishonest { from: Time, factor: f64, greedy: Time, normal: Time },
    FixedRate { from: Time, rate: f64 },
    OnOff { on: Time, off: Time },
}

impl SourceBehavior {
    pub fn from_scenario(b: &crate::scenario::Behavior) -> Self {
        use crate::scenario::Behavior as B;
        match *b {
            B::Greedy => SourceBehavior::Greedy,
            B::Dishonest { from_ms: f, factor, greedy_ms, normal_ms } => SourceBehavior::Dishonest {
                from: from_ms(f),
                factor,
                greedy: from_ms(greedy_ms).max(1),
                normal: from_ms(normal_ms),
            },
            B::FixedRate { from_ms: f, rate_mbps } => {
                SourceBehavior::FixedRate { from: from_ms(f), rate: mbps_to_cells(rate_mbps) }
            }
            B::OnOff { on_ms, off_ms } => SourceBehavior::OnOff { on: from_ms(on_ms).max(1), off: from_ms(off_ms) },
        }
    }
}

impl SourceConfig {
    /// Resolves catalogue parameters. `access_mbps` is the default PCR; `frtt_us` the computed
    /// fixed round-trip time used unless the scenario sets one.
    pub fn resolve(p: &Params, access_mbps: f64, path_frtt_us: f64, start: Time, stop: Option<Time>) -> Self {
        let pcr = mbps_to_cells(p.explicit("pcr_mbps").unwrap_or(access_mbps));
        let mcr = mbps_to_cells(p.get("mcr_mbps"));
        let tbe = p.get("tbe_cells");
        let nrm = p.get("nrm") as u32;
        let frtt_s = p.explicit("frtt_us").unwrap_or(path_frtt_us) * 1e-6;
        let mut icr = mbps_to_cells(p.get("icr_mbps")).min(pcr);
        if frtt_s > 0.0 {
            icr = icr.min(tbe / frtt_s);
        }
        SourceConfig {
            pcr,
            mcr,
            icr: icr.max(mcr),
            rif: p.get("rif"),
            rdf: p.get("rdf"),
            nrm,
            mrm: p.get("mrm") as u32,
            trm: from_ms(p.get("trm_ms")),
            adtf: from_ms(p.get("adtf_ms")),
            cdf: p.get("cdf"),
            crm: (tbe / nrm as f64).ceil() as u64,
            tcr: p.get("tcr_cells_per_s"),
            start,
            stop,
            behavior: SourceBehavior::Greedy,
            volume_cells: None,
            ubr: false,
        }
    }
}

/// Payload bits of one data cell (48 bytes).
pub const PAYLOAD_BITS: f64 = 384.0;

/// `t.ceil() as Time` for a time `t` ≥ 0 (ps, below 2⁵³), without a call to libm's `ceil`
/// (baseline x86-64 has no rounding instruction): the same integer. Through i64, as `f64_ps`
/// (a time too far for i64, past 2⁶³ ps, comes out as 2⁶³: long after any run's end).
#[inline]
fn ceil_ps(t: f64) -> Time {
    let whole = t as i64;
    whole.wrapping_add(((whole as f64) < t) as i64) as Time
}

/// `t as f64` for a time `t` (ps): the same value, through i64, which x86-64 converts in one
/// instruction (u64 takes seven). Times are below 2⁶³ ps (106 days; a run lasts an hour at
/// most), where the two agree.
#[inline]
fn f64_ps(t: Time) -> f64 {
    t as i64 as f64
}

/// The earlier of two times (ps, as f64), neither NaN: one comparison. `f64::min` also
/// answers for NaN, which in wasm is a call to libm's `fmin` on every cell sent.
#[inline]
fn earlier(a: f64, b: f64) -> f64 {
    debug_assert!(!a.is_nan() && !b.is_nan(), "a time is NaN");
    if b < a {
        b
    } else {
        a
    }
}

/// The later of two times (ps, as f64), neither NaN: `earlier`'s counterpart (`f64::max`
/// is a call to `fmax` in wasm).
#[inline]
fn later(a: f64, b: f64) -> f64 {
    debug_assert!(!a.is_nan() && !b.is_nan(), "a time is NaN");
    if b > a {
        b
    } else {
        a
    }
}

/// Picoseconds between cells at `rate` cells/s.
fn period_ps(rate: f64) -> f64 {
    PS_PER_S as f64 / rate
}

/// What an ABR source's next send makes (`AbrSource::next_send`). The simulation defers a send
/// but an RM cell's (`Conn::defer`), so that the trace records each RM cell at its own time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendKind {
    /// A forward RM cell, or the data cell just before one by count (rule 3a's Nrm).
    Rm,
    /// An in-rate data cell, not the one just before an RM cell.
    Data,
    /// Nothing: the source has stopped or has no data then.
    Other,
}

/// One ABR source end system (one connection), greedy: it always has data to send.
///
/// Its state and configuration are read for every cell it sends, and in a network of
/// thousands of sources each event is another source's: what a cell reads comes first, the
/// state then the configuration's first fields, so that a cell touches few cache lines.
#[derive(Debug, Clone)]
#[repr(C)]
pub struct AbrSource {
    /// Allowed cell rate (cells/s), within [MCR, PCR].
    pub acr: f64,
    /// Next in-rate transmission opportunity (ps, fractional to avoid drift); ∞ when ACR = 0.
    next_tx: f64,
    /// Next out-of-rate FRM (ps), used while ACR < TCR (rule 11).
    next_oor: f64,
    t_last_frm: Time,
    /// Time of the last in-rate cell.
    last_tx: Option<f64>,
    /// Data cells still to send (volume-limited sources).
    data_left: Option<u64>,
    pub sent_in_rate: u64,
    /// In-rate cells sent since the last in-rate FRM.
    cells_since_frm: u32,
    first: bool,
    /// The volume has been sent: the source has left.
    finished: bool,
    /// Data from a TCP sender (`None`: a greedy source that always has data).
    pub host: Option<Box<HostBuffer>>,
    pub cfg: SourceConfig,
    /// In-rate FRMs sent since the last BRM with BN = 0 (rule 6).
    unack: u64,
    pub sent_frm: u64,
    pub sent_oor: u64,
    pub brm_received: u64,
}

impl AbrSource {
    pub fn new(cfg: SourceConfig) -> Self {
        let start = cfg.start as f64;
        AbrSource {
            acr: cfg.icr,
            next_tx: start,
            last_tx: None,
            cells_since_frm: 0,
            t_last_frm: cfg.start,
            unack: 0,
            first: true,
            next_oor: f64::INFINITY,
            data_left: cfg.volume_cells,
            finished: false,
            host: None,
            sent_in_rate: 0,
            sent_frm: 0,
            sent_oor: 0,
            brm_received: 0,
            cfg,
        }
    }

    fn stopped(&self, t: f64) -> bool {
        self.finished || self.cfg.stop.is_some_and(|s| t >= f64_ps(s))
    }

    /// Whether the source has data to send at `now` (on/off schedules, TCP's host buffer).
    fn has_data(&self, now: Time) -> bool {
        if let Some(h) = &self.host {
            return h.cells > 0;
        }
        match self.cfg.behavior {
            SourceBehavior::OnOff { on, off } => now < self.cfg.start || (now - self.cfg.start) % (on + off) < on,
            _ => true,
        }
    }

    /// When an idle (off) source has data again.
    fn next_on(&self, now: Time) -> Time {
        match self.cfg.behavior {
            SourceBehavior::OnOff { on, off } => {
                let period = on + off;
                self.cfg.start + ((now - self.cfg.start) / period + 1) * period
            }
            _ => now,
        }
    }

    /// Whether the source is sending at time `now` (started, not stopped, has data).
    pub fn active(&self, now: Time) -> bool {
        // A TCP application always has data, even while its window holds cells back.
        now >= self.cfg.start && !self.stopped(f64_ps(now)) && (self.host.is_some() || self.has_data(now))
    }

    /// The rate the source wants at `now` (cells/s): PCR, or its fixed rate (for the oracle).
    pub fn demand(&self, now: Time) -> f64 {
        match self.cfg.behavior {
            SourceBehavior::FixedRate { from, rate } if now >= from => rate.min(self.cfg.pcr),
            _ => self.cfg.pcr,
        }
    }

    /// The rate the source actually sends at (cells/s): ACR, unless it misbehaves.
    pub fn send_rate(&self, now: Time) -> f64 {
        match self.cfg.behavior {
            SourceBehavior::Dishonest { from, factor, greedy, normal }
                if now >= from && (now - from) % (greedy + normal) < greedy =>
            {
                (self.acr * factor).min(self.cfg.pcr)
            }
            SourceBehavior::FixedRate { from, rate } if now >= from => rate.min(self.cfg.pcr),
            _ => self.acr,
        }
    }

    /// The CCR written into forward RM cells: ACR, or an honest fixed-rate source's true rate.
    fn ccr(&self, now: Time) -> f64 {
        match self.cfg.behavior {
            SourceBehavior::FixedRate { from, rate } if now >= from => rate.min(self.cfg.pcr),
            _ => self.acr,
        }
    }

    /// When the source next wants to act, or `None` once it has stopped for good.
    pub fn next_event_time(&self) -> Option<Time> {
        if self.host.as_ref().is_some_and(|h| h.cells == 0) {
            return None; // idle until TCP hands over more data
        }
        let t = earlier(self.next_tx, self.next_oor);
        if !t.is_finite() || self.stopped(t) {
            None
        } else {
            Some(ceil_ps(t))
        }
    }

    /// `next_event_time`, no earlier than `local`, and what the source sends then
    /// (`next_send_kind` at that time): the two questions a deferred send asks, in one pass.
    #[inline]
    pub fn next_send(&self, local: Time) -> Option<(Time, SendKind)> {
        let at = self.next_event_time()?.max(local);
        Some((at, self.next_send_kind(at)))
    }

    /// Called at `next_event_time`: returns the cell to send, if any (rules 3, 5, 6, 7, 11).
    pub fn on_opportunity(&mut self, now: Time, conn: u32) -> Option<Cell> {
        let t = f64_ps(now);
        if self.stopped(t) {
            return None;
        }
        if !self.has_data(now) {
            if self.host.is_some() {
                return None;
            }
            // Rule 3c: an idle source sends nothing, not even RM cells, until it has data.
            let resume = f64_ps(self.next_on(now));
            self.next_tx = self.next_tx.max(resume);
            if self.next_oor.is_finite() {
                self.next_oor = self.next_oor.max(resume);
            }
            return None;
        }
        if self.next_tx <= t {
            return Some(self.send_in_rate(now, conn));
        }
        if self.next_oor <= t {
            return Some(self.send_out_of_rate(now, conn));
        }
        None
    }

    /// `on_opportunity` at `now` where `next_send` said [`SendKind::Data`] and nothing has
    /// changed the source since (a deferred send: `Conn::defer`): the in-rate data cell,
    /// without asking again whether the source is stopped, has data or owes an RM cell.
    #[inline]
    pub fn send_data(&mut self, now: Time, conn: u32) -> Cell {
        debug_assert_eq!(self.next_send(now), Some((now, SendKind::Data)), "a plain data cell is due now");
        let cell = self.data_cell(conn);
        self.advance_tx(now);
        cell
    }

    /// Rule 3a: FRM first, then every Nrm cells, or after Trm once Mrm cells have gone.
    fn frm_due(&self, now: Time) -> bool {
        !self.cfg.ubr
            && (self.first
                || self.cells_since_frm >= self.cfg.nrm - 1
                || (self.cells_since_frm >= self.cfg.mrm && now - self.t_last_frm >= self.cfg.trm))
    }

    /// What the source does at `now` (its `next_event_time`): `on_opportunity`'s choice,
    /// without making it.
    pub fn next_send_kind(&self, now: Time) -> SendKind {
        let t = f64_ps(now);
        if self.stopped(t) || !self.has_data(now) {
            return SendKind::Other;
        }
        if self.next_tx <= t {
            if self.frm_due(now) || (!self.cfg.ubr && self.cells_since_frm + 1 >= self.cfg.nrm - 1) {
                return SendKind::Rm;
            }
            return SendKind::Data;
        }
        if self.next_oor <= t {
            SendKind::Rm
        } else {
            SendKind::Other
        }
    }

    fn send_in_rate(&mut self, now: Time, conn: u32) -> Cell {
        let cell = if self.frm_due(now) { self.in_rate_frm(now, conn) } else { self.data_cell(conn) };
        self.advance_tx(now);
        cell
    }

    /// An in-rate forward RM cell (`send_in_rate` when one is due).
    fn in_rate_frm(&mut self, now: Time, conn: u32) -> Cell {
        let mut cell = Cell::data(conn);
        // Rule 5: idle reset to ICR.
        if !self.first && self.acr > self.cfg.icr && now - self.t_last_frm > self.cfg.adtf {
            self.acr = self.cfg.icr;
        }
        // Rule 6: missing backward RM cells.
        if self.unack >= self.cfg.crm && self.cfg.cdf > 0.0 {
            self.acr = self.cfg.mcr.max(self.acr - self.acr * self.cfg.cdf);
        }
        // Rule 7 and §0.1: an FRM carries ER = PCR and CCR = ACR.
        cell.kind = CellKind::Frm;
        cell.er = self.cfg.pcr;
        cell.ccr = self.ccr(now);
        cell.seq = self.rm_sent();
        self.unack += 1;
        self.t_last_frm = now;
        self.cells_since_frm = 0;
        self.first = false;
        self.sent_frm += 1;
        cell
    }

    /// An in-rate data cell (`send_in_rate` when no FRM is due).
    #[inline]
    fn data_cell(&mut self, conn: u32) -> Cell {
        let mut cell = Cell::data(conn);
        self.cells_since_frm += 1;
        if let Some((segment, eom)) = self.host.as_deref_mut().and_then(HostBuffer::pop) {
            cell.ccr = segment as f64;
            if eom {
                cell.set(flag::EOM);
            }
        }
        if let Some(left) = self.data_left.as_mut() {
            *left -= 1;
            self.finished = *left == 0;
        }
        cell
    }

    /// The source's clock after an in-rate cell at `now`: the next opportunity at its rate.
    #[inline]
    fn advance_tx(&mut self, now: Time) {
        self.sent_in_rate += 1;
        let t = later(self.next_tx, f64_ps(now));
        self.last_tx = Some(t);
        let rate = self.send_rate(now);
        self.next_tx = if rate > 0.0 { t + period_ps(rate) } else { f64::INFINITY };
        self.update_oor(now);
    }

    /// Forward RM cells sent so far, in-rate and out-of-rate: the next one's `Cell::seq`.
    fn rm_sent(&self) -> u32 {
        (self.sent_frm + self.sent_oor) as u32
    }

    fn send_out_of_rate(&mut self, now: Time, conn: u32) -> Cell {
        let mut cell = Cell::data(conn);
        cell.kind = CellKind::Frm;
        cell.er = self.cfg.pcr;
        cell.ccr = self.ccr(now);
        cell.seq = self.rm_sent();
        cell.set(flag::CLP);
        self.sent_oor += 1;
        self.next_oor = f64_ps(now) + period_ps(self.cfg.tcr);
        cell
    }

    /// Rule 11: while ACR < TCR, an out-of-rate FRM goes every 1/TCR so that the source still
    /// learns of increases.
    fn update_oor(&mut self, now: Time) {
        if self.acr < self.cfg.tcr && !self.cfg.ubr {
            if !self.next_oor.is_finite() {
                self.next_oor = f64_ps(now) + period_ps(self.cfg.tcr);
            }
        } else {
            self.next_oor = f64::INFINITY;
        }
    }

    /// A backward RM cell of this connection reaches the source (rules 8 and 9).
    /// Returns true when the next transmission time changed.
    pub fn on_brm(&mut self, now: Time, cell: &Cell) -> bool {
        self.brm_received += 1;
        if self.cfg.ubr {
            return false;
        }
        if !cell.has(flag::BN) {
            self.unack = 0;
        }
        let old = self.acr;
        let c = &self.cfg;
        let mut acr = self.acr;
        if cell.has(flag::CI) {
            acr = c.mcr.max(acr - acr * c.rdf);
        } else if !cell.has(flag::NI) {
            acr = c.pcr.min(acr + c.rif * c.pcr);
        }
        acr = c.mcr.max(acr.min(cell.er));
        self.acr = acr.min(c.pcr);
        if self.acr == old {
            return false;
        }
        // Reschedule the next in-rate opportunity at the new rate.
        if let Some(last) = self.last_tx {
            let rate = self.send_rate(now);
            self.next_tx = if rate > 0.0 { (last + period_ps(rate)).max(f64_ps(now)) } else { f64::INFINITY };
        }
        if self.cfg.start <= now {
            self.update_oor(now);
        }
        true
    }
}

/// The destination end system of one connection (§1.3): remembers EFCI, turns FRMs around.
#[derive(Debug, Clone, Default)]
pub struct AbrDestination {
    efci: bool,
}

impl AbrDestination {
    /// A data cell arrives: remember its EFCI bit (rule 1).
    pub fn on_data(&mut self, cell: &Cell) {
        self.efci = cell.has(flag::EFCI);
    }

    /// A forward RM cell arrives: turn it around as a backward RM cell (rule 2), carrying CI = 1
    /// when the last data cell had EFCI set. ER, CCR, NI and BN are kept.
    pub fn turn_around(&mut self, frm: &Cell) -> Cell {
        let mut brm = *frm;
        brm.kind = CellKind::Brm;
        if self.efci {
            brm.set(flag::CI);
            self.efci = false;
        }
        brm
    }
}

/// Fixed round-trip time of a path from its one-way propagation delay and the time to send one
/// cell on each link, both directions (µs).
pub fn path_frtt_us(one_way_delay_us: f64, cell_times_us: f64) -> f64 {
    2.0 * (one_way_delay_us + cell_times_us)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::PS_PER_MS;
    use std::collections::BTreeMap;

    /// A source with catalogue defaults except the given overrides; PCR = 100,000 cells/s.
    fn source(overrides: &[(&str, f64)]) -> AbrSource {
        let mut m = BTreeMap::new();
        for (k, v) in overrides {
            m.insert(k.to_string(), *v);
        }
        let p = Params::new(&SOURCE_PARAMS, &[&m]);
        let pcr_mbps = crate::time::cells_to_mbps(100_000.0);
        AbrSource::new(SourceConfig::resolve(&p, pcr_mbps, 0.0, 0, None))
    }

    fn brm(er: f64, flags: u8) -> Cell {
        let mut c = Cell::data(0);
        c.kind = CellKind::Brm;
        c.er = er;
        c.flags = flags;
        c
    }

    /// Sends `n` cells at the source's own opportunities; returns them with their times.
    fn send(s: &mut AbrSource, n: usize) -> Vec<(Time, Cell)> {
        (0..n)
            .map(|_| {
                let t = s.next_event_time().expect("sending");
                (t, s.on_opportunity(t, 0).expect("a cell is due"))
            })
            .collect()
    }

    #[test]
    fn rule_2_starts_at_icr_and_the_first_cell_is_an_frm() {
        let mut s = source(&[("icr_mbps", crate::time::cells_to_mbps(10_000.0))]);
        assert!((s.acr - 10_000.0).abs() < 1e-6);
        let cells = send(&mut s, 1);
        assert_eq!(cells[0].1.kind, CellKind::Frm);
        assert!((cells[0].1.ccr - 10_000.0).abs() < 1e-6, "CCR carries ACR (rule 7)");
        assert!((cells[0].1.er - 100_000.0).abs() < 1e-6, "ER starts at PCR");
    }

    #[test]
    fn rule_3_one_frm_every_nrm_in_rate_cells() {
        let mut s = source(&[("nrm", 8.0)]);
        let kinds: Vec<CellKind> = send(&mut s, 24).into_iter().map(|(_, c)| c.kind).collect();
        for (i, k) in kinds.iter().enumerate() {
            assert_eq!(*k == CellKind::Frm, i % 8 == 0, "cell {i} is {k:?}");
        }
    }

    #[test]
    fn rule_1_cells_are_spaced_one_over_acr() {
        let mut s = source(&[("icr_mbps", crate::time::cells_to_mbps(50_000.0))]);
        let cells = send(&mut s, 11);
        let span = cells[10].0 - cells[0].0;
        // 10 gaps of 20 µs.
        assert!((span as f64 - 10.0 * 20e6).abs() <= 1.0, "span {span} ps");
    }

    #[test]
    fn rule_3_trm_forces_an_frm_once_mrm_cells_have_gone() {
        // 1,000 cells/s: a cell every ms; Trm = 5 ms, Nrm = 256, Mrm = 2.
        let mut s = source(&[("icr_mbps", crate::time::cells_to_mbps(1_000.0)), ("trm_ms", 5.0), ("nrm", 256.0)]);
        let cells = send(&mut s, 12);
        let frm_times: Vec<Time> =
            cells.iter().filter(|(_, c)| c.kind == CellKind::Frm).map(|(t, _)| *t / PS_PER_MS).collect();
        assert_eq!(frm_times, vec![0, 5, 10], "an FRM each time Trm has elapsed");
    }

    #[test]
    fn rule_5_acr_falls_back_to_icr_after_adtf_without_frm() {
        // ACR 2,000 cells/s, Nrm 32: FRMs 16 ms apart > ADTF = 10 ms.
        let mut s = source(&[("icr_mbps", crate::time::cells_to_mbps(1_000.0)), ("adtf_ms", 10.0), ("nrm", 32.0)]);
        send(&mut s, 1);
        s.on_brm(0, &brm(2_000.0, 0));
        assert!((s.acr - 2_000.0).abs() < 1e-9);
        send(&mut s, 32);
        assert!((s.acr - 1_000.0).abs() < 1e-9, "rule 5 reset ACR to ICR, got {}", s.acr);
    }

    #[test]
    fn rule_6_missing_backward_rm_cells_cut_acr_by_cdf_per_frm() {
        // TBE 16, Nrm 8 → CRM = 2: the third FRM without any BRM cuts ACR by CDF = 1/4.
        let mut s = source(&[
            ("tbe_cells", 16.0),
            ("nrm", 8.0),
            ("cdf", 0.25),
            ("icr_mbps", crate::time::cells_to_mbps(40_000.0)),
        ]);
        send(&mut s, 16);
        assert!((s.acr - 40_000.0).abs() < 1e-9, "two FRMs unacknowledged: no cut yet");
        let third = send(&mut s, 1)[0].1;
        assert_eq!(third.kind, CellKind::Frm);
        assert!((s.acr - 30_000.0).abs() < 1e-9, "third FRM: ACR − ACR·CDF, got {}", s.acr);
        assert!((third.ccr - 30_000.0).abs() < 1e-9, "the cut applies before CCR is written");
        // A BRM with BN = 0 resets the count: the next FRM is not cut.
        s.on_brm(PS_PER_MS, &brm(30_000.0, flag::NI));
        send(&mut s, 8);
        assert!((s.acr - 30_000.0).abs() < 1e-9);
    }

    #[test]
    fn rule_8_binary_feedback_increases_by_rif_pcr_and_decreases_by_rdf() {
        let mut s = source(&[("icr_mbps", crate::time::cells_to_mbps(10_000.0)), ("rif", 0.125), ("rdf", 0.5)]);
        send(&mut s, 1);
        s.on_brm(1, &brm(1e9, 0));
        assert!((s.acr - 22_500.0).abs() < 1e-9, "+RIF·PCR = 12,500");
        s.on_brm(2, &brm(1e9, flag::CI));
        assert!((s.acr - 11_250.0).abs() < 1e-9, "−ACR·RDF");
        s.on_brm(3, &brm(1e9, flag::NI));
        assert!((s.acr - 11_250.0).abs() < 1e-9, "NI = 1: no increase");
        for _ in 0..20 {
            s.on_brm(4, &brm(1e9, 0));
        }
        assert!((s.acr - 100_000.0).abs() < 1e-9, "never above PCR");
    }

    #[test]
    fn rule_9_er_caps_acr_but_never_below_mcr() {
        let mut s = source(&[("mcr_mbps", crate::time::cells_to_mbps(5_000.0))]);
        send(&mut s, 1);
        s.on_brm(1, &brm(30_000.0, 0));
        assert!((s.acr - 30_000.0).abs() < 1e-9);
        s.on_brm(2, &brm(1_000.0, 0));
        assert!((s.acr - 5_000.0).abs() < 1e-9, "ER below MCR: ACR = MCR");
    }

    #[test]
    fn a_rate_increase_reschedules_the_next_cell() {
        let mut s = source(&[("icr_mbps", crate::time::cells_to_mbps(1_000.0))]);
        send(&mut s, 1); // t = 0; next at 1 ms
        assert_eq!(s.next_event_time(), Some(PS_PER_MS));
        s.on_brm(100_000_000, &brm(10_000.0, 0)); // at 0.1 ms, ACR → 10,000: next at 0.1 ms
        assert_eq!(s.next_event_time(), Some(100_000_000));
    }

    #[test]
    fn rule_11_out_of_rate_frms_while_acr_is_below_tcr() {
        let mut s = source(&[("tcr_cells_per_s", 10.0)]);
        send(&mut s, 1);
        s.on_brm(0, &brm(0.0, 0)); // ER = 0, MCR = 0: ACR = 0
        assert_eq!(s.acr, 0.0);
        let (t, cell) = send(&mut s, 1)[0];
        assert_eq!(t, 100 * PS_PER_MS, "one out-of-rate FRM per 1/TCR");
        assert_eq!(cell.kind, CellKind::Frm);
        assert!(cell.has(flag::CLP), "out-of-rate cells carry CLP = 1");
    }

    #[test]
    fn icr_is_limited_by_tbe_over_frtt() {
        let mut m = BTreeMap::new();
        m.insert("tbe_cells".to_string(), 100.0);
        let p = Params::new(&SOURCE_PARAMS, &[&m]);
        // FRTT 10 ms: TBE/FRTT = 10,000 cells/s, below ICR (25 Mbps ≈ 58,962 cells/s).
        let cfg = SourceConfig::resolve(&p, 155.52, 10_000.0, 0, None);
        assert!((cfg.icr - 10_000.0).abs() < 1e-9);
        assert_eq!(cfg.crm, 4, "CRM = ceil(TBE / Nrm)");
    }

    #[test]
    fn a_stopped_source_sends_nothing() {
        let mut m = BTreeMap::new();
        m.insert("icr_mbps".to_string(), 1.0);
        let p = Params::new(&SOURCE_PARAMS, &[&m]);
        let mut s = AbrSource::new(SourceConfig::resolve(&p, 155.52, 0.0, 0, Some(PS_PER_MS)));
        let mut sent = 0;
        while let Some(t) = s.next_event_time() {
            if s.on_opportunity(t, 0).is_some() {
                sent += 1;
            }
        }
        // 1 Mbps = 2,358.5 cells/s: 3 cells in the first millisecond (t = 0, 0.42, 0.85 ms).
        assert_eq!(sent, 3);
    }

    #[test]
    fn destination_turns_efci_into_ci_once() {
        let mut d = AbrDestination::default();
        let mut data = Cell::data(0);
        data.set(flag::EFCI);
        d.on_data(&data);
        let mut frm = Cell::data(0);
        frm.kind = CellKind::Frm;
        frm.er = 5.0;
        let b1 = d.turn_around(&frm);
        assert_eq!(b1.kind, CellKind::Brm);
        assert!(b1.has(flag::CI));
        assert_eq!(b1.er, 5.0, "ER is reflected unchanged");
        assert!(!d.turn_around(&frm).has(flag::CI), "the EFCI state is cleared");
    }

    fn with_behavior(b: SourceBehavior, icr_cells: f64) -> AbrSource {
        let mut m = BTreeMap::new();
        m.insert("icr_mbps".to_string(), crate::time::cells_to_mbps(icr_cells));
        let p = Params::new(&SOURCE_PARAMS, &[&m]);
        let mut cfg = SourceConfig::resolve(&p, crate::time::cells_to_mbps(100_000.0), 0.0, 0, None);
        cfg.behavior = b;
        AbrSource::new(cfg)
    }

    #[test]
    fn a_dishonest_source_sends_above_acr_but_writes_acr() {
        let b = SourceBehavior::Dishonest { from: 0, factor: 1.5, greedy: 10 * PS_PER_MS, normal: 10 * PS_PER_MS };
        let mut s = with_behavior(b, 10_000.0);
        let cells = send(&mut s, 33);
        // Greedy phase: 15,000 cells/s, so gaps of 66.7 µs, while every FRM says CCR = 10,000.
        let gap = (cells[32].0 - cells[0].0) as f64 / 32.0;
        assert!((gap - 1e12 / 15_000.0).abs() < 1.0, "gap {gap} ps");
        assert!(cells.iter().filter(|(_, c)| c.kind == CellKind::Frm).all(|(_, c)| (c.ccr - 10_000.0).abs() < 1e-9));
    }

    #[test]
    fn an_honest_fixed_rate_source_ignores_feedback_and_writes_its_true_rate() {
        let mut s = with_behavior(SourceBehavior::FixedRate { from: 0, rate: 20_000.0 }, 10_000.0);
        send(&mut s, 1);
        s.on_brm(1, &brm(5_000.0, 0)); // told to slow down: ACR follows, the source does not
        assert!((s.acr - 5_000.0).abs() < 1e-9);
        let cells = send(&mut s, 33);
        let gap = (cells[32].0 - cells[0].0) as f64 / 32.0;
        assert!((gap - 50e6).abs() < 1.0, "20,000 cells/s regardless of ACR, gap {gap}");
        let frm = cells.iter().find(|(_, c)| c.kind == CellKind::Frm).unwrap().1;
        assert!((frm.ccr - 20_000.0).abs() < 1e-9, "CCR carries the true rate");
        assert!((s.demand(PS_PER_MS) - 20_000.0).abs() < 1e-9, "the oracle sees its demand");
    }

    #[test]
    fn an_on_off_source_is_silent_while_off() {
        // 1,000 cells/s, on 5 ms, off 5 ms: cells at 0..4 ms, then nothing until 10 ms.
        let mut s = with_behavior(SourceBehavior::OnOff { on: 5 * PS_PER_MS, off: 5 * PS_PER_MS }, 1_000.0);
        let mut times = Vec::new();
        while let Some(t) = s.next_event_time() {
            if t > 12 * PS_PER_MS {
                break;
            }
            if s.on_opportunity(t, 0).is_some() {
                times.push(t / PS_PER_MS);
            }
        }
        assert_eq!(times, vec![0, 1, 2, 3, 4, 10, 11, 12]);
        assert!(!s.active(7 * PS_PER_MS) && s.active(11 * PS_PER_MS));
    }

    #[test]
    fn a_volume_limited_source_leaves_after_its_data() {
        let mut s = with_behavior(SourceBehavior::Greedy, 50_000.0);
        s.data_left = Some(40);
        let mut data = 0;
        while let Some(t) = s.next_event_time() {
            if let Some(c) = s.on_opportunity(t, 0) {
                data += (c.kind == CellKind::Data) as u32;
            }
        }
        assert_eq!(data, 40, "exactly its volume, then it leaves");
        assert!(!s.active(PS_PER_MS * 1000));
    }
}
