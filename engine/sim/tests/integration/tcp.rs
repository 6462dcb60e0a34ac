//! TCP over ABR and UBR: goodput against the AAL5 bound, no loss with ERICA's feedback, losses
//! and timeouts without it, the window limiting the rate.

use crate::common::{load, run};

fn two_tcp(service: &str, window: u64, extra: &[&str]) -> abr_sim::metrics::Summary {
    let tcp = format!("{{\"mss_bytes\":9140,\"window_bytes\":{window},\"service\":\"{service}\"}}");
    let c1 = format!("connections.C1.tcp={tcp}");
    let c2 = format!("connections.C2.tcp={tcp}");
    let mut o = vec!["run.duration_ms=300", c1.as_str(), c2.as_str()];
    o.extend_from_slice(extra);
    run(load("two-sources", &o)).1
}

#[test]
fn tcp_over_abr_reaches_the_aal5_goodput_bound_of_its_share_without_loss() {
    let s = two_tcp("abr", 600_000, &[]);
    for c in &s.connections {
        assert_eq!(c.lost_cells, 0);
        assert_eq!(c.timeouts, Some(0));
        // The cells it delivers: 31 of 32 in-rate cells carry data; a 9140-byte segment takes
        // ceil((9140 + 40 + 8 + 8) / 48) = 192 cells.
        let rate = c.mean_rate_mbps.unwrap();
        let share = c.target_share_mbps.unwrap();
        assert!((0.95 * share..=1.1 * share + 0.5).contains(&rate), "{}: {rate:.1} vs share {share:.1}", c.id);
        let bound = abr_sim::time::mbps_to_cells(rate) * 31.0 / 32.0 / 192.0 * 9140.0 * 8.0 / 1e6;
        let g = c.goodput_mbps.unwrap();
        assert!((g / bound - 1.0).abs() < 0.02, "{}: goodput {g:.2} Mb/s, bound {bound:.2}", c.id);
        assert!(c.max_source_queue_cells.unwrap() > 1000, "the window's data waits at the host, not in the switch");
    }
}

#[test]
fn tcp_over_ubr_without_feedback_loses_cells_and_times_out() {
    let s = two_tcp("ubr", 600_000, &[]);
    let lost: u64 = s.connections.iter().map(|c| c.lost_cells).sum();
    let timeouts: u64 = s.connections.iter().map(|c| c.timeouts.unwrap()).sum();
    assert!(lost > 0 && timeouts > 0, "lost {lost}, timeouts {timeouts}");
    assert!(s.ports.iter().find(|p| p.id == "SW1->SW2").unwrap().max_queue_cells >= 1000);
}

#[test]
fn a_small_window_limits_tcp_to_window_over_round_trip() {
    // Four 9140-byte segments in flight over a 1000 km bottleneck: the round trip (10 ms of
    // propagation plus sending a segment) caps each connection far below its share.
    let s = two_tcp("abr", 4 * 9140, &["links.L3.distance_km=1000", "nodes.SW1.buffer_cells=10000"]);
    let window_bits = 4.0 * 9140.0 * 8.0;
    let rtt_s = 2.0 * 1002.0 * 5e-6;
    for c in &s.connections {
        let g = c.goodput_mbps.unwrap();
        let ceiling = window_bits / rtt_s / 1e6;
        assert!(g < ceiling && g > 0.6 * ceiling, "goodput {g:.1} Mb/s, window/RTT {ceiling:.1}");
        assert!(g < 0.8 * c.mean_rate_mbps.unwrap().max(60.0));
    }
}

fn ubr_run(discard: &str) -> (abr_sim::sim::Simulation, abr_sim::metrics::Summary) {
    let tcp = "{\"mss_bytes\":1460,\"window_bytes\":600000,\"service\":\"ubr\"}";
    let c1 = format!("connections.C1.tcp={tcp}");
    let c2 = format!("connections.C2.tcp={tcp}");
    let d = format!("nodes.SW1.discard=\"{discard}\"");
    run(load("two-sources", &["run.duration_ms=500", c1.as_str(), c2.as_str(), d.as_str()]))
}

#[test]
fn epd_drops_whole_frames_only_and_keeps_ubr_goodput_high() {
    let (sim, s) = ubr_run("epd");
    let lost: u64 = sim.net.conns.iter().map(|c| c.lost).sum();
    assert!(lost > 0, "the port still has to drop");
    for c in &sim.net.conns {
        let rx = &c.tcp.as_ref().unwrap().receiver;
        assert_eq!(rx.discarded_frames, 0, "{}: EPD never lets a partial frame through", c.id);
    }
    // Every dropped cell belongs to a whole dropped frame: 32 cells a 1460-byte segment.
    assert_eq!(lost % 32, 0);
    // G_max = 155.52 Mb/s of cells × 1460·8 / (32·424) bits of data per cell bit.
    let g_max = 155.52 * 1460.0 * 8.0 / (32.0 * 424.0);
    let total: f64 = s.connections.iter().map(|c| c.goodput_mbps.unwrap()).sum();
    assert!(total > 0.95 * g_max, "efficiency {:.2}", total / g_max);
    assert!(s.jain_index.unwrap() > 0.95);
}

#[test]
fn tail_drop_lets_one_tcp_connection_starve_where_epd_shares() {
    // Tail drop cuts frames of whichever connection arrives at a full buffer; the connection
    // that loses a window's worth times out and backs off while the other takes the link.
    let (_, tail) = ubr_run("tail");
    let (_, epd) = ubr_run("epd");
    let timeouts: u64 = tail.connections.iter().map(|c| c.timeouts.unwrap()).sum();
    assert!(timeouts > 0);
    assert!(tail.jain_index.unwrap() < 0.8, "tail drop: Jain {:?}", tail.jain_index);
    assert!(epd.jain_index.unwrap() > 0.95, "EPD: Jain {:?}", epd.jain_index);
}

#[test]
fn goodput_never_exceeds_the_data_carried_by_the_cells_delivered_in_the_window() {
    // vpc-abr: 50 ms round trips and windows of the link's bandwidth × RTT, so hundreds of
    // segments wait behind a hole at the receiver when a frame is lost. Goodput counts a segment
    // once, when it first arrives whole, so over any window it is at most the AAL5 payload of
    // the cells delivered: a 1536-byte segment takes ceil((1536 + 40 + 8 + 8) / 48) = 34 cells.
    let s = run(load("vpc-abr", &[])).1;
    let cells_per_segment = abr_sim::tcp::cells_per_segment(1536, true) as f64;
    assert_eq!(cells_per_segment, 34.0);
    for c in &s.connections {
        let cells_per_s = abr_sim::time::mbps_to_cells(c.mean_rate_mbps.unwrap());
        let bound = cells_per_s / cells_per_segment * 1536.0 * 8.0 / 1e6;
        let g = c.goodput_mbps.unwrap();
        // One segment of slack: a frame whose first cells crossed before the window opened.
        assert!(g <= bound + 0.01, "{}: goodput {g:.2} Mb/s above the payload of its cells, {bound:.2}", c.id);
    }
}
