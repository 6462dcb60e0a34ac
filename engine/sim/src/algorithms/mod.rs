//! Switch algorithms: one trait, one file per algorithm, one registry.
//!
//! An instance runs per switch output port. The engine calls it for every cell entering the
//! port (to measure load and, for forward RM cells, read CCR), for every backward RM cell of a
//! connection whose forward path leaves through the port (to write ER / CI / NI), and asks it
//! for its internal state when sampling. Adding an algorithm means one file here and one line
//! in [`REGISTRY`].

use crate::cell::Cell;
use crate::params::{ParamSpec, Params};
use crate::time::Time;

pub mod erica;
pub mod none;

/// What an algorithm instance knows about its port when it is built.
#[derive(Debug, Clone, Copy)]
pub struct PortInfo {
    /// Output link capacity (cells/s).
    pub link_rate: f64,
    /// Number of connections in the network (per-VC tables are indexed by connection).
    pub n_conns: usize,
}

/// One switch algorithm running on one output port.
pub trait SwitchAlgorithm {
    /// A cell enters the port (before the buffer decides to keep or drop it). `queue_cells` is
    /// the port's queue at that moment. Forward data and RM cells of connections using the
    /// port, and backward RM cells of connections flowing the other way, all pass here.
    fn on_arrival(&mut self, now: Time, cell: &mut Cell, queue_cells: u32);

    /// A backward RM cell of a connection whose forward path leaves through this port passes
    /// the switch: write feedback into it.
    fn on_brm(&mut self, now: Time, cell: &mut Cell, queue_cells: u32);

    /// The fraction of the link the algorithm aims to fill (1.0 when it aims at all of it).
    fn target_utilization(&self) -> f64 {
        1.0
    }

    /// Names (with units) of the internal state series, for charts.
    fn internal_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// Current values of the internal state series, in `internal_names` order. Reading them
    /// must not change the state: sampling never perturbs a run.
    fn internal_values(&self, _out: &mut Vec<f64>) {}
}

/// A registered algorithm: its id in scenario files, its display name, its parameters.
pub struct AlgorithmSpec {
    pub id: &'static str,
    pub name: &'static str,
    pub summary: &'static str,
    pub params: &'static [ParamSpec],
    pub build: fn(&Params, PortInfo) -> Box<dyn SwitchAlgorithm>,
}

/// Every algorithm, by id.
pub const REGISTRY: &[AlgorithmSpec] = &[erica::SPEC, none::SPEC];

/// The algorithm a switch runs when its scenario entry names none.
pub const DEFAULT_ALGORITHM: &str = "erica";

pub fn find(id: &str) -> Option<&'static AlgorithmSpec> {
    REGISTRY.iter().find(|a| a.id == id)
}
