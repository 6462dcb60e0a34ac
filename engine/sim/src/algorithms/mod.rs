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
pub use explain::Explain;

pub mod debra;
pub mod efci;
pub mod eprca;
pub mod erica;
pub mod erica_plus;
pub mod explain;
pub mod fecn;
pub mod measure;
pub mod none;
pub mod qcn;
pub mod series_d;
pub mod ut;

/// What an algorithm instance knows about its port when it is built.
#[derive(Debug, Clone, Copy)]
pub struct PortInfo {
    /// Output link capacity (cells/s).
    pub link_rate: f64,
    /// Number of connections crossing the port (either direction): per-VC tables are indexed
    /// by `PortView::vc`, 0 to `n_vcs` − 1.
    pub n_vcs: usize,
    /// Bits per transmission unit: 424 for a cell, 8 × frame size on Ethernet.
    pub unit_bits: f64,
    /// Seed and stream of the port's own random numbers (for algorithms that randomise).
    pub seed: u64,
    pub stream: u64,
}

/// The port as an algorithm sees it when a cell passes.
#[derive(Debug, Clone, Copy)]
pub struct PortView {
    pub now: Time,
    /// Cells waiting or in transmission at the port.
    pub queue_cells: u32,
    /// Cells of this cell's connection waiting at the port (filled only for algorithms whose
    /// `needs_vc_queue` is true; 0 otherwise).
    pub vc_queue_cells: u32,
    /// The passing cell's connection, numbered among the port's own (0 to `PortInfo::n_vcs` − 1).
    pub vc: u32,
}

/// Whether an arriving cell may enter the buffer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Admit {
    Keep,
    /// Discard the cell (selective discard by the algorithm).
    Drop,
    /// Keep the cell and send its source a backward notification carrying this value (a
    /// switch-generated backward RM cell with BN = 1: QCN's congestion notification).
    Notify(f64),
    /// Keep the cell and send the notifications the algorithm has queued, to any connections
    /// using the port (taken with `SwitchAlgorithm::drain_notifications`).
    NotifyMany,
}

/// Copies a boxed algorithm, state and all (a checkpoint of a run copies every port's). Every
/// algorithm that derives `Clone` has it: a new algorithm needs nothing more.
pub trait CloneAlgorithm {
    fn clone_box(&self) -> Box<dyn SwitchAlgorithm>;
}

impl<T: SwitchAlgorithm + Clone + 'static> CloneAlgorithm for T {
    fn clone_box(&self) -> Box<dyn SwitchAlgorithm> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn SwitchAlgorithm> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A port's algorithm, as its port holds it. ERICA (and ERICA+, the same type) runs on most
/// ports of the library's networks and sees every cell: held as itself, its per-cell check
/// (`on_arrival`) is a direct call the port's enqueue inlines, so the cell and the port's
/// view stay in registers, where a virtual call takes both through memory (in wasm, through
/// its stack in linear memory). Every other algorithm is a trait object. Everything else
/// reaches the algorithm through `SwitchAlgorithm` (`Deref`).
#[derive(Clone)]
pub enum PortAlgorithm {
    Erica(Box<erica::Erica>),
    Other(Box<dyn SwitchAlgorithm>),
}

impl PortAlgorithm {
    /// Any algorithm, held as a trait object.
    pub fn boxed(alg: impl SwitchAlgorithm + 'static) -> Self {
        PortAlgorithm::Other(Box::new(alg))
    }

    /// `SwitchAlgorithm::on_arrival`, without a virtual call for ERICA.
    #[inline(always)]
    pub fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) -> Admit {
        match self {
            PortAlgorithm::Erica(e) => e.on_arrival(port, cell),
            #[cfg(target_arch = "wasm32")]
            PortAlgorithm::Other(a) => {
                let (admit, changed) = other_on_arrival(&mut **a, *port, *cell);
                *cell = changed;
                admit
            }
            // Natively the copies are made here, inline: the out-of-line call passes both and
            // returns the cell through memory, which cost non-ERICA runs 5 % of their
            // instructions (ERICA's way is as fast either way). Passing the caller's references
            // straight on lets their address escape, which puts ERICA's cell in memory too.
            #[cfg(not(target_arch = "wasm32"))]
            PortAlgorithm::Other(a) => {
                let view = *port;
                let mut copy = *cell;
                let admit = a.on_arrival(&view, &mut copy);
                *cell = copy;
                admit
            }
        }
    }
}

/// `on_arrival` of an algorithm other than ERICA, on copies of the view and the cell: the
/// virtual call's references then point at these copies, so that the caller's cell and view
/// can stay in registers on ERICA's way (in wasm, out of its stack in linear memory). Wasm
/// only: the same copies made inline cost ERICA's way 8 instructions a cell in wasm.
#[cfg(target_arch = "wasm32")]
#[inline(never)]
fn other_on_arrival(alg: &mut dyn SwitchAlgorithm, port: PortView, mut cell: Cell) -> (Admit, Cell) {
    let admit = alg.on_arrival(&port, &mut cell);
    (admit, cell)
}

impl std::ops::Deref for PortAlgorithm {
    type Target = dyn SwitchAlgorithm;

    fn deref(&self) -> &Self::Target {
        match self {
            PortAlgorithm::Erica(e) => &**e,
            PortAlgorithm::Other(a) => &**a,
        }
    }
}

impl std::ops::DerefMut for PortAlgorithm {
    fn deref_mut(&mut self) -> &mut Self::Target {
        match self {
            PortAlgorithm::Erica(e) => &mut **e,
            PortAlgorithm::Other(a) => &mut **a,
        }
    }
}

/// One switch algorithm running on one output port.
pub trait SwitchAlgorithm: CloneAlgorithm {
    /// A cell enters the port (before the buffer decides to keep it). Forward data and RM
    /// cells of connections using the port, and backward RM cells of connections flowing the
    /// other way, all pass here. May mark the cell, or ask for it to be dropped.
    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) -> Admit;

    /// A backward RM cell of a connection whose forward path leaves through this port passes
    /// the switch: write feedback into it.
    fn on_brm(&mut self, port: &PortView, cell: &mut Cell);

    /// New parameter values, applied at once and keeping the measured state (a live change).
    fn reconfigure(&mut self, params: &Params);

    /// The fraction of the link the algorithm aims to fill (1.0 when it aims at all of it).
    fn target_utilization(&self) -> f64 {
        1.0
    }

    /// Moves the notifications queued for `Admit::NotifyMany` into `out` (the connection's index
    /// at this port, `PortView::vc`, and the value).
    fn drain_notifications(&mut self, _out: &mut Vec<(u32, f64)>) {}

    /// Whether `on_arrival` may ask for a notification (`Admit::Notify`, `Admit::NotifyMany`):
    /// a cell's arrival at such a port sends a cell back at its own time, so it keeps its event
    /// (`Port::lazy`).
    fn notifies(&self) -> bool {
        false
    }

    /// Whether `PortView::vc_queue_cells` is needed (it costs a little per call on FIFO ports).
    fn needs_vc_queue(&self) -> bool {
        false
    }

    /// Each of the port's VCs' minimum cell rate (cells/s, in `PortView::vc` order), told once
    /// after the algorithm is built: a source never sends below it, whatever ER says.
    fn set_vc_mcrs(&mut self, _mcr: &[f64]) {}

    /// Names (with units) of the internal state series, for charts.
    fn internal_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// Current values of the internal state series, in `internal_names` order. Reading them
    /// must not change the state: sampling never perturbs a run.
    fn internal_values(&self, _out: &mut Vec<f64>) {}

    /// The algorithm's last computation in its own terms (the switch inspector's record).
    /// Like `internal_values`, it only reads. The default lists the internal values by name;
    /// an algorithm that says more (per-VC numbers, the rule it applies) overrides it.
    fn explain(&self) -> Explain {
        let mut values = Vec::new();
        self.internal_values(&mut values);
        explain::from_internals(self.internal_names(), &values)
    }
}

/// Which networks an algorithm runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "../../../web/src/contract/generated/")]
pub enum Networks {
    Atm,
    Ethernet,
    Both,
}

impl Networks {
    pub fn allows(self, ethernet: bool) -> bool {
        match self {
            Networks::Both => true,
            Networks::Atm => !ethernet,
            Networks::Ethernet => ethernet,
        }
    }
}

/// How a switch algorithm tells sources what to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = "../../../web/src/contract/generated/")]
pub enum Feedback {
    /// ATM: an explicit rate (Mbps) written into backward RM cells (ERICA, EPRCA, …).
    ExplicitRate,
    /// ATM: the congestion bit (EFCI), turned into CI by the destination.
    CongestionBit,
    /// Ethernet: a rate written into the rate-discovery tags the sources send and the
    /// destination reflects (FECN).
    RateTag,
    /// Ethernet: the switch's own congestion notification to the source, quantised feedback
    /// |Fb| without a unit (QCN).
    Notification,
    /// Nothing: a plain FIFO.
    Nothing,
}

/// A registered algorithm: its id in scenario files, its display name, its parameters.
pub struct AlgorithmSpec {
    pub id: &'static str,
    pub name: &'static str,
    /// The name where room is short (a switch card in the Network view): at most 8 characters.
    pub short_name: &'static str,
    pub network: Networks,
    /// What the algorithm tells the sources, and in which cells (the event log's columns
    /// follow it). An Ethernet source tags its frames only when a switch on its route reads
    /// tags (`Feedback::RateTag`): elsewhere a tag would travel and come back with no rate in
    /// it, events that belong to no algorithm of the run.
    pub feedback: Feedback,
    pub summary: &'static str,
    pub params: &'static [ParamSpec],
    pub build: fn(&Params, PortInfo) -> PortAlgorithm,
}

/// Every algorithm, by id.
pub const REGISTRY: &[AlgorithmSpec] = &[
    erica::SPEC,
    erica_plus::SPEC,
    debra::SPEC,
    series_d::SPEC,
    ut::SPEC,
    eprca::SPEC,
    efci::SPEC,
    fecn::SPEC,
    qcn::SPEC,
    none::SPEC,
];

/// The algorithm a switch runs when its scenario entry names none.
pub const DEFAULT_ALGORITHM: &str = "erica";

/// The default algorithm on a network: ERICA on ATM, none (a plain FIFO) on Ethernet.
pub fn default_for(ethernet: bool) -> &'static str {
    if ethernet {
        "none"
    } else {
        DEFAULT_ALGORITHM
    }
}

pub fn find(id: &str) -> Option<&'static AlgorithmSpec> {
    REGISTRY.iter().find(|a| a.id == id)
}
