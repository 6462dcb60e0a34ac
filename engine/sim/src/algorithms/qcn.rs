//! QCN's congestion point (IEEE 802.1Qau-2010) on an Ethernet switch port.
//! Definition: the congestion point's feedback and quantisation are published (802.1Qau, as
//! documented in switch manuals); defaults are the standard's as widely quoted (reference §9.2).
//!
//! At each sampled frame:
//! ```text
//!   Fb = −(Qoff + w·Qδ),  Qoff = Q − Qeq,  Qδ = Q − Qold          w = 2
//!   Fb < 0: send a CNM with QntzFb = min(63, round(|Fb| · 63 / (Qeq · (2w + 1))))
//! ```
//! The notification goes to the sampled frame's source, whose reaction point
//! (`ethernet::reaction_point`) cuts and recovers its rate.
//!
//! FQCN (Zhang and Ansari, INFOCOM 2011; IEEE Trans. Commun. 2013), an option of the congestion
//! point: standard QCN tells only the sampled frame's source, so the cuts a flow receives grow
//! with its rate exactly as its byte-counter recovery does, and flows keep whatever shares the
//! start-up left them (QCN's known unfairness). FQCN counts each flow's bytes between samples
//! and sends a congested sample's |Fb| to every flow at or above the equal share, split in
//! proportion to their bytes. Reconstructed from the published description: the split and the
//! "at least 1" quantisation are ours.

use super::{Admit, AlgorithmSpec, Explain, Feedback, Networks, PortAlgorithm, PortInfo, PortView, SwitchAlgorithm};
use crate::cell::Cell;
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
    ParamSpec::on_off(
        "fair_feedback",
        false,
        "1: FQCN, a congested sample notifies every flow at or above the equal share (split by bytes); 0: 802.1Qau, the sampled frame's source only",
    ),
];

pub const SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "qcn",
    name: "QCN",
    short_name: "QCN",
    network: Networks::Ethernet,
    feedback: Feedback::Notification,
    summary: "802.1Qau QCN: the port samples frames and returns quantised feedback from its queue's offset and growth; the sources' reaction points cut and recover their rates.",
    params: &PARAMS,
    build,
};

fn build(p: &Params, port: PortInfo) -> PortAlgorithm {
    let rng = SplitMix64::new(port.seed, port.stream);
    let cp = CongestionPoint::new(CpParams::from_params(p), port.n_vcs, rng);
    PortAlgorithm::boxed(Qcn { cp, frame_bytes: port.unit_bits / 8.0, last_fb: 0.0 })
}

#[derive(Clone)]
pub struct Qcn {
    pub cp: CongestionPoint,
    frame_bytes: f64,
    last_fb: f64,
}

impl SwitchAlgorithm for Qcn {
    fn notifies(&self) -> bool {
        true
    }

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
        self.cp.p = CpParams::from_params(p);
    }

    fn explain(&self) -> Explain {
        let cp = &self.cp;
        let mut e = Explain::new(
            "at each sampled frame: Fb = −((Q − Qeq) + w·(Q − Qold)); Fb < 0 → a notification with \
             |Fb| quantised to 1…63 (FQCN: split among the flows at or above the equal share)",
        );
        e.value("last_feedback", "|Fb| of the last sample (quantised)", "", self.last_fb)
            .value("queue_at_sample_bytes", "Q at the last sample (Qold)", "bytes", cp.q_old)
            .value("qeq_bytes", "Qeq", "bytes", cp.p.qeq_bytes)
            .value("w", "w", "", cp.p.w)
            .value("until_sample_bytes", "Bytes to the next sample", "bytes", cp.until_sample)
            .value("fair", "FQCN", "0/1", cp.p.fair as u8 as f64);
        for &(vc, fb) in &cp.culprits {
            e.vc(vc as usize, &[("feedback", "|Fb| sent to it at the last sample", "", fb as f64)]);
        }
        e
    }

    fn internal_names(&self) -> &'static [&'static str] {
        &["last_feedback"]
    }

    fn internal_values(&self, out: &mut Vec<f64>) {
        out.push(self.last_fb);
    }
}

/// Congestion-point parameters (defaults in `PARAMS`).
#[derive(Debug, Clone, Copy)]
pub struct CpParams {
    /// Queue equilibrium (bytes).
    pub qeq_bytes: f64,
    /// Weight of the queue's growth in the feedback.
    pub w: f64,
    /// Bytes between samples without congestion (shrinks to a tenth as feedback grows).
    pub sample_bytes: f64,
    /// Each sampling interval is drawn uniformly within ± this fraction of its base.
    pub sample_jitter: f64,
    /// FQCN: a congested sample notifies every flow at or above the equal share instead of
    /// the sampled frame's source only.
    pub fair: bool,
}

impl CpParams {
    /// The port's parameters from the scenario's values over `PARAMS`.
    pub fn from_params(p: &Params) -> Self {
        CpParams {
            qeq_bytes: p.get("qeq_bytes"),
            w: p.get("w"),
            sample_bytes: p.get("sample_bytes"),
            sample_jitter: p.get("sample_jitter"),
            fair: p.flag("fair_feedback"),
        }
    }
}

/// What a sample asks the switch to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sample {
    /// Not sampled, or no congestion.
    Quiet,
    /// A notification to the sampled frame's source with this quantised feedback (1…63).
    Sampled(u8),
    /// FQCN: notifications to the flows in `CongestionPoint::culprits`.
    Culprits,
}

/// The congestion point of one queue.
#[derive(Debug, Clone)]
pub struct CongestionPoint {
    pub p: CpParams,
    q_old: f64,
    /// Bytes left until the next sample.
    until_sample: f64,
    rng: SplitMix64,
    /// Bytes each flow brought since the last sample (FQCN's per-flow monitor).
    arrived: Vec<f64>,
    /// The notifications of the last FQCN sample: (flow, quantised feedback).
    pub culprits: Vec<(u32, u8)>,
}

impl CongestionPoint {
    pub fn new(p: CpParams, flows: usize, rng: SplitMix64) -> Self {
        CongestionPoint {
            p,
            q_old: 0.0,
            until_sample: p.sample_bytes,
            rng,
            arrived: vec![0.0; flows],
            culprits: Vec::new(),
        }
    }

    /// |Fb| (bytes) for a queue of `q` bytes that was `q_old` at the last sample, or 0 when
    /// there is no congestion (Fb ≥ 0).
    pub fn feedback_bytes(&self, q: f64, q_old: f64) -> f64 {
        let fb = -((q - self.p.qeq_bytes) + self.p.w * (q - q_old));
        if fb >= 0.0 {
            0.0
        } else {
            -fb
        }
    }

    /// |Fb| quantised to 6 bits: 0 (no message) or 1…63.
    pub fn quantise(&self, fb_bytes: f64) -> u8 {
        if fb_bytes <= 0.0 {
            return 0;
        }
        let scale = 63.0 / (self.p.qeq_bytes * (2.0 * self.p.w + 1.0));
        (fb_bytes * scale).round().clamp(1.0, 63.0) as u8
    }

    /// A frame of `bytes` from flow `flow` arrives with the queue at `q` bytes.
    pub fn on_frame(&mut self, flow: usize, bytes: f64, q: f64) -> Sample {
        if self.p.fair {
            if flow >= self.arrived.len() {
                self.arrived.resize(flow + 1, 0.0);
            }
            self.arrived[flow] += bytes;
        }
        self.until_sample -= bytes;
        if self.until_sample > 0.0 {
            return Sample::Quiet;
        }
        let fb_bytes = self.feedback_bytes(q, self.q_old);
        let fb = self.quantise(fb_bytes);
        self.q_old = q;
        // Sample more often the stronger the congestion: 150 KB down to 15 KB in 8 steps,
        // each interval drawn within ± the jitter so that flows do not fall into step with it.
        let level = (fb / 8) as f64;
        let base = self.p.sample_bytes * (1.0 - 0.9 * level / 7.0);
        let jitter = self.p.sample_jitter * (2.0 * self.rng.uniform() - 1.0);
        self.until_sample = base * (1.0 + jitter);
        let sample = if fb == 0 {
            Sample::Quiet
        } else if self.p.fair {
            self.split_among_culprits(fb_bytes);
            if self.culprits.is_empty() {
                Sample::Quiet
            } else {
                Sample::Culprits
            }
        } else {
            Sample::Sampled(fb)
        };
        self.arrived.iter_mut().for_each(|a| *a = 0.0);
        sample
    }

    /// FQCN: the flows that brought at least the equal share of the bytes since the last
    /// sample share |Fb| in proportion to their bytes; each is told its part (at least 1).
    fn split_among_culprits(&mut self, fb_bytes: f64) {
        self.culprits.clear();
        let senders = self.arrived.iter().filter(|&&a| a > 0.0).count();
        if senders == 0 {
            return;
        }
        let total: f64 = self.arrived.iter().sum();
        let equal = total / senders as f64;
        let over: f64 = self.arrived.iter().filter(|&&a| a >= equal).sum();
        for (flow, &a) in self.arrived.iter().enumerate() {
            if a > 0.0 && a >= equal {
                let part = self.quantise(fb_bytes * a / over).max(1);
                self.culprits.push((flow as u32, part));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(jitter: f64, fair: bool) -> CongestionPoint {
        let p = CpParams { qeq_bytes: 30_000.0, w: 2.0, sample_bytes: 150_000.0, sample_jitter: jitter, fair };
        CongestionPoint::new(p, 3, SplitMix64::new(1, 0))
    }

    #[test]
    fn feedback_is_quantised_from_the_queue_offset_and_growth() {
        let cp = cp(0.0, false);
        // Q = 40 KB, grew by 5 KB: Fb = −(10,000 + 2·5,000) = −20,000;
        // QntzFb = round(20,000 · 63 / (30,000 · 5)) = round(8.4) = 8.
        let fb = |q: f64, q_old: f64| cp.quantise(cp.feedback_bytes(q, q_old));
        assert_eq!(fb(40_000.0, 35_000.0), 8);
        // Below Qeq and shrinking: no message.
        assert_eq!(fb(20_000.0, 25_000.0), 0);
        // Saturates at 63.
        assert_eq!(fb(1e6, 0.0), 63);
    }

    #[test]
    fn the_congestion_point_samples_every_150_kb_and_faster_under_congestion() {
        let mut cp = cp(0.0, false);
        for _ in 0..99 {
            assert_eq!(cp.on_frame(0, 1500.0, 0.0), Sample::Quiet, "no sample before 150 KB");
        }
        // The 100th frame completes 150 KB and is sampled; the queue is far above Qeq.
        assert_eq!(cp.on_frame(0, 1500.0, 300_000.0), Sample::Sampled(63));
        // Strong feedback (63: level 7) shrinks the interval to 15 KB: 10 frames.
        let mut n = 0;
        while cp.on_frame(0, 1500.0, 300_000.0) == Sample::Quiet {
            n += 1;
        }
        assert_eq!(n, 9, "the 10th frame is sampled");
    }

    #[test]
    fn sampling_intervals_spread_within_the_jitter() {
        let mut point = cp(0.15, false);
        let (mut frames, mut intervals) = (0u32, Vec::new());
        let mut before = point.until_sample;
        while intervals.len() < 1000 {
            assert_eq!(point.on_frame(0, 1500.0, 0.0), Sample::Quiet, "no congestion, no message");
            frames += 1;
            if point.until_sample > before {
                intervals.push(frames);
                frames = 0;
            }
            before = point.until_sample;
        }
        // 150 KB ± 15 %: 127.5 to 172.5 KB, 85 to 115 frames of 1500 bytes, spread over the range.
        let (lo, hi) = (*intervals.iter().min().unwrap(), *intervals.iter().max().unwrap());
        assert!(lo >= 85 && hi <= 115, "{lo}..{hi} frames");
        assert!(lo <= 88 && hi >= 112, "intervals vary: {lo}..{hi} frames");
        let mean = intervals.iter().sum::<u32>() as f64 / intervals.len() as f64;
        assert!((mean - 100.5).abs() < 1.5, "mean {mean} frames");
    }

    /// Runs 100 frames of the given flows through a fair congestion point whose 100th frame is
    /// sampled with the queue 60 KB above a 30 KB Qeq and steady: |Fb| = 60,000 bytes,
    /// QntzFb = round(60,000 · 63 / 150,000) = 25 in all.
    fn fair_sample(flows: &[usize]) -> (Sample, Vec<(u32, u8)>) {
        let mut point = cp(0.0, true);
        point.q_old = 90_000.0;
        let mut sample = Sample::Quiet;
        for i in 0..100 {
            sample = point.on_frame(flows[i % flows.len()], 1500.0, if i == 99 { 90_000.0 } else { 0.0 });
        }
        (sample, point.culprits)
    }

    #[test]
    fn fqcn_splits_the_feedback_among_flows_at_or_above_the_equal_share() {
        // 60, 30 and 10 frames: the equal share is 33.3, only flow 0 is above it and takes all.
        let (sample, culprits) = fair_sample(&[0, 0, 0, 0, 0, 0, 1, 1, 1, 2]);
        assert_eq!(sample, Sample::Culprits);
        assert_eq!(culprits, vec![(0, 25)]);
        // 40, 40 and 20 frames: flows 0 and 1 share |Fb| in halves, 12.6 each, rounded.
        let (_, culprits) = fair_sample(&[0, 1, 0, 1, 2]);
        assert_eq!(culprits, vec![(0, 13), (1, 13)]);
        // Equal flows are all at the equal share: each is told its quarter.
        let (_, culprits) = fair_sample(&[0, 1, 2, 3]);
        assert_eq!(culprits, vec![(0, 6), (1, 6), (2, 6), (3, 6)]);
    }
}
