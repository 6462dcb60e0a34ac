//! ERICA+: ERICA with the queue length as a second metric.
//! Source: Kalyanaraman's dissertation (1997) §6.14–6.19; Vandalore et al., ATM Forum/98-0408.
//! Definition: published; the gain values a = 1.15, b = 1.05 are the widely quoted ones.
//!
//! No target utilisation: the capacity ERICA allocates is the whole link scaled by f(q),
//! ```text
//!   Q0 = T0 · C                         target queue (cells)
//!   f(q) = b·Q0 / ((b − 1)·q + Q0)            q ≤ Q0   (1 … b: fill the link)
//!        = max(QDLF, a·Q0 / ((a − 1)·q + Q0))  q > Q0   (< 1: drain the queue)
//!   TargetCapacity = f(q) · C,   z = InputRate / TargetCapacity,   FairShare = TargetCapacity / N
//! ```
//! so the port runs at 100 % utilisation with a queue near T0 · C.
//!
//! With ERICA's option A (`max_alloc`), a VC keeps MaxAllocPrevious while z ≤ 1 + δ, and the
//! largest allocation cannot fall inside that band. On a full link z = 1 / f(q), so every queue
//! from Q0 up to where f(q) = 1 / (1 + δ) (about 1.77 · Q0 with the defaults) is a resting
//! point, not only Q0: GFC-1's SW3->SW4 rests at its buffer (the `gfc1` lesson; the test
//! `gfc1_erica_plus_queues_rest_in_the_max_alloc_band_...` pins it). Without option A the queue
//! settles at Q0.

use super::erica::{Erica, COMMON_PARAMS};
use super::{AlgorithmSpec, Feedback, Networks, PortAlgorithm, PortInfo};
use crate::params::{ParamSpec, Params};

pub const PARAMS: [ParamSpec; 11] = [
    ParamSpec::num(
        "target_delay_us",
        "µs",
        500.0,
        1.0,
        1_000_000.0,
        "Target queueing delay T0: the queue settles near T0 × link rate",
    ),
    ParamSpec::num(
        "gain_under",
        "",
        1.05,
        1.0,
        2.0,
        "b: the capacity factor at an empty queue (how much to over-allocate to fill the queue)",
    ),
    ParamSpec::num(
        "gain_over",
        "",
        1.15,
        1.0,
        10.0,
        "a: how steeply the capacity factor falls once the queue exceeds its target",
    ),
    ParamSpec::num("qdlf", "", 0.5, 0.01, 1.0, "Queue drain limit factor: the capacity factor never falls below it"),
    COMMON_PARAMS[0],
    COMMON_PARAMS[1],
    COMMON_PARAMS[2],
    COMMON_PARAMS[3],
    COMMON_PARAMS[4],
    COMMON_PARAMS[5],
    COMMON_PARAMS[6],
];

pub const SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "erica_plus",
    name: "ERICA+",
    short_name: "ERICA+",
    network: Networks::Atm,
    feedback: Feedback::ExplicitRate,
    summary: "ERICA at 100 % utilisation, with the allocated capacity scaled by a function of the queue so that the queue settles at a target delay.",
    params: &PARAMS,
    build,
};

fn build(p: &Params, port: PortInfo) -> PortAlgorithm {
    PortAlgorithm::Erica(Box::new(Erica::new(p, port, Some(()))))
}

#[cfg(test)]
mod tests {
    use super::super::erica::QueueControl;

    const QC: QueueControl = QueueControl { target_delay_s: 1e-3, gain_under: 1.05, gain_over: 1.15, qdlf: 0.5 };

    #[test]
    fn queue_factor_is_b_when_empty_one_at_target_and_falls_above() {
        // C = 100,000 cells/s, T0 = 1 ms: Q0 = 100 cells.
        assert!((QC.factor(0.0, 1e5) - 1.05).abs() < 1e-12);
        assert!((QC.factor(100.0, 1e5) - 1.0).abs() < 1e-12);
        // q = 2·Q0: 1.15·100 / (0.15·200 + 100) = 115 / 130.
        assert!((QC.factor(200.0, 1e5) - 115.0 / 130.0).abs() < 1e-12);
        // Half-way below Q0: 1.05·100 / (0.05·50 + 100) = 105 / 102.5.
        assert!((QC.factor(50.0, 1e5) - 105.0 / 102.5).abs() < 1e-12);
    }

    #[test]
    fn queue_factor_never_falls_below_qdlf() {
        // 1.15·100 / (0.15·q + 100) = 0.5 at q ≈ 866.7; far above, the floor holds.
        assert!((QC.factor(10_000.0, 1e5) - 0.5).abs() < 1e-12);
    }
}
