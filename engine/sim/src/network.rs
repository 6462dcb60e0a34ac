//! The network a scenario describes, built once: output ports (one per link direction), the
//! connections with their end systems and routes, the virtual sources of VS/VD switches and
//! the sources of virtual paths. `Network::build` is the only place that reads the scenario's
//! topology; the event loop (`sim`) moves cells through what it builds.

use crate::algorithms::Admit;
use crate::algorithms::{self, PortAlgorithm, PortInfo, PortView};
use crate::background::BackgroundSource;
use crate::cell::{flag, Cell};
use crate::ethernet::source::ETH_SOURCE_PARAMS;
use crate::ethernet::source::{EthSource, EthSourceConfig};
use crate::fields;
use crate::params::Params;
use crate::ring::Ring;
use crate::rng::SplitMix64;
use crate::scenario::Service;
use crate::scenario::{Discard, NodeKind, Scenario, Scheduler};
use crate::source::{
    path_frtt_us, AbrDestination, AbrSource, HostBuffer, SendKind, SourceBehavior, SourceConfig, PAYLOAD_BITS,
    SOURCE_PARAMS,
};
use crate::tcp::{cells_per_segment, TcpParams, TcpReceiver, TcpSender};
use crate::time::{from_ms, from_us, Time, PS_PER_S};
use crate::topology::Topology;
use std::collections::{BTreeMap, VecDeque};

/// Random streams of switch ports start here (sources use their connection index).
const PORT_STREAM: u64 = 1 << 32;
/// Random streams of TCP senders' segment delays start here (plus the connection index).
const TCP_STREAM: u64 = 2 << 32;

/// One direction of a link: the output port of `node` towards `next`.
///
/// Every cell entering or leaving the port reads its timing, queue and buffer, and in a large
/// network each event is another port's: so those come first, in the first two cache lines.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Port {
    /// When the last accepted cell finishes transmission.
    pub(crate) busy_until: Time,
    /// Time to send one cell (ps).
    pub(crate) cell_time: Time,
    pub(crate) delay: Time,
    /// Cells with the time each reaches the far node (non-decreasing): for a FIFO port every
    /// accepted cell, for a per-VC port the cells that have left the port.
    pub(crate) ring: Ring<(Time, Cell)>,
    pub(crate) buffer: u32,
    /// Cells held for this port by the virtual sources of a VS/VD switch: they share the
    /// port's buffer with its own queue.
    pub(crate) vs_held: u32,
    pub alg: Option<PortAlgorithm>,
    /// Per VC (`vcs`), where its current frame stands; empty when the port discards by cell.
    pub(crate) frame_state: Box<[FrameState]>,
    /// Per-VC queues served round-robin; `None` for a FIFO port (boxed: every cell asks which
    /// it is, few ports have them).
    pub(crate) per_vc: Option<Box<PerVcQueues>>,
    pub accepted: u64,
    pub max_queue: u32,
    /// The most cells the port's buffer held at once: its own queue and the cells waiting for
    /// it in a VS/VD switch's per-VC queues (`vs_held`); the same as `max_queue` without them.
    pub max_buffer: u32,
    /// The largest queue since the last sample (the sampler resets it).
    pub(crate) peak_queue: u32,
    /// A FIFO port into a destination whose data cells (not RM cells, not TCP's) need no event:
    /// nothing but the destination's counters sees them arrive, so they are delivered when
    /// something reads those (`Simulation::settle`) and the cell costs one event fewer. RM and
    /// TCP cells, whose arrival sends a cell back at its own time, keep their event.
    pub(crate) folded: bool,
    /// Some connection crossing the port carries TCP (cached: a folded port would ask every
    /// cell's connection whether it does).
    pub(crate) tcp: bool,
    /// A FIFO port from a switch into a switch whose plain data cells (of the connections
    /// whose hop here is `Hop::lazy`) reach the next switch without an event: their arrivals
    /// there are made, in time order, when something reads that switch
    /// (`Simulation::settle_switch`). Every other cell keeps its own event.
    pub(crate) lazy: bool,
    /// The group of lazy ports into this port's far node (`Network::lazy_into`), when that
    /// node has any: whatever arrives there through this port first makes their arrivals due.
    pub(crate) into_lazy: Option<u32>,
    /// The node this port leads to.
    pub(crate) far: usize,
    /// A FIFO port (no per-VC queues, no frame discard, no virtual sources sharing its buffer)
    /// whose algorithm, if any, never notifies: a cell entering it takes the short way
    /// (`Simulation::enqueue_at`).
    pub(crate) plain: bool,
    /// The algorithm reads per-VC queue lengths (cached: asked once per cell otherwise).
    pub(crate) needs_vc_queue: bool,
    /// A switch port on some connection's forward route (its queue and utilisation are sampled).
    pub reported: bool,
    /// True for the link's `from` → `to` direction.
    pub forward: bool,
    pub dropped: u64,
    /// "SW1->SW2".
    pub id: String,
    pub node: usize,
    pub link: usize,
    /// Capacity (cells/s).
    pub link_rate: f64,
    /// The id of `alg` in the registry ("" without one).
    pub alg_id: &'static str,
    /// The connections crossing this port (either direction), by their index here.
    pub(crate) vcs: Vec<u32>,
    /// Frame discard (EPD/PPD) and, per connection, where its current frame stands.
    pub(crate) discard: Discard,
    pub(crate) epd_threshold: u32,
}

/// Where a connection's current AAL5 frame stands at a port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FrameState {
    /// The next cell starts a frame.
    Start,
    Accepting,
    /// EPD refused this frame: all of it is dropped.
    Refused,
    /// PPD cut this frame: the rest is dropped but its last cell.
    Cut,
}

/// The queues of a scheduled port: CBR/VBR cells first (strict priority), then ABR cells either
/// in one FIFO or one queue per connection served round-robin, a cell at a time.
#[derive(Clone)]
pub(crate) struct PerVcQueues {
    /// One queue per VC of the port (`Port::vcs`, round-robin) or only `queues[0]` (FIFO).
    pub(crate) round_robin: bool,
    pub(crate) queues: Vec<VecDeque<Cell>>,
    /// VCs with cells waiting, in service order (round-robin only).
    pub(crate) round: VecDeque<u32>,
    pub(crate) high: VecDeque<Cell>,
    pub(crate) in_service: Option<Cell>,
    pub(crate) waiting: u32,
}

impl PerVcQueues {
    /// Round-robin queues are added once the port's VCs are known (`Network::build`).
    pub(crate) fn new(round_robin: bool) -> Self {
        PerVcQueues {
            round_robin,
            queues: if round_robin { Vec::new() } else { vec![VecDeque::new()] },
            round: VecDeque::new(),
            high: VecDeque::new(),
            in_service: None,
            waiting: 0,
        }
    }
}

impl Port {
    /// Counts a cell the port keeps, with `q` cells queued before it. Inlined (once per cell
    /// per hop), the maxima's update not (few cells raise them).
    #[inline(always)]
    pub(crate) fn count_accepted(&mut self, q: u32) {
        self.accepted += 1;
        // The maxima nest, peak_queue ≤ max_queue ≤ max_buffer (the sampler lowers the peak
        // only to the queue now, which an acceptance has reached): a queue no longer than the
        // peak, with no virtual source's cells held, raises none of them.
        debug_assert!(self.peak_queue <= self.max_queue && self.max_queue <= self.max_buffer);
        if q + 1 > self.peak_queue || self.vs_held > 0 {
            self.raise_maxima(q);
        }
    }

    #[inline(never)]
    fn raise_maxima(&mut self, q: u32) {
        self.max_queue = self.max_queue.max(q + 1);
        self.max_buffer = self.max_buffer.max(q + 1 + self.vs_held);
        self.peak_queue = self.peak_queue.max(q + 1);
    }

    /// A FIFO port takes a cell that came at `at`: it is sent once the cells before it have
    /// gone. Returns when it reaches the far node.
    #[inline]
    pub(crate) fn send_fifo(&mut self, at: Time) -> Time {
        self.busy_until = self.busy_until.max(at) + self.cell_time;
        self.busy_until + self.delay
    }

    /// Cells waiting or in transmission at `now`.
    pub fn queue_len(&self, now: Time) -> u32 {
        if let Some(q) = &self.per_vc {
            return q.waiting + q.in_service.is_some() as u32;
        }
        self.fifo_queue_len(now)
    }

    /// `queue_len` of a FIFO port.
    #[inline]
    pub(crate) fn fifo_queue_len(&self, now: Time) -> u32 {
        if self.busy_until <= now {
            0
        } else {
            (self.busy_until - now).div_ceil(self.cell_time) as u32
        }
    }

    /// Cells of connection `conn` (the port's VC `vc`) waiting or in transmission at `now`.
    pub fn vc_queue_len(&self, now: Time, conn: u32, vc: u32) -> u32 {
        if let Some(q) = &self.per_vc {
            let waiting = if q.round_robin {
                q.queues[vc as usize].len()
            } else {
                q.queues[0].iter().filter(|c| c.conn == conn).count()
            };
            return waiting as u32
                + q.high.iter().filter(|c| c.conn == conn).count() as u32
                + q.in_service.is_some_and(|c| c.conn == conn) as u32;
        }
        // FIFO: the queued cells are the newest ones, those not yet fully sent.
        self.ring
            .iter()
            .rev()
            .take_while(|(arrive, _)| arrive - self.delay > now)
            .filter(|(_, c)| c.conn == conn)
            .count() as u32
    }

    /// The port as its algorithm sees it when a cell of connection `conn` passes; `vc` is the
    /// connection's index among the port's own (`vcs`).
    pub(crate) fn view(&self, now: Time, conn: u32, vc: u32) -> PortView {
        let vc_queue_cells = if self.needs_vc_queue { self.vc_queue_len(now, conn, vc) } else { 0 };
        PortView { now, queue_cells: self.queue_len(now), vc_queue_cells, vc }
    }

    /// When the port will have sent every cell it holds now (for a scheduled port, the cells
    /// still waiting follow the one in service).
    pub fn drained_at(&self) -> Time {
        self.busy_until + self.per_vc.as_ref().map_or(0, |q| q.waiting as u64 * self.cell_time)
    }

    /// Time the transmitter has spent sending by `now` (ps): the accepted cells' transmission
    /// times less what is still to send. It grows at most as fast as time, so a utilisation
    /// measured with it never exceeds 100 % (counting whole cells sent in an interval can).
    pub fn busy_ps(&self, now: Time) -> u64 {
        let in_progress = self.busy_until.saturating_sub(now);
        let waiting = self.per_vc.as_ref().map_or(0, |q| q.waiting as u64 * self.cell_time);
        self.accepted * self.cell_time - in_progress - waiting
    }
}

/// The sending end system of a connection: a TM 4.0 ABR source, or an Ethernet host.
#[derive(Clone)]
pub enum Host {
    Abr(AbrSource),
    Eth(EthSource),
    /// CBR/VBR background traffic (no feedback; strict priority over ABR).
    Bg(BackgroundSource),
}

impl Host {
    /// A UBR source: it sends at PCR whatever the network says, so it has no allowed rate.
    pub fn is_ubr(&self) -> bool {
        matches!(self, Host::Abr(s) if s.cfg.ubr)
    }

    pub(crate) fn next_event_time(&self) -> Option<Time> {
        match self {
            Host::Abr(s) => s.next_event_time(),
            Host::Eth(s) => s.next_event_time(),
            Host::Bg(s) => s.next_event_time(),
        }
    }

    /// `next_event_time` no earlier than `local`, and what the host sends then (an Ethernet or
    /// background host: always said `Rm`, since only an ABR source's sends are ever deferred).
    #[inline]
    pub(crate) fn next_send(&self, local: Time) -> Option<(Time, SendKind)> {
        match self {
            Host::Abr(s) => s.next_send(local),
            Host::Eth(s) => s.next_event_time().map(|t| (t.max(local), SendKind::Rm)),
            Host::Bg(s) => s.next_event_time().map(|t| (t.max(local), SendKind::Rm)),
        }
    }

    pub(crate) fn on_opportunity(&mut self, now: Time, conn: u32) -> Option<Cell> {
        match self {
            Host::Abr(s) => s.on_opportunity(now, conn),
            Host::Eth(s) => s.on_opportunity(now, conn),
            Host::Bg(s) => s.on_opportunity(now, conn),
        }
    }

    /// A backward cell reaches the host; true when its next sending time changed.
    pub(crate) fn on_feedback(&mut self, now: Time, cell: &Cell) -> bool {
        match self {
            Host::Abr(s) => s.on_brm(now, cell),
            Host::Eth(s) => s.on_feedback(now, cell),
            Host::Bg(_) => false,
        }
    }

    /// Sending at `now`: started, not stopped, with data.
    pub fn active(&self, now: Time) -> bool {
        match self {
            Host::Abr(s) => s.active(now),
            Host::Eth(s) => s.active(now),
            Host::Bg(s) => s.active(now),
        }
    }

    /// The rate the host wants (units/s), for the max-min oracle.
    pub fn demand(&self, now: Time) -> f64 {
        match self {
            Host::Abr(s) => s.demand(now),
            Host::Eth(s) => s.demand(),
            Host::Bg(s) => s.rate(),
        }
    }

    pub fn mcr(&self) -> f64 {
        match self {
            Host::Abr(s) => s.cfg.mcr,
            Host::Eth(_) | Host::Bg(_) => 0.0,
        }
    }

    /// The allowed rate (units/s): ACR, or an Ethernet host's rate limiter.
    pub fn rate(&self, _now: Time) -> f64 {
        match self {
            Host::Abr(s) => s.acr,
            Host::Eth(s) => s.rate(),
            Host::Bg(s) => s.rate(),
        }
    }
}

/// A virtual source at a VS/VD switch: the per-VC queue of one connection there, sent at the
/// VS's own ACR by a TM 4.0 source that starts the next control loop.
#[derive(Clone)]
pub struct VirtualSource {
    pub conn: usize,
    /// Position of the switch on the connection's path (the VS sends into `fwd[pos]`).
    pub pos: usize,
    pub src: AbrSource,
    pub queue: VecDeque<Cell>,
    pub max_queue: u64,
    pub(crate) scheduled: Option<Time>,
    /// When the VS sent its last forward RM cell, and data cells since (measured rate, the
    /// CCR it declares: OSU option c).
    pub(crate) last_frm: Time,
    pub(crate) cells_since_frm: u64,
    /// The EFCI of the last data cell the virtual destination of the previous loop received
    /// (TM 4.0 destination: CI on the next RM cell it turns around).
    pub(crate) efci_seen: bool,
    /// The part of the output port's buffer this VS's queue may hold (cells).
    pub(crate) share_cells: u32,
}

/// A virtual path's source at its first edge switch: per-VC queues of the member connections,
/// served round-robin onto one VPC at the rate of a TM 4.0 source (or at PCR for UBR).
#[derive(Clone)]
pub struct VpSource {
    pub id: String,
    /// Member connections, their path positions of the VPC's first and last switch.
    pub members: Vec<usize>,
    pub(crate) pos_from: Vec<usize>,
    /// The VPC's RM cells travel under its first member's connection index.
    pub(crate) carrier: usize,
    pub src: AbrSource,
    pub(crate) queues: Vec<VecDeque<Cell>>,
    pub(crate) round: VecDeque<usize>,
    pub(crate) frame: Vec<FrameState>,
    pub waiting: usize,
    pub(crate) buffer: usize,
    pub max_queue: usize,
    pub(crate) scheduled: Option<Time>,
}

impl VpSource {
    /// An ABR virtual path: it has an allowed rate and a share (charted, judged for convergence).
    pub fn is_abr(&self) -> bool {
        !self.src.cfg.ubr
    }
}

/// A TCP connection's two ends and its timer period.
#[derive(Clone)]
pub struct TcpConn {
    pub sender: TcpSender,
    pub receiver: TcpReceiver,
    pub mss: u32,
    pub(crate) tick: Time,
    /// Largest random delay before a segment joins the host queue (0: none), its random
    /// stream, and the segments waiting it out (release time, segment; times in order).
    pub(crate) random_delay: Time,
    pub(crate) rng: SplitMix64,
    pub(crate) delayed: VecDeque<(Time, u64)>,
}

/// One step of a connection's route: the output port a cell enters there, the connection's
/// index among that port's own connections (its VC there), and whether the hop is lazy. Eight
/// bytes (the flag in the VC's top bit): the per-cell path copies hops in one register.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hop {
    pub(crate) port: u32,
    vc_lazy: u32,
}

/// `Hop::vc_lazy`'s bit for `Hop::lazy`.
const LAZY_BIT: u32 = 1 << 31;

impl Hop {
    fn new(port: u32) -> Self {
        Hop { port, vc_lazy: 0 }
    }

    /// The connection's index among the port's own connections.
    #[inline]
    pub(crate) fn vc(self) -> u32 {
        self.vc_lazy & !LAZY_BIT
    }

    /// A plain data cell entering this (forward) hop's port reaches the next switch without an
    /// event of its own (`Port::lazy`).
    #[inline]
    pub(crate) fn lazy(self) -> bool {
        self.vc_lazy & LAZY_BIT != 0
    }

    fn set_vc(&mut self, vc: u32) {
        assert!(vc < LAZY_BIT, "a port of fewer than 2³¹ connections");
        self.vc_lazy = vc | (self.vc_lazy & LAZY_BIT);
    }

    fn set_lazy(&mut self, lazy: bool) {
        self.vc_lazy = self.vc() | if lazy { LAZY_BIT } else { 0 };
    }
}

impl std::fmt::Debug for Hop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hop").field("port", &self.port).field("vc", &self.vc()).field("lazy", &self.lazy()).finish()
    }
}

/// A source's send deferred until its cell reaches the first switch (`Conn::defer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Deferred {
    /// The source's own time of the send.
    pub(crate) at: Time,
    /// It sends an in-rate data cell (`SendKind::Data`), else nothing (`SendKind::Other`): said
    /// when the send was deferred, and nothing changes the source before it is made.
    pub(crate) data: bool,
}

/// One connection: its end systems, route and counters.
///
/// Every cell of the connection reads its route and moves a counter, and in a network of
/// thousands of connections each event is another connection's: so the route (one allocation
/// for both directions), the source's wake-up and the counters come first, in one cache line.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Conn {
    /// The forward route's hops (the first is the source's own port), then the backward
    /// route's (the first is the destination's own port): `fwd()`, `bwd()`.
    hops: Box<[Hop]>,
    pub(crate) scheduled: Option<Time>,
    /// The access hop's time (cell time + link delay), when the source's sends of data cells
    /// are deferred by it (`Network::defer_access_hops`): each is then made at the time its
    /// cell reaches the first switch, in one event instead of two.
    pub(crate) defer: Option<Time>,
    /// The send its deferred event (at the send's time + `defer`) makes.
    pub(crate) deferred: Option<Deferred>,
    /// Forward cells the source sent (in-rate and out-of-rate).
    pub sent: u64,
    /// In-rate forward cells (data and FRM) that reached the destination.
    pub delivered: u64,
    /// All forward cells that reached the destination.
    pub delivered_all: u64,
    /// Forward cells dropped by a full buffer.
    pub lost: u64,
    pub source: Host,
    pub id: String,
    pub(crate) dest: AbrDestination,
    /// The TCP connection carried over this VC, if any.
    pub tcp: Option<TcpConn>,
    /// Forward RM cells created inside the network (by virtual sources) and ended inside it
    /// (turned around by virtual destinations).
    pub generated: u64,
    pub absorbed: u64,
    pub brm_lost: u64,
    /// Backward notifications switches sent this connection's source (their `Cell::seq`).
    pub(crate) notes_sent: u32,
}

impl Conn {
    /// The forward route: the hop a cell at position `i` enters is `fwd()[i]`.
    #[inline]
    pub(crate) fn fwd(&self) -> &[Hop] {
        &self.hops[..self.hops.len() / 2]
    }

    /// The backward route, from the destination back to the source.
    #[inline]
    pub(crate) fn bwd(&self) -> &[Hop] {
        &self.hops[self.hops.len() / 2..]
    }

    /// The hop a cell of this connection takes: `Cell::hop` of its forward or backward route.
    pub(crate) fn hop_of(&self, cell: &Cell) -> Hop {
        if cell.is_backward() {
            self.bwd()[cell.hop as usize]
        } else {
            self.fwd()[cell.hop as usize]
        }
    }

    /// The number of links on the route (each direction).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.hops.len() / 2
    }
}

/// Everything that carries or makes cells, indexed by position: ports by link direction
/// (`2 × link` forward, `2 × link + 1` backward), connections in scenario order.
#[derive(Clone)]
pub struct Network {
    pub ports: Vec<Port>,
    pub conns: Vec<Conn>,
    /// Each connection's route as node indices (source first).
    pub paths: Vec<Vec<usize>>,
    /// Node ids, by index.
    pub node_ids: Vec<String>,
    /// Bits per cell or frame.
    pub unit_bits: f64,
    /// An Ethernet network (frames, hosts) rather than ATM (cells, ABR).
    pub ethernet: bool,
    /// Virtual sources, and per connection and path position the index of the one there.
    pub vs: Vec<VirtualSource>,
    pub(crate) vs_at: Vec<Vec<Option<u32>>>,
    /// Virtual paths: their sources, and per connection and path position the one starting
    /// there (members) or ending there (the carrier's RM cells turn around).
    pub vp: Vec<VpSource>,
    pub(crate) vp_from: Vec<Vec<Option<u32>>>,
    pub(crate) vp_to: Vec<Vec<Option<u32>>>,
    /// The lazy ports (`Port::lazy`) into each switch that has any, a group per switch.
    pub(crate) lazy_into: Vec<Vec<u32>>,
}

/// The algorithm a switch runs (the network kind's default when the scenario names none).
pub(crate) fn algorithm_of(s: &Scenario, node: usize) -> &'static algorithms::AlgorithmSpec {
    let default = algorithms::default_for(s.ethernet.is_some());
    algorithms::find(s.nodes[node].algorithm.as_deref().unwrap_or(default)).expect("validated")
}

/// Whether an Ethernet flow along `route` (node indices, source to destination) sends
/// rate-discovery tags: only when a switch on it reads them (`Feedback::RateTag`: FECN);
/// elsewhere a tag would travel and come back with no rate in it. Validation's note on a
/// `tag_interval_us` that changes nothing follows the same rule.
pub(crate) fn route_reads_tags(s: &Scenario, route: &[usize]) -> bool {
    route
        .iter()
        .any(|&n| s.nodes[n].kind == NodeKind::Switch && algorithm_of(s, n).feedback == algorithms::Feedback::RateTag)
}

impl Network {
    /// Builds the network of a validated scenario.
    pub fn build(s: &Scenario) -> Network {
        let topo = Topology::new(s);
        let n_conns = s.connections.len();
        let unit_bits = s.unit_bits();
        let mut ports = Vec::with_capacity(2 * s.links.len());
        let mut port_of: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        for (li, l) in s.links.iter().enumerate() {
            let a = topo.node(&l.from).expect("validated");
            let b = topo.node(&l.to).expect("validated");
            let rate = l.rate_mbps * 1e6 / unit_bits;
            for (node, next, forward) in [(a, b, true), (b, a, false)] {
                let owner = &s.nodes[node];
                let is_switch = owner.kind == NodeKind::Switch;
                let per_vc =
                    (is_switch && owner.scheduler == Some(Scheduler::PerVc)).then(|| Box::new(PerVcQueues::new(true)));
                port_of.insert((node, next), ports.len());
                ports.push(Port {
                    id: format!("{}->{}", owner.id, s.nodes[next].id),
                    node,
                    link: li,
                    forward,
                    link_rate: rate,
                    cell_time: ((PS_PER_S as f64 / rate).round() as Time).max(1),
                    delay: from_us(l.delay_us()),
                    buffer: match (is_switch, s.ethernet.is_some()) {
                        (false, _) => u32::MAX,
                        (true, false) => owner.buffer_cells.or(fields::BUFFER_CELLS.default).unwrap() as u32,
                        (true, true) => ((owner.buffer_bytes.or(fields::BUFFER_BYTES.default).unwrap() * 8.0
                            / unit_bits) as u32)
                            .max(1),
                    },
                    vs_held: 0,
                    busy_until: 0,
                    ring: Ring::new((0, Cell::data(0))),
                    per_vc,
                    needs_vc_queue: false, // once the algorithm is built
                    discard: if is_switch { owner.discard.unwrap_or_default() } else { Discard::Tail },
                    epd_threshold: {
                        let buffer = owner.buffer_cells.or(fields::BUFFER_CELLS.default).unwrap();
                        owner.epd_threshold_cells.unwrap_or(fields::EPD_DEFAULT_SHARE * buffer) as u32
                    },
                    frame_state: Box::new([]), // per VC, once the VCs are known
                    alg: None,
                    alg_id: "",
                    vcs: Vec::new(),
                    folded: s.nodes[next].kind == NodeKind::Destination,
                    tcp: false, // once the connections are known
                    lazy: false,
                    into_lazy: None,
                    far: next,
                    plain: false, // once the algorithm and the virtual sources are known
                    accepted: 0,
                    dropped: 0,
                    max_queue: 0,
                    max_buffer: 0,
                    peak_queue: 0,
                    reported: false,
                });
            }
        }

        let mut conns = Vec::with_capacity(n_conns);
        let mut paths = Vec::with_capacity(n_conns);
        for c in &s.connections {
            let path = topo.path(c).expect("validated");
            let m = path.len() - 1;
            let fwd: Vec<u32> = (0..m).map(|i| port_of[&(path[i], path[i + 1])] as u32).collect();
            let bwd = (0..m).map(|j| port_of[&(path[m - j], path[m - j - 1])] as u32);
            // VC indices are numbered below, once every route is known.
            let hops = fwd.iter().copied().chain(bwd).map(Hop::new).collect();
            let one_way_us: f64 = fwd.iter().map(|&p| ports[p as usize].delay as f64 / 1e6).sum();
            let cell_us: f64 = fwd.iter().map(|&p| ports[p as usize].cell_time as f64 / 1e6).sum();
            let access_rate = ports[fwd[0] as usize].link_rate;
            let (start, stop) = (from_ms(c.start_ms), c.stop_ms.map(from_ms));
            let source = if let Some(b) = &c.background {
                Host::Bg(BackgroundSource::new(b, start, stop, s.run.seed, conns.len() as u64))
            } else if s.ethernet.is_some() {
                let params = Params::new(&ETH_SOURCE_PARAMS, &[&s.defaults.source, &c.params]);
                let traffic = c.traffic.clone().unwrap_or_default();
                let mut cfg = EthSourceConfig::resolve(&params, access_rate, unit_bits, traffic, start, stop);
                if !route_reads_tags(s, &path) {
                    cfg.tag_interval = None;
                }
                Host::Eth(EthSource::new(cfg, s.run.seed, conns.len() as u64))
            } else {
                let params = Params::new(&SOURCE_PARAMS, &[&s.defaults.source, &c.params]);
                let access_mbps = access_rate * unit_bits / 1e6;
                let mut cfg =
                    SourceConfig::resolve(&params, access_mbps, path_frtt_us(one_way_us, cell_us), start, stop);
                cfg.behavior = SourceBehavior::from_scenario(&c.behavior);
                cfg.volume_cells = c.volume_mb.map(|mb| ((mb * 1e6 / PAYLOAD_BITS).ceil() as u64).max(1));
                if let Some(t) = &c.tcp {
                    if t.service == Service::Ubr {
                        cfg.ubr = true;
                        cfg.icr = cfg.pcr;
                    }
                }
                let mut src = AbrSource::new(cfg);
                if let Some(t) = &c.tcp {
                    src.host = Some(Box::new(HostBuffer::new(cells_per_segment(t.mss_bytes, t.llc))));
                }
                Host::Abr(src)
            };
            conns.push(Conn {
                id: c.id.clone(),
                source,
                tcp: c.tcp.as_ref().map(|t| TcpConn {
                    sender: TcpSender::new(TcpParams {
                        mss: t.mss_bytes,
                        window: t.window_bytes as u64,
                        tick_ms: t.timer_granularity_ms,
                        min_rto_ms: 2.0 * t.timer_granularity_ms,
                        recovery: t.recovery,
                    }),
                    receiver: TcpReceiver::new(cells_per_segment(t.mss_bytes, t.llc)),
                    mss: t.mss_bytes,
                    tick: from_ms(t.timer_granularity_ms).max(1),
                    random_delay: from_us(t.random_delay_us),
                    rng: SplitMix64::new(s.run.seed, TCP_STREAM + conns.len() as u64),
                    delayed: VecDeque::new(),
                }),
                dest: AbrDestination::default(),
                hops,
                scheduled: None,
                defer: None,
                deferred: None,
                sent: 0,
                delivered: 0,
                delivered_all: 0,
                lost: 0,
                generated: 0,
                absorbed: 0,
                brm_lost: 0,
                notes_sent: 0,
            });
            paths.push(path);
        }

        // Ports that carry background traffic serve it first: they need scheduled queues.
        for (i, c) in s.connections.iter().enumerate() {
            if c.background.is_some() {
                for h in conns[i].fwd() {
                    let port = &mut ports[h.port as usize];
                    if port.per_vc.is_none() {
                        port.per_vc = Some(Box::new(PerVcQueues::new(false)));
                    }
                }
            }
        }
        // Report switch ports that carry some connection's forward traffic.
        for c in &conns {
            for h in c.fwd() {
                let port = &mut ports[h.port as usize];
                port.reported = s.nodes[port.node].kind == NodeKind::Switch;
            }
        }
        // Each port numbers the connections that cross it (either direction) in connection
        // order, so that an algorithm's per-VC tables are as long as its own VCs: memory is
        // O(connections × path length), not O(ports × connections).
        for (c, conn) in conns.iter_mut().enumerate() {
            for hop in conn.hops.iter_mut() {
                let port = &mut ports[hop.port as usize];
                port.vcs.push(c as u32);
                hop.set_vc(port.vcs.len() as u32 - 1);
                port.tcp |= conn.tcp.is_some();
            }
        }
        for (i, port) in ports.iter_mut().enumerate() {
            let owner = &s.nodes[port.node];
            if owner.kind != NodeKind::Switch {
                continue;
            }
            let n_vcs = port.vcs.len();
            if let Some(q) = port.per_vc.as_mut().filter(|q| q.round_robin) {
                q.queues = vec![VecDeque::new(); n_vcs];
            }
            if port.discard != Discard::Tail {
                port.frame_state = vec![FrameState::Start; n_vcs].into_boxed_slice();
            }
            let spec = algorithm_of(s, port.node);
            let params = Params::new(spec.params, &[&owner.params]);
            let info = PortInfo {
                link_rate: port.link_rate,
                n_vcs: port.vcs.len(),
                unit_bits,
                seed: s.run.seed,
                stream: PORT_STREAM + i as u64,
            };
            let mut alg = (spec.build)(&params, info);
            alg.set_vc_mcrs(&port.vcs.iter().map(|&c| conns[c as usize].source.mcr()).collect::<Vec<_>>());
            port.needs_vc_queue = alg.needs_vc_queue();
            port.alg = Some(alg);
            port.alg_id = spec.id;
        }
        for port in &mut ports {
            port.folded &= port.per_vc.is_none();
        }
        let mut net = Network {
            ports,
            conns,
            paths,
            node_ids: s.nodes.iter().map(|n| n.id.clone()).collect(),
            unit_bits,
            ethernet: s.ethernet.is_some(),
            vs: Vec::new(),
            vs_at: Vec::new(),
            vp: Vec::new(),
            vp_from: Vec::new(),
            vp_to: Vec::new(),
            lazy_into: Vec::new(),
        };
        net.build_virtual_sources(s);
        net.build_virtual_paths(s, &topo);
        net.defer_access_hops();
        // A virtual path that ends at a destination turns cells around there: keep those events.
        for c in 0..net.conns.len() {
            let m = net.conns[c].len();
            if net.vp_to[c][m].is_some() || net.vp_from[c][m].is_some() {
                let last = net.conns[c].fwd()[m - 1].port as usize;
                net.ports[last].folded = false;
            }
        }
        net.fold_switch_hops(s);
        let no_vs = net.vs.is_empty();
        for port in &mut net.ports {
            port.plain = no_vs
                && port.per_vc.is_none()
                && port.frame_state.is_empty()
                && port.alg.as_ref().is_none_or(|a| !a.notifies());
        }
        net
    }

    /// The hops between two switches that need no event for a plain data cell: a FIFO port from
    /// a switch into a switch, where the cell enters a folded port into its destination
    /// (`Port::folded`) whose algorithm never notifies. Such an arrival changes nothing anyone
    /// sees until something reads that switch (another cell arriving there, a sample, a
    /// parameter change, the end of an `advance`), so it is made then, at its own time and in
    /// time order (`Simulation::settle_switch`), and the cell costs one event fewer. Not for
    /// TCP (its cells may be acknowledged), nor in networks with virtual sources or paths (a
    /// cell may end a loop at any switch).
    fn fold_switch_hops(&mut self, s: &Scenario) {
        if !self.vs.is_empty() || !self.vp.is_empty() {
            return;
        }
        let switch = |n: usize| s.nodes[n].kind == NodeKind::Switch;
        for c in 0..self.conns.len() {
            if self.conns[c].tcp.is_some() {
                continue;
            }
            let m = self.conns[c].len();
            for h in 1..m.saturating_sub(1) {
                let (p, q) = (self.conns[c].hops[h].port as usize, self.conns[c].hops[h + 1].port as usize);
                let (port, next) = (&self.ports[p], &self.ports[q]);
                let from_switch_to_switch =
                    switch(port.node) && switch(port.far) && port.per_vc.is_none() && !port.folded;
                let passive = next.folded && next.alg.as_ref().is_none_or(|a| !a.notifies());
                if from_switch_to_switch && passive {
                    self.conns[c].hops[h].set_lazy(true);
                    self.ports[p].lazy = true;
                }
            }
        }
        let mut group_of: BTreeMap<usize, u32> = BTreeMap::new();
        for p in 0..self.ports.len() {
            if self.ports[p].lazy {
                let far = self.ports[p].far;
                let g = *group_of.entry(far).or_insert_with(|| {
                    self.lazy_into.push(Vec::new());
                    self.lazy_into.len() as u32 - 1
                });
                self.lazy_into[g as usize].push(p as u32);
            }
        }
        for port in &mut self.ports {
            port.into_lazy = group_of.get(&port.far).copied();
        }
    }

    /// Every hop between switches takes its event again (see `fold_switch_hops`).
    pub(crate) fn unfold_switch_hops(&mut self) {
        for conn in &mut self.conns {
            for hop in conn.hops.iter_mut() {
                hop.set_lazy(false);
            }
        }
        for port in &mut self.ports {
            port.lazy = false;
            port.into_lazy = None;
        }
        self.lazy_into.clear();
    }

    /// The access hops that need no event of their own. A source alone on its access link,
    /// which it never sends faster than (PCR at most the link's rate), never queues there: the
    /// cell it sends at t reaches the first switch at t + cell time + link delay. The source
    /// then makes each send of a data cell at that later time (`Conn::defer`), and the cell
    /// enters the switch in the same event. A greedy, CBR or on/off ABR or UBR source; not TCP
    /// (its acknowledgements and timer act on the source), not an Ethernet or background host.
    fn defer_access_hops(&mut self) {
        for c in 0..self.conns.len() {
            let conn = &self.conns[c];
            let Host::Abr(src) = &conn.source else { continue };
            if conn.tcp.is_some() || conn.len() < 2 {
                continue;
            }
            let port = &self.ports[conn.fwd()[0].port as usize];
            let alone = port.vcs.len() == 1 && port.vcs[0] == c as u32;
            let plain = port.alg.is_none() && port.per_vc.is_none() && port.frame_state.is_empty() && !port.folded;
            // PCR at most the link rate: sends at least a cell time apart (to the picosecond,
            // `period_ps` rounding up), so none waits for the one before.
            if alone && plain && src.cfg.pcr <= port.link_rate && port.vs_held == 0 {
                self.conns[c].defer = Some(port.cell_time + port.delay);
            }
        }
    }

    fn build_virtual_sources(&mut self, s: &Scenario) {
        self.vs_at = self.conns.iter().map(|c| vec![None; c.len()]).collect();
        for (c, conn) in self.conns.iter().enumerate() {
            let Host::Abr(src) = &conn.source else { continue };
            if src.cfg.ubr {
                continue;
            }
            for pos in 1..conn.len() {
                let node = self.ports[conn.fwd()[pos].port as usize].node;
                if s.nodes[node].vsvd != Some(true) {
                    continue;
                }
                let mut cfg = src.cfg.clone();
                cfg.behavior = SourceBehavior::Greedy;
                cfg.volume_cells = None;
                cfg.stop = None; // it drains what the connection sent before it stopped
                let mut vsrc = AbrSource::new(cfg);
                vsrc.host = Some(Box::new(HostBuffer::new(1)));
                self.vs_at[c][pos] = Some(self.vs.len() as u32);
                self.vs.push(VirtualSource {
                    conn: c,
                    pos,
                    src: vsrc,
                    queue: VecDeque::new(),
                    max_queue: 0,
                    scheduled: None,
                    last_frm: 0,
                    cells_since_frm: 0,
                    efci_seen: false,
                    share_cells: 0,
                });
            }
        }
        // Each virtual source may hold an equal part of its output port's buffer, so that one
        // connection that ignores its feedback cannot take the others' room.
        for v in 0..self.vs.len() {
            let p = self.conns[self.vs[v].conn].fwd()[self.vs[v].pos].port;
            let sharing = self.vs.iter().filter(|w| self.conns[w.conn].fwd()[w.pos].port == p).count() as u32;
            self.vs[v].share_cells = (self.ports[p as usize].buffer / sharing).max(1);
        }
    }

    fn build_virtual_paths(&mut self, s: &Scenario, topo: &Topology) {
        self.vp_from = self.conns.iter().map(|c| vec![None; c.len() + 1]).collect();
        self.vp_to = self.vp_from.clone();
        let conn_index: BTreeMap<&str, usize> =
            s.connections.iter().enumerate().map(|(i, c)| (c.id.as_str(), i)).collect();
        for vp in &s.virtual_paths {
            let index = self.vp.len() as u32;
            let mut members = Vec::new();
            let mut pos_from = Vec::new();
            for id in &vp.connections {
                let c = conn_index[id.as_str()];
                let route = &self.paths[c];
                let (from, to) = (topo.node(&vp.from), topo.node(&vp.to));
                let a = route.iter().position(|&n| Some(n) == from).expect("validated");
                let b = route.iter().position(|&n| Some(n) == to).expect("validated");
                members.push(c);
                pos_from.push(a);
                self.vp_from[c][a] = Some(index);
                if members.len() == 1 {
                    self.vp_to[c][b] = Some(index);
                }
            }
            let carrier = members[0];
            let Host::Abr(first) = &self.conns[carrier].source else { continue };
            let mut cfg = first.cfg.clone();
            let port = &self.ports[self.conns[carrier].fwd()[pos_from[0]].port as usize];
            cfg.pcr = port.link_rate;
            cfg.behavior = SourceBehavior::Greedy;
            cfg.volume_cells = None;
            cfg.stop = None; // the VPC carries its members as long as any of them sends
            cfg.ubr = vp.service == Service::Ubr;
            if cfg.ubr {
                cfg.icr = cfg.pcr;
            }
            let mut src = AbrSource::new(cfg);
            src.acr = src.cfg.icr;
            src.host = Some(Box::new(HostBuffer::new(1)));
            let n = members.len();
            self.vp.push(VpSource {
                id: vp.id.clone(),
                members,
                pos_from,
                carrier,
                src,
                queues: vec![VecDeque::new(); n],
                round: VecDeque::new(),
                frame: vec![FrameState::Start; n],
                waiting: 0,
                buffer: vp.buffer_cells.or(fields::VP_BUFFER_CELLS.default).unwrap() as usize,
                max_queue: 0,
                scheduled: None,
            });
        }
    }

    /// Every forward cell of connection `conn` is accounted for: sent (by its source or created
    /// by a virtual source) = delivered + lost + ended at a virtual destination + still inside.
    pub fn cells_conserved(&self, conn: usize) -> bool {
        let c = &self.conns[conn];
        c.sent + c.generated == c.delivered_all + c.lost + c.absorbed + self.forward_cells_in_network(conn)
    }

    /// Forward cells (data and FRM) inside the network: queued or on a link.
    pub fn forward_cells_in_network(&self, conn: usize) -> u64 {
        let forward = |c: &Cell| c.conn as usize == conn && !c.is_backward();
        let mut n = self.vs.iter().filter(|v| v.conn == conn).map(|v| v.queue.len()).sum::<usize>();
        for vp in &self.vp {
            for (i, &m) in vp.members.iter().enumerate() {
                if m == conn {
                    n += vp.queues[i].len();
                }
            }
        }
        for p in &self.ports {
            n += p.ring.iter().filter(|(_, c)| forward(c)).count();
            if let Some(q) = &p.per_vc {
                n += q.queues.iter().flatten().filter(|c| forward(c)).count();
                n += q.high.iter().filter(|c| forward(c)).count();
                n += q.in_service.iter().filter(|c| forward(c)).count();
            }
        }
        n as u64
    }
}

/// EPD / PPD for a data cell of an AAL5 frame (of the port's VC `vc`) arriving at a port with
/// `q` cells queued.
pub(crate) fn frame_discard(port: &mut Port, cell: &Cell, vc: u32, q: u32, admit: Admit) -> Admit {
    let v = vc as usize;
    let eom = cell.has(flag::EOM);
    let epd = matches!(port.discard, Discard::Epd | Discard::EpdPpd);
    let ppd = matches!(port.discard, Discard::Ppd | Discard::EpdPpd);
    let full = q >= port.buffer;
    let mut state = port.frame_state[v];
    if state == FrameState::Start {
        // EPD decides at the first cell of a frame: the whole frame, or none of it.
        state = if epd && q >= port.epd_threshold { FrameState::Refused } else { FrameState::Accepting };
    }
    let verdict = match state {
        FrameState::Refused => Admit::Drop,
        // PPD keeps the end of the frame it cut, so the receiver finds the boundary.
        FrameState::Cut if eom && !full => admit,
        FrameState::Cut => Admit::Drop,
        _ if full => {
            if ppd {
                state = FrameState::Cut;
            }
            Admit::Drop
        }
        _ => admit,
    };
    port.frame_state[v] = if eom { FrameState::Start } else { state };
    verdict
}
