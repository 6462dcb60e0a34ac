//! The RM-cell trace: on demand, one record per RM-cell event, in a bounded buffer.
//!
//! ```text
//!  S1 ──sent──► SW1 ──forward──► SW2 ──forward──► D1
//!                                                   │ turnaround (destination, VD, VPC end)
//!  S1 ◄─received── SW1 ◄─backward── SW2 ◄─backward──┘   (a switch may lower ER: `by`)
//! ```
//!
//! * `sent`: a forward RM cell leaves its source or virtual source (node = the source's).
//! * `forward`: it enters a switch's output port (the port's algorithm has seen it: FECN
//!   writes its advertised rate into a forward tag here).
//! * `turnaround`: a destination, a virtual destination (VS/VD switch: its algorithm and the
//!   virtual source's ACR may lower ER) or a virtual path's last switch sends it back.
//! * `backward`: a backward RM cell passes a switch, whose forward port's algorithm writes
//!   feedback into it (`on_brm`).
//! * `received`: it reaches the source (or virtual source) whose loop it closes.
//! * `notification`: a switch sends a source a backward notification of its own (QCN's
//!   congestion notification): no ER, but a feedback value without a unit (QCN's quantised
//!   |Fb|), which the record gives as `feedback` (and the CSV in its ER columns).
//! * `lost`: an output port's full buffer (or its discard policy) drops it, forward or backward
//!   (node = the port's); the cell's last record.
//!
//! `rm_seq` numbers the RM cells of each control loop from 0 (a source's, or a virtual
//! source's: with VS/VD, the loops of one connection each count their own, and the turnaround
//! node tells them apart); a switch's notifications are numbered per connection apart.
//!
//! Off (the default), the trace costs one branch per `Simulation::advance` call: the event loop
//! is compiled twice, with and without the recording code (a `const TRACE: bool` parameter),
//! and the run without it has none. On, it keeps the **newest** `capacity` events: when full, the
//! oldest is dropped and counted (`dropped`); a reader that drains it (`take`) often enough
//! loses nothing. Recording reads cells and never changes them, so a run's samples and digest
//! are the same with the trace on or off (a test checks this over the library).

use crate::network::Network;
use crate::time::{Time, PS_PER_US};
use serde::Serialize;
use std::collections::VecDeque;
use ts_rs::TS;

const EXPORT_TO: &str = "../../../web/src/contract/generated/";

/// Where in its loop an RM cell is when recorded (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = EXPORT_TO, rename = "RmDirection")]
pub enum Direction {
    Sent,
    Forward,
    Turnaround,
    Backward,
    Received,
    Notification,
    Lost,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Sent => "sent",
            Direction::Forward => "forward",
            Direction::Turnaround => "turnaround",
            Direction::Backward => "backward",
            Direction::Received => "received",
            Direction::Notification => "notification",
            Direction::Lost => "lost",
        }
    }

    /// Every direction, in loop order.
    pub const ALL: [Direction; 7] = [
        Direction::Sent,
        Direction::Forward,
        Direction::Turnaround,
        Direction::Backward,
        Direction::Received,
        Direction::Notification,
        Direction::Lost,
    ];

    /// The direction named `name` (its `as_str`), if any.
    pub fn parse(name: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.as_str() == name)
    }
}

/// One RM-cell event as the engine keeps it: indices and engine units, resolved to ids and
/// Mbps by [`RmRecord::new`] when taken.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RmEvent {
    pub time: Time,
    /// Connection index.
    pub conn: u32,
    pub seq: u32,
    /// Node index.
    pub node: u32,
    pub direction: Direction,
    /// ER as the cell came (cells/s; negative: a rate-discovery tag no switch has written yet).
    pub er_in: f64,
    /// ER as the cell left (cells/s).
    pub er_out: f64,
    pub ccr: f64,
    /// The cell's `flag` bits as it left.
    pub flags: u8,
    /// The algorithm that lowered ER here (or `virtual_source` at a VS/VD turnaround, when the
    /// virtual source's ACR did).
    pub by: Option<&'static str>,
    /// At `received` by a connection's source: its allowed rate (cells/s) just before the cell
    /// and just after it (NaN elsewhere).
    pub acr: [f64; 2],
}

/// The bounded buffer of RM-cell events.
#[derive(Debug, Clone, Default)]
pub struct RmTrace {
    on: bool,
    capacity: usize,
    events: VecDeque<RmEvent>,
    dropped: u64,
}

impl RmTrace {
    /// Starts recording, keeping the newest `capacity` events; 0 stops and clears the buffer.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.on = capacity > 0;
        self.capacity = capacity;
        while self.events.len() > capacity {
            self.events.pop_front();
            self.dropped += 1;
        }
        if !self.on {
            self.events = VecDeque::new();
        }
    }

    /// Whether events are recorded (read once per `Simulation::advance`).
    #[inline(always)]
    pub fn on(&self) -> bool {
        self.on
    }

    pub fn push(&mut self, e: RmEvent) {
        if self.events.len() >= self.capacity {
            self.events.pop_front();
            self.dropped += 1;
        }
        self.events.push_back(e);
    }

    /// The event just recorded (if it is kept).
    pub(crate) fn last_mut(&mut self) -> Option<&mut RmEvent> {
        self.events.back_mut()
    }

    /// The events recorded since the last call, oldest first.
    pub fn take(&mut self) -> Vec<RmEvent> {
        self.events.drain(..).collect()
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Events dropped because the buffer was full (the oldest go first).
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Events recorded so far, kept or dropped (taking them does not count): a mark for
    /// [`RmTrace::since`].
    pub fn recorded(&self) -> u64 {
        self.dropped + self.events.len() as u64
    }

    /// The events recorded after the mark `recorded` (as [`RmTrace::recorded`] was then) and
    /// still kept, oldest first; nothing was taken in between.
    pub fn since(&self, recorded: u64) -> impl Iterator<Item = &RmEvent> {
        let new = self.recorded().saturating_sub(recorded).min(self.events.len() as u64) as usize;
        self.events.range(self.events.len() - new..)
    }
}

/// One RM-cell event as it leaves the engine (the wasm `takeRmTrace` JSON and, column for
/// column, the CLI's `--rm-trace` CSV, whose columns are a contract: BN, added later, is in the
/// JSON only). Rates are `null` when unknown (a FECN tag no switch has written).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct RmRecord {
    pub time_us: f64,
    /// Connection id.
    pub connection: String,
    pub rm_seq: u32,
    /// Node id.
    pub node: String,
    pub direction: Direction,
    pub er_in_mbps: Option<f64>,
    pub er_out_mbps: Option<f64>,
    pub ccr_mbps: Option<f64>,
    /// Congestion indication (decrease) as the cell left.
    pub ci: bool,
    /// No increase, as the cell left.
    pub ni: bool,
    /// Backward notification: the cell was made by a switch (or a destination's notification),
    /// not turned around by the destination (JSON only, not a CSV column).
    pub bn: bool,
    /// The algorithm id that lowered ER at this node, or "".
    pub by: String,
    /// The virtual path whose own RM cell this is, or "": a path's RM cells travel under its
    /// first member connection's index, so `connection` names that member (JSON only, not a
    /// CSV column).
    pub vp: String,
    /// A notification's feedback value, which has no unit (QCN's quantised |Fb|), where it is
    /// sent and where it is received; its ER and CCR fields are then null (JSON only: the CSV
    /// writes it in its ER columns).
    pub feedback: Option<f64>,
    /// At `received` by a connection's source: its allowed rate (ACR; an Ethernet source's
    /// rate limit) just before the cell and just after the source applied it (JSON only).
    pub acr_before_mbps: Option<f64>,
    pub acr_after_mbps: Option<f64>,
}

/// The CSV columns, in order (a contract: `abrsim run --rm-trace`).
pub const CSV_COLUMNS: [&str; 11] =
    ["time_us", "connection", "rm_seq", "node", "direction", "er_in_mbps", "er_out_mbps", "ccr_mbps", "ci", "ni", "by"];

impl RmRecord {
    pub fn new(e: &RmEvent, net: &Network) -> Self {
        let mbps = |rate: f64| (rate >= 0.0).then(|| rate * net.unit_bits / 1e6);
        // A switch's notification (BN = 1, QCN's) carries feedback, not a rate, and no CCR, as
        // it leaves the switch and as its source receives it.
        let notification = e.flags & crate::cell::flag::BN != 0;
        let er = |rate: f64| if notification { None } else { mbps(rate) };
        RmRecord {
            time_us: e.time as f64 / PS_PER_US as f64,
            connection: net.conns[e.conn as usize].id.clone(),
            rm_seq: e.seq,
            node: net.node_ids[e.node as usize].clone(),
            direction: e.direction,
            er_in_mbps: er(e.er_in),
            er_out_mbps: er(e.er_out),
            ccr_mbps: er(e.ccr),
            ci: e.flags & crate::cell::flag::CI != 0,
            ni: e.flags & crate::cell::flag::NI != 0,
            bn: e.flags & crate::cell::flag::BN != 0,
            by: e.by.unwrap_or("").to_string(),
            vp: if e.flags & crate::cell::flag::VP != 0 {
                // A connection is a member of one path at most, so it carries that one's cells.
                net.vp.iter().find(|v| v.carrier == e.conn as usize).map_or(String::new(), |v| v.id.clone())
            } else {
                String::new()
            },
            feedback: notification.then_some(e.er_out),
            // NaN (not a source's `received`) is no rate.
            acr_before_mbps: mbps(e.acr[0]),
            acr_after_mbps: mbps(e.acr[1]),
        }
    }

    /// The record as one CSV line in `CSV_COLUMNS` order (no newline; an unknown rate is empty).
    pub fn csv_line(&self) -> String {
        let num = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
        [
            self.time_us.to_string(),
            self.connection.clone(),
            self.rm_seq.to_string(),
            self.node.clone(),
            self.direction.as_str().to_string(),
            num(self.er_in_mbps.or(self.feedback)),
            num(self.er_out_mbps.or(self.feedback)),
            num(self.ccr_mbps),
            (self.ci as u8).to_string(),
            (self.ni as u8).to_string(),
            self.by.clone(),
        ]
        .join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(time: Time) -> RmEvent {
        RmEvent {
            time,
            conn: 0,
            seq: 0,
            node: 0,
            direction: Direction::Sent,
            er_in: 1.0,
            er_out: 1.0,
            ccr: 1.0,
            flags: 0,
            by: None,
            acr: [f64::NAN; 2],
        }
    }

    #[test]
    fn a_full_buffer_keeps_the_newest_and_counts_the_dropped() {
        let mut t = RmTrace::default();
        assert!(!t.on(), "off by default");
        t.set_capacity(3);
        for k in 0..5 {
            t.push(event(k));
        }
        assert_eq!(t.dropped(), 2);
        assert_eq!(t.take().iter().map(|e| e.time).collect::<Vec<_>>(), vec![2, 3, 4]);
        assert!(t.is_empty(), "take drains");
        t.set_capacity(0);
        assert!(!t.on());
    }
}
