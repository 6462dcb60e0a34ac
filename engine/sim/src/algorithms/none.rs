//! `none`: a plain FIFO port that never touches RM cells.

use super::{AlgorithmSpec, PortInfo, SwitchAlgorithm};
use crate::cell::Cell;
use crate::params::Params;
use crate::time::Time;

pub const SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "none",
    name: "None (FIFO)",
    summary: "A plain FIFO output port that forwards every cell and never marks RM cells.",
    params: &[],
    build,
};

fn build(_: &Params, _: PortInfo) -> Box<dyn SwitchAlgorithm> {
    Box::new(NoFeedback)
}

struct NoFeedback;

impl SwitchAlgorithm for NoFeedback {
    fn on_arrival(&mut self, _: Time, _: &mut Cell, _: u32) {}
    fn on_brm(&mut self, _: Time, _: &mut Cell, _: u32) {}
}
