//! TCP over ABR and UBR virtual paths in the core (scenarios.md F), against the study's
//! conclusion: ABR VPC goodput flat as the RTT grows 25 → 100 ms, UBR VPCs below ABR at 50 and
//! 100 ms with many more TCP timeouts, UBR less fair among VPCs, and UBR needing a core buffer
//! of several bandwidth-delay products to reach ABR's goodput.
//!
//! The library files use the study's TCP: windows of the link's bandwidth × RTT, 1536-byte
//! segments, Reno's fast recovery and a small random delay per segment at the source (up to
//! 100 µs, about one segment's time at OC-3) to break phase effects; 10 s runs judged over the
//! last 5. With NewReno and no delay (the files before), UBR lost less than UT's 10 % margin
//! and its goodput was not below ABR's at 100 ms: Reno, which leaves fast recovery at the
//! first partial ACK, turns the core FIFO's bursts of drops into timeouts, as the study saw.
//!
//! The study's other experiment, UBR goodput against the core buffer (`vpc-ubr-buffer-sweep`):
//! as it found, goodput rises from 10,000 cells to 4 × the bandwidth-delay product. Where we
//! still differ (pinned): ours reaches ABR's goodput at about one BDP, the study at three to four.

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

fn timeouts(s: &Summary) -> u64 {
    s.connections.iter().map(|c| c.timeouts.unwrap()).sum()
}

#[test]
fn ubr_vpcs_lose_goodput_to_abr_at_50_and_100_ms_with_more_timeouts_and_less_fairness() {
    for (abr, ubr) in [("vpc-abr", "vpc-ubr"), ("vpc-abr-rtt100", "vpc-ubr-rtt100")] {
        let (a, u) = (run(load(abr, &[])).1, run(load(ubr, &[])).1);
        // The core FIFO drops (ABR's core drops nothing), and the paths share less evenly.
        assert!(core_drops(&u) > 0 && core_drops(&a) == 0, "{ubr}");
        let (ja, ju) = (a.jain_among_virtual_paths.unwrap(), u.jain_among_virtual_paths.unwrap());
        assert!(ju < ja, "{ubr}: Jain among VPCs {ju:.3} vs ABR {ja:.3}");
        // As the study: UBR's goodput below ABR's, with many more timeouts (the study: up to 4×).
        let (ga, gu) = (goodput_mbps(&a), goodput_mbps(&u));
        assert!(gu < 0.97 * ga, "{ubr}: UBR {gu:.1} vs ABR {ga:.1} Mb/s");
        assert!(
            timeouts(&u) as f64 > 1.5 * timeouts(&a) as f64,
            "{ubr}: timeouts {} vs ABR {}",
            timeouts(&u),
            timeouts(&a)
        );
    }
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
    let (small, one_bdp, large, abr) = std::thread::scope(|s| {
        let runs = [values[0], values[1], values[3]].map(|v| s.spawn(move || at(v)));
        let abr = goodput_mbps(&run(load("vpc-abr-rtt100", &[])).1);
        let [a, b, c] = runs.map(|r| r.join().unwrap());
        (a, b, c, abr)
    });
    let (g_small, g_large) = (goodput_mbps(&small), goodput_mbps(&large));
    // As the study: more core buffer, more goodput and fewer timeouts; at 4 × BDP the link is
    // full, so goodput is at the AAL5 bound of the link: 149.76 Mb/s × 1536 bytes of data per
    // 34 cells of 53 bytes. At 10,000 cells UBR is below ABR at the same RTT.
    let bound = 149.76 * 1536.0 / (34.0 * 53.0);
    assert!(g_large > 1.1 * g_small, "goodput {g_small:.1} Mb/s at 10,000 cells, {g_large:.1} at 4 × BDP");
    assert!(g_large > 0.98 * bound && g_large <= bound * 1.001, "{g_large:.2} vs the AAL5 bound {bound:.2}");
    assert!(timeouts(&large) < timeouts(&small), "timeouts {} vs {}", timeouts(&large), timeouts(&small));
    assert!(g_small < abr && g_large > abr, "UBR {g_small:.1} / {g_large:.1} Mb/s vs ABR {abr:.1}");
    // Unlike the study (pinned): one BDP already gives UBR ABR's goodput (the study needed
    // three to four). Our ABR VPCs stay at UT's 90 % target; the study's TCP and timer lost more
    // in the core's overflows. If this fails, the gap closed: update this test and the lesson.
    let g_one = goodput_mbps(&one_bdp);
    assert!(g_one >= abr, "UBR {g_one:.1} Mb/s at 1 × BDP vs ABR {abr:.1}");
}
