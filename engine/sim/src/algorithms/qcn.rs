//! QCN's congestion point on an Ethernet switch port: samples arriving frames and sends a
//! congestion notification with quantised feedback to the sampled frame's source (see
//! `ethernet::qcn` for the control law and its source), or, with `fair_feedback`, FQCN's
//! notifications to every flow at or above the equal share. The reaction point runs in the host.

use super::{Admit, AlgorithmSpec, Networks, PortInfo, PortView, SwitchAlgorithm};
use crate::cell::Cell;
use crate::ethernet::qcn::{CongestionPoint, CpParams, Sample};
use crate::params::{ParamSpec, Params};
use crate::rng::SplitMix64;

pub const PARAMS: [ParamSpec; 5] = [
    ParamSpec::num("qeq_bytes", "bytes", 33_000.0, 1.0, 1e10, "Qeq: the queue the congestion point aims at"),
    ParamSpec::num("w", "", 2.0, 0.0, 100.0, "w: weight of the queue's growth against its offset in the feedback"),
    ParamSpec::num(
        "sample_bytes",
        "bytes",
        150_000.0,
        64.0,
        1e9,
        "Bytes between samples without congestion (down to a tenth under strong feedback)",
    ),
    ParamSpec::num(
        "sample_jitter",
        "",
        0.15,
        0.0,
        0.9,
        "Each sampling interval is drawn within ± this fraction of its base (0: strictly periodic)",
    ),
    ParamSpec::int(
        "fair_feedback",
        "",
        0.0,
        0.0,
        1.0,
        "1: FQCN, a congested sample notifies every flow at or above the equal share (split by bytes); 0: 802.1Qau, the sampled frame's source only",
    ),
];

pub const SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "qcn",
    name: "QCN",
    network: Networks::Ethernet,
    summary: "802.1Qau QCN: the port samples frames and returns quantised feedback from its queue's offset and growth; the sources' reaction points cut and recover their rates.",
    params: &PARAMS,
    build,
};

fn build(p: &Params, port: PortInfo) -> Box<dyn SwitchAlgorithm> {
    let rng = SplitMix64::new(port.seed, port.stream);
    let cp = CongestionPoint::new(CpParams::default(), port.n_vcs, rng);
    let mut q = Qcn { cp, frame_bytes: port.unit_bits / 8.0, last_fb: 0.0 };
    q.reconfigure(p);
    Box::new(q)
}

pub struct Qcn {
    pub cp: CongestionPoint,
    frame_bytes: f64,
    last_fb: f64,
}

impl SwitchAlgorithm for Qcn {
    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) -> Admit {
        if cell.is_backward() {
            return Admit::Keep;
        }
        let q_bytes = port.queue_cells as f64 * self.frame_bytes;
        match self.cp.on_frame(port.vc as usize, self.frame_bytes, q_bytes) {
            Sample::Quiet => Admit::Keep,
            Sample::Sampled(fb) => {
                self.last_fb = fb as f64;
                Admit::Notify(fb as f64)
            }
            Sample::Culprits => {
                self.last_fb = self.cp.culprits.iter().map(|&(_, fb)| fb as f64).sum();
                Admit::NotifyMany
            }
        }
    }

    fn on_brm(&mut self, _: &PortView, _: &mut Cell) {}

    fn drain_notifications(&mut self, out: &mut Vec<(u32, f64)>) {
        out.extend(self.cp.culprits.drain(..).map(|(flow, fb)| (flow, fb as f64)));
    }

    fn reconfigure(&mut self, p: &Params) {
        let sample = p.get("sample_bytes");
        self.cp.p = CpParams {
            qeq_bytes: p.get("qeq_bytes"),
            w: p.get("w"),
            sample_bytes: sample,
            sample_jitter: p.get("sample_jitter"),
            fair: p.get("fair_feedback") != 0.0,
        };
    }

    fn internal_names(&self) -> &'static [&'static str] {
        &["last_feedback"]
    }

    fn internal_values(&self, out: &mut Vec<f64>) {
        out.push(self.last_fb);
    }
}
