//! The scenario: a plain JSON document (topology, connections, per-switch algorithm and
//! parameters, run settings, lesson text). These serde types are the schema; the TypeScript
//! types in `web/src/contract/generated/` are generated from them by ts-rs (`cargo test`).
//!
//! `parse` turns text into a checked [`Scenario`] or into every problem found, each with the
//! JSON path of the field and the rule it breaks.

use crate::fields;
use crate::lesson::Lesson;
use crate::source::SOURCE_PARAMS;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use ts_rs::TS;

/// Where `cargo test` writes the generated TypeScript types (relative to ts-rs's default
/// `engine/sim/bindings/`, so it works from any working directory).
const EXPORT_TO: &str = "../../../web/src/contract/generated/";

/// The scenario format version this engine reads and writes.
pub const SCENARIO_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct Scenario {
    /// Format version (currently 1).
    pub version: u32,
    /// Short identifier, e.g. `two-sources`.
    pub id: String,
    #[serde(default)]
    #[ts(as = "Option<String>", optional)]
    pub name: String,
    /// Library group shown in the UI.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[ts(as = "Option<String>", optional)]
    pub group: String,
    /// One line shown in the library.
    #[serde(default)]
    #[ts(as = "Option<String>", optional)]
    pub description: String,
    /// The study the scenario comes from.
    #[serde(default)]
    #[ts(as = "Option<String>", optional)]
    pub source: String,
    /// The lesson for a class: text (what to watch, what it shows, questions), or text with
    /// steps to walk through (see [`crate::lesson`]).
    #[serde(default)]
    #[ts(as = "Option<Lesson>", optional)]
    pub lesson: Lesson,
    pub run: RunSettings,
    #[serde(default)]
    #[ts(as = "Option<Defaults>", optional)]
    pub defaults: Defaults,
    pub nodes: Vec<Node>,
    pub links: Vec<Link>,
    pub connections: Vec<Connection>,
    /// Parameter changes made during the run, replayed at their times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<ParamChange>>", optional)]
    pub changes: Vec<ParamChange>,
    /// Virtual paths: groups of connections carried as one VPC between two edge switches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<VirtualPath>>", optional)]
    pub virtual_paths: Vec<VirtualPath>,
    /// Present for an Ethernet network (frames, FECN/QCN); absent for ATM (cells, ABR).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ethernet: Option<EthernetSettings>,
    /// Runs of this scenario with parameters varied over a grid (`abrsim sweep`, the lab's
    /// Sweep view); a single run ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sweep: Option<Sweep>,
    /// The study's published figures, shown beside ours (`abrsim report`, the Result tab, a
    /// dashed line on the rate and queue charts). They do not change the run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<Reference>>", optional)]
    pub reference: Vec<Reference>,
}

/// One published figure: what it is about, which quantity, its value, and where it was
/// published.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct Reference {
    pub about: About,
    pub quantity: RefQuantity,
    /// The published value, in the quantity's unit.
    pub published: f64,
    /// Relative tolerance within which ours agrees with it (a fraction of the published
    /// value, e.g. 0.05); none: the difference is shown without a verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tolerance: Option<f64>,
    /// Why the figure has no tolerance, in words (e.g. it is the study's max-min allocation,
    /// which the algorithm aims at a fraction of): shown where the verdict would be.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub no_tolerance_reason: Option<String>,
    /// The figure or table it comes from, e.g. "Jain et al. 1996, Fig. 12".
    pub source: String,
    /// The scheme the study measured it under (an algorithm id), when the figure is a result of
    /// that scheme (gfc1's queues near ERICA+'s target) rather than of the network (a max-min
    /// share holds whatever the scheme). It is judged only while every switch that runs a
    /// scheme (not `none`) runs this one; otherwise ours is shown beside it without a verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub algorithm: Option<String>,
}

/// What a published figure is about: one connection, the connections of a `group` label, a
/// switch output port (`"SW3->SW4"`, as the summary names it), a link (its `from` → `to`
/// direction), or the whole network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub enum About {
    Connection(String),
    Group(String),
    Port(String),
    Link(String),
    /// Written `"network"`.
    Network,
}

/// The quantity of a published figure (steady-state window unless it says max). For a group:
/// the mean over its connections (rates, goodput), the sum (drops, timeouts), or Jain's index
/// of their rates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = EXPORT_TO)]
pub enum RefQuantity {
    /// Delivered rate (Mbps): connection, group.
    MeanRateMbps,
    /// TCP goodput (Mbps): connection, group.
    GoodputMbps,
    /// Queue over the steady window (cells; frames on Ethernet): port.
    MeanQueueCells,
    /// Largest queue of the run (cells; frames on Ethernet): port.
    MaxQueueCells,
    /// Largest occupancy of the port's buffer over the run (cells): its queue together with a
    /// VS/VD switch's per-VC queues waiting for it (the VS/VD studies' "switch queue"); the
    /// same as `MaxQueueCells` at a port no virtual source feeds: port.
    MaxBufferCells,
    /// Largest number of cells waiting at the source host (TCP over ABR): connection, group
    /// (the largest among its connections).
    MaxSourceQueueCells,
    /// Cells (frames) dropped over the run: port, link (its forward port), connection, group.
    DroppedCells,
    /// Fraction of the capacity used: port, link.
    Utilization,
    /// Data carried (Mbps): port, link.
    ThroughputMbps,
    /// Jain's fairness index: network (rate over share), group (of the members' rates).
    JainIndex,
    /// TCP retransmission timeouts over the run: connection, group.
    Timeouts,
}

/// What to vary and how often to run each point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct Sweep {
    /// The parameters, each with its list of values: every combination is a point (the first
    /// parameter varies slowest).
    pub vary: Vec<SweepParam>,
    /// Runs per point, with seeds run.seed, run.seed + 1, … (default 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[ts(as = "Option<u32>", optional)]
    pub seeds: u32,
    /// The columns the lab tabulates and plots (row column names, e.g. `jain_index`,
    /// `port.SW1->EP4.dropped_cells`); default: a few totals.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub metrics: Vec<String>,
}

fn one() -> u32 {
    1
}
fn is_one(n: &u32) -> bool {
    *n == 1
}

/// One varied parameter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct SweepParam {
    /// The column's name (default: the first path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    /// The `--set` paths that take each value (several: e.g. every link of a loop).
    pub paths: Vec<String>,
    /// Each path is set to value × scale (numbers only; default 1): e.g. a loop delay of D µs
    /// over four links sets each link's delay_us to D × 0.25.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub scale: Option<f64>,
    #[ts(type = "Array<number | string>")]
    pub values: Vec<Value>,
}

/// What makes a network Ethernet: frames of a fixed size instead of 53-byte cells.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct EthernetSettings {
    /// Size of every data frame (bytes; default 1500). Control frames (reflected rate tags,
    /// congestion notifications) take the same transmission slot on their links.
    #[serde(default = "default_frame_bytes")]
    #[ts(as = "Option<u32>", optional)]
    pub frame_bytes: u32,
}

fn default_frame_bytes() -> u32 {
    fields::FRAME_BYTES.default.unwrap() as u32
}

/// A TCP connection over an ATM VC.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct TcpSettings {
    /// Maximum segment size (bytes; default 1460).
    #[serde(default = "default_mss")]
    #[ts(as = "Option<u32>", optional)]
    pub mss_bytes: u32,
    /// The receiver's window (bytes; default 65,535; window scaling allows more).
    #[serde(default = "default_window")]
    #[ts(as = "Option<f64>", optional)]
    pub window_bytes: f64,
    /// Granularity of the retransmission timer (ms; default 100).
    #[serde(default = "default_tick")]
    #[ts(as = "Option<f64>", optional)]
    pub timer_granularity_ms: f64,
    /// LLC/SNAP encapsulation adds 8 bytes per packet (default true).
    #[serde(default = "default_true")]
    #[ts(as = "Option<bool>", optional)]
    pub llc: bool,
    /// `abr` (rate-controlled by the ABR source, default) or `ubr` (sent at PCR, no RM cells).
    #[serde(default)]
    #[ts(as = "Option<Service>", optional)]
    pub service: Service,
    /// Largest random delay before a segment's cells join the host queue (µs; default 0).
    #[serde(default)]
    #[ts(as = "Option<f64>", optional)]
    pub random_delay_us: f64,
    /// Fast recovery: `newreno` (default) or `reno`.
    #[serde(default)]
    #[ts(as = "Option<Recovery>", optional)]
    pub recovery: Recovery,
}

/// How a TCP sender leaves fast recovery.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub enum Recovery {
    /// A partial acknowledgement retransmits the next hole and stays in recovery (RFC 6582).
    #[default]
    #[serde(rename = "newreno")]
    NewReno,
    /// Any new acknowledgement ends recovery (4.3BSD Reno): a second loss in the window waits
    /// for three more duplicate ACKs or the timer.
    #[serde(rename = "reno")]
    Reno,
}

fn default_mss() -> u32 {
    fields::MSS_BYTES.default.unwrap() as u32
}
fn default_window() -> f64 {
    fields::WINDOW_BYTES.default.unwrap()
}
fn default_tick() -> f64 {
    fields::TIMER_GRANULARITY_MS.default.unwrap()
}
fn default_true() -> bool {
    true
}

/// The ATM service category of a VC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = EXPORT_TO)]
pub enum Service {
    #[default]
    Abr,
    Ubr,
}

/// A virtual path: at `from` the member connections' cells wait in per-VC queues served
/// round-robin onto one VPC, sent as UBR (at the link rate) or ABR (at the rate the core
/// returns to the VPC's own RM cells); at `to` the members go their own ways again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct VirtualPath {
    pub id: String,
    /// Member connection ids (their paths must share the stretch from `from` to `to`).
    pub connections: Vec<String>,
    /// Edge switch where the VPC starts, and where it ends.
    pub from: String,
    pub to: String,
    /// `abr` or `ubr` (default abr).
    #[serde(default)]
    #[ts(as = "Option<Service>", optional)]
    pub service: Service,
    /// The edge's buffer for the VPC's per-VC queues (cells; default 10,000). Above 90 %
    /// occupancy, new frames of members holding more than an equal share are refused whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub buffer_cells: Option<f64>,
}

/// Higher-priority background traffic (ATM CBR/VBR), served before ABR at every port.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub enum Background {
    /// Constant bit rate.
    Cbr { rate_mbps: f64 },
    /// On at `peak_mbps` and off, for exponentially distributed times of the given means.
    OnOff { peak_mbps: f64, mean_on_ms: f64, mean_off_ms: f64 },
}

/// How frames arrive at an Ethernet source (offered load in % of its link's rate).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub enum Traffic {
    /// In each frame slot of the link, a frame arrives with probability load_percent / 100.
    Bernoulli { load_percent: f64 },
    /// Frames arrive evenly spaced at load_percent of the link rate.
    Constant { load_percent: f64 },
}

/// An Ethernet source that names no traffic offers Bernoulli arrivals at its full link rate.
impl Default for Traffic {
    fn default() -> Self {
        Traffic::Bernoulli { load_percent: 100.0 }
    }
}

impl Traffic {
    pub fn load(&self) -> f64 {
        match *self {
            Traffic::Bernoulli { load_percent } | Traffic::Constant { load_percent } => load_percent / 100.0,
        }
    }
}

impl Scenario {
    /// The source-parameter catalogue of this kind of network.
    pub fn source_params(&self) -> &'static [crate::params::ParamSpec] {
        if self.ethernet.is_some() {
            &crate::ethernet::source::ETH_SOURCE_PARAMS
        } else {
            &SOURCE_PARAMS
        }
    }

    /// Bits per transmission unit: a 53-byte cell, or the Ethernet frame.
    pub fn unit_bits(&self) -> f64 {
        self.ethernet.as_ref().map_or(crate::time::CELL_BITS, |e| 8.0 * e.frame_bytes as f64)
    }
}

/// A switch parameter changed at a given simulated time (recorded when a user changes it while
/// the run plays, so that a shared link replays it).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct ParamChange {
    /// When the change takes effect (ms): after every event at that time.
    pub at_ms: f64,
    /// Switch id.
    pub node: String,
    /// Parameter name of the switch's algorithm.
    pub param: String,
    pub value: f64,
}

/// Discard policy of a switch output port for AAL5 frames (TCP connections).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = EXPORT_TO)]
pub enum Discard {
    /// Drop each cell that finds the buffer full.
    #[default]
    Tail,
    /// Early packet discard: refuse whole frames once the queue reaches the threshold.
    Epd,
    /// Partial packet discard: after a cell of a frame is dropped, drop the rest of that frame
    /// (keeping its last cell, so the receiver finds the frame boundary).
    Ppd,
    /// Both.
    EpdPpd,
}

/// How a switch output port serves its cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = EXPORT_TO)]
pub enum Scheduler {
    /// One FIFO queue per output port.
    #[default]
    Fifo,
    /// One queue per VC, served round-robin one cell at a time.
    PerVc,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct RunSettings {
    /// Simulated time to run (ms).
    pub duration_ms: f64,
    /// Interval between samples of every series (µs of simulated time; default 500).
    #[serde(default = "default_sample_interval_us")]
    #[ts(as = "Option<f64>", optional)]
    pub sample_interval_us: f64,
    /// Seed of the random processes (one PRNG stream per process; default 1).
    #[serde(default = "default_seed")]
    #[ts(type = "number", optional)]
    pub seed: u64,
    /// Start of the steady-state window for summaries (ms); default: the last third of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub steady_from_ms: Option<f64>,
    /// Relative tolerance within which steady-state rates are expected to match their shares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tolerance: Option<f64>,
    /// Whether the study says the rates reach the max-min shares (default true; false for the
    /// robustness tests, where a misbehaving source takes more than its share).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub expect_maxmin: Option<bool>,
}

fn default_sample_interval_us() -> f64 {
    fields::SAMPLE_INTERVAL_US.default.unwrap()
}
fn default_seed() -> u64 {
    1
}

/// Values applied to every element of a kind unless the element sets its own.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct Defaults {
    /// TM 4.0 source parameters (see the source parameter catalogue).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[ts(as = "Option<BTreeMap<String, f64>>", optional)]
    pub source: BTreeMap<String, f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export, export_to = EXPORT_TO)]
pub enum NodeKind {
    Source,
    Switch,
    Destination,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct Node {
    pub id: String,
    pub kind: NodeKind,
    /// Switch algorithm id (switches only; default `erica`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub algorithm: Option<String>,
    /// Algorithm parameters by name (switches only).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[ts(as = "Option<BTreeMap<String, f64>>", optional)]
    pub params: BTreeMap<String, f64>,
    /// The switch is a virtual source / virtual destination for the ABR connections through it:
    /// it ends their control loop (turning their forward RM cells around) and starts a new one
    /// (queueing their cells per VC and sending them at its own ACR).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub vsvd: Option<bool>,
    /// What a full or filling port discards (ATM switches; default `tail`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub discard: Option<Discard>,
    /// EPD: a new AAL5 frame is refused whole once the queue reaches this (cells; default
    /// 90 % of the buffer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub epd_threshold_cells: Option<f64>,
    /// Output port scheduler (switches only; default `fifo`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub scheduler: Option<Scheduler>,
    /// Buffer of each output port (cells; ATM switches only; default 1000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub buffer_cells: Option<f64>,
    /// Buffer of each output port (bytes; Ethernet switches only; default 600,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub buffer_bytes: Option<f64>,
    /// Position on the editor canvas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub y: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct Link {
    pub id: String,
    /// The link is full duplex; `from` → `to` is its forward direction in reports.
    pub from: String,
    pub to: String,
    /// Capacity in Mbps of cells (a link of C Mbps carries C·10⁶/424 cells/s).
    pub rate_mbps: f64,
    /// Propagation delay (µs); give this or `distance_km`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub delay_us: Option<f64>,
    /// Length (km), at 5 µs per km; give this or `delay_us`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub distance_km: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct Connection {
    pub id: String,
    /// Source node.
    pub from: String,
    /// Destination node.
    pub to: String,
    /// Node ids from source to destination; default: the shortest path (fewest hops).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub path: Option<Vec<String>>,
    /// When the source starts sending (ms).
    #[serde(default)]
    #[ts(as = "Option<f64>", optional)]
    pub start_ms: f64,
    /// When the source stops sending (ms); default: never.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stop_ms: Option<f64>,
    /// TM 4.0 source parameters, over `defaults.source`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[ts(as = "Option<BTreeMap<String, f64>>", optional)]
    pub params: BTreeMap<String, f64>,
    /// How the source behaves (default: greedy and TM 4.0 compliant).
    #[serde(default, skip_serializing_if = "Behavior::is_greedy")]
    #[ts(as = "Option<Behavior>", optional)]
    pub behavior: Behavior,
    /// Data to send (Mb of cell payload, 48 bytes a cell), after which the source leaves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub volume_mb: Option<f64>,
    /// Group label for reports (e.g. the "A" of GFC1's groups).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub group: Option<String>,
    /// Makes this a CBR/VBR background connection (ATM): no feedback, strict priority over ABR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub background: Option<Background>,
    /// Carry a TCP connection (infinite data; NewReno, or Reno: `recovery`) in AAL5 frames over
    /// this ABR (or UBR) VC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tcp: Option<TcpSettings>,
    /// Frame arrivals of an Ethernet source (default: Bernoulli at 100 %).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub traffic: Option<Traffic>,
}

/// How a source uses (or abuses) its allowed rate.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub enum Behavior {
    /// Always has data and follows the TM 4.0 rules.
    #[default]
    Greedy,
    /// From `from_ms`, alternately for `greedy_ms` sends `factor` × ACR (at most PCR) while
    /// writing ACR, not its true rate, in CCR, then for `normal_ms` behaves.
    Dishonest { from_ms: f64, factor: f64, greedy_ms: f64, normal_ms: f64 },
    /// From `from_ms`, ignores feedback and sends at `rate_mbps` (at most PCR), writing that
    /// true rate in CCR.
    FixedRate { from_ms: f64, rate_mbps: f64 },
    /// Has data for `on_ms`, then none for `off_ms`, repeating from its start.
    OnOff { on_ms: f64, off_ms: f64 },
}

impl Behavior {
    pub fn is_greedy(&self) -> bool {
        *self == Behavior::Greedy
    }
}

/// One problem in a scenario: where, and which rule it breaks.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct Problem {
    /// The JSON path of the field ("connections[2].params.icr_mbps"; "" for the whole file).
    pub path: String,
    pub rule: String,
    /// The path for people, naming the list element by the id typed in it too
    /// ("connections[2] (C3).params.icr_mbps"); absent when it would say what `path` says.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub at: Option<String>,
    /// The JSON paths of the other fields the rule weighs `path` against, where setting a value
    /// mends it too (an ICR above PCR: PCR's field; a default above a connection's PCR: that
    /// connection's own field), so that a form shows the rule at each; absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub also: Vec<String>,
}

impl Problem {
    pub(crate) fn new(path: impl Into<String>, rule: impl Into<String>) -> Self {
        Problem { path: path.into(), rule: rule.into(), at: None, also: Vec::new() }
    }

    /// This problem with `at` naming the element of `doc` (the document it was found in) by
    /// its id, as [`path_with_id`] does.
    pub fn named(self, doc: &Value) -> Problem {
        let at = path_with_id(&self.path, doc);
        Problem { at: (at != self.path).then_some(at), ..self }
    }

    /// Every problem of `doc` [`named`](Problem::named).
    pub fn all_named(problems: Vec<Problem>, doc: &Value) -> Vec<Problem> {
        problems.into_iter().map(|p| p.named(doc)).collect()
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.at.as_deref().unwrap_or(&self.path) {
            "" => write!(f, "{}", self.rule),
            at => write!(f, "{at}: {}", self.rule),
        }
    }
}

/// How a number that is not finite is refused, in a file, a `--set` and the lab alike.
pub const NOT_FINITE: &str = "must be a finite number";
/// Why a number written in decimal is not finite.
pub const BEYOND_F64: &str = "beyond the largest number (about 1.8e308)";

/// How a number too small for f64 (5e-400, which JSON parsers read as 0) is refused, in a
/// file, a `--set` and the lab alike: it is not the 0 it would silently become.
pub const NOT_REPRESENTABLE: &str = "must be a representable number";
/// Why a number written in decimal with non-zero digits is not representable.
pub const TOO_SMALL: &str = "too small to represent (below about 4.9e-324), and is not read as 0";

/// The first number in JSON text (outside strings) that has a non-zero digit but reads as 0
/// (it underflows f64: 5e-400): its byte offset and its text. Parsers read such a number as 0
/// without a word, so the text is the only place it shows.
pub fn underflowing_number(text: &str) -> Option<(usize, &str)> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                // Skip the string, escapes included.
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < b.len() && matches!(b[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                    i += 1;
                }
                let token = &text[start..i];
                // Only an exponent or hundreds of digits can take a number below f64's least.
                let mantissa = token.split(['e', 'E']).next().unwrap_or("");
                let may_underflow = mantissa.len() < token.len() || token.len() > 300;
                if may_underflow
                    && mantissa.bytes().any(|c| matches!(c, b'1'..=b'9'))
                    && token.parse::<f64>().is_ok_and(|v| v == 0.0)
                {
                    return Some((start, token));
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// A value given on the command line (`--set`, `--vary`): JSON, else the text as a string. A
/// number past f64's range (1e400) or too small for it (5e-400) is refused (the rule, without
/// the field's name), not taken for the text, or the 0, it would otherwise be.
pub fn command_value(raw: &str) -> Result<Value, String> {
    match serde_json::from_str(raw) {
        Ok(v) => match underflowing_number(raw) {
            Some((_, token)) => Err(format!("{NOT_REPRESENTABLE}: {token} is {TOO_SMALL}")),
            None => Ok(v),
        },
        Err(_) if raw.bytes().any(|b| b.is_ascii_digit()) && raw.trim().parse::<f64>().is_ok_and(f64::is_infinite) => {
            Err(format!("{NOT_FINITE}: {} is {BEYOND_F64}", raw.trim()))
        }
        Err(_) => Ok(Value::String(raw.to_string())),
    }
}

/// Parses and validates scenario text.
pub fn parse(json: &str) -> Result<Scenario, Vec<Problem>> {
    from_value(parse_json(json).map_err(|p| vec![p])?)
}

/// Reads JSON text as a value, refusing what JSON parsers disagree on: a key twice in one
/// object (most keep the last silently; a scenario's meaning must not depend on which).
pub fn parse_json(text: &str) -> Result<Value, Problem> {
    // A byte-order mark (Windows editors write one) is not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut de = serde_json::Deserializer::from_str(text);
    let StrictJson(v) = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        // A syntax error inside an object or a list leaves its unknown last key as `?`: the
        // path names where the parser got to, the rule the line and column.
        let path = e.path().to_string();
        let path = if path == "." { "" } else { path.trim_end_matches('?').trim_end_matches('.') };
        let e = e.into_inner();
        // A number past f64's range (1e400) is valid JSON, but no finite number: said as
        // the rule every other reader of a number says it.
        if e.to_string().starts_with("number out of range") {
            let (line, column) = (e.line(), e.column());
            return Problem::new(
                path,
                format!("{NOT_FINITE}: its value is {BEYOND_F64} (line {line} column {column})"),
            );
        }
        Problem::new(path, format!("not valid JSON: {e}"))
    })?;
    de.end().map_err(|e| Problem::new("", format!("not valid JSON: {e}")))?;
    if let Some((at, token)) = underflowing_number(text) {
        return Err(underflow_problem(text, at, token));
    }
    Ok(v)
}

/// The problem of a number in `text` (at byte `at`) too small to represent: its path found by
/// reading the text again with a number past the largest in its place, which the parser
/// refuses where it stands.
fn underflow_problem(text: &str, at: usize, token: &str) -> Problem {
    let marked = format!("{}1e999{}", &text[..at], &text[at + token.len()..]);
    let mut de = serde_json::Deserializer::from_str(&marked);
    let path = match serde_path_to_error::deserialize::<_, StrictJson>(&mut de) {
        Err(e) => {
            let path = e.path().to_string();
            if path == "." {
                String::new()
            } else {
                path.trim_end_matches('?').trim_end_matches('.').to_string()
            }
        }
        Ok(_) => String::new(),
    };
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    Problem::new(path, format!("{NOT_REPRESENTABLE}: its value {token} is {TOO_SMALL} (line {line} column {column})"))
}

/// A JSON value built by a visitor that refuses duplicate keys.
struct StrictJson(Value);

impl<'de> Deserialize<'de> for StrictJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(StrictJson)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(StrictJson(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(serde::de::Error::custom(format!("the key '{key}' appears twice in one object")));
            }
            let StrictJson(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

/// Reads part of a scenario document (the whole of it at `at` = "", the sweep block at
/// "sweep") into its type; the problem, if any, names its path in the document. Every object of
/// the format must be an object: a list is refused, even where serde would read a struct from
/// it by position (see [`crate::by_name`]).
pub fn read<'a, T: Deserialize<'a>>(value: &'a Value, at: &str) -> Result<T, Problem> {
    crate::by_name::deserialize(value).map_err(|e| {
        let path = match (at, e.path().to_string()) {
            (at, p) if p == "." => at.to_string(),
            ("", p) => p,
            (at, p) => format!("{at}.{p}"),
        };
        Problem::new(path, crate::shape::plain_rule(&e.into_inner().to_string()))
    })
}

/// Validates an already parsed JSON value (used after `--set` overrides).
pub fn from_value(value: serde_json::Value) -> Result<Scenario, Vec<Problem>> {
    // Said in the file's terms, as the lab says it (web/src/scenario/share.ts, shapeProblem):
    // serde would name the Rust type it expected instead.
    let holds = match &value {
        Value::Object(_) => None,
        Value::Null => Some("only null"),
        Value::Array(_) => Some("an array"),
        Value::Number(_) => Some("a number"),
        Value::String(_) => Some("a string"),
        Value::Bool(_) => Some("a boolean"),
    };
    if let Some(what) = holds {
        return Err(vec![Problem::new("", format!("it holds {what}, not a scenario object"))]);
    }
    if let Some(v) = value.get("version") {
        if v.as_u64() != Some(SCENARIO_VERSION as u64) {
            return Err(vec![Problem::new(
                "version",
                format!("unsupported scenario version {v}; this engine reads version {SCENARIO_VERSION}"),
            )]);
        }
    }
    // Every shape problem (an unknown field, text for a number, …), then the range and
    // reference rules on what read, but for elements whose figures had to be stood in for.
    // A stand-in for an id, a kind or a whole list would make those rules speak of what the
    // user did not write: they wait until the shape is mended.
    // All of them in the file's order.
    let mut read = crate::shape::read_every::<Scenario>(value)?;
    let mut problems = std::mem::take(&mut read.problems);
    if read.structural {
        problems.push(Problem::new("", "ranges and references are checked once the problems above are mended"));
    } else {
        problems.extend(crate::validate::validate(&read.value).into_iter().filter(|p| !read.covers(p)));
        problems = crate::shape::in_document_order(problems, &read.doc);
    }
    if problems.is_empty() {
        Ok(read.value)
    } else {
        Err(problems)
    }
}

impl Link {
    pub fn delay_us(&self) -> f64 {
        self.delay_us.unwrap_or_else(|| self.distance_km.unwrap_or(0.0) * fields::DELAY_US_PER_KM)
    }
}

impl Scenario {
    pub fn node_index(&self, id: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.id == id)
    }

    /// Start of the steady-state window (ms).
    pub fn steady_from_ms(&self) -> f64 {
        self.run.steady_from_ms.unwrap_or(self.run.duration_ms * 2.0 / 3.0)
    }
}

/// `nodes[2].params.x` as `nodes[2] (SW1).params.x`: the element's id after its place in `doc`,
/// so that a problem names the id the user typed too.
pub fn path_with_id(path: &str, doc: &Value) -> String {
    let Some((head, rest)) = path.split_once(']') else { return path.to_string() };
    let Some((list, index)) = head.split_once('[') else { return path.to_string() };
    match index.parse::<usize>().ok().and_then(|i| doc[list][i]["id"].as_str()) {
        Some(id) if ["nodes", "links", "connections", "virtual_paths"].contains(&list) => {
            format!("{head}] ({id}){rest}")
        }
        _ => path.to_string(),
    }
}

/// Applies one `--set PATH=VALUE` override to a scenario document. PATH is dot-separated keys;
/// inside a list an element is addressed by its `id` (or its index), and `*` stands for every
/// element (in `nodes`, every switch). VALUE is read as JSON, and as a plain string when it is
/// not JSON.
///
/// Setting a switch's `algorithm` to another one drops the `params` the new algorithm does not
/// have (ERICA+'s `target_delay_us` means nothing to ERICA) and keeps those it shares, and so
/// it does with the switch's recorded `changes` (see [`apply_override_noting`]).
pub fn apply_override(doc: &mut serde_json::Value, assignment: &str) -> Result<(), String> {
    apply_override_noting(doc, assignment).map(|_| ())
}

/// [`apply_override`], saying what it took away beyond what it names: the recorded `changes`
/// of a switch whose new algorithm has no such parameter (kept, they would make the scenario
/// invalid: a change of ERICA's `target_utilization` on a switch that now runs EFCI). One note
/// per switch, naming each change dropped.
pub fn apply_override_noting(doc: &mut serde_json::Value, assignment: &str) -> Result<Vec<String>, String> {
    assign_noting(doc, assignment).map_err(|e| format!("--set {e}"))
}

/// [`apply_override_noting`] as a sweep's parameter applies it: its problems name the
/// assignment without the `--set` flag a sweep block never had.
pub(crate) fn assign_noting(doc: &mut serde_json::Value, assignment: &str) -> Result<Vec<String>, String> {
    let (path, raw) = assignment.split_once('=').ok_or_else(|| format!("'{assignment}': expected PATH=VALUE"))?;
    let value = command_value(raw).map_err(|rule| format!("'{assignment}': {path} {rule}"))?;
    let keys: Vec<&str> = path.split('.').collect();
    if keys.iter().any(|k| k.is_empty()) {
        return Err(format!("'{assignment}': empty key in path '{path}'"));
    }
    if let Some(key) = keys.iter().find(|k| k.contains('[')) {
        return Err(format!("'{assignment}': '{key}' is not a key: {}", indexed_key_hint(key)));
    }
    let before = algorithms_of(doc);
    let both_before = links_with_both_delays(doc);
    set_at(doc, &keys, 0, &value, path)?;
    let mut notes = drop_foreign_changes(doc, &before);
    notes.extend(keep_one_delay(doc, &keys, &both_before));
    Ok(notes)
}

/// What to write for a key in a list's index form (`links[0]`): the element's id, or its index,
/// as a key of its own (`links.L1`, `links.0`).
pub(crate) fn indexed_key_hint(key: &str) -> String {
    match key.split_once('[').map(|(list, rest)| (list, rest.trim_end_matches(']'))) {
        Some((list, index)) if !list.is_empty() && index.parse::<usize>().is_ok() => {
            format!("name a list element by its id or its index as a key of its own ({list}.<id> or {list}.{index})")
        }
        _ => "name a list element by its id or its index as a key of its own (links.L1 or links.0)".to_string(),
    }
}

/// The ids of the links that give both `delay_us` and `distance_km` (a file that does is
/// refused; an override that makes one so is mended by [`keep_one_delay`]).
fn links_with_both_delays(doc: &Value) -> BTreeSet<String> {
    let links = doc.get("links").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    links
        .iter()
        .filter(|l| l.get("delay_us").is_some() && l.get("distance_km").is_some())
        .map(|l| l.get("id").and_then(Value::as_str).unwrap_or_default().to_string())
        .collect()
}

/// A link gives its delay one way. An override that sets `delay_us` on a link that gives
/// `distance_km`, or the other way round, means the link's delay to be what it sets (a delay
/// sweep of a file written in kilometres): the other field is taken away, and said so.
fn keep_one_delay(doc: &mut Value, keys: &[&str], both_before: &BTreeSet<String>) -> Vec<String> {
    let (Some(&"links"), Some(&last)) = (keys.first(), keys.last()) else { return Vec::new() };
    let other = match last {
        "delay_us" => "distance_km",
        "distance_km" => "delay_us",
        _ => return Vec::new(),
    };
    let Some(Value::Array(links)) = doc.get_mut("links") else { return Vec::new() };
    let mut notes = Vec::new();
    for link in links.iter_mut() {
        let id = link.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
        let Value::Object(map) = link else { continue };
        if map.contains_key(last) && !both_before.contains(&id) {
            if let Some(was) = map.remove(other) {
                let unit = if other == "delay_us" { "µs" } else { "km" };
                notes.push(format!(
                    "links.{id}.{other} ({was} {unit}) is taken away: the link's delay is now given by {last}"
                ));
            }
        }
    }
    notes
}

/// Assignments of one command (`abrsim run --set …`, a compare variant), applied in order as
/// [`apply_override_noting`] applies each, remembering which switch parameters each one set, so
/// that a later one that takes such a parameter away is said: `nodes.SW1.params.
/// target_utilization=0.8` and then `nodes.SW1.algorithm=eprca` (EPRCA has no such parameter,
/// and the switch keeps only its own) would otherwise lose the first without a word.
#[derive(Debug, Default)]
pub struct Overrides {
    /// (node id, parameter) → the assignment that last set it.
    set_by: BTreeMap<(String, String), String>,
}

/// A parameter an earlier assignment set and a later one took away (see [`Overrides`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Undone {
    /// The assignment that set it.
    pub earlier: String,
    /// Why it is gone: "SW1 now runs EPRCA, which has no target_utilization".
    pub why: String,
}

impl Overrides {
    /// Applies `assignment`; the notes say what it took away beyond what it names.
    pub fn apply(&mut self, doc: &mut Value, assignment: &str) -> Result<Vec<String>, String> {
        let (mut notes, undone) = self.apply_undoing(doc, assignment)?;
        notes.extend(undone.into_iter().map(|u| format!("{} is undone by {assignment}: {}", u.earlier, u.why)));
        Ok(notes)
    }

    /// [`Overrides::apply`], with the parameters it took away as they are, not yet in words:
    /// the notes of [`apply_override_noting`], and what earlier assignments set that is gone.
    pub fn apply_undoing(&mut self, doc: &mut Value, assignment: &str) -> Result<(Vec<String>, Vec<Undone>), String> {
        let written = params_written(doc, assignment);
        let before = params_of(doc);
        let algorithms = algorithms_of(doc);
        let notes = apply_override_noting(doc, assignment)?;
        let after = params_of(doc);
        let now_runs = algorithms_of(doc);
        let mut undone = Vec::new();
        self.set_by.retain(|(node, param), earlier| {
            if after.contains_key(&(node.clone(), param.clone())) {
                return true;
            }
            let moved = now_runs.get(node).filter(|alg| algorithms.get(node) != Some(*alg));
            let why = match moved.and_then(|alg| crate::algorithms::find(alg.as_deref()?)) {
                Some(spec) => format!("{node} now runs {}, which has no {param}", spec.name),
                None => format!("{node}'s params no longer hold {param}"),
            };
            undone.push(Undone { earlier: earlier.clone(), why });
            false
        });
        for (key, value) in after {
            if before.get(&key) != Some(&value) || written.contains(&key) {
                self.set_by.insert(key, assignment.to_string());
            }
        }
        Ok((notes, undone))
    }
}

/// The switch parameters `assignment` writes, whatever they held: a value typed equal to the
/// file's is as much the assignment's as any other (a later algorithm that takes it away is
/// said either way). Found without reading the path: the assignment is applied to a copy of the
/// nodes whose every parameter holds a marker, and those that no longer do were written.
fn params_written(doc: &Value, assignment: &str) -> BTreeSet<(String, String)> {
    const MARK: &str = "\u{1}not written";
    let Some((path, raw)) = assignment.split_once('=') else { return BTreeSet::new() };
    if path != "nodes" && !path.starts_with("nodes.") {
        return BTreeSet::new(); // nothing else holds a switch's parameters
    }
    let (Some(nodes), Ok(value)) = (doc.get("nodes"), command_value(raw)) else { return BTreeSet::new() };
    let mut probe = serde_json::json!({ "nodes": nodes.clone() });
    for n in probe["nodes"].as_array_mut().into_iter().flatten() {
        if let Some(Value::Object(params)) = n.get_mut("params") {
            params.values_mut().for_each(|v| *v = Value::String(MARK.into()));
        }
    }
    let keys: Vec<&str> = path.split('.').collect();
    if keys.iter().any(|k| k.is_empty()) || set_at(&mut probe, &keys, 0, &value, path).is_err() {
        return BTreeSet::new();
    }
    params_of(&probe).into_iter().filter(|(_, v)| v.as_str() != Some(MARK)).map(|(k, _)| k).collect()
}

/// Every node's parameters: (node id, parameter) → value.
fn params_of(doc: &Value) -> BTreeMap<(String, String), Value> {
    let nodes = doc.get("nodes").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let mut out = BTreeMap::new();
    for n in nodes {
        let (Some(id), Some(Value::Object(params))) = (n.get("id").and_then(Value::as_str), n.get("params")) else {
            continue;
        };
        for (name, v) in params {
            out.insert((id.to_string(), name.clone()), v.clone());
        }
    }
    out
}

/// Each node's `algorithm` field, by id.
fn algorithms_of(doc: &Value) -> BTreeMap<String, Option<String>> {
    let nodes = doc.get("nodes").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    nodes
        .iter()
        .filter_map(|n| {
            let id = n.get("id")?.as_str()?.to_string();
            Some((id, n.get("algorithm").and_then(Value::as_str).map(str::to_string)))
        })
        .collect()
}

/// Drops the recorded changes of parameters that the switches whose algorithm differs from
/// `before` no longer have; says which, one note per switch.
fn drop_foreign_changes(doc: &mut Value, before: &BTreeMap<String, Option<String>>) -> Vec<String> {
    let moved: BTreeMap<String, &'static crate::algorithms::AlgorithmSpec> = algorithms_of(doc)
        .into_iter()
        .filter(|(id, alg)| before.get(id) != Some(alg))
        .filter_map(|(id, alg)| Some((id, crate::algorithms::find(alg.as_deref()?)?)))
        .collect();
    let Some(Value::Array(changes)) = doc.get_mut("changes") else { return Vec::new() };
    let mut dropped: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    changes.retain(|c| {
        let (Some(node), Some(param)) = (c.get("node").and_then(Value::as_str), c.get("param").and_then(Value::as_str))
        else {
            return true;
        };
        let Some((id, spec)) = moved.get_key_value(node) else { return true };
        if spec.params.iter().any(|p| p.name == param) {
            return true;
        }
        let at = c.get("at_ms").map(Value::to_string).unwrap_or_else(|| "?".into());
        dropped.entry(id.as_str()).or_default().push(format!("{param} at {at} ms"));
        false
    });
    dropped
        .into_iter()
        .map(|(node, what)| {
            let name = moved[node].name;
            let list = what.join(", ");
            if what.len() == 1 {
                format!("{node} now runs {name}: its recorded change of {list} is dropped ({name} has no such parameter)")
            } else {
                let n = what.len();
                format!("{node} now runs {name}: its {n} recorded changes of {list} are dropped ({name} has no such parameters)")
            }
        })
        .collect()
}

/// Applies a compare variant's overrides, in order, to a scenario document: each as `--set`
/// does, all of them reported when several are wrong, together with what the scenario they
/// make breaks (a value out of range: the rules a run of it would meet), so that one reading
/// names every problem. A variant must keep the topology (the compare table lines its
/// connections and ports up by id), so overrides that change a node's or a link's id are
/// refused.
///
/// Returns the notes of [`Overrides::apply`] (recorded changes a new algorithm dropped, a
/// parameter set by one override that a later one took away).
pub fn apply_variant(doc: &mut Value, sets: &[String]) -> Result<Vec<String>, Vec<String>> {
    let topology = |doc: &Value| {
        let ids = |list: &str| {
            let mut v: Vec<String> = doc
                .get(list)
                .and_then(Value::as_array)
                .map(|items| {
                    items.iter().filter_map(|x| x.get("id").and_then(Value::as_str).map(str::to_string)).collect()
                })
                .unwrap_or_default();
            v.sort();
            v
        };
        (ids("nodes"), ids("links"))
    };
    let before = topology(doc);
    let mut notes = Vec::new();
    let mut problems = Vec::new();
    let mut overrides = Overrides::default();
    for set in sets {
        match overrides.apply(doc, set) {
            Ok(n) => notes.extend(n),
            Err(p) => problems.push(p),
        }
    }
    if topology(doc) != before {
        problems.push("an override may not change the node or link ids (a variant must keep the topology)".into());
    } else if let Err(broken) = from_value(doc.clone()) {
        problems.extend(broken.into_iter().map(|p| p.named(doc).to_string()));
    }
    if problems.is_empty() {
        Ok(notes)
    } else {
        Err(problems)
    }
}

/// Sets `keys[at..]` below `cur` to `value` (`keys[..at]` were walked to reach it).
fn set_at(cur: &mut Value, keys: &[&str], at: usize, value: &Value, path: &str) -> Result<(), String> {
    let key = keys[at];
    let last = at + 1 == keys.len();
    let walked = keys[..at].join(".");
    match cur {
        Value::Object(map) => {
            if last {
                if key == "algorithm" && walked.starts_with("nodes.") {
                    keep_params_of(map, value);
                }
                map.insert(key.to_string(), value.clone());
                return Ok(());
            }
            // A missing field is made an object for the keys below it; but `*` stands for every
            // element of a list, so a list the file lacks (`changes`, `virtual_paths`) has none to
            // set, and making it an object would only be refused later as "expected a sequence".
            if keys[at + 1] == "*" && !map.contains_key(key) {
                let list = keys[..=at].join(".");
                return Err(format!(
                    "'{path}': the scenario has no '{list}', so '*' (every element of a list) names nothing"
                ));
            }
            let next = map.entry(key.to_string()).or_insert_with(|| Value::Object(Default::default()));
            set_at(next, keys, at + 1, value, path)
        }
        Value::Array(items) if key == "*" => {
            let switches_only = walked == "nodes";
            let mut any = false;
            for item in
                items.iter_mut().filter(|v| !switches_only || v.get("kind").and_then(Value::as_str) == Some("switch"))
            {
                any = true;
                if last {
                    *item = value.clone();
                } else {
                    set_at(item, keys, at + 1, value, path)?;
                }
            }
            if any {
                Ok(())
            } else {
                Err(format!("'{path}': '{walked}' has no {}", if switches_only { "switch" } else { "element" }))
            }
        }
        Value::Array(items) => {
            // An id may itself hold dots (`S.W`): the longest run of keys that is an element's
            // id names it; else a single key that is an index.
            let by_id = (1..=keys.len() - at).rev().find_map(|k| {
                let id = keys[at..at + k].join(".");
                items.iter().position(|v| v.get("id").and_then(|x| x.as_str()) == Some(id.as_str())).map(|pos| (pos, k))
            });
            let (pos, taken) = by_id
                .or_else(|| key.parse::<usize>().ok().filter(|&k| k < items.len()).map(|pos| (pos, 1)))
                .ok_or_else(|| format!("'{path}': no element with id '{key}' in '{walked}'"))?;
            if at + taken == keys.len() {
                items[pos] = value.clone();
                return Ok(());
            }
            set_at(&mut items[pos], keys, at + taken, value, path)
        }
        _ => Err(format!("'{path}': '{walked}' is not an object or a list")),
    }
}

/// A switch given another algorithm keeps only the parameters that algorithm has.
fn keep_params_of(node: &mut serde_json::Map<String, Value>, algorithm: &Value) {
    let Some(spec) = algorithm.as_str().and_then(crate::algorithms::find) else { return };
    if node.get("algorithm") == Some(algorithm) {
        return;
    }
    if let Some(Value::Object(params)) = node.get_mut("params") {
        params.retain(|name, _| spec.params.iter().any(|p| p.name == name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn underflowing_numbers_are_found_outside_strings_and_zero_written_any_way_is_not_one() {
        assert_eq!(underflowing_number(r#"{"a": [1, 5e-400]}"#), Some((10, "5e-400")));
        assert_eq!(underflowing_number("-0.00001e-320"), Some((0, "-0.00001e-320")));
        let long = format!("0.{}1", "0".repeat(400));
        assert_eq!(underflowing_number(&long), Some((0, long.as_str())));
        for fine in ["0", "-0", "0.0e-400", "0e5", "4.9e-324", "1e-300", r#"{"5e-400": "5e-400 \"5e-400"}"#] {
            assert_eq!(underflowing_number(fine), None, "{fine}");
        }
    }

    #[test]
    fn a_number_too_small_is_refused_where_it_stands_in_a_file() {
        let p = parse_json("{\"run\": {\"seed\": 1,\n \"duration_ms\": 5e-400}}").unwrap_err();
        assert_eq!(p.path, "run.duration_ms");
        assert_eq!(p.rule, format!("{NOT_REPRESENTABLE}: its value 5e-400 is {TOO_SMALL} (line 2 column 17)"));
        assert_eq!(command_value("5e-400"), Err(format!("{NOT_REPRESENTABLE}: 5e-400 is {TOO_SMALL}")));
        assert_eq!(command_value("0e-400"), Ok(serde_json::json!(0.0)));
    }
}
