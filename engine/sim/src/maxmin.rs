//! The max-min fair share oracle: progressive filling (water-filling) over directional links
//! with per-session MCR floors and PCR caps ("max of MCR or max-min share", TM 4.0 appendix).
//!
//! Every unfrozen session holds rate `clamp(level, MCR, PCR)` while a common water level rises;
//! when a link fills, the sessions crossing it freeze at their current rate. The result is the
//! unique max-min fair allocation with those bounds.

/// One session (connection): the links it crosses and its rate bounds (same unit as capacities).
#[derive(Debug, Clone)]
pub struct Session {
    pub links: Vec<usize>,
    pub mcr: f64,
    pub pcr: f64,
}

/// Max-min fair rates of `sessions` over links of the given `capacities`.
pub fn max_min(capacities: &[f64], sessions: &[Session]) -> Vec<f64> {
    let n = sessions.len();
    let mut frozen = vec![false; n];
    let mut rate: Vec<f64> = sessions.iter().map(|s| s.mcr.min(s.pcr)).collect();
    // The sessions on each link, in session order (built from the sessions' routes: linear in
    // their total length, not links × sessions).
    let mut on_link: Vec<Vec<usize>> = vec![Vec::new(); capacities.len()];
    for (s, session) in sessions.iter().enumerate() {
        for &l in &session.links {
            if on_link[l].last() != Some(&s) {
                on_link[l].push(s);
            }
        }
    }
    let clamp = |s: &Session, level: f64| level.max(s.mcr).min(s.pcr.max(s.mcr));

    loop {
        let growing: Vec<usize> =
            (0..n).filter(|&s| !frozen[s] && rate[s] < sessions[s].pcr.max(sessions[s].mcr)).collect();
        if growing.is_empty() {
            break;
        }
        // For each link, the lowest level at which it fills.
        let mut best: Option<(f64, usize)> = None;
        for (l, members) in on_link.iter().enumerate() {
            if !members.iter().any(|&s| !frozen[s]) {
                continue;
            }
            if let Some(level) = fill_level(capacities[l], members, &frozen, &rate, sessions) {
                if best.is_none_or(|(b, _)| level < b) {
                    best = Some((level, l));
                }
            }
        }
        match best {
            None => {
                // No link ever fills: every session reaches its PCR.
                for &s in &growing {
                    rate[s] = clamp(&sessions[s], f64::INFINITY);
                    frozen[s] = true;
                }
                break;
            }
            Some((level, _)) => {
                for s in 0..n {
                    if !frozen[s] {
                        rate[s] = clamp(&sessions[s], level);
                    }
                }
                // Freeze sessions on every link that is full at this level.
                let mut any = false;
                for (l, members) in on_link.iter().enumerate() {
                    let load: f64 = members.iter().map(|&s| rate[s]).sum();
                    if load >= capacities[l] * (1.0 - 1e-12) {
                        for &s in members {
                            if !frozen[s] {
                                frozen[s] = true;
                                any = true;
                            }
                        }
                    }
                }
                for s in 0..n {
                    if !frozen[s] && rate[s] >= sessions[s].pcr {
                        frozen[s] = true;
                        any = true;
                    }
                }
                if !any {
                    break;
                }
            }
        }
    }
    rate
}

/// The water level at which link `cap` fills, given frozen rates; `None` if it never does.
fn fill_level(cap: f64, members: &[usize], frozen: &[bool], rate: &[f64], sessions: &[Session]) -> Option<f64> {
    let fixed: f64 = members.iter().filter(|&&s| frozen[s]).map(|&s| rate[s]).sum();
    let free: Vec<&Session> = members.iter().filter(|&&s| !frozen[s]).map(|&s| &sessions[s]).collect();
    let load = |level: f64| -> f64 { fixed + free.iter().map(|s| level.max(s.mcr).min(s.pcr.max(s.mcr))).sum::<f64>() };
    // The load is piecewise linear in the level with breakpoints at the MCRs and PCRs.
    let mut points: Vec<f64> = vec![0.0];
    for s in &free {
        points.push(s.mcr);
        points.push(s.pcr);
    }
    points.sort_by(|a, b| a.total_cmp(b));
    points.dedup();
    let mut prev = 0.0;
    let mut prev_load = load(0.0);
    if prev_load >= cap {
        return Some(0.0);
    }
    for &x in &points {
        let lx = load(x);
        if lx >= cap {
            let slope = (lx - prev_load) / (x - prev);
            return Some(prev + (cap - prev_load) / slope);
        }
        prev = x;
        prev_load = lx;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(links: &[usize], mcr: f64, pcr: f64) -> Session {
        Session { links: links.to_vec(), mcr, pcr }
    }

    fn close(a: &[f64], b: &[f64]) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() < 1e-9 * y.abs().max(1.0), "{a:?} != {b:?}");
        }
    }

    #[test]
    fn equal_sessions_split_a_single_link() {
        close(&max_min(&[90.0], &[s(&[0], 0.0, 1e9), s(&[0], 0.0, 1e9), s(&[0], 0.0, 1e9)]), &[30.0, 30.0, 30.0]);
    }

    #[test]
    fn a_pcr_limited_session_leaves_its_unused_share_to_the_others() {
        // C = 100, PCR of the first is 10: the other two get (100 − 10) / 2.
        close(&max_min(&[100.0], &[s(&[0], 0.0, 10.0), s(&[0], 0.0, 1e9), s(&[0], 0.0, 1e9)]), &[10.0, 45.0, 45.0]);
    }

    #[test]
    fn two_bottlenecks_parking_lot_by_hand() {
        // Link 0 (cap 60) carries A and B; link 1 (cap 100) carries B, C, D.
        // Link 0 fills first at level 30: A = B = 30. Link 1 then gives C = D = (100 − 30) / 2 = 35.
        let r =
            max_min(&[60.0, 100.0], &[s(&[0], 0.0, 1e9), s(&[0, 1], 0.0, 1e9), s(&[1], 0.0, 1e9), s(&[1], 0.0, 1e9)]);
        close(&r, &[30.0, 30.0, 35.0, 35.0]);
    }

    #[test]
    fn mcr_is_a_floor_and_the_rest_is_shared_max_min() {
        // C = 100, MCRs 50, 0, 0: level L with max(50, L) + 2L = 100 → L = 25; A keeps 50.
        close(&max_min(&[100.0], &[s(&[0], 50.0, 1e9), s(&[0], 0.0, 1e9), s(&[0], 0.0, 1e9)]), &[50.0, 25.0, 25.0]);
        // MCR below the level does not matter: C = 90, MCR 10 → 30 each.
        close(&max_min(&[90.0], &[s(&[0], 10.0, 1e9), s(&[0], 0.0, 1e9), s(&[0], 0.0, 1e9)]), &[30.0, 30.0, 30.0]);
    }

    #[test]
    fn unconstrained_sessions_reach_pcr() {
        close(&max_min(&[100.0], &[s(&[0], 0.0, 20.0), s(&[0], 0.0, 30.0)]), &[20.0, 30.0]);
    }
}
