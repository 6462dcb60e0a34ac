//! What a switch algorithm says about its last computation, in its own terms: named numbers
//! with units, for the port and for each of its VCs (`SwitchAlgorithm::explain`). The UI shows
//! the record generically, so a new algorithm gets an inspector by filling one.

use serde::Serialize;
use ts_rs::TS;

const EXPORT_TO: &str = "../../../web/src/contract/generated/";

/// One named number.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct Quantity {
    /// Stable id, with its unit in the name like the sampled internals (`fair_share_mbps`).
    #[ts(type = "string")]
    pub name: &'static str,
    /// The algorithm's own term or symbol ("FairShare", "z", "f(Tq)").
    #[ts(type = "string")]
    pub label: &'static str,
    /// "Mbps", "cells", "µs", "%", or "" for a ratio, a count or a flag (0/1).
    #[ts(type = "string")]
    pub unit: &'static str,
    /// `null` when undefined (no measurement yet, an infinite load factor).
    pub value: Option<f64>,
    /// Why the value reads as it does, when it would surprise (a MaxAllocPrevious above the
    /// rate ERICA can give): absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "string")]
    pub note: Option<&'static str>,
}

/// One VC's part of an explanation.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct VcExplain {
    /// Connection id (filled by the engine from the port's VC index).
    pub connection: String,
    /// The VC's index at the port (`PortView::vc`).
    #[serde(skip)]
    #[ts(skip)]
    pub vc: u32,
    pub values: Vec<Quantity>,
}

/// An algorithm's account of its state at one port, at one moment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct Explain {
    /// Algorithm id, port id and time: filled by the engine (`Simulation::explain`).
    pub algorithm: String,
    pub port: String,
    pub time_us: f64,
    /// How the algorithm computes its feedback, in one line of its own notation.
    #[ts(type = "string")]
    pub rule: &'static str,
    pub values: Vec<Quantity>,
    pub vcs: Vec<VcExplain>,
}

impl Explain {
    pub fn new(rule: &'static str) -> Self {
        Explain { rule, ..Explain::default() }
    }

    /// Adds a port-wide quantity (a non-finite value becomes `null`).
    pub fn value(&mut self, name: &'static str, label: &'static str, unit: &'static str, value: f64) -> &mut Self {
        self.values.push(quantity(name, label, unit, value));
        self
    }

    /// Puts a port-wide quantity before the algorithm's own (the engine's, e.g. the queue now).
    pub fn lead(&mut self, name: &'static str, label: &'static str, unit: &'static str, value: f64) -> &mut Self {
        self.values.insert(0, quantity(name, label, unit, value));
        self
    }

    /// Attaches `note` to the port-wide quantity `name` (added before).
    pub fn note(&mut self, name: &str, note: &'static str) -> &mut Self {
        if let Some(q) = self.values.iter_mut().find(|q| q.name == name) {
            q.note = Some(note);
        }
        self
    }

    /// Adds a VC's quantities: (name, label, unit, value) each.
    pub fn vc(&mut self, vc: usize, values: &[(&'static str, &'static str, &'static str, f64)]) {
        let values = values.iter().map(|&(n, l, u, v)| quantity(n, l, u, v)).collect();
        self.vcs.push(VcExplain { connection: String::new(), vc: vc as u32, values });
    }

    /// The value of the port-wide quantity `name`, if present and defined.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.values.iter().find(|q| q.name == name).and_then(|q| q.value)
    }
}

impl VcExplain {
    /// The value of this VC's quantity `name`, if present and defined.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.values.iter().find(|q| q.name == name).and_then(|q| q.value)
    }
}

fn quantity(name: &'static str, label: &'static str, unit: &'static str, value: f64) -> Quantity {
    Quantity { name, label, unit, value: value.is_finite().then_some(value), note: None }
}

/// The explanation every algorithm has without writing one: its sampled internals, named as
/// in the charts.
pub fn from_internals(names: &'static [&'static str], values: &[f64]) -> Explain {
    let mut e = Explain::new("");
    for (&name, &v) in names.iter().zip(values) {
        e.value(name, name, crate::probes::unit_of_internal(name), v);
    }
    e
}
