//! TCP over ABR and UBR virtual paths in the core (scenarios.md F), against the study's
//! conclusion: ABR VPC goodput flat as the RTT grows 25 → 100 ms, UBR VPCs below ABR at 50 and
//! 100 ms, UBR less fair among VPCs.
//!
//! The library files now use the study's windows (the link's bandwidth × RTT per connection)
//! and run 10 s, judged over the last 5. The earlier "collapse" of ABR at 100 ms (111 → 72 Mb/s)
//! was a 3-s run judged from 1.5 s, i.e. 15 round trips: the slow-start overshoot's edge losses
//! and timeouts were still being recovered. Judged in steady state, ABR holds its goodput.
//!
//! Where we still disagree (pinned below): UBR's goodput is not below ABR's. Uniform Tracking
//! holds the core at its 90 % target, while UBR VPCs fill the link and a 10,000-cell core FIFO
//! costs them less than that 10 %; the study's UBR lost more (its TCP, its phase-breaking random
//! delay and its timer are not ours; see the lesson).

use crate::common::{load, run};
use abr_sim::metrics::Summary;

fn goodput_mbps(s: &Summary) -> f64 {
    s.connections.iter().map(|c| c.goodput_mbps.expect("TCP goodput")).sum()
}

fn core_drops(s: &Summary) -> u64 {
    s.ports.iter().find(|p| p.id == "C1->C2").expect("core port").dropped_cells
}

#[test]
fn abr_vpc_goodput_at_100_ms_stays_within_10_percent_of_25_ms_with_the_loss_at_the_edges() {
    let short = run(load("vpc-abr-rtt25", &[])).1;
    let long = run(load("vpc-abr-rtt100", &[])).1;
    let (g25, g100) = (goodput_mbps(&short), goodput_mbps(&long));
    assert!(g100 >= 0.9 * g25, "ABR goodput {g100:.1} Mb/s at 100 ms vs {g25:.1} at 25 ms");
    // The windows overfill every edge (the loss is there, per VC, not in the core).
    for s in [&short, &long] {
        assert_eq!(core_drops(s), 0);
        assert!(s.connections.iter().map(|c| c.lost_cells).sum::<u64>() > 0);
        assert!(s.jain_among_virtual_paths.unwrap() > 0.99);
    }
}

#[test]
fn ubr_vpcs_are_less_fair_than_abr_but_not_below_it_in_goodput() {
    for (abr, ubr) in [("vpc-abr", "vpc-ubr"), ("vpc-abr-rtt100", "vpc-ubr-rtt100")] {
        let (a, u) = (run(load(abr, &[])).1, run(load(ubr, &[])).1);
        // As the study: the core FIFO drops, and the paths share less evenly than ABR's.
        assert!(core_drops(&u) > 0 && core_drops(&a) == 0, "{ubr}");
        let (ja, ju) = (a.jain_among_virtual_paths.unwrap(), u.jain_among_virtual_paths.unwrap());
        assert!(ju < ja, "{ubr}: Jain among VPCs {ju:.3} vs ABR {ja:.3}");
    }
    // Unlike the study (pinned): at 100 ms UBR's goodput is not below ABR's (UT's 90 % target
    // against a full link). If this fails, the gap closed: update this test and the lesson.
    let a100 = goodput_mbps(&run(load("vpc-abr-rtt100", &[])).1);
    let u100 = goodput_mbps(&run(load("vpc-ubr-rtt100", &[])).1);
    assert!(u100 >= a100, "UBR {u100:.1} vs ABR {a100:.1} Mb/s at 100 ms");
}
