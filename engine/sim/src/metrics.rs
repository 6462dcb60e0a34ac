//! Sampled series and run summaries.
//!
//! Every `sample_interval` the simulation records one row: the time (ms) and one value per
//! series, in the order of [`SeriesMeta`]. Rows are kept for the whole run (zoom, export,
//! summaries) and hashed as they are made, so two runs can be compared by one digest.

use crate::sim::Simulation;
use crate::time::to_ms;
use serde::Serialize;

/// What one column of the sample rows holds.
#[derive(Debug, Clone, Serialize)]
pub struct SeriesMeta {
    /// Unique id: "<kind>:<owner>", e.g. "acr:C1", "queue:SW1->SW2".
    pub id: String,
    /// acr, share, target, throughput, delivered, queue, utilization, algorithm.
    pub kind: &'static str,
    pub label: String,
    pub unit: &'static str,
    /// Connection or port id.
    pub owner: String,
}

impl SeriesMeta {
    pub fn new(kind: &'static str, owner: &str, unit: &'static str, label: String) -> Self {
        SeriesMeta { id: format!("{kind}:{owner}"), kind, label, unit, owner: owner.to_string() }
    }
}

/// Collects sample rows and a running digest of them.
pub struct Recorder {
    pub meta: Vec<SeriesMeta>,
    rows: Vec<f64>,
    /// Cumulative counters per row for summaries: delivered per connection, departed per port.
    hist: Vec<f64>,
    hist_width: usize,
    taken: usize,
    digest: u64,
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

impl Recorder {
    pub fn new(meta: Vec<SeriesMeta>) -> Self {
        Recorder { meta, rows: Vec::new(), hist: Vec::new(), hist_width: 0, taken: 0, digest: FNV_OFFSET }
    }

    /// Values per row: the time plus one per series.
    pub fn width(&self) -> usize {
        self.meta.len() + 1
    }

    pub fn record(&mut self, row: &[f64], hist: &[f64]) {
        debug_assert_eq!(row.len(), self.width());
        for v in row {
            for b in v.to_bits().to_le_bytes() {
                self.digest = (self.digest ^ b as u64).wrapping_mul(FNV_PRIME);
            }
        }
        self.rows.extend_from_slice(row);
        self.hist_width = hist.len();
        self.hist.extend_from_slice(hist);
    }

    pub fn rows(&self) -> &[f64] {
        &self.rows
    }

    pub fn row_count(&self) -> usize {
        self.rows.len() / self.width()
    }

    pub fn row(&self, i: usize) -> &[f64] {
        let w = self.width();
        &self.rows[i * w..(i + 1) * w]
    }

    fn hist_row(&self, i: usize) -> &[f64] {
        &self.hist[i * self.hist_width..(i + 1) * self.hist_width]
    }

    /// Rows recorded since the last call (row-major).
    pub fn take_new(&mut self) -> &[f64] {
        let from = self.taken * self.width();
        self.taken = self.row_count();
        &self.rows[from..]
    }

    /// FNV-1a digest of every value of every row so far, as 16 hex digits.
    pub fn digest(&self) -> String {
        format!("{:016x}", self.digest)
    }

    /// Column (in a row, after the time) of the first series of a kind.
    pub fn column_of(&self, kind: &str) -> Option<usize> {
        self.meta.iter().position(|m| m.kind == kind).map(|i| i + 1)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct ConnSummary {
    pub id: String,
    /// `abr`, `ubr` (sent at PCR, no feedback: its ACR says nothing), `ethernet` or
    /// `background` (CBR/VBR: no share, served first).
    pub kind: &'static str,
    pub mean_rate_mbps: Option<f64>,
    pub fair_share_mbps: Option<f64>,
    pub target_share_mbps: Option<f64>,
    pub sent_cells: u64,
    pub delivered_cells: u64,
    pub lost_cells: u64,
    pub loss_ratio: f64,
    /// TCP only: new data delivered in order over the steady window (Mbps), and timeouts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goodput_mbps: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeouts: Option<u64>,
    /// The largest number of cells waiting at the source host (TCP only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_source_queue_cells: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PortSummary {
    pub id: String,
    pub max_queue_cells: u32,
    pub mean_queue_cells: Option<f64>,
    pub dropped_cells: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct VpSummary {
    pub id: String,
    /// Sum of the members' TCP goodput over the steady window (Mbps), when they carry TCP.
    pub goodput_mbps: Option<f64>,
    /// Jain's index of the members' goodput (fairness within the VPC).
    pub jain_index: Option<f64>,
    pub max_queue_cells: usize,
}

/// Jain's fairness index of some values: (Σx)² / (n·Σx²).
pub fn jain(values: &[f64]) -> Option<f64> {
    let s: f64 = values.iter().sum();
    let s2: f64 = values.iter().map(|x| x * x).sum();
    (!values.is_empty() && s2 > 0.0).then(|| s * s / (values.len() as f64 * s2))
}

#[derive(Debug, Clone, Serialize)]
pub struct VsSummary {
    pub switch: String,
    pub connection: String,
    pub max_queue_cells: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct LinkSummary {
    pub id: String,
    /// Fraction of the capacity used in the `from` → `to` direction over the steady window.
    pub mean_utilization: Option<f64>,
    /// The same in the `to` → `from` direction.
    pub reverse_mean_utilization: Option<f64>,
}

/// The run summary printed by `abrsim run` and returned by the wasm `summary()`.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub scenario: String,
    pub seed: u64,
    pub sim_ms: f64,
    /// Wall-clock time of the run (filled in by the caller: the engine has no clock).
    pub wall_ms: f64,
    pub events: u64,
    pub steady_from_ms: f64,
    /// What `*_cells` fields count: `cell` (ATM, 53 bytes) or `frame` (Ethernet).
    pub unit: &'static str,
    pub connections: Vec<ConnSummary>,
    pub ports: Vec<PortSummary>,
    pub links: Vec<LinkSummary>,
    /// Virtual paths: goodput of their members, fairness among them, the edge queue.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub virtual_paths: Vec<VpSummary>,
    /// Jain's index of the virtual paths' goodputs (fairness among VPCs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jain_among_virtual_paths: Option<f64>,
    /// The per-VC queues of the virtual sources at VS/VD switches.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub virtual_sources: Vec<VsSummary>,
    /// Jain's fairness index over mean rate / target share.
    pub jain_index: Option<f64>,
    /// The first sample time from which on at most 1 % of the rates the network sets (`abr` and
    /// `ethernet` connections, ABR virtual paths) stay within 10 % of their target share; null
    /// if they never settle up to the end, or there is none (UBR and background only).
    pub convergence_ms: Option<f64>,
    /// How many rates `convergence_ms` judges (0: none, so it is null by definition).
    pub judged_rates: usize,
    pub digest: String,
}

/// Summarises a run over the steady-state window starting at `steady_from_ms`.
pub fn summarize(sim: &Simulation, steady_from_ms: f64) -> Summary {
    let rec = &sim.rec;
    let rows = rec.row_count();
    let n = sim.conns.len();
    let first = (0..rows).find(|&i| rec.row(i)[0] >= steady_from_ms - 1e-9);
    let window = first.filter(|&f| f + 1 < rows).map(|f| (f, rows - 1));
    let col_share = rec.column_of("share").unwrap_or(0);
    let col_target = rec.column_of("target").unwrap_or(0);
    let col_acr = rec.column_of("acr").unwrap_or(0);
    let col_queue = rec.column_of("queue");

    // Mean over the window rows [a, b) of a column, inactive (NaN) counted as 0.
    let mean_col = |col: usize, (a, b): (usize, usize)| -> f64 {
        (a..b).map(|i| rec.row(i)[col]).map(|v| if v.is_nan() { 0.0 } else { v }).sum::<f64>() / (b - a) as f64
    };

    let mut connections = Vec::with_capacity(n);
    for (i, c) in sim.conns.iter().enumerate() {
        let (rate, share, target) = match window {
            Some((a, b)) => {
                let dt_s = (rec.row(b)[0] - rec.row(a)[0]) / 1000.0;
                let cells = rec.hist_row(b)[i] - rec.hist_row(a)[i];
                (
                    Some(cells / dt_s * sim.unit_bits / 1e6),
                    Some(mean_col(col_share + i, (a, b))),
                    Some(mean_col(col_target + i, (a, b))),
                )
            }
            None => (None, None, None),
        };
        connections.push(ConnSummary {
            id: c.id.clone(),
            kind: match &c.source {
                h if h.is_ubr() => "ubr",
                crate::sim::Host::Abr(_) => "abr",
                crate::sim::Host::Eth(_) => "ethernet",
                crate::sim::Host::Bg(_) => "background",
            },
            mean_rate_mbps: rate,
            fair_share_mbps: share,
            target_share_mbps: target,
            sent_cells: c.sent,
            delivered_cells: c.delivered_all,
            lost_cells: c.lost,
            loss_ratio: if c.sent > 0 { c.lost as f64 / c.sent as f64 } else { 0.0 },
            goodput_mbps: c.tcp.as_ref().and_then(|t| {
                let (a, b) = window?;
                let k = n + sim.ports.len() + i;
                let segs = rec.hist_row(b)[k] - rec.hist_row(a)[k];
                Some(segs * t.mss as f64 * 8.0 / ((rec.row(b)[0] - rec.row(a)[0]) / 1000.0) / 1e6)
            }),
            timeouts: c.tcp.as_ref().map(|t| t.sender.timeouts),
            max_source_queue_cells: match &c.source {
                crate::sim::Host::Abr(s) => s.host.as_ref().map(|h| h.max_cells),
                _ => None,
            },
        });
    }

    let reported: Vec<usize> = (0..sim.ports.len()).filter(|&p| sim.ports[p].reported).collect();
    let ports = reported
        .iter()
        .enumerate()
        .map(|(k, &p)| PortSummary {
            id: sim.ports[p].id.clone(),
            max_queue_cells: sim.ports[p].max_queue,
            mean_queue_cells: match (window, col_queue) {
                (Some((a, b)), Some(col)) => {
                    Some((a..=b).map(|i| rec.row(i)[col + k]).sum::<f64>() / (b - a + 1) as f64)
                }
                _ => None,
            },
            dropped_cells: sim.ports[p].dropped,
        })
        .collect();

    let utilization = |p: usize| -> Option<f64> {
        let (a, b) = window?;
        let dt_s = (rec.row(b)[0] - rec.row(a)[0]) / 1000.0;
        let cells = rec.hist_row(b)[n + p] - rec.hist_row(a)[n + p];
        Some(cells / (sim.ports[p].link_rate * dt_s))
    };
    let links = sim
        .scenario
        .links
        .iter()
        .enumerate()
        .map(|(li, l)| {
            let dir = |fwd: bool| sim.ports.iter().position(|p| p.link == li && p.forward == fwd);
            LinkSummary {
                id: l.id.clone(),
                mean_utilization: dir(true).and_then(utilization),
                reverse_mean_utilization: dir(false).and_then(utilization),
            }
        })
        .collect();

    let ratios: Vec<f64> = connections
        .iter()
        .filter_map(|c| match (c.mean_rate_mbps, c.target_share_mbps) {
            (Some(r), Some(t)) if t > 0.0 => Some(r / t),
            _ => None,
        })
        .collect();
    let jain_index = (!ratios.is_empty()).then(|| {
        let s: f64 = ratios.iter().sum();
        let s2: f64 = ratios.iter().map(|x| x * x).sum();
        if s2 > 0.0 {
            s * s / (ratios.len() as f64 * s2)
        } else {
            0.0
        }
    });

    // Convergence: the first sample from which on at most 1 % of the connections whose rate
    // the network sets (ABR ACR, Ethernet rate limit; not UBR, not background) are more than
    // 10 % off their share. None when that never holds up to the end, or no such connection runs.
    // ABR virtual paths count too: the VPC source's ACR against its members' shares together.
    let mut controlled: Vec<(usize, usize)> = (0..n)
        .filter(|&k| matches!(connections[k].kind, "abr" | "ethernet"))
        .map(|k| (col_acr + k, col_target + k))
        .collect();
    if let (Some(a), Some(t)) = (rec.column_of("vp_acr"), rec.column_of("vp_target")) {
        controlled.extend((0..t - a).map(|k| (a + k, t + k)));
    }
    let mut judged = vec![false; rows]; // a row with some controlled rate to judge
    let mut last_off: Option<usize> = None;
    for (i, judged_row) in judged.iter_mut().enumerate() {
        let row = rec.row(i);
        let mut active = 0;
        let mut off = 0;
        for &(col_rate, col_share) in &controlled {
            let (acr, target) = (row[col_rate], row[col_share]);
            if acr.is_nan() || target.is_nan() {
                continue;
            }
            active += 1;
            if (acr - target).abs() > 0.1 * target {
                off += 1;
            }
        }
        *judged_row = active > 0;
        if active > 0 && off as f64 > 0.01 * active as f64 {
            last_off = Some(i);
        }
    }
    // The first judged row after the last one off (None if the sources stop or the run ends
    // before any settles).
    let from = last_off.map_or(0, |i| i + 1);
    let convergence_ms = (from..rows).find(|&i| judged[i]).map(|i| rec.row(i)[0]);

    let virtual_paths = sim
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
    Summary {
        scenario: sim.scenario.id.clone(),
        seed: sim.scenario.run.seed,
        sim_ms: to_ms(sim.now()),
        wall_ms: 0.0,
        events: sim.events(),
        steady_from_ms,
        unit: if sim.scenario.ethernet.is_some() { "frame" } else { "cell" },
        connections,
        ports,
        links,
        jain_among_virtual_paths: jain(
            &virtual_paths.iter().filter_map(|v: &VpSummary| v.goodput_mbps).collect::<Vec<_>>(),
        ),
        virtual_paths,
        virtual_sources: sim
            .vs
            .iter()
            .map(|v| VsSummary {
                switch: sim
                    .scenario
                    .resolved_path(&sim.scenario.connections[v.conn])
                    .map_or(String::new(), |p| p[v.pos].clone()),
                connection: sim.conns[v.conn].id.clone(),
                max_queue_cells: v.max_queue,
            })
            .collect(),
        jain_index,
        convergence_ms,
        judged_rates: controlled.len(),
        digest: rec.digest(),
    }
}
