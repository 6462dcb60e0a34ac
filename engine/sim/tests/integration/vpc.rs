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
//!
//! The study's other experiment, UBR goodput against the core buffer (`vpc-ubr-buffer-sweep`):
//! as it found, goodput rises from 10,000 cells to 4 × the bandwidth-delay product.

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

/// The bandwidth-delay product of the OC-3 core at a 100 ms round trip (cells).
fn bdp_cells() -> f64 {
    149.76e6 * 0.100 / abr_sim::time::CELL_BITS
}

#[test]
fn ubr_goodput_rises_from_10000_cells_of_core_buffer_to_four_times_the_bandwidth_delay_product() {
    // The sweep file's points: the study's 10,000 cells, then 1, 2 and 4 × BDP (35,321 cells).
    let doc = crate::common::library_json("vpc-ubr-buffer-sweep");
    let values: Vec<f64> =
        doc["sweep"]["vary"][0]["values"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    let bdp = bdp_cells();
    assert_eq!(values, [10_000.0, bdp.round(), (2.0 * bdp).round(), (4.0 * bdp).round()]);
    let at = |cells: f64| run(load("vpc-ubr-buffer-sweep", &[&format!("nodes.C1.buffer_cells={cells}")])).1;
    let (small, large) = (at(values[0]), at(values[3]));
    let (g_small, g_large) = (goodput_mbps(&small), goodput_mbps(&large));
    // As the study: more core buffer, more goodput; at 4 × BDP the link is full, so goodput is
    // at the AAL5 bound of the link: 149.76 Mb/s × 1536 bytes of data per 34 cells of 53 bytes.
    let bound = 149.76 * 1536.0 / (34.0 * 53.0);
    assert!(g_large > 1.05 * g_small, "goodput {g_small:.1} Mb/s at 10,000 cells, {g_large:.1} at 4 × BDP");
    assert!(g_large > 0.98 * bound && g_large <= bound * 1.001, "{g_large:.2} vs the AAL5 bound {bound:.2}");
    let timeouts = |s: &Summary| s.connections.iter().map(|c| c.timeouts.unwrap()).sum::<u64>();
    assert!(timeouts(&large) < timeouts(&small), "timeouts {} vs {}", timeouts(&large), timeouts(&small));
    // Unlike the study (pinned, see vpc-ubr-rtt100): even at 10,000 cells UBR's goodput is not
    // below ABR's at 100 ms, whose UT holds the core at its 90 % target.
    let abr = goodput_mbps(&run(load("vpc-abr-rtt100", &[])).1);
    assert!(g_small >= abr, "UBR {g_small:.1} at 10,000 cells vs ABR {abr:.1} Mb/s");
}
