//! The max-min shares the network should reach, recomputed from the oracle whenever the set
//! of active sources, a demand or a parameter changes (targets depend on each port's target
//! utilisation). The rate chart draws them and the summary judges rates against them.

use crate::maxmin::{max_min, Session};
use crate::network::{Conn, Host, Network, Port};
use crate::time::Time;

/// The max-min shares in force from `from` on (cells/s; NaN for an inactive connection).
#[derive(Debug, Clone)]
pub struct Epoch {
    pub from: Time,
    pub share: Vec<f64>,
    pub target: Vec<f64>,
}

/// The shares over a run: one epoch per change, seen at the sample where it happened.
#[derive(Clone)]
pub struct Shares {
    pub epochs: Vec<Epoch>,
    demands: Vec<Option<f64>>,
    /// A parameter changed since the last epoch (targets may move).
    pub(crate) config_changed: bool,
}

impl Default for Shares {
    /// No epoch yet: the first sample computes one.
    fn default() -> Self {
        Shares { epochs: Vec::new(), demands: Vec::new(), config_changed: true }
    }
}

impl Shares {
    /// The shares in force at `now`, recomputed if the active set or a demand changed.
    pub fn update(&mut self, now: Time, net: &Network) -> &Epoch {
        let demands: Vec<Option<f64>> =
            net.conns.iter().map(|c| c.source.active(now).then(|| c.source.demand(now))).collect();
        if demands != self.demands || self.config_changed {
            let (share, target) = compute(&net.ports, &net.conns, &demands);
            self.epochs.push(Epoch { from: now, share, target });
            self.demands = demands;
            self.config_changed = false;
        }
        self.epochs.last().expect("computed above")
    }
}

/// Max-min shares (cells/s) of the connections given their demands (`None`: inactive), plain
/// and with each port's capacity scaled by its algorithm's target utilisation.
fn compute(ports: &[Port], conns: &[Conn], demands: &[Option<f64>]) -> (Vec<f64>, Vec<f64>) {
    let mut used: Vec<usize> = conns.iter().flat_map(|c| c.fwd().iter().map(|h| h.port as usize)).collect();
    used.sort_unstable();
    used.dedup();
    let plain: Vec<f64> = used.iter().map(|&p| ports[p].link_rate).collect();
    let target: Vec<f64> = used
        .iter()
        .map(|&p| ports[p].link_rate * ports[p].alg.as_ref().map_or(1.0, |a| a.target_utilization()))
        .collect();
    // Background traffic takes its current rate off every link it crosses, before ABR.
    let mut plain = plain;
    let mut target = target;
    for (i, c) in conns.iter().enumerate() {
        if let (Host::Bg(_), Some(rate)) = (&c.source, demands[i]) {
            for h in c.fwd() {
                let k = used.binary_search(&(h.port as usize)).expect("used");
                plain[k] = (plain[k] - rate).max(0.0);
                target[k] = (target[k] - rate).max(0.0);
            }
        }
    }
    let active: Vec<usize> =
        (0..conns.len()).filter(|&i| demands[i].is_some() && !matches!(conns[i].source, Host::Bg(_))).collect();
    let sessions: Vec<Session> = active
        .iter()
        .map(|&i| Session {
            links: conns[i].fwd().iter().map(|h| used.binary_search(&(h.port as usize)).expect("used")).collect(),
            mcr: conns[i].source.mcr(),
            pcr: demands[i].expect("active"),
        })
        .collect();
    let mut share = vec![f64::NAN; conns.len()];
    let mut tgt = vec![f64::NAN; conns.len()];
    for (k, r) in max_min(&plain, &sessions).into_iter().enumerate() {
        share[active[k]] = r;
    }
    for (k, r) in max_min(&target, &sessions).into_iter().enumerate() {
        tgt[active[k]] = r;
    }
    (share, tgt)
}
