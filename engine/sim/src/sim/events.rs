//! The clock: simulated time, the event queue and what each event is.
//!
//! Events at equal times run in insertion order (`seq`), so a run is a pure function of the
//! scenario. A std `BinaryHeap` keyed by (time, seq) holds them.

use crate::time::Time;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What happens at an event (the index is a port, connection, virtual source or virtual path).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// The head cell of a port's link ring reaches the far node.
    PortHead(u32),
    /// A connection's source may send (its next sending time).
    Source(u32),
    /// A scheduled (per-VC or priority) port finishes sending a cell.
    Depart(u32),
    /// A tick of a connection's TCP retransmission timer.
    TcpTick(u32),
    /// A virtual source at a VS/VD switch may send.
    VirtualSource(u32),
    /// A virtual path's source may send.
    VirtualPath(u32),
    /// The sampler records a row.
    Sample,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Event {
    time: Time,
    seq: u64,
    kind: EventKind,
}

impl Ord for Event {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap is a max-heap: the earliest (time, seq) must compare greatest.
        other.time.cmp(&self.time).then(other.seq.cmp(&self.seq))
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Simulated time and the events still to come.
pub struct Clock {
    pub now: Time,
    /// The end of the run.
    pub end: Time,
    seq: u64,
    heap: BinaryHeap<Event>,
    /// Events run so far.
    pub events: u64,
}

impl Clock {
    pub fn new(end: Time) -> Self {
        Clock { now: 0, end, seq: 0, heap: BinaryHeap::new(), events: 0 }
    }

    pub fn push(&mut self, time: Time, kind: EventKind) {
        self.seq += 1;
        self.heap.push(Event { time, seq: self.seq, kind });
    }

    /// The time of the next event, if there is one.
    pub fn next_time(&self) -> Option<Time> {
        self.heap.peek().map(|e| e.time)
    }

    pub fn pop(&mut self) -> Option<(Time, EventKind)> {
        self.heap.pop().map(|e| (e.time, e.kind))
    }

    /// Past the end, with nothing left to run before it.
    pub fn done(&self) -> bool {
        self.now >= self.end && self.next_time().is_none_or(|t| t > self.end)
    }
}
