//! The clock: simulated time, the event queue and what each event is.
//!
//! Events at equal times run in insertion order (`seq`), so a run is a pure function of the
//! scenario. A std `BinaryHeap` of packed (time, seq, kind) keys holds them.

use crate::time::Time;
use std::cmp::Reverse;
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

// An event is one u128 key: time (53 bits: up to 9,007 s in picoseconds) | seq (40 bits) |
// kind (3 bits) | index (32 bits), so that the heap compares plain integers and moves 16
// bytes. Every key is distinct (seq is), so the heap pops exactly the (time, seq) order.
const INDEX_BITS: u32 = 32;
const KIND_BITS: u32 = 3;
const SEQ_BITS: u32 = 40;
const TIME_SHIFT: u32 = SEQ_BITS + KIND_BITS + INDEX_BITS;
/// Times at or past this are stored as this: they lie beyond any run's end and never run.
const TIME_CAP: Time = (1 << (128 - TIME_SHIFT)) - 1;
const SEQ_LIMIT: u64 = 1 << SEQ_BITS;

impl EventKind {
    fn pack(self) -> u128 {
        let (kind, index) = match self {
            EventKind::PortHead(i) => (0, i),
            EventKind::Source(i) => (1, i),
            EventKind::Depart(i) => (2, i),
            EventKind::TcpTick(i) => (3, i),
            EventKind::VirtualSource(i) => (4, i),
            EventKind::VirtualPath(i) => (5, i),
            EventKind::Sample => (6, 0),
        };
        ((kind as u128) << INDEX_BITS) | index as u128
    }

    fn unpack(key: u128) -> EventKind {
        let index = key as u32;
        match (key >> INDEX_BITS) as u8 & ((1 << KIND_BITS) - 1) {
            0 => EventKind::PortHead(index),
            1 => EventKind::Source(index),
            2 => EventKind::Depart(index),
            3 => EventKind::TcpTick(index),
            4 => EventKind::VirtualSource(index),
            5 => EventKind::VirtualPath(index),
            _ => EventKind::Sample,
        }
    }
}

fn key(time: Time, seq: u64, kind: EventKind) -> u128 {
    ((time.min(TIME_CAP) as u128) << TIME_SHIFT) | ((seq as u128) << (KIND_BITS + INDEX_BITS)) | kind.pack()
}

fn time_of(key: u128) -> Time {
    (key >> TIME_SHIFT) as Time
}

/// Simulated time and the events still to come.
pub struct Clock {
    pub now: Time,
    /// The end of the run.
    pub end: Time,
    seq: u64,
    heap: BinaryHeap<Reverse<u128>>,
    /// Events run so far.
    pub events: u64,
}

impl Clock {
    pub fn new(end: Time) -> Self {
        assert!(end < TIME_CAP, "a run ends before {TIME_CAP} ps");
        Clock { now: 0, end, seq: 0, heap: BinaryHeap::new(), events: 0 }
    }

    #[inline]
    pub fn push(&mut self, time: Time, kind: EventKind) {
        self.seq += 1;
        if self.seq == SEQ_LIMIT {
            self.renumber();
        }
        self.heap.push(Reverse(key(time, self.seq, kind)));
    }

    /// After 2⁴⁰ pushes, numbers the pending events afresh in their order (which it keeps).
    #[cold]
    fn renumber(&mut self) {
        let mut pending: Vec<u128> = std::mem::take(&mut self.heap).into_iter().map(|Reverse(k)| k).collect();
        pending.sort_unstable();
        self.seq = 0;
        for k in pending {
            self.seq += 1;
            self.heap.push(Reverse(key(time_of(k), self.seq, EventKind::unpack(k))));
        }
        self.seq += 1;
    }

    /// The time of the next event, if there is one.
    pub fn next_time(&self) -> Option<Time> {
        self.heap.peek().map(|Reverse(k)| time_of(*k))
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(Time, EventKind)> {
        self.heap.pop().map(|Reverse(k)| (time_of(k), EventKind::unpack(k)))
    }

    /// Past the end, with nothing left to run before it.
    pub fn done(&self) -> bool {
        self.now >= self.end && self.next_time().is_none_or(|t| t > self.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Against a sorted list: events come out by time, ties in the order they were pushed,
    /// with pushes and pops interleaved as the event loop does.
    #[test]
    fn events_pop_by_time_then_insertion_order() {
        let mut rng = SplitMix64::new(7, 0);
        let mut clock = Clock::new(1 << 40);
        let mut expected: Vec<(Time, u64)> = Vec::new();
        let mut got = Vec::new();
        let mut now = 0;
        for round in 0..20_000u64 {
            let pushes = (rng.uniform() * 3.0) as usize;
            for _ in 0..pushes {
                // Few distinct times, so that ties are common; some far ahead.
                let t = now
                    + match round % 3 {
                        0 => (rng.uniform() * 8.0) as Time,
                        1 => ((rng.uniform() * 8.0) as Time) << 20,
                        _ => ((rng.uniform() * 8.0) as Time) << 31,
                    };
                clock.push(t, EventKind::Source(round as u32));
                expected.push((t, clock.seq));
            }
            if rng.uniform() < 0.5 {
                if let Some((t, _)) = clock.pop() {
                    assert!(t >= now, "time never goes back");
                    now = t;
                    got.push(t);
                }
            }
        }
        while let Some((t, _)) = clock.pop() {
            got.push(t);
        }
        // The pops are sorted by time, and the seq order within a time is the push order:
        // check both against the list sorted by (time, seq).
        expected.sort_unstable();
        assert_eq!(got, expected.iter().map(|e| e.0).collect::<Vec<_>>());
    }

    #[test]
    fn kinds_survive_packing_and_late_times_are_capped_beyond_the_end() {
        let kinds = [
            EventKind::PortHead(u32::MAX),
            EventKind::Source(7),
            EventKind::Depart(0),
            EventKind::TcpTick(3),
            EventKind::VirtualSource(9),
            EventKind::VirtualPath(11),
            EventKind::Sample,
        ];
        let mut clock = Clock::new(1_000);
        for (i, k) in kinds.iter().enumerate() {
            clock.push(i as Time, *k);
        }
        clock.push(Time::MAX, EventKind::Source(1));
        for (i, k) in kinds.iter().enumerate() {
            assert_eq!(clock.pop(), Some((i as Time, *k)));
        }
        assert_eq!(clock.next_time(), Some(TIME_CAP), "a time past the cap waits beyond every end");
    }

    #[test]
    fn renumbering_keeps_the_order_of_pending_events() {
        let mut clock = Clock::new(1_000);
        for i in 0..10 {
            clock.push(5, EventKind::Source(i));
        }
        clock.seq = SEQ_LIMIT - 2;
        clock.push(5, EventKind::Source(10)); // seq 2⁴⁰ − 1
        clock.push(5, EventKind::Source(11)); // renumbers, then takes the next number
        clock.push(4, EventKind::Sample);
        assert_eq!(clock.pop(), Some((4, EventKind::Sample)));
        for i in 0..12 {
            assert_eq!(clock.pop(), Some((5, EventKind::Source(i))));
        }
    }

    #[test]
    fn equal_times_keep_insertion_order() {
        let mut clock = Clock::new(1 << 40);
        for i in 0..100 {
            clock.push(5, EventKind::Source(i));
        }
        clock.push(3, EventKind::Sample);
        assert_eq!(clock.pop(), Some((3, EventKind::Sample)));
        for i in 0..100 {
            assert_eq!(clock.pop(), Some((5, EventKind::Source(i))));
        }
        assert_eq!(clock.pop(), None);
    }
}
