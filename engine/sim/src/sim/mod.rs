//! The event loop: a network of ports built from a scenario, driven in simulated time.
//!
//! ```text
//!  source ──► [port ring] ──link──► switch ──► [port ring] ──link──► destination
//!     ▲                                                                    │ FRM turned around
//!     └────────────── [port ring] ◄──link── switch ◄── [port ring] ◄───────┘ as BRM
//! ```
//!
//! Each directional link is one output port: a FIFO whose cells are stored together with the
//! time they will reach the far node (transmission starts when the previous cell is done, then
//! the propagation delay). The queue length is derived from when the port becomes idle, so a
//! port needs no departure events: one event per cell per hop (its arrival at the next node),
//! and the event queue holds only the head of each port, the sources' next sending times and
//! the sampler. Ties are broken by insertion order, so a run is a pure function of the scenario.
//! Three hops fold a plain data cell's event away where nothing observes the arrival at its
//! time (docs/implementation-notes.md, "Choices worth knowing"): the access hop (`Conn::defer`),
//! a hop between switches (`Port::lazy`, `settle_switch`) and the last hop (`Port::folded`,
//! `settle_port`); on the ten-source benchmark a delivered cell costs 1.25 events.
//!
//! A run is a few parts over explicit state, each in its own module: the clock and its events
//! ([`events`]), the network the scenario describes ([`crate::network`], the only reader of
//! its topology), the max-min shares ([`crate::shares`]) and the sampler
//! ([`crate::probes`]). This module dispatches events and moves cells between ports and end
//! systems; virtual sources (VS/VD) and virtual paths have their own files.

mod events;
mod vpc;
mod vsvd;

use crate::algorithms::{Admit, Explain, PortView};
use crate::cell::{flag, Cell, CellKind};
use crate::network::{algorithm_of, frame_discard, Deferred, Hop, Host, Network};
use crate::params::Params;
use crate::probes::{Recorder, Sampler};
use crate::scenario::{NodeKind, ParamChange, Problem, Scenario};
use crate::shares::{Epoch, Shares};
use crate::source::SendKind;
use crate::time::{from_ms, from_us, to_ms, Time, PS_PER_US};
use crate::trace::{Direction, RmEvent, RmTrace};
use events::{Clock, EventKind};
use std::collections::{BTreeMap, VecDeque};

/// An accepted cell joins FIFO port `$port` (number `$p`) at `$now`, leaving when the link is
/// free, and pushes the port's event if the cell needs one: a folded port's cell that must be
/// handled at its time (`needs_event`), a lazy port's RM cell or one whose next hop is not lazy,
/// or the head of any other port's ring. The plain and the scheduled path of `enqueue_at` end
/// with it. A macro, not a function: as an `#[inline(always)]` function (taking the port, or
/// the simulation's parts apart) it cost the ten-source benchmark 26–36 instructions a cell.
macro_rules! ring_push {
    ($sim:ident, $port:ident, $p:expr, $hop:expr, $cell:expr, $now:expr) => {{
        let arrive = $port.send_fifo($now);
        $port.ring.push_back((arrive, $cell));
        let head = $port.ring.len() == 1;
        let (folded, lazy, tcp) = ($port.folded, $port.lazy, $port.tcp);
        let event = if folded {
            $sim.needs_event(&$cell, tcp)
        } else if lazy {
            // Not `skips_event`: the hop is at hand.
            $cell.kind != CellKind::Data || !$hop.lazy()
        } else {
            head
        };
        debug_assert!($now == $sim.clock.now || !event, "a cell arriving late pushes no event");
        if event {
            $sim.clock.push(arrive, EventKind::PortHead($p as u32));
        }
    }};
}

/// One run. A clone copies every part of it, the algorithms' state included (a checkpoint): the
/// copy plays on exactly as the original would, which is how the lab goes back in time.
#[derive(Clone)]
pub struct Simulation {
    /// The scenario as run so far: live parameter changes are recorded in its `changes`.
    pub scenario: Scenario,
    clock: Clock,
    pub net: Network,
    pub shares: Shares,
    sampler: Sampler,
    /// Notifications an algorithm asked for with `Admit::NotifyMany` (connection, value).
    notes: Vec<(u32, f64)>,
    /// Parameter changes not yet applied, in time order.
    pending_changes: VecDeque<(Time, ParamChange)>,
    /// Current parameters of each node (switches), changes included.
    node_params: Vec<BTreeMap<String, f64>>,
    /// RM-cell events, when asked for (`set_rm_trace`); off by default.
    trace: RmTrace,
    /// Ports whose data cells reach their destination without an event (`Port::folded`).
    folded: Vec<u32>,
    /// Every cell delivered to a destination (time, connection), when asked for
    /// (`record_deliveries`): how a test compares folded hops with explicit ones.
    deliveries: Option<Vec<(Time, u32)>>,
}

/// What [`Simulation::advance_to_rm_event`] did: the events it ran, and the RM-cell event it
/// stopped at (None: it reached its time or event limit, or the end of the run, first).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RmSearch {
    pub events: u64,
    pub found: Option<RmEvent>,
}

/// `algorithm` when it changed ER from `er_in` to `er_out` downwards, or wrote a rate into a
/// rate-discovery tag that had none (negative ER).
fn lowered_by(algorithm: &'static str, er_in: f64, er_out: f64) -> Option<&'static str> {
    (er_out < er_in || (er_in < 0.0 && er_out >= 0.0)).then_some(algorithm)
}

/// Networks of this many connections or more put a calendar in front of the event heap (see
/// `events`): each source has an event pending, mostly milliseconds ahead, and a heap of
/// thousands of them is deep. Smaller networks are faster with the heap alone.
const CALENDAR_FROM_CONNECTIONS: usize = 256;
/// The calendar's buckets: 2²³ ps (8.4 µs) each, 1,024 of them (8.6 ms in all).
const CALENDAR_BUCKET_LOG2: u32 = 23;
const CALENDAR_BUCKETS_LOG2: u32 = 10;

/// The most cells a host's queue before its access link holds (`source_event`).
pub const HOST_QUEUE_CELLS: u32 = 1000;

impl Simulation {
    /// Builds the network of a validated scenario.
    pub fn new(scenario: Scenario) -> Self {
        let net = Network::build(&scenario);
        let end = from_ms(scenario.run.duration_ms);
        let interval = from_us(scenario.run.sample_interval_us).max(1);
        let mut changes: Vec<ParamChange> = scenario.changes.clone();
        changes.sort_by(|a, b| a.at_ms.total_cmp(&b.at_ms));
        let mut sim = Simulation {
            clock: if net.conns.len() >= CALENDAR_FROM_CONNECTIONS {
                Clock::with_calendar(end, CALENDAR_BUCKET_LOG2, CALENDAR_BUCKETS_LOG2)
            } else {
                Clock::new(end)
            },
            sampler: Sampler::new(&net, interval, end, scenario.steady_from_ms()),
            shares: Shares::default(),
            notes: Vec::new(),
            pending_changes: changes.into_iter().map(|c| (from_ms(c.at_ms), c)).collect(),
            node_params: scenario.nodes.iter().map(|n| n.params.clone()).collect(),
            trace: RmTrace::default(),
            folded: (net.ports.iter().enumerate()).filter(|(_, p)| p.folded).map(|(i, _)| i as u32).collect(),
            deliveries: None,
            net,
            scenario,
        };
        for c in 0..sim.net.conns.len() {
            if let Some(t) = sim.net.conns[c].tcp.as_mut() {
                let start = sim.scenario.connections[c].start_ms;
                let segments = t.sender.send_new(start);
                let first_tick = from_ms(start) + t.tick;
                sim.hand_to_source(c, &segments);
                sim.clock.push(first_tick, EventKind::TcpTick(c as u32));
            }
            sim.schedule_source(c);
        }
        sim.clock.push(0, EventKind::Sample);
        sim
    }

    pub fn now(&self) -> Time {
        self.clock.now
    }

    pub fn end(&self) -> Time {
        self.clock.end
    }

    /// Simulated time between two samples.
    pub fn sample_interval(&self) -> Time {
        self.sampler.interval
    }

    pub fn events(&self) -> u64 {
        self.clock.events
    }

    pub fn done(&self) -> bool {
        self.clock.done()
    }

    /// The sample rows recorded so far, their series and digest.
    pub fn rec(&self) -> &Recorder {
        &self.sampler.rec
    }

    /// From now on, keeps each new sample row until [`Simulation::take_samples`] takes it.
    pub fn stream_samples(&mut self) {
        self.sampler.rec.stream();
    }

    /// Rows recorded since the last call (row-major), for a caller that streams them (see
    /// [`Simulation::stream_samples`]).
    pub fn take_samples(&mut self) -> Vec<f64> {
        self.drain_samples(<[f64]>::to_vec)
    }

    /// `take_samples` for a caller that copies the rows out anyway (the wasm layer, into a
    /// JavaScript array): `copy` gets them in place, and the engine keeps their room for the
    /// next rows instead of growing a new vector from nothing after every slice.
    pub fn drain_samples<R>(&mut self, copy: impl FnOnce(&[f64]) -> R) -> R {
        self.sampler.rec.drain_new(copy)
    }

    /// Keeps at most `bytes` of sample history (call before running; see [`crate::history`]).
    pub fn set_history_budget(&mut self, bytes: usize) {
        self.sampler.rec.set_history_budget(bytes);
    }

    /// The max-min shares over the run so far, one epoch per change.
    pub fn epochs(&self) -> &[Epoch] {
        &self.shares.epochs
    }

    /// Runs events up to simulated time `until` (never past the end of the run) or until
    /// `max_events` have run; returns how many ran.
    pub fn advance(&mut self, until: Time, max_events: u64) -> u64 {
        // The event loop is compiled twice: without the RM-cell trace, no trace code at all.
        let n = if self.trace.on() {
            self.run_events::<true>(until, max_events)
        } else {
            self.run_events::<false>(until, max_events)
        };
        // Whoever reads the network now sees every cell that has reached its destination (and
        // every arrival at a switch), until now, or, when events at now are still to run (the
        // slice ended on `max_events`), until just before: those events (a sample) see the
        // network as a run not cut there would.
        self.settle_between_events();
        n
    }

    /// `settle` at the end of an `advance`: see there.
    fn settle_between_events(&mut self) {
        let now = self.clock.now;
        let through = if self.clock.next_time() == Some(now) { now.saturating_sub(1) } else { now };
        self.settle(through);
    }

    /// Every cell takes an event at every hop, as before hops were folded (`Port::folded`,
    /// `Conn::defer`). Call before running: a test compares the two ways.
    pub fn unfold_hops(&mut self) {
        assert_eq!(self.clock.events, 0, "hops are unfolded before the run starts");
        for &p in &self.folded {
            self.net.ports[p as usize].folded = false;
        }
        self.folded.clear();
        self.net.unfold_switch_hops();
        self.undefer_sends();
    }

    /// Every cell takes an event at every hop between switches, as before those were folded
    /// (`Port::lazy`). Call before running: a test compares the two ways.
    pub fn unfold_switch_hops(&mut self) {
        assert_eq!(self.clock.events, 0, "hops are unfolded before the run starts");
        self.net.unfold_switch_hops();
    }

    /// Sources send at their own times, every cell taking its access hop's event, as before
    /// sends were deferred (`Conn::defer`). Call before running: a test compares the two ways.
    pub fn undefer_sends(&mut self) {
        assert_eq!(self.clock.events, 0, "sends are undeferred before the run starts");
        for c in 0..self.net.conns.len() {
            if self.net.conns[c].defer.take().is_some() {
                self.net.conns[c].deferred = None;
                self.schedule_source(c);
            }
        }
    }

    /// From now on, records the time and connection of every cell delivered to a destination.
    pub fn record_deliveries(&mut self) {
        self.deliveries.get_or_insert_with(Vec::new);
    }

    /// The deliveries recorded since `record_deliveries` (time, connection index).
    pub fn deliveries(&self) -> &[(Time, u32)] {
        self.deliveries.as_deref().unwrap_or(&[])
    }

    /// Makes the arrivals at switches of lazy ports' cells (`Port::lazy`), then delivers the
    /// cells of folded ports, that are due by `through`.
    fn settle(&mut self, through: Time) {
        for g in 0..self.net.lazy_into.len() {
            self.settle_switch::<false>(g, through, None);
        }
        for i in 0..self.folded.len() {
            self.settle_port::<false>(self.folded[i] as usize, through, false);
        }
    }

    /// Delivers port `p`'s cells that arrive by `through`, in order: with `timely` (the event of
    /// a cell that has one) all of them, else only those without an event of their own.
    fn settle_port<const TRACE: bool>(&mut self, p: usize, through: Time, timely: bool) {
        while let Some(&(arrive, cell)) = self.net.ports[p].ring.front() {
            if arrive > through || (!timely && self.needs_event(&cell, self.net.ports[p].tcp)) {
                break;
            }
            self.net.ports[p].ring.pop_front();
            debug_assert_eq!(cell.hop as usize + 1, self.net.conns[cell.conn as usize].len(), "the last hop");
            self.deliver::<TRACE>(cell.conn as usize, cell, arrive);
        }
    }

    /// Makes the arrivals at a switch through its lazy ports (group `g` of `Network::lazy_into`)
    /// due by `through`, in time order (ties: the group's port order): each data cell without
    /// an event enters its next port at its own time, and with `timely` (the port whose event
    /// runs now) that port's cell with the event arrives too, now. A cell with an event of its
    /// own on another port waits for it (it arrives now, at the earliest: later arrivals on that
    /// port wait behind it).
    fn settle_switch<const TRACE: bool>(&mut self, g: usize, through: Time, timely: Option<usize>) {
        if let [f] = self.net.lazy_into[g][..] {
            let f = f as usize;
            while let Some(&(at, cell)) = self.net.ports[f].ring.front() {
                if at > through {
                    break;
                }
                let next = self.skips_event(&cell);
                if next.is_none() && timely != Some(f) {
                    break;
                }
                self.net.ports[f].ring.pop_front();
                self.arrive_at_switch::<TRACE>(cell, at, next);
            }
            return;
        }
        loop {
            let mut first: Option<(Time, usize, Option<Hop>)> = None;
            for i in 0..self.net.lazy_into[g].len() {
                let f = self.net.lazy_into[g][i] as usize;
                let Some(&(at, cell)) = self.net.ports[f].ring.front() else { continue };
                if at > through || first.is_some_and(|(t, _, _)| t <= at) {
                    continue;
                }
                let next = self.skips_event(&cell);
                if next.is_some() || timely == Some(f) {
                    first = Some((at, f, next));
                }
            }
            let Some((at, f, next)) = first else { break };
            let (_, cell) = self.net.ports[f].ring.pop_front().expect("a head cell");
            self.arrive_at_switch::<TRACE>(cell, at, next);
        }
    }

    /// A cell of a lazy port reaches the next switch at `at`: without an event (`next`, the
    /// hop it takes there: `skips_event`), it enters its next port then; else it is the cell
    /// whose event runs now. Inlined into `settle_switch`'s loops (once per cell there): the
    /// cell and its hop stay in registers.
    #[inline(always)]
    fn arrive_at_switch<const TRACE: bool>(&mut self, mut cell: Cell, at: Time, next: Option<Hop>) {
        if let Some(next) = next {
            cell.hop += 1;
            self.enqueue_at::<false>(next, cell, at);
        } else {
            debug_assert_eq!(at, self.clock.now, "a cell with an event arrives at its time");
            self.arrive::<TRACE>(cell);
        }
    }

    /// The hop a cell entering a lazy port takes at the next switch, when it goes there without
    /// an event (`Hop::lazy`); `None` when it keeps its event. One look at the route for both.
    #[inline]
    fn skips_event(&self, cell: &Cell) -> Option<Hop> {
        if cell.kind != CellKind::Data {
            return None;
        }
        let route = self.net.conns[cell.conn as usize].fwd();
        let hop = cell.hop as usize;
        // A lazy hop leads from a switch to a switch: another hop follows it.
        route[hop].lazy().then(|| route[hop + 1])
    }

    /// A cell entering a folded port keeps its event when its arrival sends a cell back (an
    /// RM cell turns around, a TCP segment may be acknowledged), which must happen at its time.
    /// `tcp_here`: the port carries TCP at all (`Port::tcp`), else no need to ask the connection.
    #[inline]
    fn needs_event(&self, cell: &Cell, tcp_here: bool) -> bool {
        cell.kind != CellKind::Data || (tcp_here && self.net.conns[cell.conn as usize].tcp.is_some())
    }

    fn run_events<const TRACE: bool>(&mut self, until: Time, max_events: u64) -> u64 {
        let limit = until.min(self.clock.end);
        let mut n = 0;
        while n < max_events {
            let next = if self.pending_changes.is_empty() {
                self.clock.pop_through(limit)
            } else {
                self.pop_after_changes(limit)
            };
            let Some((time, kind)) = next else {
                self.clock.now = self.clock.now.max(limit);
                self.apply_changes_through(self.clock.now);
                if limit == self.clock.end {
                    // The run's end: every send until then is made (deferred ones too).
                    self.catch_up_all(limit);
                }
                break;
            };
            debug_assert!(time >= self.clock.now, "an event in the past: {} < {}", time, self.clock.now);
            self.clock.now = time;
            n += 1;
            match kind {
                EventKind::PortHead(p) => self.port_head::<TRACE>(p as usize),
                EventKind::Source(c) => self.source_event::<TRACE>(c as usize, time),
                EventKind::Depart(p) => self.depart(p as usize),
                EventKind::TcpTick(c) => self.tcp_tick(c as usize),
                EventKind::TcpRelease(c) => self.tcp_release(c as usize),
                EventKind::VirtualSource(v) => self.vs_event::<TRACE>(v as usize),
                EventKind::VirtualPath(v) => self.vp_event::<TRACE>(v as usize),
                EventKind::Sample => self.sample(),
            }
        }
        self.clock.events += n;
        n
    }

    /// The next event through `limit`, with parameter changes pending: a change at time T
    /// takes effect after every event at T, before any later one.
    #[cold]
    fn pop_after_changes(&mut self, limit: Time) -> Option<(Time, EventKind)> {
        let next = self.clock.next_time().filter(|&t| t <= limit)?;
        if self.pending_changes.front().is_some_and(|(at, _)| *at < next) {
            self.apply_changes_through(next - 1);
        }
        self.clock.pop()
    }

    /// Runs the scenario to its end.
    pub fn run_to_end(&mut self) {
        while !self.done() {
            self.advance(self.clock.end, u64::MAX);
        }
    }

    /// Puts an actor's next wake-up on the event queue. `next` is what the actor asks for (a
    /// time in the past means now: an idle source may hold one), `scheduled` the wake-up already
    /// queued; stale entries are skipped when they come up. Returns the new `scheduled`.
    fn wake(&mut self, next: Option<Time>, scheduled: Option<Time>, what: EventKind) -> Option<Time> {
        match next.map(|t| t.max(self.clock.now)) {
            Some(t) if t <= self.clock.end => {
                if scheduled != Some(t) {
                    self.clock.push(t, what);
                }
                Some(t)
            }
            _ => None,
        }
    }

    fn schedule_source(&mut self, c: usize) {
        self.schedule_source_from(c, self.clock.now);
    }

    /// Schedules the next action of connection `c`'s source, whose own clock reads `local`
    /// (now, or for a deferred send the time it was made at). A data cell's send is deferred
    /// to when the cell reaches the first switch (`Conn::defer`); an RM cell's is not, so that
    /// the trace records it at its time. An RM cell due before now (while the data cell before
    /// it was deferred) goes at once, onto the access link as it would have (rare: the data cell
    /// just before an RM cell is not deferred either).
    fn schedule_source_from(&mut self, c: usize, mut local: Time) {
        loop {
            let conn = &self.net.conns[c];
            let Some(d) = conn.defer else {
                let next = conn.source.next_event_time().map(|t| t.max(local));
                let scheduled = conn.scheduled;
                self.net.conns[c].scheduled = self.wake(next, scheduled, EventKind::Source(c as u32));
                return;
            };
            let next = conn.source.next_send(local);
            match next {
                Some((t, kind)) if kind != SendKind::Rm && t <= self.clock.end => {
                    // The common case, once per data cell: one borrow of the connection.
                    let conn = &mut self.net.conns[c];
                    let at = t + d;
                    conn.deferred = Some(Deferred { at: t, data: kind == SendKind::Data });
                    if conn.scheduled != Some(at) {
                        conn.scheduled = Some(at);
                        self.clock.push(at, EventKind::Source(c as u32));
                    }
                    return;
                }
                Some((t, _)) if t < self.clock.now => {
                    self.net.conns[c].deferred = None;
                    self.send_traced(c, t);
                    local = t;
                }
                _ => {
                    self.net.conns[c].deferred = None;
                    let scheduled = self.net.conns[c].scheduled;
                    let next = next.map(|(t, _)| t);
                    self.net.conns[c].scheduled = self.wake(next, scheduled, EventKind::Source(c as u32));
                    return;
                }
            }
        }
    }

    /// Makes the sends of connection `c`'s source deferred past `through` now, so that the
    /// source is as it was at `through` (something reads or changes it); their cells go onto
    /// the access link as they would have. Does nothing when no send is deferred.
    #[inline]
    fn catch_up(&mut self, c: usize, through: Time) {
        while let Some(Deferred { at, .. }) = self.net.conns[c].deferred.filter(|d| d.at <= through) {
            self.net.conns[c].deferred = None;
            self.send_traced(c, at);
            self.schedule_source_from(c, at);
        }
    }

    /// `catch_up` for every connection.
    fn catch_up_all(&mut self, through: Time) {
        for c in 0..self.net.conns.len() {
            self.catch_up(c, through);
        }
    }

    /// A send out of the event loop (rare): with or without the trace, as it is now.
    #[cold]
    fn send_traced(&mut self, c: usize, t: Time) {
        if self.trace.on() {
            self.send::<true>(c, t, false);
        } else {
            self.send::<false>(c, t, false);
        }
    }

    fn source_event<const TRACE: bool>(&mut self, c: usize, t: Time) {
        let conn = &mut self.net.conns[c];
        if conn.scheduled != Some(t) {
            return; // superseded by a reschedule
        }
        conn.scheduled = None;
        if conn.defer.is_some() {
            // A deferred send, made now that its cell reaches the first switch (most: an
            // in-rate data cell); or an RM cell's, at its time.
            let at = match conn.deferred.take() {
                Some(Deferred { at, data: true }) => {
                    self.send_data::<TRACE>(c, at);
                    at
                }
                Some(Deferred { at, data: false }) => {
                    self.send::<TRACE>(c, at, true);
                    at
                }
                None => {
                    self.send::<TRACE>(c, t, false);
                    t
                }
            };
            self.schedule_source_from(c, at);
            return;
        }
        // The host's queue before its link is bounded: a source asking for more than its
        // access link carries (PCR above the link rate, CBR faster than it, several sources
        // on one host) waits until its link has room, so it sends no faster than the link.
        let access = self.net.conns[c].fwd()[0].port as usize;
        let port = &self.net.ports[access];
        // `queue_len(t) >= HOST_QUEUE_CELLS`, without its division (this runs for every cell).
        let room = port.drained_at().saturating_sub((HOST_QUEUE_CELLS as Time - 1) * port.cell_time);
        if room > t {
            let scheduled = self.net.conns[c].scheduled;
            self.net.conns[c].scheduled = self.wake(Some(room), scheduled, EventKind::Source(c as u32));
            return;
        }
        let conn = &mut self.net.conns[c];
        if let Some(cell) = conn.source.on_opportunity(t, c as u32) {
            conn.sent += 1;
            let access = conn.fwd()[0];
            if TRACE && cell.kind == CellKind::Frm {
                self.trace_rm(&cell, self.net.paths[c][0], Direction::Sent, cell.er, None);
            }
            self.enqueue::<TRACE>(access, cell);
        }
        self.schedule_source(c);
    }

    /// The source of a connection with a deferred access hop acts at its own time `t` (now,
    /// or earlier): the cell it sends, if any, enters its access port at `t`. With `direct`
    /// (a deferred send, made when its cell reaches the first switch), a cell that did not
    /// wait there is at the switch now, without an event of its own. The access port is a
    /// plain FIFO carrying this connection alone (`Network::defer_access_hops`): no
    /// algorithm, no per-VC queue, no frame discard, and its source never outpaces it, so
    /// the host's queue check of `source_event` never applies.
    fn send<const TRACE: bool>(&mut self, c: usize, t: Time, direct: bool) {
        let Some(cell) = self.net.conns[c].source.on_opportunity(t, c as u32) else { return };
        self.onto_access_link::<TRACE>(c, cell, t, direct);
    }

    /// `send` of a deferred in-rate data cell (`Deferred::data`), the most common send: the
    /// source need not be asked again what it sends.
    fn send_data<const TRACE: bool>(&mut self, c: usize, t: Time) {
        let Host::Abr(src) = &mut self.net.conns[c].source else { unreachable!("only ABR sends are deferred") };
        let cell = src.send_data(t, c as u32);
        self.onto_access_link::<TRACE>(c, cell, t, true);
    }

    /// `send`'s cell enters the access port at `t`.
    #[inline(always)]
    fn onto_access_link<const TRACE: bool>(&mut self, c: usize, cell: Cell, t: Time, direct: bool) {
        let conn = &mut self.net.conns[c];
        conn.sent += 1;
        let p = conn.fwd()[0].port as usize;
        if TRACE && cell.kind == CellKind::Frm {
            self.trace_rm_at(t, &cell, self.net.paths[c][0], Direction::Sent, cell.er, None);
        }
        let port = &mut self.net.ports[p];
        let q = port.fifo_queue_len(t);
        if q >= port.buffer {
            port.dropped += 1;
            let node = port.node;
            self.net.conns[c].lost += 1;
            if TRACE && cell.kind != CellKind::Data {
                self.trace_rm_at(t, &cell, node, Direction::Lost, cell.er, None);
            }
            return;
        }
        port.count_accepted(q);
        let arrive = port.send_fifo(t);
        if direct && arrive == self.clock.now && port.ring.is_empty() {
            if let Some(g) = port.into_lazy {
                self.settle_switch::<false>(g as usize, arrive, None);
            }
            self.arrive_forward::<TRACE>(cell);
            return;
        }
        debug_assert!(arrive >= self.clock.now, "a cell reaches the switch in the past");
        port.ring.push_back((arrive, cell));
        if port.ring.len() == 1 {
            self.clock.push(arrive, EventKind::PortHead(p as u32));
        }
    }

    /// A cell enters an output port now: the algorithm sees it, then the buffer keeps or drops it.
    /// `hop` is the step of the cell's route it takes (`Cell::hop` of its forward or backward
    /// route): its port, and the cell's VC there.
    #[inline]
    fn enqueue<const TRACE: bool>(&mut self, hop: Hop, cell: Cell) {
        self.enqueue_at::<TRACE>(hop, cell, self.clock.now);
    }

    /// `enqueue` at `now`: the current time, or for a cell of a lazy port the earlier time it
    /// reached the switch (`settle_switch`: it then enters a folded port and pushes no event).
    /// Inlined: the plain path is short, and its caller's hop and cell stay in registers
    /// (`enqueue_scheduled`, the long path, is not).
    #[inline(always)]
    fn enqueue_at<const TRACE: bool>(&mut self, hop: Hop, mut cell: Cell, now: Time) {
        debug_assert_eq!(self.net.conns[cell.conn as usize].hop_of(&cell), hop, "the cell's own hop");
        let p = hop.port as usize;
        if !self.net.ports[p].plain {
            self.enqueue_scheduled::<TRACE>(hop, cell, now);
            return;
        }
        // A plain FIFO port (`Port::plain`): the algorithm, if any, keeps or drops the cell.
        let port = &self.net.ports[p];
        let q = port.fifo_queue_len(now);
        let admit = if port.alg.is_some() {
            let vc = hop.vc();
            let vc_queue_cells = if port.needs_vc_queue { port.vc_queue_len(now, cell.conn, vc) } else { 0 };
            let view = PortView { now, queue_cells: q, vc_queue_cells, vc };
            if TRACE && cell.kind == CellKind::Frm {
                self.arrival_traced(p, &view, &mut cell)
            } else {
                let alg = self.net.ports[p].alg.as_mut().expect("checked");
                alg.on_arrival(&view, &mut cell)
            }
        } else {
            Admit::Keep
        };
        debug_assert!(matches!(admit, Admit::Keep | Admit::Drop), "a plain port's algorithm never notifies");
        let port = &mut self.net.ports[p];
        if q >= port.buffer || admit == Admit::Drop {
            self.drop_cell::<TRACE>(p, &cell);
            return;
        }
        port.count_accepted(q);
        ring_push!(self, port, p, hop, cell, now);
    }

    /// A full buffer or the algorithm refused `cell` at port `p`.
    fn drop_cell<const TRACE: bool>(&mut self, p: usize, cell: &Cell) {
        let port = &mut self.net.ports[p];
        port.dropped += 1;
        let node = port.node;
        let conn = &mut self.net.conns[cell.conn as usize];
        if cell.is_backward() {
            conn.brm_lost += 1;
        } else {
            conn.lost += 1;
        }
        if TRACE && cell.kind != CellKind::Data {
            self.trace_rm(cell, node, Direction::Lost, cell.er, None);
        }
    }

    /// `enqueue_at` for any port: per-VC queues, frame discard, notifying algorithms, the
    /// buffer shared with virtual sources.
    #[inline(never)]
    fn enqueue_scheduled<const TRACE: bool>(&mut self, hop: Hop, mut cell: Cell, now: Time) {
        let (p, vc) = (hop.port as usize, hop.vc());
        debug_assert_eq!(self.net.ports[p].vcs[vc as usize], cell.conn, "the cell's hop names this port");
        let (q, admit) = if self.net.ports[p].alg.is_some() {
            let port = &mut self.net.ports[p];
            let view = port.view(now, cell.conn, vc);
            let admit = if TRACE && cell.kind == CellKind::Frm {
                self.arrival_traced(p, &view, &mut cell)
            } else {
                port.alg.as_mut().expect("checked").on_arrival(&view, &mut cell)
            };
            (view.queue_cells, admit)
        } else {
            (self.net.ports[p].queue_len(now), Admit::Keep)
        };
        match admit {
            Admit::Notify(value) => self.notify_source::<TRACE>(cell.conn, cell.hop as usize, value),
            Admit::NotifyMany => {
                let mut notes = std::mem::take(&mut self.notes);
                if let Some(alg) = self.net.ports[p].alg.as_mut() {
                    alg.drain_notifications(&mut notes);
                }
                for &(vc, value) in &notes {
                    let conn = self.net.ports[p].vcs[vc as usize];
                    let hop = if conn == cell.conn {
                        Some(cell.hop as usize)
                    } else {
                        self.net.conns[conn as usize].fwd().iter().position(|h| h.port as usize == p)
                    };
                    if let Some(hop) = hop {
                        self.notify_source::<TRACE>(conn, hop, value);
                    }
                }
                notes.clear();
                self.notes = notes;
            }
            _ => {}
        }
        let port = &mut self.net.ports[p];
        let framed = !port.frame_state.is_empty()
            && cell.kind == CellKind::Data
            && self.net.conns[cell.conn as usize].tcp.is_some();
        // Data cells share the buffer with the virtual sources' queues; RM cells keep the loops going.
        let q_total = if cell.kind == CellKind::Data { q + port.vs_held } else { q };
        let admit = if framed { frame_discard(port, &cell, vc, q_total, admit) } else { admit };
        if q_total >= port.buffer || admit == Admit::Drop {
            self.drop_cell::<TRACE>(p, &cell);
            return;
        }
        port.count_accepted(q);
        if let Some(vcq) = port.per_vc.as_mut() {
            if cell.has(flag::VBR) {
                vcq.high.push_back(cell);
            } else if vcq.round_robin {
                if vcq.queues[vc as usize].is_empty() {
                    vcq.round.push_back(vc);
                }
                vcq.queues[vc as usize].push_back(cell);
            } else {
                vcq.queues[0].push_back(cell);
            }
            vcq.waiting += 1;
            if vcq.in_service.is_none() {
                self.serve_next(p);
            }
            return;
        }
        ring_push!(self, port, p, hop, cell, now);
    }

    /// A switch sends the source of connection `conn` a backward notification carrying `value`
    /// (BN = 1), from the switch at node `i` of its path (where a cell entering `fwd[i]` is).
    fn notify_source<const TRACE: bool>(&mut self, conn: u32, i: usize, value: f64) {
        let c = conn as usize;
        let m = self.net.conns[c].len();
        if i == 0 || i > m {
            return;
        }
        let mut note = Cell::data(conn);
        note.kind = CellKind::Brm;
        note.set(flag::BN);
        note.er = value;
        note.hop = (m - i) as u16;
        note.seq = self.net.conns[c].notes_sent;
        self.net.conns[c].notes_sent = note.seq.wrapping_add(1);
        let port = self.net.conns[c].bwd()[m - i];
        if TRACE {
            // The notifying algorithm is the one of the connection's forward port here.
            let by = self.net.conns[c].fwd().get(i).map(|h| self.net.ports[h.port as usize].alg_id);
            self.trace_rm(&note, self.net.paths[c][i], Direction::Notification, value, by);
        }
        self.enqueue::<TRACE>(port, note);
    }

    /// A per-VC port starts sending the next cell, round-robin over the connections.
    fn serve_next(&mut self, p: usize) {
        let port = &mut self.net.ports[p];
        let vcq = port.per_vc.as_mut().expect("scheduled port");
        let cell = if let Some(c) = vcq.high.pop_front() {
            c
        } else if vcq.round_robin {
            let Some(vc) = vcq.round.pop_front() else { return };
            let cell = vcq.queues[vc as usize].pop_front().expect("queued");
            if !vcq.queues[vc as usize].is_empty() {
                vcq.round.push_back(vc);
            }
            cell
        } else {
            let Some(c) = vcq.queues[0].pop_front() else { return };
            c
        };
        vcq.waiting -= 1;
        vcq.in_service = Some(cell);
        let done = self.clock.now + port.cell_time;
        port.busy_until = done;
        self.clock.push(done, EventKind::Depart(p as u32));
    }

    /// A per-VC port finishes sending a cell: it goes onto the link.
    fn depart(&mut self, p: usize) {
        let port = &mut self.net.ports[p];
        let cell = port.per_vc.as_mut().and_then(|q| q.in_service.take()).expect("a cell in service");
        let arrive = self.clock.now + port.delay;
        port.ring.push_back((arrive, cell));
        if port.ring.len() == 1 {
            self.clock.push(arrive, EventKind::PortHead(p as u32));
        }
        self.serve_next(p);
    }

    /// Applies the pending parameter changes due at or before `t`.
    fn apply_changes_through(&mut self, t: Time) {
        while self.pending_changes.front().is_some_and(|(at, _)| *at <= t) {
            let (at, ch) = self.pending_changes.pop_front().expect("checked");
            // The switches have taken every arrival until the change (lazy ports' too).
            for g in 0..self.net.lazy_into.len() {
                self.settle_switch::<false>(g, at, None);
            }
            let Some(node) = self.scenario.node_index(&ch.node) else { continue };
            self.node_params[node].insert(ch.param.clone(), ch.value);
            let spec = algorithm_of(&self.scenario, node);
            let params = Params::new(spec.params, &[&self.node_params[node]]);
            for port in self.net.ports.iter_mut().filter(|p| p.node == node) {
                if let Some(alg) = port.alg.as_mut() {
                    alg.reconfigure(&params);
                }
            }
            self.shares.config_changed = true;
        }
    }

    /// Changes a switch parameter from now on (after every event at the current time). The
    /// change is recorded in the scenario's `changes`, so that a saved scenario replays it.
    ///
    /// It replaces the changes of the same parameter of the same switch recorded for later
    /// times (a run gone back in time keeps its recorded changes, so that playing on replays
    /// them): the user set the value from now on, and a later recorded value would quietly undo
    /// it. Returns the changes it replaced, in time order.
    pub fn set_param(&mut self, node: &str, param: &str, value: f64) -> Result<Vec<ParamChange>, Problem> {
        let change =
            ParamChange { at_ms: to_ms(self.clock.now), node: node.to_string(), param: param.to_string(), value };
        // One change of one field at the current time (within the run): at most one problem,
        // the node's, the parameter's or the value's.
        if let Some(problem) = crate::validate::check_change(&self.scenario, &change).into_iter().next() {
            return Err(problem);
        }
        let at = from_ms(change.at_ms);
        let same = |c: &ParamChange| c.node == node && c.param == param;
        let mut replaced: Vec<ParamChange> =
            self.pending_changes.iter().filter(|(t, c)| *t > at && same(c)).map(|(_, c)| c.clone()).collect();
        if !replaced.is_empty() {
            self.pending_changes.retain(|(t, c)| !(*t > at && same(c)));
            self.scenario.changes.retain(|c| !(from_ms(c.at_ms) > at && same(c)));
            replaced.sort_by(|a, b| a.at_ms.total_cmp(&b.at_ms));
        }
        let pos = self.pending_changes.iter().position(|(t, _)| *t > at).unwrap_or(self.pending_changes.len());
        self.pending_changes.insert(pos, (at, change.clone()));
        self.scenario.changes.push(change);
        Ok(replaced)
    }

    /// The head cell of port `p` reaches the far node.
    fn port_head<const TRACE: bool>(&mut self, p: usize) {
        let port = &self.net.ports[p];
        if port.folded {
            // This cell's event: it and the cells before it without one reach the destination.
            self.settle_port::<TRACE>(p, self.clock.now, true);
            return;
        }
        if let Some(g) = port.into_lazy {
            // The switch first takes what reached it through lazy ports until now.
            if port.lazy {
                self.settle_switch::<TRACE>(g as usize, self.clock.now, Some(p));
                return;
            }
            self.settle_switch::<false>(g as usize, self.clock.now, None);
        }
        let (_, cell) = self.net.ports[p].ring.pop_front().expect("scheduled head");
        if let Some(&(next, _)) = self.net.ports[p].ring.front() {
            self.clock.push(next, EventKind::PortHead(p as u32));
        }
        self.arrive::<TRACE>(cell);
    }

    /// A cell reaches the far end of its hop `cell.hop` now. Passes the cell on out of line
    /// as separate values: a `Cell` passed by value goes by reference to a copy in memory,
    /// which keeps the caller's cell in memory on its other ways too (in wasm, on its stack in
    /// linear memory, written and read back on every cell).
    #[inline(always)]
    fn arrive<const TRACE: bool>(&mut self, cell: Cell) {
        let Cell { conn, hop, kind, flags, er, ccr, seq } = cell;
        self.arrive_parts::<TRACE>(conn, hop, kind, flags, er, ccr, seq);
    }

    /// `arrive`, out of line.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn arrive_parts<const TRACE: bool>(
        &mut self,
        conn: u32,
        hop: u16,
        kind: CellKind,
        flags: u8,
        er: f64,
        ccr: f64,
        seq: u32,
    ) {
        let mut cell = Cell { conn, hop, kind, flags, er, ccr, seq };
        let c = cell.conn as usize;
        let hop = cell.hop as usize + 1;
        match cell.kind {
            CellKind::Data | CellKind::Frm => self.arrive_forward::<TRACE>(cell),
            CellKind::Brm => {
                let m = self.net.conns[c].len();
                if hop < m {
                    // At the switch m − hop of the path: its forward port writes feedback.
                    let fwd_port = self.net.conns[c].fwd()[m - hop].port as usize;
                    let vc = self.net.conns[c].fwd()[m - hop].vc();
                    let port = &mut self.net.ports[fwd_port];
                    let view = port.view(self.clock.now, cell.conn, vc);
                    let er_in = cell.er;
                    if let Some(alg) = port.alg.as_mut() {
                        alg.on_brm(&view, &mut cell);
                    }
                    // Where this loop ends, if here: a virtual path's source (the cell is on
                    // that path) or a virtual source (VS/VD) takes the feedback.
                    let vp_end = if cell.has(flag::VP) {
                        self.net.vp_from.get(c).and_then(|v| v.get(m - hop).copied().flatten())
                    } else {
                        None
                    };
                    let vs_end = self.net.vs_at.get(c).and_then(|v| v.get(m - hop).copied().flatten());
                    if TRACE {
                        let (node, by) = (port.node, lowered_by(port.alg_id, er_in, cell.er));
                        self.trace_rm(&cell, node, Direction::Backward, er_in, by);
                        if vp_end.is_some() || vs_end.is_some() {
                            self.trace_rm(&cell, node, Direction::Received, cell.er, None);
                        }
                    }
                    if let Some(v) = vp_end {
                        if self.net.vp[v as usize].src.on_brm(self.clock.now, &cell) {
                            self.schedule_vp(v as usize);
                        }
                        return;
                    }
                    if let Some(v) = vs_end {
                        // The end of the next loop: the virtual source takes the feedback.
                        if self.net.vs[v as usize].src.on_brm(self.clock.now, &cell) {
                            self.schedule_vs(v as usize);
                        }
                        return;
                    }
                    cell.hop = hop as u16;
                    let next = self.net.conns[c].bwd()[hop];
                    self.enqueue::<TRACE>(next, cell);
                } else {
                    // The source as it is now, its sends until now made (deferred ones).
                    self.catch_up(c, self.clock.now);
                    let before = if TRACE { self.net.conns[c].source.rate(self.clock.now) } else { 0.0 };
                    let wake = self.net.conns[c].source.on_feedback(self.clock.now, &cell);
                    if TRACE {
                        let after = self.net.conns[c].source.rate(self.clock.now);
                        self.trace_received(&cell, c, [before, after]);
                    }
                    if wake {
                        self.schedule_source(c);
                    }
                }
            }
            CellKind::Ack => {
                let m = self.net.conns[c].len();
                if hop < m {
                    cell.hop = hop as u16;
                    let next = self.net.conns[c].bwd()[hop];
                    self.enqueue::<TRACE>(next, cell);
                } else {
                    let now_ms = to_ms(self.clock.now);
                    let segments = match self.net.conns[c].tcp.as_mut() {
                        Some(t) => t.sender.on_ack(cell.er as u64, now_ms),
                        None => Vec::new(),
                    };
                    self.hand_to_source(c, &segments);
                }
            }
        }
    }

    /// A forward cell (data or FRM) reaches the far end of its hop `cell.hop` now. Inlined into
    /// `send` (most cells: a deferred send's cell is at the first switch at once) and `arrive`.
    #[inline(always)]
    fn arrive_forward<const TRACE: bool>(&mut self, mut cell: Cell) {
        let c = cell.conn as usize;
        let hop = cell.hop as usize + 1;
        // Without virtual sources and paths no loop ends or starts anywhere (the VS/VD and
        // virtual path tables are all None).
        let loops = !self.net.vs.is_empty() || !self.net.vp.is_empty();
        if loops && self.enter_loop::<TRACE>(c, hop, cell) {
            return;
        }
        if hop < self.net.conns[c].len() {
            cell.hop = hop as u16;
            let next = self.net.conns[c].fwd()[hop];
            self.enqueue::<TRACE>(next, cell);
        } else {
            self.deliver::<TRACE>(c, cell, self.clock.now);
        }
    }

    /// `arrive_forward` where a virtual path or a VS/VD control loop may end or start at the
    /// node `hop` of connection `c`'s path: the cell goes there, or else (false) on its way.
    #[inline(never)]
    fn enter_loop<const TRACE: bool>(&mut self, c: usize, hop: usize, cell: Cell) -> bool {
        let vs = self.net.vs_at.get(c).and_then(|v| v.get(hop).copied().flatten());
        let vp_start = self.net.vp_from.get(c).and_then(|v| v.get(hop).copied().flatten());
        let vp_end = self.net.vp_to.get(c).and_then(|v| v.get(hop).copied().flatten());
        if cell.has(flag::VP) && vp_end.is_some() {
            self.turn_around_at::<TRACE>(c, hop, cell, cell.er, None);
        } else if let (Some(v), false, CellKind::Data) = (vp_start, cell.has(flag::VP), cell.kind) {
            self.vp_enqueue(v as usize, cell);
        } else if let Some(v) = vs {
            self.at_vsvd::<TRACE>(v as usize, cell);
        } else {
            return false;
        }
        true
    }

    /// Queues the cells of TCP segments at the connection's source and wakes it.
    /// With a random delay, each segment waits a uniform time up to it first (but never
    /// leaves before the segment ahead of it: the sender's order holds).
    fn hand_to_source(&mut self, c: usize, segments: &[u64]) {
        if segments.is_empty() {
            return;
        }
        let now = self.clock.now;
        if let Some(t) = self.net.conns[c].tcp.as_mut().filter(|t| t.random_delay > 0) {
            for &seg in segments {
                let delay = (t.rng.uniform() * t.random_delay as f64) as Time;
                let after = t.delayed.back().map_or(now, |&(at, _)| at);
                let at = (now + delay).max(after);
                t.delayed.push_back((at, seg));
                self.clock.push(at, EventKind::TcpRelease(c as u32));
            }
            return;
        }
        self.queue_at_host(c, segments);
    }

    /// Connection `c`'s delayed segments whose time has come join its host queue.
    fn tcp_release(&mut self, c: usize) {
        let now = self.clock.now;
        let Some(t) = self.net.conns[c].tcp.as_mut() else { return };
        let mut due = Vec::new();
        while t.delayed.front().is_some_and(|&(at, _)| at <= now) {
            due.push(t.delayed.pop_front().expect("checked").1);
        }
        if !due.is_empty() {
            self.queue_at_host(c, &due);
        }
    }

    fn queue_at_host(&mut self, c: usize, segments: &[u64]) {
        if let Host::Abr(src) = &mut self.net.conns[c].source {
            if let Some(h) = src.host.as_mut() {
                for &seg in segments {
                    h.push(seg);
                }
            }
        }
        self.schedule_source(c);
    }

    /// A tick of connection `c`'s TCP retransmission timer.
    fn tcp_tick(&mut self, c: usize) {
        let now_ms = to_ms(self.clock.now);
        let Some(t) = self.net.conns[c].tcp.as_mut() else { return };
        let segments = t.sender.on_tick(now_ms);
        let next = self.clock.now + t.tick;
        self.hand_to_source(c, &segments);
        if next <= self.clock.end {
            self.clock.push(next, EventKind::TcpTick(c as u32));
        }
    }

    /// Cell `cell` of connection `c` reaches its destination at `at` (now, or earlier for a
    /// cell of a folded port without an event of its own).
    #[inline]
    fn deliver<const TRACE: bool>(&mut self, c: usize, cell: Cell, at: Time) {
        if self.deliveries.is_some() {
            self.record_delivery(c, at);
        }
        let conn = &mut self.net.conns[c];
        conn.delivered_all += 1;
        let in_rate = !cell.has(flag::CLP);
        if in_rate {
            conn.delivered += 1;
        }
        if cell.kind == CellKind::Data && conn.tcp.is_none() {
            // Most cells: nothing to send back.
            conn.dest.on_data(&cell);
            return;
        }
        self.reply::<TRACE>(c, cell);
    }

    #[cold]
    fn record_delivery(&mut self, c: usize, at: Time) {
        if let Some(log) = self.deliveries.as_mut() {
            log.push((at, c as u32));
        }
    }

    /// `deliver` of a cell the destination answers: an FRM turns around, a TCP segment's cell
    /// may be acknowledged.
    /// The cell goes out of line as separate values, as in `arrive`.
    #[inline(always)]
    fn reply<const TRACE: bool>(&mut self, c: usize, cell: Cell) {
        let Cell { conn, hop, kind, flags, er, ccr, seq } = cell;
        self.reply_parts::<TRACE>(c, conn, hop, kind, flags, er, ccr, seq);
    }

    /// `reply`, out of line.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn reply_parts<const TRACE: bool>(
        &mut self,
        c: usize,
        conn: u32,
        hop: u16,
        kind: CellKind,
        flags: u8,
        er: f64,
        ccr: f64,
        seq: u32,
    ) {
        let cell = Cell { conn, hop, kind, flags, er, ccr, seq };
        let conn = &mut self.net.conns[c];
        match cell.kind {
            CellKind::Data => {
                conn.dest.on_data(&cell);
                let ack = conn.tcp.as_mut().and_then(|t| t.receiver.on_cell(cell.ccr as u64, cell.has(flag::EOM)));
                if let Some(ack) = ack {
                    let mut a = Cell::data(cell.conn);
                    a.kind = CellKind::Ack;
                    a.er = ack as f64;
                    let port = conn.bwd()[0];
                    self.enqueue::<TRACE>(port, a);
                }
            }
            CellKind::Frm => {
                let mut brm = conn.dest.turn_around(&cell);
                brm.hop = 0;
                let port = conn.bwd()[0];
                if TRACE {
                    let node = *self.net.paths[c].last().expect("a path has nodes");
                    self.trace_rm(&brm, node, Direction::Turnaround, brm.er, None);
                }
                self.enqueue::<TRACE>(port, brm);
            }
            CellKind::Brm | CellKind::Ack => unreachable!("backward cells end at the source"),
        }
    }

    fn sample(&mut self) {
        let now = self.clock.now;
        // The sample at `now` runs before the arrivals at `now` (its event is the older one),
        // and the sources as they were just before (their deferred sends until then made).
        self.catch_up_all(now.saturating_sub(1));
        self.settle(now.saturating_sub(1));
        let epoch = self.shares.update(now, &self.net);
        self.sampler.sample(now, &mut self.net, epoch);
        if let Some(next) = self.sampler.next_time() {
            self.clock.push(next, EventKind::Sample);
        }
    }

    /// What the algorithm of `switch`'s output port `port` (the port id, `SW1->SW2`, or the
    /// node it leads to, `SW2`) says about its state now. Errors name the argument at fault.
    pub fn explain(&self, switch: &str, port: &str) -> Result<Explain, Problem> {
        let problem = |path: &str, rule: String| Problem::new(path, rule);
        let node = (self.scenario.node_index(switch))
            .filter(|&n| self.scenario.nodes[n].kind == NodeKind::Switch)
            .ok_or_else(|| problem("switch", format!("{switch:?} is not a switch of this scenario")))?;
        let ports: Vec<usize> = (0..self.net.ports.len()).filter(|&p| self.net.ports[p].node == node).collect();
        let p = ports
            .iter()
            .copied()
            .find(|&p| self.net.ports[p].id == port || self.net.ports[p].id == format!("{switch}->{port}"))
            .ok_or_else(|| {
                let ids: Vec<&str> = ports.iter().map(|&p| self.net.ports[p].id.as_str()).collect();
                problem("port", format!("{switch} has no port {port:?} (its ports: {})", ids.join(", ")))
            })?;
        let port = &self.net.ports[p];
        let alg = port.alg.as_ref().ok_or_else(|| problem("port", format!("{} runs no algorithm", port.id)))?;
        let mut e = alg.explain();
        // The queue now, which every rule reads one way or another (EFCI's marking, EPRCA's
        // thresholds, ERICA+'s target), though most explain the value they last took.
        // (An algorithm that computes no feedback, `none`, still has nothing to explain.)
        if !e.rule.is_empty() {
            let unit = if self.net.ethernet { "frames" } else { "cells" };
            e.lead("queue_now_cells", "Queue now", unit, port.queue_len(self.clock.now) as f64);
        }
        e.algorithm = port.alg_id.to_string();
        e.port = port.id.clone();
        e.time_us = self.clock.now as f64 / PS_PER_US as f64;
        for v in &mut e.vcs {
            v.connection = self.net.conns[port.vcs[v.vc as usize] as usize].id.clone();
        }
        Ok(e)
    }

    /// Records RM-cell events from now on, keeping the newest `capacity` (0: stop recording).
    pub fn set_rm_trace(&mut self, capacity: usize) {
        self.trace.set_capacity(capacity);
    }

    /// Runs events until one records an RM-cell event at node `node` (at any node when `node` is
    /// empty; of `direction`, when given; of the control loop `connection`, a connection or
    /// virtual path id, when not empty), or until simulated time `until` or `max_events` events:
    /// in one call, where a caller stepping one event at a time would pay a call per event.
    /// Stops right after that event, as stepping would (later events at the same time have not
    /// run, and the next search starts with them: the event it finds may be at the very time it
    /// starts from). The events are recorded in the trace as usual (turned on for the search alone if it
    /// was off, then off again). Errors name the argument at fault (`node`, `direction`,
    /// `connection`).
    ///
    /// `connection` picks a loop as the RM trace names it (`RmRecord::vp`, else `connection`):
    /// a virtual path's own RM cells travel under a member connection's index, and belong to
    /// the path, not to that member.
    pub fn advance_to_rm_event(
        &mut self,
        node: &str,
        direction: Option<&str>,
        connection: &str,
        until: Time,
        max_events: u64,
    ) -> Result<RmSearch, Problem> {
        let problem = |path: &str, rule: String| Problem::new(path, rule);
        let at = match node {
            "" => None,
            _ => Some(
                self.scenario
                    .node_index(node)
                    .ok_or_else(|| problem("node", format!("{node:?} is not a node of this scenario")))?
                    as u32,
            ),
        };
        let direction = match direction {
            None => None,
            Some(d) => Some(Direction::parse(d).ok_or_else(|| {
                let names: Vec<&str> = Direction::ALL.iter().map(|d| d.as_str()).collect();
                problem("direction", format!("{d:?} is not a direction ({})", names.join(", ")))
            })?),
        };
        // The loop sought: (connection index its RM cells carry, whether they are a path's).
        let of = match connection {
            "" => None,
            id => Some(if let Some(c) = self.net.conns.iter().position(|c| c.id == id) {
                (c as u32, false)
            } else if let Some(v) = self.net.vp.iter().find(|v| v.id == id) {
                (v.carrier as u32, true)
            } else {
                let what = if self.net.vp.is_empty() { "a connection" } else { "a connection or virtual path" };
                return Err(problem("connection", format!("{id:?} is not {what} of this scenario")));
            }),
        };
        let was_on = self.trace.on();
        if !was_on {
            self.trace.set_capacity(1);
        }
        let mut search = RmSearch { events: 0, found: None };
        while search.events < max_events {
            let mark = self.trace.recorded();
            if self.run_events::<true>(until, 1) == 0 {
                break;
            }
            search.events += 1;
            let hit = |e: &&RmEvent| {
                at.is_none_or(|at| e.node == at)
                    && direction.is_none_or(|d| e.direction == d)
                    && of.is_none_or(|(c, vp)| e.conn == c && (e.flags & flag::VP != 0) == vp)
            };
            if let Some(e) = self.trace.since(mark).find(hit) {
                search.found = Some(*e);
                break;
            }
        }
        if !was_on {
            self.trace.set_capacity(0);
        }
        self.settle_between_events();
        Ok(search)
    }

    /// The RM-cell trace (drain it with `RmTrace::take`; resolve ids with `RmRecord::new`).
    pub fn rm_trace(&mut self) -> &mut RmTrace {
        &mut self.trace
    }

    /// A forward RM cell enters port `p`, whose algorithm sees it, with the trace on.
    #[cold]
    #[inline(never)]
    fn arrival_traced(&mut self, p: usize, view: &PortView, cell: &mut Cell) -> Admit {
        let er_in = cell.er;
        let port = &mut self.net.ports[p];
        let admit = port.alg.as_mut().expect("an algorithm port").on_arrival(view, cell);
        let (node, by) = (port.node, lowered_by(port.alg_id, er_in, cell.er));
        self.trace_rm(cell, node, Direction::Forward, er_in, by);
        admit
    }

    /// Records an RM-cell event at node `node`: the cell as it leaves, ER as it came. Called
    /// only when the trace is on, and kept out of line (cold) so that the event loop stays as
    /// it was when the trace is off.
    #[cold]
    #[inline(never)]
    fn trace_rm(&mut self, cell: &Cell, node: usize, direction: Direction, er_in: f64, by: Option<&'static str>) {
        self.trace_rm_at(self.clock.now, cell, node, direction, er_in, by);
    }

    /// `received` at connection `c`'s source, with its allowed rate before and after the cell.
    #[cold]
    #[inline(never)]
    fn trace_received(&mut self, cell: &Cell, c: usize, acr: [f64; 2]) {
        self.trace_rm(cell, self.net.paths[c][0], Direction::Received, cell.er, None);
        if let Some(e) = self.trace.last_mut() {
            e.acr = acr;
        }
    }

    /// `trace_rm` for an event at `time` (a source's send made after its time).
    fn trace_rm_at(
        &mut self,
        time: Time,
        cell: &Cell,
        node: usize,
        direction: Direction,
        er_in: f64,
        by: Option<&'static str>,
    ) {
        self.trace.push(RmEvent {
            time,
            conn: cell.conn,
            seq: cell.seq,
            node: node as u32,
            direction,
            er_in,
            er_out: cell.er,
            ccr: cell.ccr,
            flags: cell.flags,
            by,
            acr: [f64::NAN; 2],
        });
    }

    /// Roughly the bytes a copy of this run (`clone`) takes, to budget checkpoints: the cells
    /// on their way and queued, the ports' and connections' state, the pending events and the
    /// kept sample rows. An estimate (an algorithm's per-VC state is counted as a fixed size
    /// per VC), not an exact account.
    pub fn state_bytes(&self) -> usize {
        use crate::network::{Conn, Port};
        use std::mem::size_of;
        const PER_VC_BYTES: usize = 128;
        let ports: usize = (self.net.ports.iter())
            .map(|p| {
                let queued = p.per_vc.as_ref().map_or(0, |q| q.waiting as usize);
                size_of::<Port>()
                    + p.ring.len() * size_of::<(Time, Cell)>()
                    + queued * size_of::<Cell>()
                    + p.vcs.len() * PER_VC_BYTES
            })
            .sum();
        let conns = self.net.conns.len() * (size_of::<Conn>() + PER_VC_BYTES);
        let events = (self.net.ports.len() + self.net.conns.len()) * 2 * size_of::<u128>();
        ports + conns + events + self.sampler.rec.history().rows().len() * size_of::<f64>()
    }

    /// Every forward cell of connection `conn` is accounted for (see [`Network::cells_conserved`]).
    pub fn cells_conserved(&self, conn: usize) -> bool {
        self.net.cells_conserved(conn)
    }
}
