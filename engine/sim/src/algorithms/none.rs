//! `none`: a plain FIFO port that never touches RM cells.

use super::{Admit, AlgorithmSpec, Feedback, Networks, PortAlgorithm, PortInfo, PortView, SwitchAlgorithm};
use crate::cell::Cell;
use crate::params::Params;

pub const SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "none",
    name: "None (FIFO)",
    short_name: "FIFO",
    network: Networks::Both,
    feedback: Feedback::Nothing,
    summary: "A plain FIFO output port that forwards every cell and never marks RM cells.",
    params: &[],
    build,
};

fn build(_: &Params, _: PortInfo) -> PortAlgorithm {
    PortAlgorithm::boxed(NoFeedback)
}

#[derive(Clone)]
struct NoFeedback;

impl SwitchAlgorithm for NoFeedback {
    fn on_arrival(&mut self, _: &PortView, _: &mut Cell) -> Admit {
        Admit::Keep
    }
    fn on_brm(&mut self, _: &PortView, _: &mut Cell) {}
    fn reconfigure(&mut self, _: &Params) {}
}
