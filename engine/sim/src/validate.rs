//! Every semantic rule of the scenario format, one pass per section (run, nodes, links,
//! connections, virtual paths, changes): ids unique, references resolve, paths follow links,
//! every number within the range its declaration in [`crate::fields`] or the parameter
//! catalogue gives. Each problem names the JSON path of the field and the rule it breaks.
//!
//! Unknown fields are refused earlier, by serde (`deny_unknown_fields` on every struct and
//! tagged enum of the schema).

use crate::algorithms;
use crate::fields::{self, kind_fields, FIELDS};
use crate::params::{self, check_params, ParamSpec};
use crate::scenario::{About, Background, Behavior, Connection, NodeKind, ParamChange, Problem, Scenario, Traffic};
use crate::time;
use crate::topology::Topology;
use std::collections::{BTreeMap, BTreeSet};

/// Every problem of an already deserialised scenario (empty when it is valid).
pub fn validate(s: &Scenario) -> Vec<Problem> {
    let mut v = Validator { s, topo: Topology::new(s), eth: s.ethernet.is_some(), problems: Vec::new() };
    v.run();
    v.nodes();
    v.links();
    v.connections();
    v.minimum_rates();
    v.virtual_paths();
    v.changes();
    v.references();
    v.problems.extend(crate::lesson::problems(s));
    v.problems
}

/// How many samples fall in the steady-state window from `from_ms` to the run's end: the
/// sampler takes one at every multiple of the interval up to the end (`probes::Sampler`), and
/// the window takes those at `from_ms` or later (`window::SteadyWindow::add`).
fn samples_in_window(duration_ms: f64, interval_us: f64, from_ms: f64) -> u64 {
    let interval = time::from_us(interval_us).max(1);
    let last = time::from_ms(duration_ms) / interval;
    let in_window = |k: u64| time::to_ms(k * interval) >= from_ms - 1e-9;
    // The first sample in the window, found from an estimate (float rounding may put it one off).
    let mut k = ((from_ms * 1e9 / interval as f64).floor().max(0.0) as u64).min(last + 1);
    while k > 0 && in_window(k - 1) {
        k -= 1;
    }
    while k <= last && !in_window(k) {
        k += 1;
    }
    last + 1 - k
}

/// Why a valid scenario's summary will have no means (rates, shares, queues, utilisation): its
/// steady-state window holds fewer than the two samples they need. Not a problem — the run
/// itself is fine to watch — but worth saying wherever the summary is shown.
pub fn steady_window_note(s: &Scenario) -> Option<String> {
    let r = &s.run;
    let from_ms = s.steady_from_ms();
    let n = samples_in_window(r.duration_ms, r.sample_interval_us, from_ms);
    if n >= 2 {
        return None;
    }
    let why = if r.steady_from_ms.is_some() { "run.steady_from_ms" } else { "two thirds of the run" };
    Some(format!(
        "no means: the steady-state window, from {} ms ({why}) to the run's end at {} ms, holds {n} sample{} \
         (run.sample_interval_us = {}), and the means need 2; a sample interval of at most {} µs gives them \
         (or start the window earlier with run.steady_from_ms)",
        rounded(from_ms),
        rounded(r.duration_ms),
        if n == 1 { "" } else { "s" },
        params::number(r.sample_interval_us),
        rounded((r.duration_ms - from_ms) * 1000.0 / 2.0),
    ))
}

/// Switch algorithms whose sources climb by RIF·PCR on every unmarked backward RM cell.
const BINARY_SCHEMES: [&str; 2] = ["efci", "eprca"];

/// Why binary feedback (EFCI, EPRCA) will swing far above the shares: the ABR sources use a
/// RIF far above TM 4.0's 1/16 (the ER studies' RIF = 1, the format's default, sends a source
/// straight to PCR on every unmarked RM cell). One of [`notes`].
pub fn binary_rif_note(s: &Scenario) -> Option<String> {
    if s.ethernet.is_some() {
        return None;
    }
    let default = crate::algorithms::default_for(false);
    let binary: Vec<&str> = s
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Switch)
        .filter_map(|n| {
            let alg = n.algorithm.as_deref().unwrap_or(default);
            BINARY_SCHEMES.contains(&alg).then_some(n.id.as_str())
        })
        .collect();
    if binary.is_empty() {
        return None;
    }
    let rif = s
        .connections
        .iter()
        .filter(|c| {
            c.background.is_none() && !c.tcp.as_ref().is_some_and(|t| t.service == crate::scenario::Service::Ubr)
        })
        .map(|c| crate::params::Params::new(&crate::source::SOURCE_PARAMS, &[&s.defaults.source, &c.params]).get("rif"))
        .fold(None, |m: Option<f64>, r| Some(m.map_or(r, |m| m.max(r))))?;
    if rif <= 1.0 / 16.0 {
        return None;
    }
    Some(format!(
        "binary feedback at {} with RIF = {}: every unmarked RM cell raises a source's rate by RIF × PCR, so the \
         rates swing far above their shares; TM 4.0's default is 1/16 (defaults.source.rif = 0.0625 runs the \
         scheme as TM 4.0 defines it: abrsim's --set, or Every source's parameters in the lab's network editor)",
        binary.join(", "),
        params::number(rif)
    ))
}

/// Where a valid scenario sets FECN's `tag_interval_us` to no effect: on a flow whose route
/// crosses no FECN switch, or in `defaults.source` when no flow's route does. Such a flow sends
/// no rate-discovery tags (the network builds it by [`crate::network::route_reads_tags`]), so the
/// value changes nothing. Not a problem — the file loads and runs as it is — but worth saying,
/// with the field's path and the rule, wherever the scenario is checked or its summary shown.
pub fn tag_interval_notes(s: &Scenario) -> Vec<String> {
    const FIELD: &str = "tag_interval_us";
    const RULE: &str = "a flow sends FECN's rate-discovery tags only when its route crosses a switch running FECN, \
                        which reads them";
    if s.ethernet.is_none() {
        return Vec::new();
    }
    let topo = Topology::new(s);
    let mut any_reads = false;
    let mut flows = Vec::new();
    for (i, c) in s.connections.iter().enumerate() {
        let Some(route) = topo.path(c) else { continue };
        if crate::network::route_reads_tags(s, &route) {
            any_reads = true;
            continue;
        }
        if c.params.contains_key(FIELD) {
            let default = algorithms::default_for(true);
            let switches: Vec<String> = route
                .iter()
                .map(|&n| &s.nodes[n])
                .filter(|n| n.kind == NodeKind::Switch)
                .map(|n| {
                    let alg = n.algorithm.as_deref().unwrap_or(default);
                    format!("{} runs {}", n.id, algorithms::find(alg).map_or(alg, |a| a.name))
                })
                .collect();
            let nodes: Vec<&str> = route.iter().map(|&n| s.nodes[n].id.as_str()).collect();
            flows.push(format!(
                "connections[{i}] ({}).params.{FIELD}: changes nothing, as {} sends no tags: {RULE}, and its route \
                 ({}) crosses none{}",
                c.id,
                c.id,
                nodes.join(" → "),
                if switches.is_empty() { String::new() } else { format!(" ({})", switches.join(", ")) },
            ));
        }
    }
    let defaults = (!any_reads && s.defaults.source.contains_key(FIELD)).then(|| {
        format!(
            "defaults.source.{FIELD}: changes nothing, as no flow sends tags: {RULE}, and no route here crosses one"
        )
    });
    defaults.into_iter().chain(flows).collect()
}

/// What the reader of a valid scenario should know before running it (binary feedback with a
/// large RIF, a `tag_interval_us` that changes nothing): `abrsim validate` says them, the lab
/// as soon as the scenario is loaded (the wasm `Simulation::notes`), and every run's summary
/// carries them in its `notes`.
pub fn notes(s: &Scenario) -> Vec<String> {
    no_connection_note(s)
        .into_iter()
        .chain(binary_rif_note(s))
        .chain(tag_interval_notes(s))
        .chain(unmeasured_port_notes(s))
        .collect()
}

/// A figure about a port's queue or drops is measured on the ports some connection's data
/// leaves by (the summary's `ports`); one about a port no connection sends through is valid
/// (the port exists) but has no value of ours: said, rather than left as an empty cell.
fn unmeasured_port_notes(s: &Scenario) -> Vec<String> {
    use crate::scenario::RefQuantity::{DroppedCells, MaxBufferCells, MaxQueueCells, MeanQueueCells};
    let topo = Topology::new(s);
    let used: BTreeSet<(usize, usize)> = s
        .connections
        .iter()
        .filter_map(|c| topo.path(c))
        .flat_map(|p| p.windows(2).map(|w| (w[0], w[1])).collect::<Vec<_>>())
        .collect();
    s.reference
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.quantity, MeanQueueCells | MaxQueueCells | MaxBufferCells | DroppedCells))
        .filter_map(|(i, r)| {
            let About::Port(id) = &r.about else { return None };
            let (from, to) = id.split_once("->")?;
            let key = (topo.node(from)?, topo.node(to)?);
            (!used.contains(&key)).then(|| {
                format!(
                    "reference[{i}].about.port: no connection's data leaves {from} towards {to}, so the run \
                     measures no queue at port {id} and this figure gets no value of ours (a port is measured \
                     when some connection's path goes from {from} to {to})"
                )
            })
        })
        .collect()
}

/// A network without connections is valid (the lab's empty canvas is one while it is drawn),
/// but its run sends nothing and measures nothing: worth saying before it runs for nothing.
fn no_connection_note(s: &Scenario) -> Option<String> {
    s.connections.is_empty().then(|| {
        "no connections: nothing is sent, so the run has no rates, queues or shares to show; add one \
         (an entry of connections in the file, or Connection in the lab's network editor)"
            .to_string()
    })
}

/// The rule an algorithm id breaks when no algorithm has it, naming those that exist.
fn unknown_algorithm(id: &str) -> String {
    format!(
        "unknown algorithm '{id}'; known algorithms: {}",
        algorithms::REGISTRY.iter().map(|a| a.id).collect::<Vec<_>>().join(", ")
    )
}

/// A time or interval as a message shows it: to three decimals at most.
fn rounded(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Every problem of one parameter change against the scenario; each problem's path is relative
/// to the change (`at_ms`, `node`, `param` or `value`). The parameter is judged only against a
/// switch that exists, and the value only against a parameter its algorithm has.
pub fn check_change(s: &Scenario, ch: &ParamChange) -> Vec<Problem> {
    let mut problems = Vec::new();
    if !(0.0..=s.run.duration_ms).contains(&ch.at_ms) {
        problems.push(Problem::new(
            "at_ms",
            format!("at_ms = {} must be within the run (0 to {} ms)", ch.at_ms, s.run.duration_ms),
        ));
    }
    let node = match s.node_index(&ch.node).map(|i| &s.nodes[i]) {
        None => Err(format!("no node has id '{}'", ch.node)),
        Some(n) if n.kind != NodeKind::Switch => Err(format!("'{}' is not a switch", ch.node)),
        Some(n) => Ok(n),
    };
    let spec = match node {
        Err(rule) => {
            problems.push(Problem::new("node", rule));
            None
        }
        // An unknown algorithm is the node's problem (`nodes[i].algorithm`), said there.
        Ok(n) => algorithms::find(n.algorithm.as_deref().unwrap_or(algorithms::default_for(s.ethernet.is_some()))),
    };
    if let Some(spec) = spec {
        match spec.params.iter().find(|p| p.name == ch.param) {
            None => problems.push(Problem::new("param", format!("'{}' is not a parameter of {}", ch.param, spec.name))),
            Some(ps) => problems.extend(ps.check(ch.value).err().map(|rule| Problem::new("value", rule))),
        }
    }
    problems
}

struct Validator<'a> {
    s: &'a Scenario,
    topo: Topology<'a>,
    eth: bool,
    problems: Vec<Problem>,
}

impl<'a> Validator<'a> {
    fn push(&mut self, path: impl Into<String>, rule: impl Into<String>) {
        self.problems.push(Problem::new(path, rule));
    }

    /// `value` against its declaration; the problem's path is `{at}.{name}` (or the name alone).
    fn field(&mut self, spec: &ParamSpec, value: f64, at: &str) {
        if let Err(rule) = spec.check(value) {
            let path = if at.is_empty() { spec.name.to_string() } else { format!("{at}.{}", spec.name) };
            self.push(path, rule);
        }
    }

    fn params(&mut self, specs: &[ParamSpec], values: &BTreeMap<String, f64>, at: &str) {
        for (k, rule) in check_params(specs, values) {
            self.push(format!("{at}.{k}"), rule);
        }
    }

    /// A well-formed id, not used before in `seen` (one set per kind of element).
    fn id(&mut self, id: &'a str, at: &str, what: &str, seen: &mut BTreeSet<&'a str>) {
        let path = format!("{at}.id");
        if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c)) {
            self.push(
                path.clone(),
                format!("id '{id}' must be 1 to 64 characters of letters, digits, '_', '-' or '.'"),
            );
        }
        if !seen.insert(id) {
            self.push(path, format!("{what} id '{id}' is used twice"));
        }
    }

    fn run(&mut self) {
        let s = self.s;
        if s.id.is_empty() || s.id.len() > 64 || !s.id.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c)) {
            self.push("id", format!("id '{}' must be 1 to 64 characters of letters, digits, '_', '-' or '.'", s.id));
        }
        let r = &s.run;
        self.field(&fields::DURATION_MS, r.duration_ms, "run");
        self.field(&fields::SAMPLE_INTERVAL_US, r.sample_interval_us, "run");
        if r.duration_ms.is_finite() && r.sample_interval_us.is_finite() && r.sample_interval_us > 0.0 {
            let samples = r.duration_ms * 1000.0 / r.sample_interval_us;
            if samples > fields::MAX_SAMPLES {
                self.push(
                    "run.sample_interval_us",
                    format!(
                        "the run would take {samples:.0} samples; at most {:.0} are taken in one run (raise sample_interval_us)",
                        fields::MAX_SAMPLES
                    ),
                );
            }
        }
        if let Some(t) = r.steady_from_ms {
            self.field(&fields::STEADY_FROM_MS, t, "run");
            if t > r.duration_ms {
                self.push(
                    "run.steady_from_ms",
                    format!("steady_from_ms = {t} must not be after the run's end (duration_ms = {})", r.duration_ms),
                );
            }
        }
        if let Some(t) = r.tolerance {
            self.field(&fields::TOLERANCE, t, "run");
        }
        self.params(s.source_params(), &s.defaults.source, "defaults.source");
        if let Some(e) = &s.ethernet {
            self.field(&fields::FRAME_BYTES, e.frame_bytes as f64, "ethernet");
        }
    }

    fn nodes(&mut self) {
        let (s, eth) = (self.s, self.eth);
        let mut ids = BTreeSet::new();
        for (i, n) in s.nodes.iter().enumerate() {
            let path = format!("nodes[{i}]");
            self.id(&n.id, &path, "node", &mut ids);
            if n.kind != NodeKind::Switch {
                let switch_only = n.algorithm.is_some()
                    || !n.params.is_empty()
                    || n.buffer_cells.is_some()
                    || n.buffer_bytes.is_some()
                    || n.epd_threshold_cells.is_some()
                    || n.scheduler.is_some()
                    || n.discard.is_some()
                    || n.vsvd.is_some();
                if switch_only {
                    self.push(
                        path,
                        format!(
                            "node '{}' is a {}: only switches take algorithm, params, scheduler and buffer_cells",
                            n.id,
                            format!("{:?}", n.kind).to_lowercase()
                        ),
                    );
                }
                continue;
            }
            let alg_id = n.algorithm.as_deref().unwrap_or(algorithms::default_for(eth));
            match algorithms::find(alg_id) {
                None => self.push(format!("{path}.algorithm"), unknown_algorithm(alg_id)),
                Some(spec) => {
                    if !spec.network.allows(eth) {
                        let (runs_on, this) = if eth { ("ATM", "Ethernet") } else { ("Ethernet", "ATM") };
                        self.push(
                            format!("{path}.algorithm"),
                            format!("{} runs on {runs_on} networks only; this is an {this} network", spec.name),
                        );
                    }
                    self.params(spec.params, &n.params, &format!("{path}.params"));
                }
            }
            if let Some(b) = n.buffer_cells {
                if eth {
                    self.push(format!("{path}.buffer_cells"), "an Ethernet switch's buffer is buffer_bytes");
                }
                self.field(&fields::BUFFER_CELLS, b, &path);
            }
            if let Some(b) = n.buffer_bytes {
                if !eth {
                    self.push(format!("{path}.buffer_bytes"), "an ATM switch's buffer is buffer_cells");
                }
                self.field(&fields::BUFFER_BYTES, b, &path);
            }
            if let Some(t) = n.epd_threshold_cells {
                self.field(&fields::EPD_THRESHOLD_CELLS, t, &path);
                // Above the buffer EPD would never act: the threshold is at most the buffer in force.
                if let Some(buffer) = n.buffer_cells.or(fields::BUFFER_CELLS.default) {
                    if !eth && t > buffer {
                        self.push(
                            format!("{path}.epd_threshold_cells"),
                            format!("epd_threshold_cells = {t} must be at most the buffer ({buffer} cells)"),
                        );
                    }
                }
            }
            if eth && n.vsvd == Some(true) {
                self.push(format!("{path}.vsvd"), "VS/VD applies to ATM switches");
            }
            if eth && n.discard.is_some() {
                self.push(format!("{path}.discard"), "frame discard policies apply to ATM switches");
            }
        }
    }

    fn links(&mut self) {
        let s = self.s;
        let mut ids = BTreeSet::new();
        let mut pairs = BTreeSet::new();
        for (i, l) in s.links.iter().enumerate() {
            let path = format!("links[{i}]");
            self.id(&l.id, &path, "link", &mut ids);
            for (end, field) in [(&l.from, "from"), (&l.to, "to")] {
                if self.topo.node(end).is_none() {
                    self.push(format!("{path}.{field}"), format!("no node has id '{end}'"));
                }
            }
            if l.from == l.to {
                self.push(format!("{path}.to"), "a link must join two different nodes");
            }
            let key = if l.from < l.to { (l.from.as_str(), l.to.as_str()) } else { (l.to.as_str(), l.from.as_str()) };
            if !pairs.insert(key) {
                self.push(
                    path.clone(),
                    format!("nodes '{}' and '{}' are already joined by another link; one link per pair", l.from, l.to),
                );
            }
            self.field(&fields::LINK_RATE_MBPS, l.rate_mbps, &path);
            match (l.delay_us, l.distance_km) {
                (Some(_), Some(_)) => self.push(path, "give either delay_us or distance_km, not both"),
                (Some(d), None) => self.field(&fields::DELAY_US, d, &path),
                (None, Some(d)) => self.field(&fields::DISTANCE_KM, d, &path),
                (None, None) => self.push(path, "a link needs delay_us or distance_km"),
            }
        }
    }

    fn connections(&mut self) {
        let s = self.s;
        let mut ids = BTreeSet::new();
        for (i, c) in s.connections.iter().enumerate() {
            let path = format!("connections[{i}]");
            self.id(&c.id, &path, "connection", &mut ids);
            self.connection(c, &path);
        }
    }

    fn connection(&mut self, c: &Connection, path: &str) {
        let (s, eth) = (self.s, self.eth);
        let kind_of = |id: &str| self.topo.node(id).map(|i| s.nodes[i].kind);
        let (from_kind, to_kind) = (kind_of(&c.from), kind_of(&c.to));
        match from_kind {
            Some(NodeKind::Source) => {}
            Some(_) => self.push(format!("{path}.from"), format!("'{}' is not a source node", c.from)),
            None => self.push(format!("{path}.from"), format!("no node has id '{}'", c.from)),
        }
        match to_kind {
            Some(NodeKind::Destination) => {}
            Some(_) => self.push(format!("{path}.to"), format!("'{}' is not a destination node", c.to)),
            None => self.push(format!("{path}.to"), format!("no node has id '{}'", c.to)),
        }
        self.field(&fields::START_MS, c.start_ms, path);
        if let Some(stop) = c.stop_ms {
            self.field(&fields::STOP_MS, stop, path);
            if stop.partial_cmp(&c.start_ms) != Some(std::cmp::Ordering::Greater) {
                self.push(
                    format!("{path}.stop_ms"),
                    format!("stop_ms = {stop} must be after start_ms = {}", c.start_ms),
                );
            }
        }
        if let Some(v) = c.volume_mb {
            self.field(&fields::VOLUME_MB, v, path);
        }
        self.params(s.source_params(), &c.params, &format!("{path}.params"));
        self.behavior(&c.behavior, &format!("{path}.behavior"));
        let scripted = !c.behavior.is_greedy() || c.volume_mb.is_some();
        if let Some(t) = &c.tcp {
            let at = format!("{path}.tcp");
            if eth || c.background.is_some() {
                self.push(at.clone(), "TCP runs over an ATM ABR or UBR connection");
            }
            if scripted {
                self.push(path, "a TCP connection takes no behavior or volume_mb (TCP decides what to send)");
            }
            self.field(&fields::MSS_BYTES, t.mss_bytes as f64, &at);
            self.field(&fields::WINDOW_BYTES, t.window_bytes, &at);
            if t.window_bytes < t.mss_bytes as f64 {
                self.push(
                    format!("{at}.window_bytes"),
                    format!("window_bytes = {} must be at least mss_bytes = {}", t.window_bytes, t.mss_bytes),
                );
            }
            self.field(&fields::TIMER_GRANULARITY_MS, t.timer_granularity_ms, &at);
            self.field(&fields::RANDOM_DELAY_US, t.random_delay_us, &at);
        }
        if let Some(b) = &c.background {
            let at = format!("{path}.background");
            if eth {
                self.push(at.clone(), "background (CBR/VBR) connections are ATM only");
            }
            if scripted {
                self.push(path, "a background connection takes no behavior or volume_mb");
            }
            let specs = kind_fields(FIELDS.background, b.kind());
            for (spec, value) in specs.iter().zip(b.values()) {
                self.field(spec, value, &at);
            }
        }
        if eth && scripted {
            self.push(path, "behavior and volume_mb apply to ATM sources; use traffic on Ethernet");
        }
        match (&c.traffic, eth) {
            (Some(_), false) => {
                self.push(format!("{path}.traffic"), "traffic applies to Ethernet sources (add an ethernet block)")
            }
            (Some(t), true) => self.field(&fields::LOAD_PERCENT, t.load() * 100.0, &format!("{path}.traffic")),
            _ => {}
        }
        let route_len = c.path.as_ref().map(Vec::len).or_else(|| self.topo.path(c).map(|r| r.len()));
        if route_len.is_some_and(|n| n > fields::MAX_PATH_NODES) {
            self.push(
                format!("{path}.path"),
                format!(
                    "the path visits {} nodes; at most {} are allowed",
                    route_len.unwrap_or(0),
                    fields::MAX_PATH_NODES
                ),
            );
        }
        if let Some(nodes) = &c.path {
            self.path(c, nodes, &format!("{path}.path"));
        } else if from_kind == Some(NodeKind::Source)
            && to_kind == Some(NodeKind::Destination)
            && self.topo.path(c).is_none()
        {
            self.push(path, format!("no path of links through switches leads from '{}' to '{}'", c.from, c.to));
        }
        if !eth {
            self.rates_below_pcr(c, path);
        }
    }

    /// The MCRs on each link direction must fit in it (ATM): a network cannot guarantee more
    /// than it carries, and the max-min oracle would report shares no link can deliver.
    fn minimum_rates(&mut self) {
        let s = self.s;
        if self.eth || !self.problems.is_empty() {
            return; // routes and rates are only meaningful in an otherwise valid scenario
        }
        // (link, forward) → (MCR sum, connections), in link order.
        let mut load: BTreeMap<(usize, bool), (f64, Vec<usize>)> = BTreeMap::new();
        for (i, c) in s.connections.iter().enumerate() {
            let ubr = c.tcp.as_ref().is_some_and(|t| t.service == crate::scenario::Service::Ubr);
            if c.background.is_some() || ubr {
                continue;
            }
            let mcr = c.params.get("mcr_mbps").or_else(|| s.defaults.source.get("mcr_mbps")).copied().unwrap_or(0.0);
            if mcr <= 0.0 {
                continue;
            }
            let Some(route) = self.topo.path(c) else { continue };
            for hop in route.windows(2) {
                let Some(l) = self.topo.link_between(hop[0], hop[1]) else { continue };
                let forward = s.nodes[hop[0]].id == s.links[l].from;
                let entry = load.entry((l, forward)).or_insert((0.0, Vec::new()));
                entry.0 += mcr;
                entry.1.push(i);
            }
        }
        for ((l, forward), (sum, conns)) in load {
            let link = &s.links[l];
            if sum > link.rate_mbps * (1.0 + 1e-9) {
                let last = *conns.last().expect("a connection");
                let ids: Vec<&str> = conns.iter().map(|&i| s.connections[i].id.as_str()).collect();
                let (a, b) = if forward { (&link.from, &link.to) } else { (&link.to, &link.from) };
                self.push(
                    format!("connections[{last}].params.mcr_mbps"),
                    format!(
                        "the minimum cell rates of {} add up to {sum} Mbps on link {} ({a} → {b}), more than its {} Mbps: a network cannot guarantee more than it carries",
                        ids.join(", "),
                        link.id,
                        link.rate_mbps
                    ),
                );
            }
        }
    }

    fn behavior(&mut self, b: &Behavior, at: &str) {
        let specs = kind_fields(FIELDS.behavior, b.kind());
        for (spec, value) in specs.iter().zip(b.values()) {
            self.field(spec, value, at);
        }
    }

    /// MCR and ICR must not exceed PCR (ATM; PCR defaults to the access link's rate). A value
    /// the connection does not set itself comes from `defaults.source`: the problem is reported
    /// there, naming the connection, and every value says where it came from.
    fn rates_below_pcr(&mut self, c: &Connection, path: &str) {
        let s = self.s;
        // A source parameter's value and the path it is set at.
        let get = |name: &str| match c.params.get(name) {
            Some(&v) => Some((v, format!("{path}.params.{name}"))),
            None => s.defaults.source.get(name).map(|&v| (v, format!("defaults.source.{name}"))),
        };
        // PCR, how the rule says it, and the field that sets it.
        let pcr = match get("pcr_mbps") {
            Some((v, at)) => Some((v, format!("pcr_mbps = {v} ({at})"), at)),
            None => (|| {
                let route = self.topo.path(c)?;
                let l = self.topo.link_between(*route.first()?, *route.get(1)?)?;
                let rate = s.links[l].rate_mbps;
                let said = format!("pcr_mbps = {rate}, the rate of its access link {}", s.links[l].id);
                Some((rate, said, format!("links[{l}].rate_mbps")))
            })(),
        };
        let Some((pcr, pcr_said, pcr_at)) = pcr else { return };
        // A value out of its own range is reported as that already.
        let in_range = |name: &str, v: f64| {
            crate::source::SOURCE_PARAMS.iter().find(|p| p.name == name).is_none_or(|p| p.check(v).is_ok())
        };
        // So is a PCR out of range (its own, or its access link's rate): ICR and MCR are not
        // also blamed for exceeding a PCR of 0 or -1 Mbps.
        let pcr_in_range = if pcr_at.starts_with("links[") {
            fields::LINK_RATE_MBPS.check(pcr).is_ok()
        } else {
            in_range("pcr_mbps", pcr)
        };
        if !pcr_in_range {
            return;
        }
        for name in ["mcr_mbps", "icr_mbps"] {
            let in_range = |v: f64| in_range(name, v);
            if let Some((v, at)) = get(name).filter(|(v, _)| in_range(*v)) {
                if v > pcr {
                    let from_defaults = at.starts_with("defaults.");
                    let whose = if from_defaults { format!("{}: ", c.id) } else { String::new() };
                    // Mended too by the connection's own value (where a default broke it), by
                    // its own PCR, and where its PCR comes from (a default, the access link).
                    let own = format!("{path}.params.pcr_mbps");
                    let also = [from_defaults.then(|| format!("{path}.params.{name}")), Some(own.clone())]
                        .into_iter()
                        .flatten()
                        .chain((pcr_at != own).then(|| pcr_at.clone()));
                    let rule = format!("{whose}{name} = {} must not exceed {pcr_said}", crate::params::number(v));
                    let mut problem = Problem::new(at, rule);
                    problem.also = also.collect();
                    self.problems.push(problem);
                }
            }
        }
    }

    /// An explicit path: from the source to the destination, through switches, along links,
    /// visiting no node twice.
    fn path(&mut self, c: &Connection, nodes: &[String], at: &str) {
        if nodes.len() < 2 || nodes.first() != Some(&c.from) || nodes.last() != Some(&c.to) {
            self.push(at, format!("a path must start at '{}' and end at '{}'", c.from, c.to));
            return;
        }
        let mut seen = BTreeSet::new();
        for (k, id) in nodes.iter().enumerate() {
            let here = format!("{at}[{k}]");
            match self.topo.node(id) {
                None => self.push(here.clone(), format!("no node has id '{id}'")),
                Some(i) if k > 0 && k + 1 < nodes.len() && self.s.nodes[i].kind != NodeKind::Switch => {
                    self.push(here.clone(), format!("'{id}' is not a switch; only switches forward cells"))
                }
                Some(_) => {}
            }
            if !seen.insert(id.as_str()) {
                self.push(here.clone(), format!("the path visits '{id}' twice"));
            }
            if k > 0 {
                let joined = match (self.topo.node(&nodes[k - 1]), self.topo.node(id)) {
                    (Some(a), Some(b)) => self.topo.link_between(a, b).is_some(),
                    _ => false,
                };
                if !joined {
                    self.push(here, format!("no link joins '{}' and '{id}'", nodes[k - 1]));
                }
            }
        }
    }

    fn virtual_paths(&mut self) {
        let s = self.s;
        let conn_index: BTreeMap<&str, usize> =
            s.connections.iter().enumerate().rev().map(|(i, c)| (c.id.as_str(), i)).collect();
        let mut ids = BTreeSet::new();
        let mut in_vp = BTreeSet::new();
        for (i, vp) in s.virtual_paths.iter().enumerate() {
            let path = format!("virtual_paths[{i}]");
            self.id(&vp.id, &path, "virtual path", &mut ids);
            if self.eth {
                self.push(path.clone(), "virtual paths are ATM only");
            }
            for (end, field) in [(&vp.from, "from"), (&vp.to, "to")] {
                match self.topo.node(end).map(|n| s.nodes[n].kind) {
                    None => self.push(format!("{path}.{field}"), format!("no node has id '{end}'")),
                    Some(NodeKind::Switch) => {}
                    Some(_) => self.push(format!("{path}.{field}"), format!("'{end}' is not a switch")),
                }
            }
            if vp.connections.is_empty() {
                self.push(format!("{path}.connections"), "a virtual path needs at least one connection");
            }
            if let Some(b) = vp.buffer_cells {
                self.field(&fields::VP_BUFFER_CELLS, b, &path);
            }
            let mut stretch: Option<Vec<&str>> = None;
            for (k, id) in vp.connections.iter().enumerate() {
                let at = format!("{path}.connections[{k}]");
                let Some(c) = conn_index.get(id.as_str()).map(|&i| &s.connections[i]) else {
                    self.push(at, format!("no connection has id '{id}'"));
                    continue;
                };
                if !in_vp.insert(id.as_str()) {
                    self.push(at.clone(), format!("connection '{id}' is in two virtual paths"));
                }
                if c.background.is_some() {
                    self.push(at.clone(), "background connections cannot join a virtual path");
                }
                let Some(route) = self.topo.path(c) else { continue };
                let route: Vec<&str> = route.into_iter().map(|n| s.nodes[n].id.as_str()).collect();
                let a = route.iter().position(|n| *n == vp.from);
                let b = route.iter().position(|n| *n == vp.to);
                match (a, b) {
                    (Some(a), Some(b)) if 0 < a && a < b && b + 1 < route.len() => {
                        let part = route[a..=b].to_vec();
                        match &stretch {
                            None => stretch = Some(part),
                            Some(first) if *first != part => self.push(
                                at,
                                format!(
                                    "'{id}' does not follow the same switches from '{}' to '{}' as the others",
                                    vp.from, vp.to
                                ),
                            ),
                            _ => {}
                        }
                    }
                    _ => self.push(
                        at,
                        format!("the path of '{id}' must cross switch '{}' and then switch '{}'", vp.from, vp.to),
                    ),
                }
            }
        }
    }

    /// Published figures: about an element that exists, a quantity it has, a finite value, a
    /// tolerance in range and a named source.
    fn references(&mut self) {
        let s = self.s;
        for (i, r) in s.reference.iter().enumerate() {
            let at = format!("reference[{i}]");
            let (kind, id) = r.about.kind_and_id();
            let exists = match &r.about {
                About::Connection(id) => s.connections.iter().any(|c| &c.id == id),
                About::Group(label) => s.connections.iter().any(|c| c.group.as_deref() == Some(label.as_str())),
                About::Port(id) => id.split_once("->").is_some_and(|(from, to)| {
                    let (a, b) = (self.topo.node(from), self.topo.node(to));
                    matches!((a, b), (Some(a), Some(b)) if s.nodes[a].kind == NodeKind::Switch
                        && self.topo.link_between(a, b).is_some())
                }),
                About::Link(id) => s.links.iter().any(|l| &l.id == id),
                About::Network => true,
            };
            if !exists {
                let rule = match kind {
                    "group" => format!("no connection has group '{id}'"),
                    "port" => format!(
                        "no switch output port '{id}': a port is named 'SWITCH->NEXT' after a switch and the node at the other end of one of its links"
                    ),
                    _ => format!("no {kind} has id '{id}'"),
                };
                self.push(format!("{at}.about.{kind}"), rule);
            } else if !r.quantity.applies_to(&r.about) {
                self.push(format!("{at}.quantity"), format!("a {kind} has no {}", r.quantity.name()));
            }
            if !r.published.is_finite() {
                self.push(format!("{at}.published"), format!("published = {} must be a finite number", r.published));
            }
            if let Some(t) = r.tolerance {
                self.field(&fields::REFERENCE_TOLERANCE, t, &at);
            }
            match (&r.no_tolerance_reason, r.tolerance) {
                (Some(_), Some(_)) => self.push(
                    format!("{at}.no_tolerance_reason"),
                    "a figure with a tolerance needs no reason for having none: give one or the other",
                ),
                (Some(why), None) if why.trim().is_empty() => self.push(
                    format!("{at}.no_tolerance_reason"),
                    "say why the figure has no tolerance, or leave the field out",
                ),
                _ => {}
            }
            if r.source.trim().is_empty() {
                self.push(format!("{at}.source"), "name the figure or table the value comes from");
            }
            if let Some(a) = r.algorithm.as_deref() {
                match algorithms::find(a) {
                    None => self.push(format!("{at}.algorithm"), unknown_algorithm(a)),
                    Some(spec) if a == "none" || !spec.network.allows(s.ethernet.is_some()) => self.push(
                        format!("{at}.algorithm"),
                        if a == "none" {
                            "a figure is measured under a scheme that runs on this network; 'none' runs no scheme"
                                .to_string()
                        } else {
                            format!(
                                "a figure is measured under a scheme that runs on this network; {} does not run here",
                                spec.name
                            )
                        },
                    ),
                    Some(_) => {}
                }
            }
        }
    }

    fn changes(&mut self) {
        for (i, ch) in self.s.changes.iter().enumerate() {
            for problem in check_change(self.s, ch) {
                self.push(format!("changes[{i}].{}", problem.path), problem.rule);
            }
        }
    }
}

impl Behavior {
    /// The `kind` tag, as in scenario files.
    pub fn kind(&self) -> &'static str {
        match self {
            Behavior::Greedy => "greedy",
            Behavior::Dishonest { .. } => "dishonest",
            Behavior::FixedRate { .. } => "fixed_rate",
            Behavior::OnOff { .. } => "on_off",
        }
    }

    /// The numbers in the order [`fields::BEHAVIORS`] declares them.
    fn values(&self) -> Vec<f64> {
        match *self {
            Behavior::Greedy => vec![],
            Behavior::Dishonest { from_ms, factor, greedy_ms, normal_ms } => {
                vec![from_ms, factor, greedy_ms, normal_ms]
            }
            Behavior::FixedRate { from_ms, rate_mbps } => vec![from_ms, rate_mbps],
            Behavior::OnOff { on_ms, off_ms } => vec![on_ms, off_ms],
        }
    }
}

impl Background {
    pub fn kind(&self) -> &'static str {
        match self {
            Background::Cbr { .. } => "cbr",
            Background::OnOff { .. } => "on_off",
        }
    }

    /// The numbers in the order [`fields::BACKGROUNDS`] declares them.
    fn values(&self) -> Vec<f64> {
        match *self {
            Background::Cbr { rate_mbps } => vec![rate_mbps],
            Background::OnOff { peak_mbps, mean_on_ms, mean_off_ms } => vec![peak_mbps, mean_on_ms, mean_off_ms],
        }
    }
}

impl Traffic {
    pub fn kind(&self) -> &'static str {
        match self {
            Traffic::Bernoulli { .. } => "bernoulli",
            Traffic::Constant { .. } => "constant",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind's declared field names are exactly the names serde reads for that kind, in
    /// the order `values()` gives them: a field added to an enum but not to the catalogue (or
    /// the other way round) fails here.
    #[test]
    fn tagged_kinds_declare_exactly_their_serde_fields() {
        let behaviors = [
            Behavior::Dishonest { from_ms: 1.0, factor: 2.0, greedy_ms: 3.0, normal_ms: 4.0 },
            Behavior::FixedRate { from_ms: 1.0, rate_mbps: 2.0 },
            Behavior::OnOff { on_ms: 1.0, off_ms: 2.0 },
        ];
        let backgrounds = [
            Background::Cbr { rate_mbps: 1.0 },
            Background::OnOff { peak_mbps: 1.0, mean_on_ms: 2.0, mean_off_ms: 3.0 },
        ];
        let check = |json: serde_json::Value, kinds: &'static [fields::KindFields], values: Vec<f64>| {
            let obj = json.as_object().unwrap();
            let kind = obj["kind"].as_str().unwrap();
            let declared = kind_fields(kinds, kind);
            assert_eq!(declared.len() + 1, obj.len(), "{kind}: {obj:?} against {declared:?}");
            for (spec, v) in declared.iter().zip(values) {
                assert_eq!(obj[spec.name].as_f64(), Some(v), "{kind}.{}", spec.name);
            }
        };
        for b in &behaviors {
            check(serde_json::to_value(b).unwrap(), FIELDS.behavior, b.values());
        }
        for b in &backgrounds {
            check(serde_json::to_value(b).unwrap(), FIELDS.background, b.values());
        }
        for t in [Traffic::Bernoulli { load_percent: 5.0 }, Traffic::Constant { load_percent: 5.0 }] {
            check(serde_json::to_value(&t).unwrap(), FIELDS.traffic, vec![t.load() * 100.0]);
        }
        assert_eq!(FIELDS.behavior.len(), behaviors.len());
        assert_eq!(FIELDS.background.len(), backgrounds.len());
    }
}
