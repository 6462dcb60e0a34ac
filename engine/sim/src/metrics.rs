//! Run summaries: mean rates against the max-min shares over a steady-state window, Jain's
//! index, convergence, queues, losses and utilisation, read from the sampled series through
//! the probes' column lookups ([`crate::probes`]).

use crate::network::Host;
use crate::probes::{Counter, SeriesKind};
use crate::sim::Simulation;
use crate::time::to_ms;
use crate::window::Window;
use serde::Serialize;
use ts_rs::TS;

const EXPORT_TO: &str = "../../../web/src/contract/generated/";

#[derive(Debug, Clone, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct ConnSummary {
    pub id: String,
    /// `abr`, `ubr` (sent at PCR, no feedback: its ACR says nothing), `ethernet` or
    /// `background` (CBR/VBR: no share, served first).
    #[ts(type = "'abr' | 'ubr' | 'ethernet' | 'background'")]
    pub kind: &'static str,
    pub mean_rate_mbps: Option<f64>,
    pub fair_share_mbps: Option<f64>,
    pub target_share_mbps: Option<f64>,
    #[ts(type = "number")]
    pub sent_cells: u64,
    #[ts(type = "number")]
    pub delivered_cells: u64,
    #[ts(type = "number")]
    pub lost_cells: u64,
    pub loss_ratio: f64,
    /// TCP only: data received over the steady window, each segment counted once when it first
    /// arrives whole (Mbps), and timeouts.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub goodput_mbps: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(type = "number", optional)]
    pub timeouts: Option<u64>,
    /// The largest number of cells waiting at the source host: a TCP host's or a host buffer's
    /// backlog, an Ethernet source's frames offered faster than its rate limiter let them go.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(type = "number", optional)]
    pub max_source_queue_cells: Option<u64>,
    /// The largest number of cells that waited for the source's access link (a source faster
    /// than its link; at most `HOST_QUEUE_CELLS`, beyond which the source is held back).
    pub host_queue_max_cells: u32,
    /// Cells still waiting for the access link at the end of the run.
    pub host_queue_cells: u32,
}

#[derive(Debug, Clone, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct PortSummary {
    pub id: String,
    pub max_queue_cells: u32,
    /// At a VS/VD switch's port: the most cells its buffer held at once, its own queue and the
    /// virtual sources' per-VC queues waiting for it together (what the VS/VD studies call the
    /// switch's queue). Absent where no virtual source feeds the port (it would equal
    /// `max_queue_cells`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_buffer_cells: Option<u32>,
    pub mean_queue_cells: Option<f64>,
    #[ts(type = "number")]
    pub dropped_cells: u64,
}

#[derive(Debug, Clone, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct VpSummary {
    pub id: String,
    /// Sum of the members' TCP goodput over the steady window (Mbps), when they carry TCP.
    pub goodput_mbps: Option<f64>,
    /// Jain's index of the members' goodput (fairness within the VPC).
    pub jain_index: Option<f64>,
    #[ts(type = "number")]
    pub max_queue_cells: usize,
}

/// Jain's fairness index of some values: (Σx)² / (n·Σx²).
pub fn jain(values: &[f64]) -> Option<f64> {
    let s: f64 = values.iter().sum();
    let s2: f64 = values.iter().map(|x| x * x).sum();
    (!values.is_empty() && s2 > 0.0).then(|| s * s / (values.len() as f64 * s2))
}

#[derive(Debug, Clone, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct VsSummary {
    pub switch: String,
    pub connection: String,
    #[ts(type = "number")]
    pub max_queue_cells: u64,
}

#[derive(Debug, Clone, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct LinkSummary {
    pub id: String,
    /// Fraction of the capacity used in the `from` → `to` direction over the steady window.
    pub mean_utilization: Option<f64>,
    /// The same in the `to` → `from` direction.
    pub reverse_mean_utilization: Option<f64>,
}

/// The run summary printed by `abrsim run` and returned by the wasm `summary()`.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct Summary {
    pub scenario: String,
    #[ts(type = "number")]
    pub seed: u64,
    pub sim_ms: f64,
    /// Wall-clock time of the run (filled in by the caller: the engine has no clock).
    pub wall_ms: f64,
    #[ts(type = "number")]
    pub events: u64,
    pub steady_from_ms: f64,
    /// What `*_cells` fields count: `cell` (ATM, 53 bytes) or `frame` (Ethernet).
    #[ts(type = "'cell' | 'frame'")]
    pub unit: &'static str,
    pub connections: Vec<ConnSummary>,
    pub ports: Vec<PortSummary>,
    pub links: Vec<LinkSummary>,
    /// Virtual paths: goodput of their members, fairness among them, the edge queue.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<VpSummary>>", optional)]
    pub virtual_paths: Vec<VpSummary>,
    /// Jain's index of the virtual paths' goodputs (fairness among VPCs).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub jain_among_virtual_paths: Option<f64>,
    /// The per-VC queues of the virtual sources at VS/VD switches.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<VsSummary>>", optional)]
    pub virtual_sources: Vec<VsSummary>,
    /// Jain's fairness index over mean rate / target share.
    pub jain_index: Option<f64>,
    /// The first sample time from which on at most 1 % of the rates the network sets (`abr` and
    /// `ethernet` connections, ABR virtual paths) stay within 10 % of their target share; null
    /// if they never settle up to the end, or there is none (UBR and background only).
    pub convergence_ms: Option<f64>,
    /// The part (0 to 1) of the steady window's samples in which no more than 1 % of the rates
    /// `convergence_ms` judges are more than 10 % off their target share: how well they track
    /// a target that keeps moving (then `convergence_ms` is null however well they follow it);
    /// null if no rate is judged in the window.
    pub on_target_fraction: Option<f64>,
    /// The scenario's published figures beside ours ([`crate::reference::compare`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<crate::reference::ReferenceRow>>", optional)]
    pub reference: Vec<crate::reference::ReferenceRow>,
    /// How many rates `convergence_ms` judges (0: none, so it is null by definition).
    #[ts(type = "number")]
    pub judged_rates: usize,
    pub digest: String,
    /// What the reader should know about these figures (why the means are missing).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub notes: Vec<String>,
}

/// Summarises a run over its steady-state window (`run.steady_from_ms` to the last sample).
pub fn summarize(sim: &Simulation) -> Summary {
    let (rec, net) = (sim.rec(), &sim.net);
    let steady_from_ms = sim.scenario.steady_from_ms();
    let window = rec.window();
    let increase = |w: &Window, counter: Counter, i: usize| w.increase(rec.counter_index(counter, i));
    // Mean over the window's rows but the last of a series, inactive (NaN) counted as 0.
    let mean =
        |kind: SeriesKind, i: usize, w: &Window| -> Option<f64> { Some(w.mean_before_last(rec.column(kind, i)?)) };

    let mut connections = Vec::with_capacity(net.conns.len());
    for (i, c) in net.conns.iter().enumerate() {
        let rate = window.as_ref().map(|w| increase(w, Counter::Delivered, i) / w.span_s() * net.unit_bits / 1e6);
        connections.push(ConnSummary {
            id: c.id.clone(),
            kind: match &c.source {
                h if h.is_ubr() => "ubr",
                Host::Abr(_) => "abr",
                Host::Eth(_) => "ethernet",
                Host::Bg(_) => "background",
            },
            mean_rate_mbps: rate,
            fair_share_mbps: window.as_ref().and_then(|w| mean(SeriesKind::Share, i, w)),
            target_share_mbps: window.as_ref().and_then(|w| mean(SeriesKind::Target, i, w)),
            sent_cells: c.sent,
            delivered_cells: c.delivered_all,
            lost_cells: c.lost,
            loss_ratio: if c.sent > 0 { c.lost as f64 / c.sent as f64 } else { 0.0 },
            goodput_mbps: c.tcp.as_ref().and_then(|t| {
                let w = window.as_ref()?;
                Some(increase(w, Counter::Segments, i) * t.mss as f64 * 8.0 / w.span_s() / 1e6)
            }),
            timeouts: c.tcp.as_ref().map(|t| t.sender.timeouts),
            max_source_queue_cells: match &c.source {
                Host::Abr(s) => s.host.as_ref().map(|h| h.max_cells),
                Host::Eth(s) => Some(s.max_queued),
                Host::Bg(_) => None,
            },
            host_queue_max_cells: net.ports[c.fwd()[0].port as usize].max_queue,
            host_queue_cells: net.ports[c.fwd()[0].port as usize].queue_len(sim.now()),
        });
    }

    let ports = (0..net.ports.len())
        .filter(|&p| net.ports[p].reported)
        .map(|p| PortSummary {
            id: net.ports[p].id.clone(),
            max_queue_cells: net.ports[p].max_queue,
            max_buffer_cells: net
                .vs
                .iter()
                .any(|v| net.conns[v.conn].fwd()[v.pos].port as usize == p)
                .then_some(net.ports[p].max_buffer),
            mean_queue_cells: match (&window, rec.column(SeriesKind::Queue, p)) {
                (Some(w), Some(col)) => Some(w.mean(col)),
                _ => None,
            },
            dropped_cells: net.ports[p].dropped,
        })
        .collect();

    let utilization = |p: usize| -> Option<f64> {
        let w = window.as_ref()?;
        Some(increase(w, Counter::BusyPs, p) / 1e12 / w.span_s())
    };
    // Each link's two ports: [from → to, to → from].
    let mut directions = vec![[None, None]; sim.scenario.links.len()];
    for (p, port) in net.ports.iter().enumerate() {
        directions[port.link][!port.forward as usize] = Some(p);
    }
    let links = sim
        .scenario
        .links
        .iter()
        .zip(&directions)
        .map(|(l, [fwd, bwd])| LinkSummary {
            id: l.id.clone(),
            mean_utilization: fwd.and_then(utilization),
            reverse_mean_utilization: bwd.and_then(utilization),
        })
        .collect();

    let ratios: Vec<f64> = connections
        .iter()
        .filter_map(|c| match (c.mean_rate_mbps, c.target_share_mbps) {
            (Some(r), Some(t)) if t > 0.0 => Some(r / t),
            _ => None,
        })
        .collect();
    // Nobody sent anything: as unfair as it gets.
    let jain_index = jain(&ratios).or((!ratios.is_empty()).then_some(0.0));

    let virtual_paths = net
        .vp
        .iter()
        .map(|vp| {
            let goodputs: Vec<f64> = vp.members.iter().filter_map(|&m| connections[m].goodput_mbps).collect();
            VpSummary {
                id: vp.id.clone(),
                goodput_mbps: (!goodputs.is_empty()).then(|| goodputs.iter().sum()),
                jain_index: jain(&goodputs),
                max_queue_cells: vp.max_queue,
            }
        })
        .collect::<Vec<VpSummary>>();
    let mut summary = Summary {
        scenario: sim.scenario.id.clone(),
        seed: sim.scenario.run.seed,
        sim_ms: to_ms(sim.now()),
        wall_ms: 0.0,
        events: sim.events(),
        steady_from_ms,
        unit: if net.ethernet { "frame" } else { "cell" },
        connections,
        ports,
        links,
        jain_among_virtual_paths: jain(&virtual_paths.iter().filter_map(|v| v.goodput_mbps).collect::<Vec<_>>()),
        virtual_paths,
        virtual_sources: net
            .vs
            .iter()
            .map(|v| VsSummary {
                switch: net.node_ids[net.paths[v.conn][v.pos]].clone(),
                connection: net.conns[v.conn].id.clone(),
                max_queue_cells: v.max_queue,
            })
            .collect(),
        jain_index,
        convergence_ms: rec.convergence().time_ms(),
        on_target_fraction: rec.convergence().on_target_fraction(),
        reference: Vec::new(),
        judged_rates: rec.convergence().judged(),
        digest: rec.digest(),
        notes: window
            .is_none()
            .then(|| crate::validate::steady_window_note(&sim.scenario))
            .flatten()
            .into_iter()
            .chain(crate::validate::notes(&sim.scenario))
            .collect(),
    };
    summary.reference = crate::reference::compare(&sim.scenario, &summary);
    summary
}
