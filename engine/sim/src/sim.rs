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

use crate::algorithms::{self, Admit, PortInfo, PortView, SwitchAlgorithm};
use crate::background::BackgroundSource;
use crate::cell::{flag, Cell, CellKind};
use crate::ethernet::source::ETH_SOURCE_PARAMS;
use crate::ethernet::source::{EthSource, EthSourceConfig};
use crate::maxmin::{max_min, Session};
use crate::metrics::{Recorder, SeriesMeta};
use crate::params::Params;
use crate::scenario::{
    self, Discard, NodeKind, ParamChange, Problem, Scenario, Scheduler, DEFAULT_BUFFER_BYTES, DEFAULT_BUFFER_CELLS,
};
use crate::scenario::{Service, Traffic};
use crate::source::{
    path_frtt_us, AbrDestination, AbrSource, HostBuffer, SourceBehavior, SourceConfig, PAYLOAD_BITS, SOURCE_PARAMS,
};
use crate::tcp::{cells_per_segment, TcpParams, TcpReceiver, TcpSender};
use crate::time::{from_ms, from_us, to_ms, to_s, Time, PS_PER_S};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

const KIND_SHIFT: u32 = 28;
const EV_PORT: u32 = 0;
const EV_SOURCE: u32 = 1;
const EV_SAMPLE: u32 = 2;
const EV_DEPART: u32 = 3;
const EV_TICK: u32 = 4;
const EV_VS: u32 = 5;
const EV_VP: u32 = 6;

/// Sample intervals over which the TCP goodput series is averaged.
const GOODPUT_SAMPLES: usize = 10;
/// Random streams of switch ports start here (sources use their connection index).
const PORT_STREAM: u64 = 1 << 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Event {
    time: Time,
    seq: u64,
    what: u32,
}

impl Ord for Event {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap is a max-heap: the earliest (time, seq) must compare greatest.
        other.time.cmp(&self.time).then(other.seq.cmp(&self.seq))
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// One direction of a link: the output port of `node` towards `next`.
pub struct Port {
    /// "SW1->SW2".
    pub id: String,
    pub node: usize,
    pub link: usize,
    /// True for the link's `from` → `to` direction.
    pub forward: bool,
    /// Capacity (cells/s).
    pub link_rate: f64,
    /// Time to send one cell (ps).
    cell_time: Time,
    delay: Time,
    buffer: u32,
    /// Cells held for this port by the virtual sources of a VS/VD switch: they share the
    /// port's buffer with its own queue.
    vs_held: u32,
    /// When the last accepted cell finishes transmission.
    busy_until: Time,
    /// Cells with the time each reaches the far node (non-decreasing): for a FIFO port every
    /// accepted cell, for a per-VC port the cells that have left the port.
    ring: VecDeque<(Time, Cell)>,
    /// Per-VC queues served round-robin; `None` for a FIFO port.
    per_vc: Option<PerVcQueues>,
    pub alg: Option<Box<dyn SwitchAlgorithm>>,
    /// The algorithm reads per-VC queue lengths (cached: asked once per cell otherwise).
    needs_vc_queue: bool,
    /// Frame discard (EPD/PPD) and, per connection, where its current frame stands.
    discard: Discard,
    epd_threshold: u32,
    frame_state: Vec<FrameState>,
    pub accepted: u64,
    pub dropped: u64,
    pub max_queue: u32,
    /// A switch port on some connection's forward route (its queue and utilisation are sampled).
    pub reported: bool,
}

/// Where a connection's current AAL5 frame stands at a port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FrameState {
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
struct PerVcQueues {
    /// One queue per connection (round-robin) or only `queues[0]` (FIFO).
    round_robin: bool,
    queues: Vec<VecDeque<Cell>>,
    /// Connections with cells waiting, in service order (round-robin only).
    round: VecDeque<u32>,
    high: VecDeque<Cell>,
    in_service: Option<Cell>,
    waiting: u32,
}

impl PerVcQueues {
    fn new(round_robin: bool, n_conns: usize) -> Self {
        PerVcQueues {
            round_robin,
            queues: vec![VecDeque::new(); if round_robin { n_conns } else { 1 }],
            round: VecDeque::new(),
            high: VecDeque::new(),
            in_service: None,
            waiting: 0,
        }
    }
}

impl Port {
    /// Cells waiting or in transmission at `now`.
    pub fn queue_len(&self, now: Time) -> u32 {
        if let Some(q) = &self.per_vc {
            return q.waiting + q.in_service.is_some() as u32;
        }
        if self.busy_until <= now {
            0
        } else {
            (self.busy_until - now).div_ceil(self.cell_time) as u32
        }
    }

    /// Cells of connection `conn` waiting or in transmission at `now`.
    pub fn vc_queue_len(&self, now: Time, conn: u32) -> u32 {
        if let Some(q) = &self.per_vc {
            let waiting = if q.round_robin {
                q.queues[conn as usize].len()
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

    fn view(&self, now: Time, conn: u32) -> PortView {
        let vc_queue_cells = if self.needs_vc_queue { self.vc_queue_len(now, conn) } else { 0 };
        PortView { now, queue_cells: self.queue_len(now), vc_queue_cells }
    }

    /// Cells that have finished transmission by `now`.
    pub fn departed(&self, now: Time) -> u64 {
        self.accepted - self.queue_len(now) as u64
    }
}

/// The sending end system of a connection: a TM 4.0 ABR source, or an Ethernet host.
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

    fn next_event_time(&self) -> Option<Time> {
        match self {
            Host::Abr(s) => s.next_event_time(),
            Host::Eth(s) => s.next_event_time(),
            Host::Bg(s) => s.next_event_time(),
        }
    }

    fn on_opportunity(&mut self, now: Time, conn: u32) -> Option<Cell> {
        match self {
            Host::Abr(s) => s.on_opportunity(now, conn),
            Host::Eth(s) => s.on_opportunity(now, conn),
            Host::Bg(s) => s.on_opportunity(now, conn),
        }
    }

    /// A backward cell reaches the host; true when its next sending time changed.
    fn on_feedback(&mut self, now: Time, cell: &Cell) -> bool {
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

    /// The ABR source, for ATM-specific inspection (tests).
    pub fn abr(&self) -> Option<&AbrSource> {
        match self {
            Host::Abr(s) => Some(s),
            _ => None,
        }
    }
}

/// A virtual source at a VS/VD switch: the per-VC queue of one connection there, sent at the
/// VS's own ACR by a TM 4.0 source that starts the next control loop.
pub struct VirtualSource {
    pub conn: usize,
    /// Position of the switch on the connection's path (the VS sends into `fwd[pos]`).
    pub pos: usize,
    pub src: AbrSource,
    pub queue: VecDeque<Cell>,
    pub max_queue: u64,
    scheduled: Option<Time>,
    /// When the VS sent its last forward RM cell, and data cells since (measured rate, the
    /// CCR it declares: OSU option c).
    last_frm: Time,
    cells_since_frm: u64,
    /// The EFCI of the last data cell the virtual destination of the previous loop received
    /// (TM 4.0 destination: CI on the next RM cell it turns around).
    efci_seen: bool,
    /// The part of the output port's buffer this VS's queue may hold (cells).
    share_cells: u32,
}

/// A virtual path's source at its first edge switch: per-VC queues of the member connections,
/// served round-robin onto one VPC at the rate of a TM 4.0 source (or at PCR for UBR).
pub struct VpSource {
    pub id: String,
    /// Member connections, their path positions of the VPC's first and last switch.
    pub members: Vec<usize>,
    pos_from: Vec<usize>,
    /// The VPC's RM cells travel under its first member's connection index.
    carrier: usize,
    pub src: AbrSource,
    queues: Vec<VecDeque<Cell>>,
    round: VecDeque<usize>,
    frame: Vec<FrameState>,
    pub waiting: usize,
    buffer: usize,
    pub max_queue: usize,
    scheduled: Option<Time>,
}

impl VpSource {
    /// An ABR virtual path: it has an allowed rate and a share (charted, judged for convergence).
    pub fn is_abr(&self) -> bool {
        !self.src.cfg.ubr
    }
}

/// A TCP connection's two ends and its timer period.
pub struct TcpConn {
    pub sender: TcpSender,
    pub receiver: TcpReceiver,
    pub mss: u32,
    tick: Time,
}

/// One connection: its end systems, route and counters.
pub struct Conn {
    pub id: String,
    pub source: Host,
    dest: AbrDestination,
    /// The TCP connection carried over this VC, if any.
    pub tcp: Option<TcpConn>,
    /// Ports of the forward route (first is the source's own port).
    fwd: Vec<u32>,
    /// Ports of the backward route (first is the destination's own port).
    bwd: Vec<u32>,
    scheduled: Option<Time>,
    /// Forward cells the source sent (in-rate and out-of-rate).
    pub sent: u64,
    /// In-rate forward cells (data and FRM) that reached the destination.
    pub delivered: u64,
    /// All forward cells that reached the destination.
    pub delivered_all: u64,
    /// Forward cells dropped by a full buffer.
    pub lost: u64,
    /// Forward RM cells created inside the network (by virtual sources) and ended inside it
    /// (turned around by virtual destinations).
    pub generated: u64,
    pub absorbed: u64,
    pub brm_lost: u64,
}

/// The max-min shares in force from `from` on (cells/s; NaN for an inactive connection).
#[derive(Debug, Clone)]
pub struct Epoch {
    pub from: Time,
    pub share: Vec<f64>,
    pub target: Vec<f64>,
}

pub struct Simulation {
    pub scenario: Scenario,
    now: Time,
    end: Time,
    seq: u64,
    heap: BinaryHeap<Event>,
    pub ports: Vec<Port>,
    pub conns: Vec<Conn>,
    /// The max-min shares, recomputed whenever the active set or a demand changes (or a
    /// parameter: targets depend on it), from the sample at which the change was seen.
    pub epochs: Vec<Epoch>,
    /// Bits per cell or frame.
    pub unit_bits: f64,
    demands: Vec<Option<f64>>,
    config_changed: bool,
    sample_interval: Time,
    next_sample: u64,
    last_sample: u64,
    events: u64,
    pub rec: Recorder,
    /// Counters at the previous sample (delivered per connection, departed per port).
    prev_delivered: Vec<u64>,
    prev_departed: Vec<u64>,
    /// Delivered TCP segments at the last samples, per connection (the goodput series' window).
    segment_history: Vec<VecDeque<u64>>,
    scratch: Vec<f64>,
    /// Notifications an algorithm asked for with `Admit::NotifyMany` (connection, value).
    notes: Vec<(u32, f64)>,
    /// Virtual sources, and per connection and path position the index of the one there.
    pub vs: Vec<VirtualSource>,
    vs_at: Vec<Vec<Option<u32>>>,
    /// Virtual paths: their sources, and per connection and path position the one starting
    /// there (members) or ending there (the carrier's RM cells turn around).
    pub vp: Vec<VpSource>,
    vp_from: Vec<Vec<Option<u32>>>,
    vp_to: Vec<Vec<Option<u32>>>,
    /// Parameter changes not yet applied, in time order.
    pending_changes: VecDeque<(Time, ParamChange)>,
    /// Current parameters of each node (switches), changes included.
    node_params: Vec<BTreeMap<String, f64>>,
}

fn algorithm_of(s: &Scenario, node: usize) -> &'static algorithms::AlgorithmSpec {
    let default = algorithms::default_for(s.ethernet.is_some());
    algorithms::find(s.nodes[node].algorithm.as_deref().unwrap_or(default)).expect("validated")
}

impl Simulation {
    /// Builds the network of a validated scenario.
    pub fn new(scenario: Scenario) -> Self {
        let s = &scenario;
        let n_conns = s.connections.len();
        let unit_bits = s.unit_bits();
        let mut ports = Vec::with_capacity(2 * s.links.len());
        let mut port_of: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        for (li, l) in s.links.iter().enumerate() {
            let a = s.node_index(&l.from).expect("validated");
            let b = s.node_index(&l.to).expect("validated");
            let rate = l.rate_mbps * 1e6 / unit_bits;
            for (node, next, forward) in [(a, b, true), (b, a, false)] {
                let owner = &s.nodes[node];
                let is_switch = owner.kind == NodeKind::Switch;
                let alg = is_switch.then(|| {
                    let spec = algorithm_of(s, node);
                    let params = Params::new(spec.params, &[&owner.params]);
                    (spec.build)(
                        &params,
                        PortInfo {
                            link_rate: rate,
                            n_conns,
                            unit_bits,
                            seed: s.run.seed,
                            stream: PORT_STREAM + ports.len() as u64,
                        },
                    )
                });
                let per_vc =
                    (is_switch && owner.scheduler == Some(Scheduler::PerVc)).then(|| PerVcQueues::new(true, n_conns));
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
                        (true, false) => owner.buffer_cells.map_or(DEFAULT_BUFFER_CELLS, |b| b as u32),
                        (true, true) => ((owner.buffer_bytes.unwrap_or(DEFAULT_BUFFER_BYTES as f64) * 8.0 / unit_bits)
                            as u32)
                            .max(1),
                    },
                    vs_held: 0,
                    busy_until: 0,
                    ring: VecDeque::new(),
                    per_vc,
                    needs_vc_queue: alg.as_ref().is_some_and(|a| a.needs_vc_queue()),
                    discard: if is_switch { owner.discard.unwrap_or_default() } else { Discard::Tail },
                    epd_threshold: {
                        let buffer = owner.buffer_cells.unwrap_or(DEFAULT_BUFFER_CELLS as f64);
                        owner.epd_threshold_cells.unwrap_or(0.9 * buffer) as u32
                    },
                    frame_state: if is_switch && owner.discard.is_some_and(|d| d != Discard::Tail) {
                        vec![FrameState::Start; n_conns]
                    } else {
                        Vec::new()
                    },
                    alg,
                    accepted: 0,
                    dropped: 0,
                    max_queue: 0,
                    reported: false,
                });
            }
        }

        let mut conns = Vec::with_capacity(n_conns);
        for c in &s.connections {
            let path: Vec<usize> =
                s.resolved_path(c).expect("validated").iter().map(|id| s.node_index(id).expect("validated")).collect();
            let m = path.len() - 1;
            let fwd: Vec<u32> = (0..m).map(|i| port_of[&(path[i], path[i + 1])] as u32).collect();
            let bwd: Vec<u32> = (0..m).map(|j| port_of[&(path[m - j], path[m - j - 1])] as u32).collect();
            let one_way_us: f64 = fwd.iter().map(|&p| ports[p as usize].delay as f64 / 1e6).sum();
            let cell_us: f64 = fwd.iter().map(|&p| ports[p as usize].cell_time as f64 / 1e6).sum();
            let access_rate = ports[fwd[0] as usize].link_rate;
            let (start, stop) = (from_ms(c.start_ms), c.stop_ms.map(from_ms));
            let source = if let Some(b) = &c.background {
                Host::Bg(BackgroundSource::new(b, start, stop, s.run.seed, conns.len() as u64))
            } else if s.ethernet.is_some() {
                let params = Params::new(&ETH_SOURCE_PARAMS, &[&s.defaults.source, &c.params]);
                let traffic = c.traffic.clone().unwrap_or(Traffic::Bernoulli { load_percent: 100.0 });
                let cfg = EthSourceConfig::resolve(&params, access_rate, unit_bits, traffic, start, stop);
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
                    src.host = Some(HostBuffer::new(cells_per_segment(t.mss_bytes, t.llc)));
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
                    }),
                    receiver: TcpReceiver::new(cells_per_segment(t.mss_bytes, t.llc)),
                    mss: t.mss_bytes,
                    tick: from_ms(t.timer_granularity_ms).max(1),
                }),
                dest: AbrDestination::default(),
                fwd,
                bwd,
                scheduled: None,
                sent: 0,
                delivered: 0,
                delivered_all: 0,
                lost: 0,
                generated: 0,
                absorbed: 0,
                brm_lost: 0,
            });
        }

        // Ports that carry background traffic serve it first: they need scheduled queues.
        for (i, c) in s.connections.iter().enumerate() {
            if c.background.is_some() {
                for &p in &conns[i].fwd {
                    let port = &mut ports[p as usize];
                    if port.per_vc.is_none() {
                        port.per_vc = Some(PerVcQueues::new(false, n_conns));
                    }
                }
            }
        }
        // Report switch ports that carry some connection's forward traffic.
        for c in &conns {
            for &p in &c.fwd {
                let port = &mut ports[p as usize];
                port.reported = s.nodes[port.node].kind == NodeKind::Switch;
            }
        }
        let ethernet = s.ethernet.is_some();
        let sample_interval = from_us(s.run.sample_interval_us).max(1);
        let end = from_ms(s.run.duration_ms);
        let mut sim = Simulation {
            now: 0,
            end,
            seq: 0,
            heap: BinaryHeap::new(),
            prev_delivered: vec![0; conns.len()],
            segment_history: vec![VecDeque::new(); conns.len()],
            prev_departed: vec![0; ports.len()],
            ports,
            conns,
            epochs: Vec::new(),
            unit_bits,
            demands: Vec::new(),
            config_changed: true,
            sample_interval,
            next_sample: 0,
            last_sample: end / sample_interval,
            events: 0,
            rec: Recorder::new(Vec::new()), // once the virtual paths are built
            scratch: Vec::new(),
            notes: Vec::new(),
            pending_changes: VecDeque::new(),
            vs: Vec::new(),
            vs_at: Vec::new(),
            vp: Vec::new(),
            vp_from: Vec::new(),
            vp_to: Vec::new(),
            node_params: scenario.nodes.iter().map(|n| n.params.clone()).collect(),
            scenario,
        };
        let mut changes: Vec<ParamChange> = sim.scenario.changes.clone();
        changes.sort_by(|a, b| a.at_ms.total_cmp(&b.at_ms));
        sim.pending_changes = changes.into_iter().map(|c| (from_ms(c.at_ms), c)).collect();
        sim.build_virtual_sources();
        sim.build_virtual_paths();
        sim.rec = Recorder::new(series_meta(&sim.ports, &sim.conns, ethernet, &sim.vp));
        for c in 0..sim.conns.len() {
            if let Some(t) = sim.conns[c].tcp.as_mut() {
                let start = sim.scenario.connections[c].start_ms;
                let segments = t.sender.send_new(start);
                let first_tick = from_ms(start) + t.tick;
                sim.hand_to_source(c, &segments);
                sim.push(first_tick, (EV_TICK << KIND_SHIFT) | c as u32);
            }
            sim.schedule_source(c);
        }
        sim.push(0, EV_SAMPLE << KIND_SHIFT);
        sim
    }

    pub fn now(&self) -> Time {
        self.now
    }

    pub fn end(&self) -> Time {
        self.end
    }

    pub fn events(&self) -> u64 {
        self.events
    }

    pub fn done(&self) -> bool {
        self.now >= self.end && self.heap.peek().is_none_or(|e| e.time > self.end)
    }

    fn push(&mut self, time: Time, what: u32) {
        self.seq += 1;
        self.heap.push(Event { time, seq: self.seq, what });
    }

    /// Runs events up to simulated time `until` (never past the end of the run) or until
    /// `max_events` have run; returns how many ran.
    pub fn advance(&mut self, until: Time, max_events: u64) -> u64 {
        let limit = until.min(self.end);
        let mut n = 0;
        while n < max_events {
            let next = match self.heap.peek() {
                Some(top) if top.time <= limit => top.time,
                _ => {
                    self.now = self.now.max(limit);
                    self.apply_changes_through(self.now);
                    break;
                }
            };
            // A change at time T takes effect after every event at T, before any later one.
            if self.pending_changes.front().is_some_and(|(at, _)| *at < next) {
                self.apply_changes_through(next - 1);
            }
            let ev = self.heap.pop().expect("peeked");
            debug_assert!(ev.time >= self.now, "an event in the past: {} < {}", ev.time, self.now);
            self.now = ev.time;
            n += 1;
            let idx = (ev.what & ((1 << KIND_SHIFT) - 1)) as usize;
            match ev.what >> KIND_SHIFT {
                EV_PORT => self.port_head(idx),
                EV_SOURCE => self.source_event(idx, ev.time),
                EV_DEPART => self.depart(idx),
                EV_TICK => self.tcp_tick(idx),
                EV_VS => self.vs_event(idx),
                EV_VP => self.vp_event(idx),
                _ => self.sample(),
            }
        }
        self.events += n;
        n
    }

    /// Runs the scenario to its end.
    pub fn run_to_end(&mut self) {
        while !self.done() {
            self.advance(self.end, u64::MAX);
        }
    }

    /// Puts an actor's next wake-up on the event queue. `next` is what the actor asks for (a
    /// time in the past means now: an idle source may hold one), `scheduled` the wake-up already
    /// queued; stale entries are skipped when they come up. Returns the new `scheduled`.
    fn wake(&mut self, next: Option<Time>, scheduled: Option<Time>, what: u32) -> Option<Time> {
        match next.map(|t| t.max(self.now)) {
            Some(t) if t <= self.end => {
                if scheduled != Some(t) {
                    self.push(t, what);
                }
                Some(t)
            }
            _ => None,
        }
    }

    fn schedule_source(&mut self, c: usize) {
        let (next, scheduled) = (self.conns[c].source.next_event_time(), self.conns[c].scheduled);
        self.conns[c].scheduled = self.wake(next, scheduled, (EV_SOURCE << KIND_SHIFT) | c as u32);
    }

    fn source_event(&mut self, c: usize, t: Time) {
        if self.conns[c].scheduled != Some(t) {
            return; // superseded by a reschedule
        }
        self.conns[c].scheduled = None;
        let conn = &mut self.conns[c];
        if let Some(cell) = conn.source.on_opportunity(t, c as u32) {
            conn.sent += 1;
            let port = conn.fwd[0] as usize;
            self.enqueue(port, cell);
        }
        self.schedule_source(c);
    }

    /// A cell enters an output port: the algorithm sees it, then the buffer keeps or drops it.
    fn enqueue(&mut self, p: usize, mut cell: Cell) {
        let now = self.now;
        let port = &mut self.ports[p];
        let view = port.view(now, cell.conn);
        let q = view.queue_cells;
        let admit = match port.alg.as_mut() {
            Some(alg) => alg.on_arrival(&view, &mut cell),
            None => Admit::Keep,
        };
        match admit {
            Admit::Notify(value) => self.notify_source(cell.conn, cell.hop as usize, value),
            Admit::NotifyMany => {
                let mut notes = std::mem::take(&mut self.notes);
                if let Some(alg) = self.ports[p].alg.as_mut() {
                    alg.drain_notifications(&mut notes);
                }
                for &(conn, value) in &notes {
                    let hop = if conn == cell.conn {
                        Some(cell.hop as usize)
                    } else {
                        self.conns[conn as usize].fwd.iter().position(|&f| f as usize == p)
                    };
                    if let Some(hop) = hop {
                        self.notify_source(conn, hop, value);
                    }
                }
                notes.clear();
                self.notes = notes;
            }
            _ => {}
        }
        let port = &mut self.ports[p];
        let framed =
            !port.frame_state.is_empty() && cell.kind == CellKind::Data && self.conns[cell.conn as usize].tcp.is_some();
        // Data cells share the buffer with the virtual sources' queues; RM cells keep the loops going.
        let q_total = if cell.kind == CellKind::Data { q + port.vs_held } else { q };
        let admit = if framed { frame_discard(port, &cell, q_total, admit) } else { admit };
        if q_total >= port.buffer || admit == Admit::Drop {
            port.dropped += 1;
            let conn = &mut self.conns[cell.conn as usize];
            if cell.is_backward() {
                conn.brm_lost += 1;
            } else {
                conn.lost += 1;
            }
            return;
        }
        port.accepted += 1;
        port.max_queue = port.max_queue.max(q + 1);
        if let Some(vcq) = port.per_vc.as_mut() {
            let vc = cell.conn as usize;
            if cell.has(flag::VBR) {
                vcq.high.push_back(cell);
            } else if vcq.round_robin {
                if vcq.queues[vc].is_empty() {
                    vcq.round.push_back(cell.conn);
                }
                vcq.queues[vc].push_back(cell);
            } else {
                vcq.queues[0].push_back(cell);
            }
            vcq.waiting += 1;
            if vcq.in_service.is_none() {
                self.serve_next(p);
            }
            return;
        }
        let start = port.busy_until.max(now);
        port.busy_until = start + port.cell_time;
        let arrive = port.busy_until + port.delay;
        port.ring.push_back((arrive, cell));
        if port.ring.len() == 1 {
            self.push(arrive, (EV_PORT << KIND_SHIFT) | p as u32);
        }
    }

    /// A switch sends the source of connection `conn` a backward notification carrying `value`
    /// (BN = 1), from the switch at node `i` of its path (where a cell entering `fwd[i]` is).
    fn notify_source(&mut self, conn: u32, i: usize, value: f64) {
        let c = conn as usize;
        let m = self.conns[c].bwd.len();
        if i == 0 || i > m {
            return;
        }
        let mut note = Cell::data(conn);
        note.kind = CellKind::Brm;
        note.set(flag::BN);
        note.er = value;
        note.hop = (m - i) as u16;
        let port = self.conns[c].bwd[m - i] as usize;
        self.enqueue(port, note);
    }

    /// A per-VC port starts sending the next cell, round-robin over the connections.
    fn serve_next(&mut self, p: usize) {
        let port = &mut self.ports[p];
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
        let done = self.now + port.cell_time;
        port.busy_until = done;
        self.push(done, (EV_DEPART << KIND_SHIFT) | p as u32);
    }

    /// A per-VC port finishes sending a cell: it goes onto the link.
    fn depart(&mut self, p: usize) {
        let port = &mut self.ports[p];
        let cell = port.per_vc.as_mut().and_then(|q| q.in_service.take()).expect("a cell in service");
        let arrive = self.now + port.delay;
        port.ring.push_back((arrive, cell));
        if port.ring.len() == 1 {
            self.push(arrive, (EV_PORT << KIND_SHIFT) | p as u32);
        }
        self.serve_next(p);
    }

    /// Applies the pending parameter changes due at or before `t`.
    fn apply_changes_through(&mut self, t: Time) {
        while self.pending_changes.front().is_some_and(|(at, _)| *at <= t) {
            let (_, ch) = self.pending_changes.pop_front().expect("checked");
            let Some(node) = self.scenario.node_index(&ch.node) else { continue };
            self.node_params[node].insert(ch.param.clone(), ch.value);
            let spec = algorithm_of(&self.scenario, node);
            let params = Params::new(spec.params, &[&self.node_params[node]]);
            for port in self.ports.iter_mut().filter(|p| p.node == node) {
                if let Some(alg) = port.alg.as_mut() {
                    alg.reconfigure(&params);
                }
            }
            self.config_changed = true;
        }
    }

    /// Changes a switch parameter from now on (after every event at the current time). The
    /// change is recorded in the scenario's `changes`, so that a saved scenario replays it.
    pub fn set_param(&mut self, node: &str, param: &str, value: f64) -> Result<(), Problem> {
        let change = ParamChange { at_ms: to_ms(self.now), node: node.to_string(), param: param.to_string(), value };
        if let Some(problem) = scenario::check_change(&self.scenario, &change) {
            return Err(problem);
        }
        let at = from_ms(change.at_ms);
        let pos = self.pending_changes.iter().position(|(t, _)| *t > at).unwrap_or(self.pending_changes.len());
        self.pending_changes.insert(pos, (at, change.clone()));
        self.scenario.changes.push(change);
        Ok(())
    }

    /// The head cell of port `p` reaches the far node.
    fn port_head(&mut self, p: usize) {
        let (_, mut cell) = self.ports[p].ring.pop_front().expect("scheduled head");
        if let Some(&(next, _)) = self.ports[p].ring.front() {
            self.push(next, (EV_PORT << KIND_SHIFT) | p as u32);
        }
        let c = cell.conn as usize;
        let hop = cell.hop as usize + 1;
        match cell.kind {
            CellKind::Data | CellKind::Frm => {
                let vs = self.vs_at.get(c).and_then(|v| v.get(hop).copied().flatten());
                let vp_start = self.vp_from.get(c).and_then(|v| v.get(hop).copied().flatten());
                let vp_end = self.vp_to.get(c).and_then(|v| v.get(hop).copied().flatten());
                if cell.has(flag::VP) && vp_end.is_some() {
                    self.turn_around_at(c, hop, cell);
                } else if let (Some(v), false, CellKind::Data) = (vp_start, cell.has(flag::VP), cell.kind) {
                    self.vp_enqueue(v as usize, cell);
                } else if let Some(v) = vs {
                    self.at_vsvd(v as usize, cell);
                } else if hop < self.conns[c].fwd.len() {
                    cell.hop = hop as u16;
                    let next = self.conns[c].fwd[hop] as usize;
                    self.enqueue(next, cell);
                } else {
                    self.deliver(c, cell);
                }
            }
            CellKind::Brm => {
                let m = self.conns[c].bwd.len();
                if hop < m {
                    // At the switch m − hop of the path: its forward port writes feedback.
                    let fwd_port = self.conns[c].fwd[m - hop] as usize;
                    let port = &mut self.ports[fwd_port];
                    let view = port.view(self.now, cell.conn);
                    if let Some(alg) = port.alg.as_mut() {
                        alg.on_brm(&view, &mut cell);
                    }
                    if cell.has(flag::VP) {
                        if let Some(v) = self.vp_from.get(c).and_then(|v| v.get(m - hop).copied().flatten()) {
                            if self.vp[v as usize].src.on_brm(self.now, &cell) {
                                self.schedule_vp(v as usize);
                            }
                            return;
                        }
                    }
                    let vs = self.vs_at.get(c).and_then(|v| v.get(m - hop).copied().flatten());
                    if let Some(v) = vs {
                        // The end of the next loop: the virtual source takes the feedback.
                        if self.vs[v as usize].src.on_brm(self.now, &cell) {
                            self.schedule_vs(v as usize);
                        }
                        return;
                    }
                    cell.hop = hop as u16;
                    let next = self.conns[c].bwd[hop] as usize;
                    self.enqueue(next, cell);
                } else if self.conns[c].source.on_feedback(self.now, &cell) {
                    self.schedule_source(c);
                }
            }
            CellKind::Ack => {
                let m = self.conns[c].bwd.len();
                if hop < m {
                    cell.hop = hop as u16;
                    let next = self.conns[c].bwd[hop] as usize;
                    self.enqueue(next, cell);
                } else {
                    let now_ms = to_ms(self.now);
                    let segments = match self.conns[c].tcp.as_mut() {
                        Some(t) => t.sender.on_ack(cell.er as u64, now_ms),
                        None => Vec::new(),
                    };
                    self.hand_to_source(c, &segments);
                }
            }
        }
    }

    /// A virtual source at every VS/VD switch on each ABR connection's path.
    fn build_virtual_sources(&mut self) {
        let s = &self.scenario;
        self.vs_at = self.conns.iter().map(|c| vec![None; c.fwd.len()]).collect();
        for (c, conn) in self.conns.iter().enumerate() {
            let Host::Abr(src) = &conn.source else { continue };
            if src.cfg.ubr {
                continue;
            }
            for pos in 1..conn.fwd.len() {
                let node = self.ports[conn.fwd[pos] as usize].node;
                if s.nodes[node].vsvd != Some(true) {
                    continue;
                }
                let mut cfg = src.cfg.clone();
                cfg.behavior = SourceBehavior::Greedy;
                cfg.volume_cells = None;
                cfg.stop = None; // it drains what the connection sent before it stopped
                let mut vsrc = AbrSource::new(cfg);
                vsrc.host = Some(HostBuffer::new(1));
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
            let p = self.conns[self.vs[v].conn].fwd[self.vs[v].pos];
            let sharing = self.vs.iter().filter(|w| self.conns[w.conn].fwd[w.pos] == p).count() as u32;
            self.vs[v].share_cells = (self.ports[p as usize].buffer / sharing).max(1);
        }
    }

    fn build_virtual_paths(&mut self) {
        let s = &self.scenario;
        self.vp_from = self.conns.iter().map(|c| vec![None; c.fwd.len() + 1]).collect();
        self.vp_to = self.vp_from.clone();
        for vp in &s.virtual_paths {
            let index = self.vp.len() as u32;
            let mut members = Vec::new();
            let mut pos_from = Vec::new();
            for id in &vp.connections {
                let c = s.connections.iter().position(|c| &c.id == id).expect("validated");
                let route = s.resolved_path(&s.connections[c]).expect("validated");
                let a = route.iter().position(|n| n == &vp.from).expect("validated");
                let b = route.iter().position(|n| n == &vp.to).expect("validated");
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
            let port = &self.ports[self.conns[carrier].fwd[pos_from[0]] as usize];
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
            src.host = Some(HostBuffer::new(1));
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
                buffer: vp.buffer_cells.unwrap_or(10_000.0) as usize,
                max_queue: 0,
                scheduled: None,
            });
        }
    }

    fn schedule_vp(&mut self, v: usize) {
        let (next, scheduled) = (self.vp[v].src.next_event_time(), self.vp[v].scheduled);
        self.vp[v].scheduled = self.wake(next, scheduled, (EV_VP << KIND_SHIFT) | v as u32);
    }

    /// A member's data cell reaches the VPC's first edge switch: it joins that member's queue,
    /// unless the edge buffer is over 90 % full and the member holds more than an equal share,
    /// in which case its new frame is refused whole.
    fn vp_enqueue(&mut self, v: usize, cell: Cell) {
        let vp = &mut self.vp[v];
        let i = vp.members.iter().position(|&m| m == cell.conn as usize).expect("member");
        let eom = cell.has(flag::EOM);
        if vp.frame[i] == FrameState::Start {
            // Above 90 % occupancy, a member holding at least an equal share has its new
            // frames refused whole; near a full buffer every new frame is (EPD), so that
            // frames are not cut by a full buffer.
            let crowded = vp.waiting * 10 >= vp.buffer * 9;
            let hog = vp.queues[i].len() * vp.members.len() >= vp.waiting;
            let nearly_full = vp.waiting + 256 >= vp.buffer;
            vp.frame[i] = if (crowded && hog) || nearly_full { FrameState::Refused } else { FrameState::Accepting };
        }
        let drop = vp.frame[i] == FrameState::Refused || vp.waiting >= vp.buffer;
        if eom {
            vp.frame[i] = FrameState::Start;
        } else if drop && vp.frame[i] == FrameState::Accepting {
            vp.frame[i] = FrameState::Refused; // the rest of a frame cut by a full buffer
        }
        if drop {
            self.conns[cell.conn as usize].lost += 1;
            return;
        }
        if vp.queues[i].is_empty() {
            vp.round.push_back(i);
        }
        vp.queues[i].push_back(cell);
        vp.waiting += 1;
        vp.max_queue = vp.max_queue.max(vp.waiting);
        if let Some(h) = vp.src.host.as_mut() {
            h.push(0);
        }
        self.schedule_vp(v);
    }

    /// The VPC's next sending opportunity: a member's cell (round-robin) or its own RM cell.
    fn vp_event(&mut self, v: usize) {
        let now = self.now;
        if self.vp[v].scheduled != Some(now) {
            return;
        }
        self.vp[v].scheduled = None;
        let carrier = self.vp[v].carrier;
        if let Some(mut cell) = self.vp[v].src.on_opportunity(now, carrier as u32) {
            let vp = &mut self.vp[v];
            let (conn, pos) = if cell.kind == CellKind::Data {
                let i = vp.round.pop_front().expect("a queued member for each counted cell");
                cell = vp.queues[i].pop_front().expect("queued");
                if !vp.queues[i].is_empty() {
                    vp.round.push_back(i);
                }
                vp.waiting -= 1;
                (vp.members[i], vp.pos_from[i])
            } else {
                cell.set(flag::VP);
                self.conns[carrier].generated += 1;
                (carrier, vp.pos_from[0])
            };
            cell.hop = pos as u16;
            let port = self.conns[conn].fwd[pos] as usize;
            self.enqueue(port, cell);
        }
        self.schedule_vp(v);
    }

    /// A forward RM cell ends its control loop at the switch at path position `pos` (a virtual
    /// destination, or a VPC's last switch): it goes back as a backward RM cell from there.
    fn turn_around_at(&mut self, c: usize, pos: usize, cell: Cell) {
        self.conns[c].absorbed += 1;
        let mut brm = cell;
        brm.kind = CellKind::Brm;
        let m = self.conns[c].bwd.len();
        brm.hop = (m - pos) as u16;
        let back = self.conns[c].bwd[m - pos] as usize;
        self.enqueue(back, brm);
    }

    fn schedule_vs(&mut self, v: usize) {
        let (next, scheduled) = (self.vs[v].src.next_event_time(), self.vs[v].scheduled);
        self.vs[v].scheduled = self.wake(next, scheduled, (EV_VS << KIND_SHIFT) | v as u32);
    }

    /// The virtual source's next sending opportunity: a queued cell or its own FRM.
    fn vs_event(&mut self, v: usize) {
        let now = self.now;
        if self.vs[v].scheduled != Some(now) {
            return;
        }
        self.vs[v].scheduled = None;
        let (c, pos) = (self.vs[v].conn, self.vs[v].pos);
        if let Some(mut cell) = self.vs[v].src.on_opportunity(now, c as u32) {
            let vs = &mut self.vs[v];
            if cell.kind == CellKind::Data {
                cell = vs.queue.pop_front().expect("a queued cell for each counted one");
                vs.cells_since_frm += 1;
                self.ports[self.conns[c].fwd[pos] as usize].vs_held -= 1;
            } else {
                self.conns[c].generated += 1;
            }
            let vs = &mut self.vs[v];
            if cell.kind == CellKind::Frm && !cell.has(flag::CLP) {
                // Declare the measured rate since the last FRM (option c), not ACR.
                let t = to_s(now.saturating_sub(vs.last_frm));
                if t > 0.0 && vs.last_frm > 0 {
                    cell.ccr = cell.ccr.min((vs.cells_since_frm + 1) as f64 / t);
                }
                vs.last_frm = now;
                vs.cells_since_frm = 0;
            }
            cell.hop = pos as u16;
            let port = self.conns[c].fwd[pos] as usize;
            self.enqueue(port, cell);
        }
        self.schedule_vs(v);
    }

    /// A forward cell reaches a VS/VD switch: data joins the virtual source's queue; a forward
    /// RM cell ends the previous loop and is turned around with ER = min(ER, the switch's
    /// allocation, the VS's ACR).
    fn at_vsvd(&mut self, v: usize, cell: Cell) {
        let (c, pos) = (self.vs[v].conn, self.vs[v].pos);
        if cell.kind == CellKind::Data {
            // The VS's per-VC queues share the output port's buffer with the port's own queue.
            let port = &mut self.ports[self.conns[c].fwd[pos] as usize];
            let own = self.vs[v].queue.len() as u32;
            if own >= self.vs[v].share_cells || port.queue_len(self.now) + port.vs_held >= port.buffer {
                port.dropped += 1;
                self.conns[c].lost += 1;
                return;
            }
            port.vs_held += 1;
            // The VD keeps the previous loop's EFCI for its turnaround; the VS sends with EFCI = 0.
            let mut cell = cell;
            let vs = &mut self.vs[v];
            vs.efci_seen = cell.has(flag::EFCI);
            cell.clear(flag::EFCI);
            vs.queue.push_back(cell);
            vs.max_queue = vs.max_queue.max(vs.queue.len() as u64);
            if let Some(h) = vs.src.host.as_mut() {
                h.push(0);
            }
            self.schedule_vs(v);
            return;
        }
        // ER = min(ER, the allocation of the switch's port into the next loop (VAL2), the VS's
        // ACR), computed now.
        let mut rm = cell;
        let port = &mut self.ports[self.conns[c].fwd[pos] as usize];
        let view = port.view(self.now, cell.conn);
        if let Some(alg) = port.alg.as_mut() {
            alg.on_brm(&view, &mut rm);
        }
        rm.er = rm.er.min(self.vs[v].src.acr);
        if std::mem::take(&mut self.vs[v].efci_seen) {
            rm.set(flag::CI);
        }
        self.turn_around_at(c, pos, rm);
    }

    /// Queues the cells of TCP segments at the connection's source and wakes it.
    fn hand_to_source(&mut self, c: usize, segments: &[u64]) {
        if segments.is_empty() {
            return;
        }
        if let Host::Abr(src) = &mut self.conns[c].source {
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
        let now_ms = to_ms(self.now);
        let Some(t) = self.conns[c].tcp.as_mut() else { return };
        let segments = t.sender.on_tick(now_ms);
        let next = self.now + t.tick;
        self.hand_to_source(c, &segments);
        if next <= self.end {
            self.push(next, (EV_TICK << KIND_SHIFT) | c as u32);
        }
    }

    fn deliver(&mut self, c: usize, cell: Cell) {
        let conn = &mut self.conns[c];
        conn.delivered_all += 1;
        let in_rate = !cell.has(flag::CLP);
        if in_rate {
            conn.delivered += 1;
        }
        match cell.kind {
            CellKind::Data => {
                conn.dest.on_data(&cell);
                let ack = conn.tcp.as_mut().and_then(|t| t.receiver.on_cell(cell.ccr as u64, cell.has(flag::EOM)));
                if let Some(ack) = ack {
                    let mut a = Cell::data(cell.conn);
                    a.kind = CellKind::Ack;
                    a.er = ack as f64;
                    let port = conn.bwd[0] as usize;
                    self.enqueue(port, a);
                }
            }
            CellKind::Frm => {
                let mut brm = conn.dest.turn_around(&cell);
                brm.hop = 0;
                let port = conn.bwd[0] as usize;
                self.enqueue(port, brm);
            }
            CellKind::Brm | CellKind::Ack => unreachable!("backward cells end at the source"),
        }
    }

    fn sample(&mut self) {
        let now = self.now;
        let demands: Vec<Option<f64>> =
            self.conns.iter().map(|c| c.source.active(now).then(|| c.source.demand(now))).collect();
        if demands != self.demands || self.config_changed {
            let (share, target) = compute_shares(&self.ports, &self.conns, &demands);
            self.epochs.push(Epoch { from: now, share, target });
            self.demands = demands;
            self.config_changed = false;
        }
        let dt = if self.next_sample == 0 { 0.0 } else { to_s(self.sample_interval) };
        let epoch = self.epochs.last().expect("computed above");
        let row = &mut self.scratch;
        row.clear();
        row.push(to_ms(now));
        for c in &self.conns {
            let active = c.source.active(now) && !c.source.is_ubr();
            row.push(if active { c.source.rate(now) * self.unit_bits / 1e6 } else { f64::NAN });
        }
        let to_mbps = self.unit_bits / 1e6;
        row.extend(epoch.share.iter().map(|&x| x * to_mbps));
        row.extend(epoch.target.iter().map(|&x| x * to_mbps));
        for (i, c) in self.conns.iter().enumerate() {
            let cells = (c.delivered - self.prev_delivered[i]) as f64;
            row.push(if dt > 0.0 { cells / dt * to_mbps } else { 0.0 });
        }
        row.extend(self.conns.iter().map(|c| c.delivered as f64));
        row.extend(self.conns.iter().map(|c| if c.sent > 0 { c.lost as f64 / c.sent as f64 } else { 0.0 }));
        for p in self.ports.iter().filter(|p| p.reported) {
            row.push(p.queue_len(now) as f64);
        }
        for (i, p) in self.ports.iter().enumerate() {
            if p.reported {
                let cells = (p.departed(now) - self.prev_departed[i]) as f64;
                row.push(if dt > 0.0 { 100.0 * cells / (p.link_rate * dt) } else { 0.0 });
            }
        }
        for p in self.ports.iter().filter(|p| p.reported) {
            if let Some(alg) = &p.alg {
                alg.internal_values(row);
            }
        }
        for (i, c) in self.conns.iter().enumerate() {
            if let Some(t) = &c.tcp {
                row.push(t.sender.cwnd / 1000.0);
                // Goodput over the last GOODPUT_SAMPLES intervals: one segment per sample
                // would otherwise make the series jump between zero and the line rate.
                let hist = &mut self.segment_history[i];
                hist.push_back(t.receiver.delivered_segments);
                if hist.len() > GOODPUT_SAMPLES + 1 {
                    hist.pop_front();
                }
                let span = (hist.len() - 1) as f64 * to_s(self.sample_interval);
                let segs = (hist.back().unwrap() - hist.front().unwrap()) as f64;
                row.push(if span > 0.0 { segs * t.mss as f64 * 8.0 / span / 1e6 } else { 0.0 });
            }
        }
        // ABR virtual paths: the VPC source's ACR, and its share: its members' shares together.
        row.extend(self.vp.iter().filter(|v| v.is_abr()).map(|v| v.src.acr * to_mbps));
        for v in self.vp.iter().filter(|v| v.is_abr()) {
            let shares = v.members.iter().map(|&m| epoch.target[m]).filter(|x| !x.is_nan());
            let (sum, n) = shares.fold((0.0, 0), |(sum, n), x| (sum + x, n + 1));
            row.push(if n == 0 { f64::NAN } else { sum * to_mbps });
        }
        for (i, c) in self.conns.iter().enumerate() {
            self.prev_delivered[i] = c.delivered;
        }
        for (i, p) in self.ports.iter().enumerate() {
            self.prev_departed[i] = p.departed(now);
        }
        let hist: Vec<f64> = self
            .conns
            .iter()
            .map(|c| c.delivered as f64)
            .chain(self.ports.iter().map(|p| p.departed(now) as f64))
            .chain(self.conns.iter().map(|c| c.tcp.as_ref().map_or(0.0, |t| t.receiver.delivered_segments as f64)))
            .collect();
        self.rec.record(&self.scratch, &hist);
        self.next_sample += 1;
        if self.next_sample <= self.last_sample {
            self.push(self.next_sample * self.sample_interval, EV_SAMPLE << KIND_SHIFT);
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

    pub fn sample_interval(&self) -> Time {
        self.sample_interval
    }
}

/// EPD / PPD for a data cell of an AAL5 frame arriving at a port with `q` cells queued.
fn frame_discard(port: &mut Port, cell: &Cell, q: u32, admit: Admit) -> Admit {
    let v = cell.conn as usize;
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

/// Max-min shares (cells/s) of the connections given their demands (`None`: inactive), plain
/// and with each port's capacity scaled by its algorithm's target utilisation.
fn compute_shares(ports: &[Port], conns: &[Conn], demands: &[Option<f64>]) -> (Vec<f64>, Vec<f64>) {
    let mut used: Vec<usize> = conns.iter().flat_map(|c| c.fwd.iter().map(|&p| p as usize)).collect();
    used.sort_unstable();
    used.dedup();
    let plain: Vec<f64> = used.iter().map(|&p| ports[p].link_rate).collect();
    let target: Vec<f64> = used
        .iter()
        .map(|&p| ports[p].link_rate * ports[p].alg.as_ref().map_or(1.0, |a| a.target_utilization()))
        .collect();
    // Background traffic takes its current rate off every link it crosses, before ABR.
    let mut plain = plain;
    let mut target = target;
    for (i, c) in conns.iter().enumerate() {
        if let (Host::Bg(_), Some(rate)) = (&c.source, demands[i]) {
            for p in &c.fwd {
                let k = used.binary_search(&(*p as usize)).expect("used");
                plain[k] = (plain[k] - rate).max(0.0);
                target[k] = (target[k] - rate).max(0.0);
            }
        }
    }
    let active: Vec<usize> =
        (0..conns.len()).filter(|&i| demands[i].is_some() && !matches!(conns[i].source, Host::Bg(_))).collect();
    let sessions: Vec<Session> = active
        .iter()
        .map(|&i| Session {
            links: conns[i].fwd.iter().map(|p| used.binary_search(&(*p as usize)).expect("used")).collect(),
            mcr: conns[i].source.mcr(),
            pcr: demands[i].expect("active"),
        })
        .collect();
    let mut share = vec![f64::NAN; conns.len()];
    let mut tgt = vec![f64::NAN; conns.len()];
    for (k, r) in max_min(&plain, &sessions).into_iter().enumerate() {
        share[active[k]] = r;
    }
    for (k, r) in max_min(&target, &sessions).into_iter().enumerate() {
        tgt[active[k]] = r;
    }
    (share, tgt)
}

fn series_meta(ports: &[Port], conns: &[Conn], ethernet: bool, vps: &[VpSource]) -> Vec<SeriesMeta> {
    let (unit, what) = if ethernet { ("frames", "frames delivered") } else { ("cells", "cells delivered") };
    let mut m = Vec::new();
    let per_conn = |m: &mut Vec<SeriesMeta>, kind: &'static str, unit: &'static str, what: &str| {
        for c in conns {
            m.push(SeriesMeta::new(kind, &c.id, unit, format!("{} {what}", c.id)));
        }
    };
    for c in conns {
        let what = if ethernet {
            "rate limit"
        } else if c.source.is_ubr() {
            "(UBR: no allowed rate)"
        } else {
            "ACR"
        };
        m.push(SeriesMeta::new("acr", &c.id, "Mbps", format!("{} {what}", c.id)));
    }
    per_conn(&mut m, "share", "Mbps", "max-min share");
    per_conn(&mut m, "target", "Mbps", "max-min share at target utilisation");
    per_conn(&mut m, "throughput", "Mbps", "throughput");
    per_conn(&mut m, "delivered", unit, what);
    per_conn(&mut m, "loss_ratio", "", if ethernet { "frame loss ratio" } else { "cell loss ratio" });
    for p in ports.iter().filter(|p| p.reported) {
        m.push(SeriesMeta::new("queue", &p.id, unit, format!("{} queue", p.id)));
    }
    for p in ports.iter().filter(|p| p.reported) {
        m.push(SeriesMeta::new("utilization", &p.id, "%", format!("{} utilisation", p.id)));
    }
    for p in ports.iter().filter(|p| p.reported) {
        if let Some(alg) = &p.alg {
            for name in alg.internal_names() {
                let mut s = SeriesMeta::new("algorithm", &p.id, "", format!("{} {name}", p.id));
                s.id = format!("algorithm:{}:{name}", p.id);
                s.unit = if name.ends_with("_mbps") {
                    "Mbps"
                } else if name.contains("_pct") {
                    "%"
                } else {
                    ""
                };
                m.push(s);
            }
        }
    }
    for c in conns.iter().filter(|c| c.tcp.is_some()) {
        m.push(SeriesMeta::new("cwnd", &c.id, "KB", format!("{} TCP window", c.id)));
        m.push(SeriesMeta::new("goodput", &c.id, "Mbps", format!("{} TCP goodput (10-sample average)", c.id)));
    }
    for v in vps.iter().filter(|v| v.is_abr()) {
        m.push(SeriesMeta::new("vp_acr", &v.id, "Mbps", format!("{} ACR (ABR virtual path)", v.id)));
    }
    for v in vps.iter().filter(|v| v.is_abr()) {
        let what = "share at target utilisation (its connections' together)";
        m.push(SeriesMeta::new("vp_target", &v.id, "Mbps", format!("{} {what}", v.id)));
    }
    m
}
