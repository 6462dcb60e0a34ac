//! The scenario: a plain JSON document (topology, connections, per-switch algorithm and
//! parameters, run settings, lesson text). These serde types are the schema; the TypeScript
//! types in `web/src/contract/generated/` are generated from them by ts-rs (`cargo test`).
//!
//! `parse` turns text into a checked [`Scenario`] or into every problem found, each with the
//! JSON path of the field and the rule it breaks.

use crate::algorithms;
use crate::params::check_params;
use crate::source::SOURCE_PARAMS;
use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use ts_rs::TS;

/// Where `cargo test` writes the generated TypeScript types (relative to ts-rs's default
/// `engine/sim/bindings/`, so it works from any working directory).
const EXPORT_TO: &str = "../../../web/src/contract/generated/";

/// The scenario format version this engine reads and writes.
pub const SCENARIO_VERSION: u32 = 1;

/// Propagation delay of light in fibre, per kilometre.
pub const DELAY_US_PER_KM: f64 = 5.0;

/// Default buffer of an ATM switch output port.
pub const DEFAULT_BUFFER_CELLS: u32 = 1000;

/// Default buffer of an Ethernet switch output port.
pub const DEFAULT_BUFFER_BYTES: u64 = 600_000;

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
    /// Lesson text for a class: what to watch, what it shows, questions.
    #[serde(default)]
    #[ts(as = "Option<String>", optional)]
    pub lesson: String,
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
    1500
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
}

fn default_mss() -> u32 {
    1460
}
fn default_window() -> f64 {
    65_535.0
}
fn default_tick() -> f64 {
    100.0
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
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export, export_to = EXPORT_TO)]
pub enum Background {
    /// Constant bit rate.
    Cbr { rate_mbps: f64 },
    /// On at `peak_mbps` and off, for exponentially distributed times of the given means.
    OnOff { peak_mbps: f64, mean_on_ms: f64, mean_off_ms: f64 },
}

/// How frames arrive at an Ethernet source (offered load in % of its link's rate).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export, export_to = EXPORT_TO)]
pub enum Traffic {
    /// In each frame slot of the link, a frame arrives with probability load_percent / 100.
    Bernoulli { load_percent: f64 },
    /// Frames arrive evenly spaced at load_percent of the link rate.
    Constant { load_percent: f64 },
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
    500.0
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
    /// Carry a TCP Reno connection (infinite data) in AAL5 frames over this ABR (or UBR) VC.
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
#[serde(tag = "kind", rename_all = "snake_case")]
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
}

impl Problem {
    fn new(path: impl Into<String>, rule: impl Into<String>) -> Self {
        Problem { path: path.into(), rule: rule.into() }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.rule)
        } else {
            write!(f, "{}: {}", self.path, self.rule)
        }
    }
}

/// Parses and validates scenario text.
pub fn parse(json: &str) -> Result<Scenario, Vec<Problem>> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| vec![Problem::new("", format!("not valid JSON: {e}"))])?;
    from_value(value)
}

/// Validates an already parsed JSON value (used after `--set` overrides).
pub fn from_value(value: serde_json::Value) -> Result<Scenario, Vec<Problem>> {
    if let Some(v) = value.get("version") {
        if v.as_u64() != Some(SCENARIO_VERSION as u64) {
            return Err(vec![Problem::new(
                "version",
                format!("unsupported scenario version {v}; this engine reads version {SCENARIO_VERSION}"),
            )]);
        }
    }
    let scenario: Scenario = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        vec![Problem::new(path, e.into_inner().to_string())]
    })?;
    let problems = validate(&scenario);
    if problems.is_empty() {
        Ok(scenario)
    } else {
        Err(problems)
    }
}

impl Link {
    pub fn delay_us(&self) -> f64 {
        self.delay_us.unwrap_or_else(|| self.distance_km.unwrap_or(0.0) * DELAY_US_PER_KM)
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

fn check_id(id: &str, path: &str, problems: &mut Vec<Problem>) {
    if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c)) {
        problems.push(Problem::new(
            path,
            format!("id '{id}' must be 1 to 64 characters of letters, digits, '_', '-' or '.'"),
        ));
    }
}

fn check_range(value: f64, lo: f64, hi: f64, path: &str, what: &str, problems: &mut Vec<Problem>) {
    if !value.is_finite() || value < lo || value > hi {
        problems.push(Problem::new(path, format!("{what} = {value} must be between {lo} and {hi}")));
    }
}

/// Every semantic rule of the format: ids unique, references resolve, paths follow links,
/// parameters in range.
pub fn validate(s: &Scenario) -> Vec<Problem> {
    let mut p = Vec::new();
    let topo = Topology::new(s);
    // A path through node ids, when every id names a node.
    let route_ids = |c: &Connection| -> Option<Vec<&str>> {
        Some(topo.path(c)?.into_iter().map(|i| s.nodes[i].id.as_str()).collect())
    };
    check_id(&s.id, "id", &mut p);

    let r = &s.run;
    check_range(r.duration_ms, 0.001, 600_000.0, "run.duration_ms", "duration_ms", &mut p);
    check_range(r.sample_interval_us, 1.0, 1_000_000.0, "run.sample_interval_us", "sample_interval_us", &mut p);
    if r.duration_ms.is_finite() && r.sample_interval_us.is_finite() && r.sample_interval_us > 0.0 {
        let samples = r.duration_ms * 1000.0 / r.sample_interval_us;
        if samples > 2_000_000.0 {
            p.push(Problem::new(
                "run.sample_interval_us",
                format!(
                    "the run would take {samples:.0} samples; at most 2,000,000 are kept (raise sample_interval_us)"
                ),
            ));
        }
    }
    if let Some(t) = r.steady_from_ms {
        check_range(t, 0.0, r.duration_ms, "run.steady_from_ms", "steady_from_ms", &mut p);
    }
    if let Some(t) = r.tolerance {
        check_range(t, 0.0, 1.0, "run.tolerance", "tolerance", &mut p);
    }
    let eth = s.ethernet.is_some();
    let source_params = s.source_params();
    for (k, rule) in check_params(source_params, &s.defaults.source) {
        p.push(Problem::new(format!("defaults.source.{k}"), rule));
    }
    if let Some(e) = &s.ethernet {
        check_range(e.frame_bytes as f64, 64.0, 9216.0, "ethernet.frame_bytes", "frame_bytes", &mut p);
    }

    let mut ids = BTreeSet::new();
    for (i, n) in s.nodes.iter().enumerate() {
        let path = format!("nodes[{i}]");
        check_id(&n.id, &format!("{path}.id"), &mut p);
        if !ids.insert(n.id.as_str()) {
            p.push(Problem::new(format!("{path}.id"), format!("node id '{}' is used twice", n.id)));
        }
        match n.kind {
            NodeKind::Switch => {
                let alg_id = n.algorithm.as_deref().unwrap_or(algorithms::default_for(eth));
                match algorithms::find(alg_id) {
                    None => p.push(Problem::new(
                        format!("{path}.algorithm"),
                        format!(
                            "unknown algorithm '{alg_id}'; known algorithms: {}",
                            algorithms::REGISTRY.iter().map(|a| a.id).collect::<Vec<_>>().join(", ")
                        ),
                    )),
                    Some(spec) => {
                        if !spec.network.allows(eth) {
                            p.push(Problem::new(
                                format!("{path}.algorithm"),
                                format!(
                                    "{} runs on {} networks only; this is an {} network",
                                    spec.name,
                                    if eth { "ATM" } else { "Ethernet" },
                                    if eth { "Ethernet" } else { "ATM" }
                                ),
                            ));
                        }
                        for (k, rule) in check_params(spec.params, &n.params) {
                            p.push(Problem::new(format!("{path}.params.{k}"), rule));
                        }
                    }
                }
                if let Some(b) = n.buffer_cells {
                    if eth {
                        p.push(Problem::new(
                            format!("{path}.buffer_cells"),
                            "an Ethernet switch's buffer is buffer_bytes",
                        ));
                    }
                    check_switch_setting(&SWITCH_SETTINGS[0], b, &format!("{path}.buffer_cells"), &mut p);
                }
                if let Some(t) = n.epd_threshold_cells {
                    check_range(
                        t,
                        0.0,
                        10_000_000.0,
                        &format!("{path}.epd_threshold_cells"),
                        "epd_threshold_cells",
                        &mut p,
                    );
                }
                if eth && n.vsvd == Some(true) {
                    p.push(Problem::new(format!("{path}.vsvd"), "VS/VD applies to ATM switches"));
                }
                if eth && n.discard.is_some() {
                    p.push(Problem::new(format!("{path}.discard"), "frame discard policies apply to ATM switches"));
                }
                if let Some(b) = n.buffer_bytes {
                    if !eth {
                        p.push(Problem::new(format!("{path}.buffer_bytes"), "an ATM switch's buffer is buffer_cells"));
                    }
                    check_switch_setting(&SWITCH_SETTINGS[1], b, &format!("{path}.buffer_bytes"), &mut p);
                }
            }
            _ => {
                if n.algorithm.is_some()
                    || !n.params.is_empty()
                    || n.buffer_cells.is_some()
                    || n.buffer_bytes.is_some()
                    || n.scheduler.is_some()
                    || n.discard.is_some()
                    || n.vsvd.is_some()
                {
                    p.push(Problem::new(
                        path.clone(),
                        format!(
                            "node '{}' is a {:?}: only switches take algorithm, params, scheduler and buffer_cells",
                            n.id, n.kind
                        )
                        .to_lowercase(),
                    ));
                }
            }
        }
    }

    let mut link_ids = BTreeSet::new();
    let mut pairs = BTreeSet::new();
    for (i, l) in s.links.iter().enumerate() {
        let path = format!("links[{i}]");
        check_id(&l.id, &format!("{path}.id"), &mut p);
        if !link_ids.insert(l.id.as_str()) {
            p.push(Problem::new(format!("{path}.id"), format!("link id '{}' is used twice", l.id)));
        }
        for (end, field) in [(&l.from, "from"), (&l.to, "to")] {
            if topo.node(end).is_none() {
                p.push(Problem::new(format!("{path}.{field}"), format!("no node has id '{end}'")));
            }
        }
        if l.from == l.to {
            p.push(Problem::new(format!("{path}.to"), "a link must join two different nodes"));
        }
        let key = if l.from < l.to { (l.from.as_str(), l.to.as_str()) } else { (l.to.as_str(), l.from.as_str()) };
        if !pairs.insert(key) {
            p.push(Problem::new(
                path.clone(),
                format!("nodes '{}' and '{}' are already joined by another link; one link per pair", l.from, l.to),
            ));
        }
        check_range(l.rate_mbps, 0.001, 100_000.0, &format!("{path}.rate_mbps"), "rate_mbps", &mut p);
        match (l.delay_us, l.distance_km) {
            (Some(_), Some(_)) => p.push(Problem::new(path.clone(), "give either delay_us or distance_km, not both")),
            (Some(d), None) => check_range(d, 0.0, 1_000_000.0, &format!("{path}.delay_us"), "delay_us", &mut p),
            (None, Some(d)) => check_range(d, 0.0, 200_000.0, &format!("{path}.distance_km"), "distance_km", &mut p),
            (None, None) => p.push(Problem::new(path.clone(), "a link needs delay_us or distance_km")),
        }
    }

    let mut conn_ids = BTreeSet::new();
    for (i, c) in s.connections.iter().enumerate() {
        let path = format!("connections[{i}]");
        check_id(&c.id, &format!("{path}.id"), &mut p);
        if !conn_ids.insert(c.id.as_str()) {
            p.push(Problem::new(format!("{path}.id"), format!("connection id '{}' is used twice", c.id)));
        }
        let kind_of = |id: &str| topo.node(id).map(|i| s.nodes[i].kind);
        match kind_of(&c.from) {
            Some(NodeKind::Source) => {}
            Some(_) => p.push(Problem::new(format!("{path}.from"), format!("'{}' is not a source node", c.from))),
            None => p.push(Problem::new(format!("{path}.from"), format!("no node has id '{}'", c.from))),
        }
        match kind_of(&c.to) {
            Some(NodeKind::Destination) => {}
            Some(_) => p.push(Problem::new(format!("{path}.to"), format!("'{}' is not a destination node", c.to))),
            None => p.push(Problem::new(format!("{path}.to"), format!("no node has id '{}'", c.to))),
        }
        check_range(c.start_ms, 0.0, 600_000.0, &format!("{path}.start_ms"), "start_ms", &mut p);
        if let Some(stop) = c.stop_ms {
            if stop.partial_cmp(&c.start_ms) != Some(std::cmp::Ordering::Greater) {
                p.push(Problem::new(
                    format!("{path}.stop_ms"),
                    format!("stop_ms = {stop} must be after start_ms = {}", c.start_ms),
                ));
            }
        }
        for (k, rule) in check_params(source_params, &c.params) {
            p.push(Problem::new(format!("{path}.params.{k}"), rule));
        }
        check_behavior(&c.behavior, &format!("{path}.behavior"), &mut p);
        if let Some(t) = &c.tcp {
            let tpath = format!("{path}.tcp");
            if eth || c.background.is_some() {
                p.push(Problem::new(tpath.clone(), "TCP runs over an ATM ABR or UBR connection"));
            }
            if !c.behavior.is_greedy() || c.volume_mb.is_some() {
                p.push(Problem::new(
                    path.clone(),
                    "a TCP connection takes no behavior or volume_mb (TCP decides what to send)",
                ));
            }
            check_range(t.mss_bytes as f64, 64.0, 65_495.0, &format!("{tpath}.mss_bytes"), "mss_bytes", &mut p);
            check_range(
                t.window_bytes,
                t.mss_bytes as f64,
                1.0737e9,
                &format!("{tpath}.window_bytes"),
                "window_bytes",
                &mut p,
            );
            check_range(
                t.timer_granularity_ms,
                1.0,
                10_000.0,
                &format!("{tpath}.timer_granularity_ms"),
                "timer_granularity_ms",
                &mut p,
            );
        }
        if let Some(b) = &c.background {
            let bpath = format!("{path}.background");
            if eth {
                p.push(Problem::new(bpath.clone(), "background (CBR/VBR) connections are ATM only"));
            }
            if !c.behavior.is_greedy() || c.volume_mb.is_some() {
                p.push(Problem::new(path.clone(), "a background connection takes no behavior or volume_mb"));
            }
            match *b {
                Background::Cbr { rate_mbps } => {
                    check_range(rate_mbps, 0.001, 100_000.0, &format!("{bpath}.rate_mbps"), "rate_mbps", &mut p)
                }
                Background::OnOff { peak_mbps, mean_on_ms, mean_off_ms } => {
                    check_range(peak_mbps, 0.001, 100_000.0, &format!("{bpath}.peak_mbps"), "peak_mbps", &mut p);
                    check_range(mean_on_ms, 0.001, 600_000.0, &format!("{bpath}.mean_on_ms"), "mean_on_ms", &mut p);
                    check_range(mean_off_ms, 0.001, 600_000.0, &format!("{bpath}.mean_off_ms"), "mean_off_ms", &mut p);
                }
            }
        }
        if eth && (!c.behavior.is_greedy() || c.volume_mb.is_some()) {
            p.push(Problem::new(path.clone(), "behavior and volume_mb apply to ATM sources; use traffic on Ethernet"));
        }
        match (&c.traffic, eth) {
            (Some(_), false) => p.push(Problem::new(
                format!("{path}.traffic"),
                "traffic applies to Ethernet sources (add an ethernet block)",
            )),
            (Some(t), true) => check_range(
                t.load() * 100.0,
                0.001,
                100.0,
                &format!("{path}.traffic.load_percent"),
                "load_percent",
                &mut p,
            ),
            _ => {}
        }
        if let Some(v) = c.volume_mb {
            check_range(v, 0.000_001, 1_000_000.0, &format!("{path}.volume_mb"), "volume_mb", &mut p);
        }
        if let Some(nodes) = &c.path {
            check_path(s, &topo, c, nodes, &format!("{path}.path"), &mut p);
        } else if kind_of(&c.from) == Some(NodeKind::Source)
            && kind_of(&c.to) == Some(NodeKind::Destination)
            && topo.path(c).is_none()
        {
            p.push(Problem::new(
                path.clone(),
                format!("no path of links through switches leads from '{}' to '{}'", c.from, c.to),
            ));
        }
        // Rates that depend on each other (ATM).
        if eth {
            continue;
        }
        let get = |name: &str| c.params.get(name).or_else(|| s.defaults.source.get(name)).copied();
        let pcr = get("pcr_mbps").or_else(|| {
            let route = topo.path(c)?;
            topo.link_between(route[0], *route.get(1)?).map(|l| s.links[l].rate_mbps)
        });
        if let Some(pcr) = pcr {
            for name in ["mcr_mbps", "icr_mbps"] {
                if let Some(v) = get(name) {
                    if v > pcr {
                        p.push(Problem::new(
                            format!("{path}.params.{name}"),
                            format!("{name} = {v} must not exceed pcr_mbps = {pcr}"),
                        ));
                    }
                }
            }
        }
    }
    let conn_index: BTreeMap<&str, usize> =
        s.connections.iter().enumerate().rev().map(|(i, c)| (c.id.as_str(), i)).collect();
    let mut in_vp = BTreeSet::new();
    for (i, vp) in s.virtual_paths.iter().enumerate() {
        let path = format!("virtual_paths[{i}]");
        check_id(&vp.id, &format!("{path}.id"), &mut p);
        if eth {
            p.push(Problem::new(path.clone(), "virtual paths are ATM only"));
        }
        if vp.connections.is_empty() {
            p.push(Problem::new(format!("{path}.connections"), "a virtual path needs at least one connection"));
        }
        if let Some(b) = vp.buffer_cells {
            check_switch_setting(&SWITCH_SETTINGS[0], b, &format!("{path}.buffer_cells"), &mut p);
        }
        let mut stretch: Option<Vec<&str>> = None;
        for (k, id) in vp.connections.iter().enumerate() {
            let cpath = format!("{path}.connections[{k}]");
            let Some(c) = conn_index.get(id.as_str()).map(|&i| &s.connections[i]) else {
                p.push(Problem::new(cpath, format!("no connection has id '{id}'")));
                continue;
            };
            if !in_vp.insert(id.as_str()) {
                p.push(Problem::new(cpath.clone(), format!("connection '{id}' is in two virtual paths")));
            }
            if c.background.is_some() {
                p.push(Problem::new(cpath.clone(), "background connections cannot join a virtual path"));
            }
            let Some(route) = route_ids(c) else { continue };
            let a = route.iter().position(|n| *n == vp.from);
            let b = route.iter().position(|n| *n == vp.to);
            match (a, b) {
                (Some(a), Some(b)) if 0 < a && a < b && b + 1 < route.len() => {
                    let part = route[a..=b].to_vec();
                    match &stretch {
                        None => stretch = Some(part),
                        Some(first) if *first != part => p.push(Problem::new(
                            cpath,
                            format!(
                                "'{id}' does not follow the same switches from '{}' to '{}' as the others",
                                vp.from, vp.to
                            ),
                        )),
                        _ => {}
                    }
                }
                _ => p.push(Problem::new(
                    cpath,
                    format!("the path of '{id}' must cross switch '{}' and then switch '{}'", vp.from, vp.to),
                )),
            }
        }
    }
    for (i, ch) in s.changes.iter().enumerate() {
        let path = format!("changes[{i}]");
        if let Some(problem) = check_change(s, ch) {
            p.push(Problem::new(format!("{path}.{}", problem.path), problem.rule));
        }
    }
    p
}

/// Checks one live parameter change against the scenario; the problem's path is relative to
/// the change (`at_ms`, `node`, `param` or `value`).
pub fn check_change(s: &Scenario, ch: &ParamChange) -> Option<Problem> {
    if !(0.0..=s.run.duration_ms).contains(&ch.at_ms) {
        return Some(Problem::new(
            "at_ms",
            format!("at_ms = {} must be within the run (0 to {} ms)", ch.at_ms, s.run.duration_ms),
        ));
    }
    let Some(node) = s.node_index(&ch.node).map(|i| &s.nodes[i]) else {
        return Some(Problem::new("node", format!("no node has id '{}'", ch.node)));
    };
    if node.kind != NodeKind::Switch {
        return Some(Problem::new("node", format!("'{}' is not a switch", ch.node)));
    }
    let alg_id = node.algorithm.as_deref().unwrap_or(algorithms::default_for(s.ethernet.is_some()));
    let spec = algorithms::find(alg_id)?;
    match spec.params.iter().find(|p| p.name == ch.param) {
        None => Some(Problem::new("param", format!("'{}' is not a parameter of {}", ch.param, spec.name))),
        Some(ps) => ps.check(ch.value).err().map(|rule| Problem::new("value", rule)),
    }
}

/// Switch settings outside the algorithm's parameters, declared like them for the UI.
pub const SWITCH_SETTINGS: [crate::params::ParamSpec; 2] = [
    crate::params::ParamSpec::int(
        "buffer_cells",
        "cells",
        1000.0,
        1.0,
        10_000_000.0,
        "ATM: buffer of each output port; cells arriving at a full buffer are dropped",
    ),
    crate::params::ParamSpec::int(
        "buffer_bytes",
        "bytes",
        600_000.0,
        64.0,
        1e10,
        "Ethernet: buffer of each output port; frames arriving at a full buffer are dropped",
    ),
];

fn check_switch_setting(spec: &crate::params::ParamSpec, value: f64, path: &str, p: &mut Vec<Problem>) {
    if let Err(rule) = spec.check(value) {
        p.push(Problem::new(path, rule));
    }
}

fn check_behavior(b: &Behavior, path: &str, p: &mut Vec<Problem>) {
    match *b {
        Behavior::Greedy => {}
        Behavior::Dishonest { from_ms, factor, greedy_ms, normal_ms } => {
            check_range(from_ms, 0.0, 600_000.0, &format!("{path}.from_ms"), "from_ms", p);
            check_range(factor, 1.0, 100.0, &format!("{path}.factor"), "factor", p);
            check_range(greedy_ms, 0.001, 600_000.0, &format!("{path}.greedy_ms"), "greedy_ms", p);
            check_range(normal_ms, 0.0, 600_000.0, &format!("{path}.normal_ms"), "normal_ms", p);
        }
        Behavior::FixedRate { from_ms, rate_mbps } => {
            check_range(from_ms, 0.0, 600_000.0, &format!("{path}.from_ms"), "from_ms", p);
            check_range(rate_mbps, 0.001, 100_000.0, &format!("{path}.rate_mbps"), "rate_mbps", p);
        }
        Behavior::OnOff { on_ms, off_ms } => {
            check_range(on_ms, 0.001, 600_000.0, &format!("{path}.on_ms"), "on_ms", p);
            check_range(off_ms, 0.0, 600_000.0, &format!("{path}.off_ms"), "off_ms", p);
        }
    }
}

fn check_path(s: &Scenario, topo: &Topology, c: &Connection, nodes: &[String], path: &str, p: &mut Vec<Problem>) {
    if nodes.len() < 2 || nodes.first() != Some(&c.from) || nodes.last() != Some(&c.to) {
        p.push(Problem::new(path, format!("a path must start at '{}' and end at '{}'", c.from, c.to)));
        return;
    }
    let mut seen = BTreeSet::new();
    for (k, id) in nodes.iter().enumerate() {
        match topo.node(id) {
            None => p.push(Problem::new(format!("{path}[{k}]"), format!("no node has id '{id}'"))),
            Some(i) => {
                if k > 0 && k + 1 < nodes.len() && s.nodes[i].kind != NodeKind::Switch {
                    p.push(Problem::new(
                        format!("{path}[{k}]"),
                        format!("'{id}' is not a switch; only switches forward cells"),
                    ));
                }
            }
        }
        if !seen.insert(id.as_str()) {
            p.push(Problem::new(format!("{path}[{k}]"), format!("the path visits '{id}' twice")));
        }
        let joined = |a: &str, b: &str| match (topo.node(a), topo.node(b)) {
            (Some(a), Some(b)) => topo.link_between(a, b).is_some(),
            _ => false,
        };
        if k > 0 && !joined(&nodes[k - 1], id) {
            p.push(Problem::new(format!("{path}[{k}]"), format!("no link joins '{}' and '{id}'", nodes[k - 1])));
        }
    }
}

/// Applies one `--set PATH=VALUE` override to a scenario document. PATH is dot-separated keys;
/// inside a list an element is addressed by its `id` (or its index). VALUE is read as JSON, and
/// as a plain string when it is not JSON.
pub fn apply_override(doc: &mut serde_json::Value, assignment: &str) -> Result<(), String> {
    let (path, raw) = assignment.split_once('=').ok_or_else(|| format!("--set '{assignment}': expected PATH=VALUE"))?;
    let value: serde_json::Value =
        serde_json::from_str(raw).unwrap_or_else(|_| serde_json::Value::String(raw.to_string()));
    let keys: Vec<&str> = path.split('.').collect();
    if keys.iter().any(|k| k.is_empty()) {
        return Err(format!("--set '{assignment}': empty key in path '{path}'"));
    }
    let mut cur = doc;
    for (i, key) in keys.iter().enumerate() {
        let last = i + 1 == keys.len();
        let walked = keys[..i].join(".");
        cur = match cur {
            serde_json::Value::Object(map) => {
                if last {
                    map.insert(key.to_string(), value);
                    return Ok(());
                }
                map.entry(key.to_string()).or_insert_with(|| serde_json::Value::Object(Default::default()))
            }
            serde_json::Value::Array(items) => {
                let pos = items
                    .iter()
                    .position(|v| v.get("id").and_then(|x| x.as_str()) == Some(*key))
                    .or_else(|| key.parse::<usize>().ok().filter(|&k| k < items.len()))
                    .ok_or_else(|| format!("--set '{path}': no element with id '{key}' in '{walked}'"))?;
                if last {
                    items[pos] = value;
                    return Ok(());
                }
                &mut items[pos]
            }
            _ => return Err(format!("--set '{path}': '{walked}' is not an object or a list")),
        };
    }
    Ok(())
}
