//! TCP Reno over AAL5 (reference §10): a sender with slow start, congestion avoidance, fast
//! retransmit and recovery and coarse-grained retransmission timeouts, and a receiver that
//! reassembles AAL5 frames from cells and acknowledges every segment cumulatively.
//!
//! Both are pure state machines: the sender turns acknowledgements and timer ticks into
//! segments to send; the host queues their cells for the ABR or UBR source; the receiver turns
//! arriving cells into acknowledgements. Sequence numbers count segments (each of MSS bytes),
//! windows count bytes.

use crate::scenario::Recovery;
use std::collections::BTreeSet;

/// Cells per segment: MSS + 40 bytes of TCP/IP headers (+ 8 of LLC/SNAP) + the 8-byte AAL5
/// trailer, padded to whole 48-byte payloads.
pub fn cells_per_segment(mss: u32, llc: bool) -> u32 {
    (mss + 40 + if llc { 8 } else { 0 } + 8).div_ceil(48)
}

/// Reno sender parameters.
#[derive(Debug, Clone, Copy)]
pub struct TcpParams {
    pub mss: u32,
    /// Largest window the receiver advertises (bytes).
    pub window: u64,
    /// Timer granularity (ms): timeouts are counted in ticks of this length.
    pub tick_ms: f64,
    /// Smallest retransmission timeout (ms).
    pub min_rto_ms: f64,
    /// What a partial acknowledgement in fast recovery does.
    pub recovery: Recovery,
}

/// What the sender wants sent: segment numbers, in order.
pub type Segments = Vec<u64>;

#[derive(Debug, Clone)]
pub struct TcpSender {
    pub p: TcpParams,
    /// Oldest unacknowledged segment, and the next new one.
    pub una: u64,
    pub next: u64,
    /// Congestion window and slow-start threshold (bytes).
    pub cwnd: f64,
    pub ssthresh: f64,
    dupacks: u32,
    /// In fast recovery until this segment is acknowledged.
    recover: Option<u64>,
    /// Smoothed RTT and variation (ms); the retransmission timeout (ms).
    srtt: Option<f64>,
    rttvar: f64,
    pub rto_ms: f64,
    /// The segment being timed and when it was sent (ms).
    timing: Option<(u64, f64)>,
    /// Ticks until the retransmission timer fires (None: not running).
    timer_ticks: Option<u64>,
    backoff: u32,
    pub timeouts: u64,
    pub fast_retransmits: u64,
}

impl TcpSender {
    pub fn new(p: TcpParams) -> Self {
        TcpSender {
            p,
            una: 0,
            next: 0,
            cwnd: p.mss as f64,
            ssthresh: p.window as f64,
            dupacks: 0,
            recover: None,
            srtt: None,
            rttvar: 0.0,
            rto_ms: 3000.0,
            timing: None,
            timer_ticks: None,
            backoff: 0,
            timeouts: 0,
            fast_retransmits: 0,
        }
    }

    fn window(&self) -> f64 {
        self.cwnd.min(self.p.window as f64)
    }

    /// New segments the window allows now (at `now_ms`).
    pub fn send_new(&mut self, now_ms: f64) -> Segments {
        let mss = self.p.mss as f64;
        let mut out = Vec::new();
        while ((self.next - self.una) as f64 + 1.0) * mss <= self.window() + 1e-9 {
            if self.timing.is_none() {
                self.timing = Some((self.next, now_ms));
            }
            out.push(self.next);
            self.next += 1;
        }
        if !out.is_empty() && self.timer_ticks.is_none() {
            self.arm_timer();
        }
        out
    }

    fn arm_timer(&mut self) {
        let rto = (self.rto_ms * 2f64.powi(self.backoff as i32)).max(self.p.min_rto_ms);
        self.timer_ticks = Some((rto / self.p.tick_ms).ceil().max(1.0) as u64 + 1);
    }

    /// A cumulative acknowledgement: every segment before `ack` has arrived. Returns the
    /// segments to send (a fast retransmission and/or new segments).
    pub fn on_ack(&mut self, ack: u64, now_ms: f64) -> Segments {
        let mss = self.p.mss as f64;
        let mut out = Vec::new();
        if ack > self.una {
            // New data acknowledged.
            if let Some((seg, sent)) = self.timing {
                if ack > seg {
                    self.sample_rtt(now_ms - sent);
                    self.timing = None;
                }
            }
            self.backoff = 0;
            let newly = ack - self.una;
            self.una = ack;
            if self.next < self.una {
                self.next = self.una;
            }
            match self.recover {
                Some(r) if ack < r && self.p.recovery == Recovery::NewReno => {
                    // Partial ACK (NewReno): retransmit the next hole, stay in recovery.
                    out.push(self.una);
                    self.cwnd = (self.cwnd - newly as f64 * mss + mss).max(mss);
                }
                Some(_) => {
                    // A full ACK, or any new ACK under Reno: deflate the window and leave.
                    self.recover = None;
                    self.cwnd = self.ssthresh;
                    self.dupacks = 0;
                }
                None => {
                    self.dupacks = 0;
                    if self.cwnd < self.ssthresh {
                        self.cwnd += mss * newly as f64; // slow start
                    } else {
                        self.cwnd += mss * mss / self.cwnd * newly as f64; // congestion avoidance
                    }
                }
            }
            self.timer_ticks = None;
            if self.una < self.next {
                self.arm_timer();
            }
        } else if ack == self.una && self.next > self.una {
            self.dupacks += 1;
            if self.recover.is_some() {
                self.cwnd += mss; // inflate for each segment that left the network
            } else if self.dupacks == 3 {
                self.fast_retransmits += 1;
                self.ssthresh = (((self.next - self.una) as f64 * mss) / 2.0).max(2.0 * mss);
                self.cwnd = self.ssthresh + 3.0 * mss;
                self.recover = Some(self.next);
                self.timing = None;
                out.push(self.una);
            }
        }
        out.extend(self.send_new(now_ms));
        out
    }

    fn sample_rtt(&mut self, rtt: f64) {
        match self.srtt {
            None => {
                self.srtt = Some(rtt);
                self.rttvar = rtt / 2.0;
            }
            Some(s) => {
                self.rttvar = 0.75 * self.rttvar + 0.25 * (s - rtt).abs();
                self.srtt = Some(0.875 * s + 0.125 * rtt);
            }
        }
        self.rto_ms = (self.srtt.unwrap() + 4.0 * self.rttvar).max(self.p.min_rto_ms);
    }

    /// One tick of the coarse timer; returns the segments to send if the timer fired.
    pub fn on_tick(&mut self, now_ms: f64) -> Segments {
        let Some(t) = self.timer_ticks.as_mut() else { return Vec::new() };
        *t -= 1;
        if *t > 0 {
            return Vec::new();
        }
        // Timeout: back to one segment, go back to the oldest unacknowledged one.
        self.timeouts += 1;
        let mss = self.p.mss as f64;
        self.ssthresh = (((self.next - self.una) as f64 * mss) / 2.0).max(2.0 * mss);
        self.cwnd = mss;
        self.next = self.una;
        self.recover = None;
        self.dupacks = 0;
        self.timing = None;
        self.backoff = (self.backoff + 1).min(6);
        self.timer_ticks = None;
        self.send_new(now_ms)
    }
}

/// The receiving end: AAL5 reassembly and cumulative acknowledgements.
#[derive(Debug, Clone)]
pub struct TcpReceiver {
    cells_per_segment: u32,
    /// The frame being reassembled: its segment, cells so far, and whether it is damaged.
    current: Option<(u64, u32, bool)>,
    /// Next segment expected in order, and segments held out of order.
    pub next: u64,
    out_of_order: BTreeSet<u64>,
    /// Segments received whole, each counted once when it first arrives (in order or not):
    /// goodput. Copies of segments already received do not count again.
    pub received_segments: u64,
    pub discarded_frames: u64,
}

impl TcpReceiver {
    pub fn new(cells_per_segment: u32) -> Self {
        TcpReceiver {
            cells_per_segment,
            current: None,
            next: 0,
            out_of_order: BTreeSet::new(),
            received_segments: 0,
            discarded_frames: 0,
        }
    }

    /// A cell of segment `seg` arrives (`eom`: the frame's last cell). Returns the cumulative
    /// acknowledgement to send when a frame ends.
    pub fn on_cell(&mut self, seg: u64, eom: bool) -> Option<u64> {
        let (cur, count, damaged) = match self.current {
            // Cells of another frame before this one's end: the frames run together and both
            // fail AAL5's length and CRC check.
            Some((s, n, d)) => (s, n + 1, d || s != seg),
            None => (seg, 1, false),
        };
        if !eom {
            self.current = Some((cur, count, damaged));
            return None;
        }
        self.current = None;
        if damaged || count != self.cells_per_segment {
            self.discarded_frames += 1;
            return Some(self.next); // a duplicate ACK
        }
        if seg == self.next {
            self.next += 1;
            self.received_segments += 1;
            while self.out_of_order.remove(&self.next) {
                self.next += 1;
            }
        } else if seg > self.next && self.out_of_order.insert(seg) {
            self.received_segments += 1;
        }
        Some(self.next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: TcpParams =
        TcpParams { mss: 1000, window: 1_000_000, tick_ms: 100.0, min_rto_ms: 200.0, recovery: Recovery::NewReno };

    #[test]
    fn aal5_cells_per_segment_match_the_reference_examples() {
        assert_eq!(cells_per_segment(512, true), 12);
        assert_eq!(cells_per_segment(1460, true), 32);
        assert_eq!(cells_per_segment(9140, true), 192);
    }

    #[test]
    fn slow_start_doubles_the_window_every_round_trip() {
        let mut s = TcpSender::new(P);
        let mut in_flight = s.send_new(0.0);
        let mut sizes = vec![in_flight.len()];
        for rtt in 1..=5 {
            let mut next = Vec::new();
            for seg in &in_flight {
                next.extend(s.on_ack(seg + 1, rtt as f64 * 10.0));
            }
            in_flight = next;
            sizes.push(in_flight.len());
        }
        assert_eq!(sizes, vec![1, 2, 4, 8, 16, 32]);
    }

    #[test]
    fn three_duplicate_acks_trigger_fast_retransmit_and_halve_the_window() {
        let mut s = TcpSender::new(P);
        s.cwnd = 10_000.0;
        s.ssthresh = 5_000.0;
        let sent = s.send_new(0.0);
        assert_eq!(sent.len(), 10);
        // Segment 0 is lost: segments 1, 2, 3 each bring a duplicate ACK for 0.
        assert!(s.on_ack(0, 1.0).is_empty());
        assert!(s.on_ack(0, 1.0).is_empty());
        let out = s.on_ack(0, 1.0);
        assert_eq!(out.first(), Some(&0), "the lost segment is sent again at once");
        assert_eq!(s.fast_retransmits, 1);
        assert_eq!(s.ssthresh, 5_000.0, "half of the 10 segments in flight");
        assert_eq!(s.cwnd, 8_000.0, "ssthresh + 3 MSS");
        // The retransmission fills the hole: a full ACK ends recovery at ssthresh.
        s.on_ack(10, 2.0);
        assert_eq!(s.cwnd, 5_000.0);
        assert_eq!(s.timeouts, 0);
    }

    /// Segments 0 and 3 of a 10-segment window are lost; the other eight bring duplicate ACKs,
    /// the fast retransmission of 0 arrives, and the receiver acknowledges up to the second hole.
    fn partial_ack(recovery: Recovery) -> (TcpSender, Segments) {
        let mut s = TcpSender::new(TcpParams { recovery, ..P });
        s.cwnd = 10_000.0;
        s.ssthresh = 5_000.0;
        assert_eq!(s.send_new(0.0).len(), 10);
        let mut sent = Vec::new();
        for _ in [1, 2, 4, 5, 6, 7, 8, 9] {
            sent.extend(s.on_ack(0, 1.0));
        }
        assert_eq!(sent.first(), Some(&0), "fast retransmission after the third duplicate");
        assert_eq!(s.ssthresh, 5_000.0);
        let out = s.on_ack(3, 2.0);
        (s, out)
    }

    #[test]
    fn newreno_retransmits_the_next_hole_on_a_partial_ack_and_stays_in_recovery() {
        let (s, out) = partial_ack(Recovery::NewReno);
        assert_eq!(out.first(), Some(&3));
        assert!(s.recover.is_some());
        assert_eq!(s.fast_retransmits, 1);
    }

    #[test]
    fn reno_leaves_recovery_on_a_partial_ack_and_waits_for_new_duplicates() {
        let (s, out) = partial_ack(Recovery::Reno);
        assert!(!out.contains(&3), "Reno does not retransmit the second hole: {out:?}");
        assert!(s.recover.is_none());
        assert_eq!(s.cwnd, 5_000.0, "deflated to ssthresh");
    }

    #[test]
    fn a_timeout_resets_the_window_to_one_segment() {
        let mut s = TcpSender::new(P);
        s.cwnd = 8_000.0;
        s.send_new(0.0);
        // RTO 3 s at first = 30 ticks of 100 ms (+1 for the partial tick).
        let mut fired = Vec::new();
        for k in 1..=40 {
            fired = s.on_tick(k as f64 * 100.0);
            if !fired.is_empty() {
                break;
            }
        }
        assert_eq!(fired, vec![0], "go back to the oldest unacknowledged segment");
        assert_eq!(s.cwnd, 1_000.0);
        assert_eq!(s.ssthresh, 4_000.0);
        assert_eq!(s.timeouts, 1);
    }

    #[test]
    fn the_receiver_reassembles_frames_and_acks_cumulatively() {
        let mut r = TcpReceiver::new(3);
        let frame = |r: &mut TcpReceiver, seg| {
            r.on_cell(seg, false);
            r.on_cell(seg, false);
            r.on_cell(seg, true)
        };
        assert_eq!(frame(&mut r, 0), Some(1));
        assert_eq!(frame(&mut r, 2), Some(1), "out of order: duplicate ACK");
        assert_eq!(frame(&mut r, 1), Some(3), "the hole filled: ACK jumps over the held one");
        // A frame missing a cell is discarded whole.
        r.on_cell(3, false);
        assert_eq!(r.on_cell(3, true), Some(3));
        assert_eq!(r.discarded_frames, 1);
        // A lost end-of-frame cell merges two frames: both are lost.
        r.on_cell(4, false);
        r.on_cell(4, false);
        r.on_cell(5, false);
        r.on_cell(5, false);
        assert_eq!(r.on_cell(5, true), Some(3));
        assert_eq!(r.discarded_frames, 2);
        assert_eq!(r.received_segments, 3);
    }

    #[test]
    fn goodput_counts_a_segment_once_when_it_first_arrives_whole() {
        let mut r = TcpReceiver::new(1);
        // Segment 0 is lost; 1..=4 arrive whole behind the hole: each counts as it arrives, not
        // when the hole fills (else a window that ends just after the retransmission is credited
        // with data that crossed the link before it).
        for seg in 1..=4 {
            assert_eq!(r.on_cell(seg, true), Some(0));
        }
        assert_eq!(r.received_segments, 4);
        assert_eq!(r.on_cell(0, true), Some(5), "the retransmission fills the hole");
        assert_eq!(r.received_segments, 5);
        // Copies of segments already received (go-back-N after a timeout) count nothing.
        for seg in [0, 2, 4] {
            r.on_cell(seg, true);
        }
        r.on_cell(7, true);
        r.on_cell(7, true);
        assert_eq!(r.received_segments, 6);
    }
}
