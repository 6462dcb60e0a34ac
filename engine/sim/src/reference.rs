//! Published figures beside ours: each `reference` of a scenario (what the study measured, and
//! its value) next to the same quantity read from our run's [`Summary`]. One function for the
//! CLI's report and the Result tab, so that the two cannot disagree.

use crate::metrics::{jain, ConnSummary, Summary};
use crate::scenario::{About, RefQuantity, Reference, Scenario};
use serde::Serialize;
use ts_rs::TS;

const EXPORT_TO: &str = "../../../web/src/contract/generated/";

/// One published figure and ours.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct ReferenceRow {
    pub about: About,
    /// `about` in words: "connection C1", "group A", "port SW3->SW4", "link L1", "network".
    pub about_label: String,
    pub quantity: RefQuantity,
    /// "Mbps", "cells" (or "frames" on Ethernet), "" for a ratio or a count.
    pub unit: &'static str,
    pub published: f64,
    /// Ours, from the run's summary (null when the run has no value for it, e.g. no sample in
    /// the steady window yet).
    pub ours: Option<f64>,
    /// ours − published, in the quantity's unit.
    pub difference: Option<f64>,
    /// (ours − published) / published (null when the published value is 0).
    pub relative_difference: Option<f64>,
    pub tolerance: Option<f64>,
    /// |ours − published| ≤ tolerance × |published|; null without a tolerance or a value.
    pub within_tolerance: Option<bool>,
    /// Why the figure has no tolerance (the file's `no_tolerance_reason`), if it says.
    pub no_tolerance_reason: Option<String>,
    /// What a figure without a tolerance says in place of a verdict, in the words the lab's
    /// Result tab and `abrsim report` both show: "No tolerance: " and the file's reason, else
    /// [`NO_TOLERANCE_GIVEN`]; null when the figure has a tolerance.
    pub no_tolerance_note: Option<String>,
    pub source: String,
    /// The scheme the study measured the figure under (the file's `algorithm`), if it says.
    pub algorithm: Option<String>,
    /// Why a figure with a tolerance is not judged in this run, in the words the Result tab and
    /// `abrsim report` both show: some switch runs another scheme than the one the figure was
    /// measured under ([`not_judged_note`]); null when it is judged.
    pub not_judged_note: Option<String>,
}

/// What a figure without a tolerance says in place of a verdict when its file gives no
/// `no_tolerance_reason`.
pub const NO_TOLERANCE_GIVEN: &str = "the file gives this figure none, so ours is shown beside it without a verdict.";

impl RefQuantity {
    /// Which kinds of `about` the quantity has a value for.
    pub fn applies_to(self, about: &About) -> bool {
        use RefQuantity::*;
        match about {
            About::Connection(_) => {
                matches!(self, MeanRateMbps | GoodputMbps | DroppedCells | Timeouts | MaxSourceQueueCells)
            }
            About::Group(_) => {
                matches!(self, MeanRateMbps | GoodputMbps | DroppedCells | Timeouts | JainIndex | MaxSourceQueueCells)
            }
            About::Port(_) => matches!(
                self,
                MeanQueueCells | MaxQueueCells | MaxBufferCells | DroppedCells | Utilization | ThroughputMbps
            ),
            About::Link(_) => matches!(self, DroppedCells | Utilization | ThroughputMbps),
            About::Network => matches!(self, JainIndex),
        }
    }

    /// The snake_case name, as in scenario files.
    pub fn name(self) -> &'static str {
        use RefQuantity::*;
        match self {
            MeanRateMbps => "mean_rate_mbps",
            GoodputMbps => "goodput_mbps",
            MeanQueueCells => "mean_queue_cells",
            MaxQueueCells => "max_queue_cells",
            MaxBufferCells => "max_buffer_cells",
            MaxSourceQueueCells => "max_source_queue_cells",
            DroppedCells => "dropped_cells",
            Utilization => "utilization",
            ThroughputMbps => "throughput_mbps",
            JainIndex => "jain_index",
            Timeouts => "timeouts",
        }
    }

    fn unit(self, ethernet: bool) -> &'static str {
        use RefQuantity::*;
        match self {
            MeanRateMbps | GoodputMbps | ThroughputMbps => "Mbps",
            MeanQueueCells | MaxQueueCells | MaxBufferCells | DroppedCells if ethernet => "frames",
            MeanQueueCells | MaxQueueCells | MaxBufferCells | DroppedCells | MaxSourceQueueCells => "cells",
            Utilization | JainIndex | Timeouts => "",
        }
    }
}

impl About {
    /// The kind of element (`connection`, `group`, `port`, `link`, `network`) and its id.
    pub fn kind_and_id(&self) -> (&'static str, &str) {
        match self {
            About::Connection(id) => ("connection", id),
            About::Group(id) => ("group", id),
            About::Port(id) => ("port", id),
            About::Link(id) => ("link", id),
            About::Network => ("network", ""),
        }
    }

    pub fn label(&self) -> String {
        match self.kind_and_id() {
            (kind, "") => kind.to_string(),
            (kind, id) => format!("{kind} {id}"),
        }
    }
}

/// Every published figure of the scenario beside ours, in the file's order.
pub fn compare(s: &Scenario, summary: &Summary) -> Vec<ReferenceRow> {
    s.reference.iter().map(|r| row(s, summary, r)).collect()
}

/// Why the figure does not describe a run of `s`: it was measured under one scheme (its
/// `algorithm`) and some switch here runs another (a switch running `none` takes no part).
/// None when it has no `algorithm`, or when every switch that runs a scheme runs that one.
pub fn not_judged_note(s: &Scenario, r: &Reference) -> Option<String> {
    let study = r.algorithm.as_deref()?;
    let default = crate::algorithms::default_for(s.ethernet.is_some());
    let name = |id: &str| crate::algorithms::find(id).map_or(id.to_string(), |a| a.name.to_string());
    // Grouped by scheme, in the nodes' order: "SW1, SW2 run EPRCA, SW4 runs UT".
    let mut others: Vec<(String, Vec<&str>)> = Vec::new();
    for n in s.nodes.iter().filter(|n| n.kind == crate::scenario::NodeKind::Switch) {
        let runs = n.algorithm.as_deref().unwrap_or(default);
        if runs == study || runs == "none" {
            continue;
        }
        match others.iter_mut().find(|(a, _)| a == runs) {
            Some((_, ids)) => ids.push(&n.id),
            None => others.push((runs.to_string(), vec![&n.id])),
        }
    }
    if others.is_empty() {
        return None;
    }
    let others: Vec<String> = others
        .iter()
        .map(|(a, ids)| format!("{} {} {}", ids.join(", "), if ids.len() == 1 { "runs" } else { "run" }, name(a)))
        .collect();
    Some(format!(
        "Not judged: measured under {}, and here {}, so ours is shown beside it without a verdict.",
        name(study),
        others.join(", ")
    ))
}

fn row(s: &Scenario, summary: &Summary, r: &Reference) -> ReferenceRow {
    let ours = ours(s, summary, &r.about, r.quantity);
    let difference = ours.map(|o| o - r.published);
    let not_judged_note = not_judged_note(s, r);
    ReferenceRow {
        about: r.about.clone(),
        about_label: r.about.label(),
        quantity: r.quantity,
        unit: r.quantity.unit(s.ethernet.is_some()),
        published: r.published,
        ours,
        difference,
        relative_difference: difference.filter(|_| r.published != 0.0).map(|d| d / r.published),
        tolerance: r.tolerance,
        within_tolerance: match (difference, r.tolerance) {
            (Some(d), Some(t)) if not_judged_note.is_none() => Some(d.abs() <= t * r.published.abs()),
            _ => None,
        },
        no_tolerance_reason: r.no_tolerance_reason.clone(),
        no_tolerance_note: r
            .tolerance
            .is_none()
            .then(|| format!("No tolerance: {}", r.no_tolerance_reason.as_deref().unwrap_or(NO_TOLERANCE_GIVEN))),
        source: r.source.clone(),
        algorithm: r.algorithm.clone(),
        not_judged_note,
    }
}

/// Our value of `q` for `about`, from the summary (and the scenario for groups and link rates).
fn ours(s: &Scenario, sum: &Summary, about: &About, q: RefQuantity) -> Option<f64> {
    use RefQuantity::*;
    let conn = |id: &str| sum.connections.iter().find(|c| c.id == id);
    let per_conn = |c: &ConnSummary| -> Option<f64> {
        match q {
            MeanRateMbps => c.mean_rate_mbps,
            GoodputMbps => c.goodput_mbps,
            DroppedCells => Some(c.lost_cells as f64),
            Timeouts => c.timeouts.map(|t| t as f64),
            MaxSourceQueueCells => c.max_source_queue_cells.map(|q| q as f64),
            _ => None,
        }
    };
    match about {
        About::Connection(id) => per_conn(conn(id)?),
        About::Group(label) => {
            let members: Vec<&ConnSummary> = s
                .connections
                .iter()
                .filter(|c| c.group.as_deref() == Some(label.as_str()))
                .filter_map(|c| conn(&c.id))
                .collect();
            if q == JainIndex {
                return jain(&members.iter().filter_map(|c| c.mean_rate_mbps).collect::<Vec<_>>());
            }
            let values: Vec<f64> = members.iter().filter_map(|c| per_conn(c)).collect();
            if values.is_empty() {
                return None;
            }
            let total: f64 = values.iter().sum();
            Some(match q {
                DroppedCells | Timeouts => total,
                MaxSourceQueueCells => values.iter().copied().fold(f64::MIN, f64::max),
                _ => total / values.len() as f64,
            })
        }
        About::Port(id) => {
            let port = sum.ports.iter().find(|p| &p.id == id);
            match q {
                MeanQueueCells => port?.mean_queue_cells,
                MaxQueueCells => Some(port?.max_queue_cells as f64),
                MaxBufferCells => port.map(|p| p.max_buffer_cells.unwrap_or(p.max_queue_cells) as f64),
                DroppedCells => Some(port?.dropped_cells as f64),
                Utilization | ThroughputMbps => {
                    let (from, to) = id.split_once("->")?;
                    let (li, forward) = s.links.iter().enumerate().find_map(|(i, l)| {
                        (l.from == from && l.to == to)
                            .then_some((i, true))
                            .or_else(|| (l.from == to && l.to == from).then_some((i, false)))
                    })?;
                    let ls = &sum.links[li];
                    let u = if forward { ls.mean_utilization } else { ls.reverse_mean_utilization }?;
                    Some(if q == Utilization { u } else { u * s.links[li].rate_mbps })
                }
                _ => None,
            }
        }
        About::Link(id) => {
            let li = s.links.iter().position(|l| &l.id == id)?;
            let l = &s.links[li];
            match q {
                Utilization => sum.links[li].mean_utilization,
                ThroughputMbps => sum.links[li].mean_utilization.map(|u| u * l.rate_mbps),
                DroppedCells => {
                    let port = format!("{}->{}", l.from, l.to);
                    sum.ports.iter().find(|p| p.id == port).map(|p| p.dropped_cells as f64)
                }
                _ => None,
            }
        }
        About::Network => match q {
            JainIndex => sum.jain_index,
            _ => None,
        },
    }
}
