//! The clock: simulated time, the event queue and what each event is.
//!
//! Events at equal times run in insertion order (`seq`), so a run is a pure function of the
//! scenario. Packed (time, seq, kind) keys wait in a [`Queue`]: a sorted run for the many events
//! that come after nearly all pending ones, a binary min-heap ([`Heap`]) for the rest. A large
//! network (many sources, each with an event pending milliseconds ahead) adds a calendar in
//! front of it ([`Calendar`]): events beyond a horizon wait in time buckets and enter the queue
//! when the horizon reaches them, so the queue holds only the near future and its heap stays
//! shallow. Keys are the same either way, so the order of events — and every run — is identical
//! with or without it.

use crate::time::Time;

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
    /// A TCP connection's randomly delayed segments may join its host queue.
    TcpRelease(u32),
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
/// Times at or past this are stored as this: they lie beyond any run's end and never run. It is
/// one below the field's largest value, so that no key is `u128::MAX`, which marks "no event".
const TIME_CAP: Time = (1 << (128 - TIME_SHIFT)) - 2;
const NO_EVENT: u128 = u128::MAX;
const SEQ_LIMIT: u64 = 1 << SEQ_BITS;

impl EventKind {
    /// The kind's number in a key is its place in the enum (nothing orders by it: seq is
    /// above it), so that packing and unpacking map each to itself.
    fn pack(self) -> u128 {
        let (kind, index) = match self {
            EventKind::PortHead(i) => (0, i),
            EventKind::Source(i) => (1, i),
            EventKind::Depart(i) => (2, i),
            EventKind::TcpTick(i) => (3, i),
            EventKind::TcpRelease(i) => (4, i),
            EventKind::VirtualSource(i) => (5, i),
            EventKind::VirtualPath(i) => (6, i),
            EventKind::Sample => (7, 0),
        };
        ((kind as u128) << INDEX_BITS) | index as u128
    }

    #[inline(always)]
    fn unpack(key: u128) -> EventKind {
        let index = key as u32;
        match (key >> INDEX_BITS) as u8 & ((1 << KIND_BITS) - 1) {
            0 => EventKind::PortHead(index),
            1 => EventKind::Source(index),
            2 => EventKind::Depart(index),
            3 => EventKind::TcpTick(index),
            4 => EventKind::TcpRelease(index),
            5 => EventKind::VirtualSource(index),
            6 => EventKind::VirtualPath(index),
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
#[derive(Clone)]
pub struct Clock {
    pub now: Time,
    /// The end of the run.
    pub end: Time,
    seq: u64,
    queue: Queue,
    calendar: Option<Calendar>,
    /// Events run so far.
    pub events: u64,
}

/// The events before the calendar's horizon (all of them without a calendar): a sorted run
/// for those that come after all but a few of its keys, a heap for the others.
///
/// Most events schedule their successor after nearly everything pending: a source's next
/// send comes after the other sources' sends, and behind those only the sampler's next row
/// and a few far cells wait. Such a key joins the run's end, passing fewer than `RUN_REACH`
/// keys, and leaves from its front: a few instructions each way where the heap takes a pass
/// over its levels. Keys that would pass more (a cell arriving soon, an event among thousands
/// of far ones) go to the heap. A pop takes the lesser of the two firsts; keys are distinct,
/// so the order is exactly the (time, seq) order either way.
///
/// On the ten-source benchmark 85 % of the keys join the run, and a delivered cell costs 868
/// instructions instead of 960 with the heap alone (−8 % on scale-10, scale-1000 and
/// tcp-over-abr too). Where most keys land among the pending ones (gfc1, core-edge, vsvd-1,
/// each with 25–2,000 pending) the run's test costs up to 1.7 % more.
#[derive(Clone, Default)]
struct Queue {
    run: Run,
    heap: Heap,
}

/// A key passes at most this many of the run's keys to join it.
const RUN_REACH: usize = 8;
/// The run's places at first (it grows when more than half are in use).
const RUN_PLACES: usize = 64;

/// Keys in ascending order in `keys[head..end]`; every place from `end` on holds `NO_EVENT`,
/// and there is always one, so the first key is `keys[head]` (`NO_EVENT` when the run is
/// empty). A pop moves `head` on; the places before it are reused when the run needs room.
#[derive(Clone)]
struct Run {
    keys: Vec<u128>,
    head: usize,
    end: usize,
}

impl Default for Run {
    fn default() -> Self {
        Run { keys: vec![NO_EVENT; RUN_PLACES], head: 0, end: 0 }
    }
}

impl Run {
    fn len(&self) -> usize {
        self.end - self.head
    }

    #[inline(always)]
    fn first(&self) -> u128 {
        debug_assert!(self.head <= self.end && self.end < self.keys.len());
        // SAFETY: head ≤ end < keys.len() always (`insert` makes room before `end` would reach it).
        unsafe { *self.keys.get_unchecked(self.head) }
    }

    /// Drops the first key.
    #[inline(always)]
    fn advance(&mut self) {
        debug_assert!(self.head < self.end);
        self.head += 1;
    }

    /// Puts `key` in its place if it comes after all but fewer than `RUN_REACH` of the run's
    /// keys, moving those one place on; otherwise leaves the run as it was and says so.
    ///
    /// `NEWEST`: the key's seq is the largest of all pending keys (it was just numbered). Then
    /// `a > key` for a key `a` in the run exactly when `a`'s high 64 bits (its time and the
    /// top of its seq) exceed `key`'s: equal high bits mean an equal time and a lesser seq. One
    /// 64-bit comparison, not two (in wasm, five instructions fewer at every key passed).
    #[inline(always)]
    fn insert<const NEWEST: bool>(&mut self, key: u128) -> bool {
        let after = |a: u128| if NEWEST { (a >> 64) as u64 > (key >> 64) as u64 } else { a > key };
        if self.end + 1 >= self.keys.len() {
            self.make_room();
        }
        let (head, end) = (self.head, self.end);
        debug_assert!(end + 1 < self.keys.len());
        let keys = self.keys.as_mut_ptr();
        // SAFETY: every index below is in head..=end, and end < keys.len() (just checked).
        unsafe {
            let mut i = end;
            if end - head >= RUN_REACH {
                if after(*keys.add(end - RUN_REACH)) {
                    return false;
                }
                // keys[end - RUN_REACH] < key (keys are distinct) stops the pass above it.
                while after(*keys.add(i - 1)) {
                    *keys.add(i) = *keys.add(i - 1);
                    i -= 1;
                }
            } else {
                while i > head && after(*keys.add(i - 1)) {
                    *keys.add(i) = *keys.add(i - 1);
                    i -= 1;
                }
            }
            *keys.add(i) = key;
        }
        self.end = end + 1;
        true
    }

    /// Moves the keys to the front (the places before `head` are free) and, if they fill more
    /// than half the places, doubles them: a key is moved here at most once for each insert.
    #[cold]
    fn make_room(&mut self) {
        let (head, end) = (self.head, self.end);
        self.keys.copy_within(head..end, 0);
        self.keys[end - head..end].fill(NO_EVENT);
        (self.head, self.end) = (0, end - head);
        if 2 * (self.end + 1) > self.keys.len() {
            self.keys.resize(2 * self.keys.len(), NO_EVENT);
        }
    }

    /// Takes every key out.
    fn take_all(&mut self) -> Vec<u128> {
        let keys = self.keys[self.head..self.end].to_vec();
        *self = Run::default();
        keys
    }
}

impl Queue {
    fn is_empty(&self) -> bool {
        self.run.len() == 0 && self.heap.is_empty()
    }

    fn peek(&self) -> Option<u128> {
        let least = self.heap.peek().unwrap_or(NO_EVENT).min(self.run.first());
        (least != NO_EVENT).then_some(least)
    }

    /// Puts `key` in the run or the heap. `NEWEST`: its seq is the largest of all pending
    /// keys (see `Run::insert`).
    #[inline(always)]
    fn push<const NEWEST: bool>(&mut self, key: u128) {
        if !self.run.insert::<NEWEST>(key) {
            self.heap.push(key);
        }
    }

    /// The least key, if its time is at most `limit` (at most `TIME_CAP`).
    #[inline(always)]
    fn pop_through(&mut self, limit: Time) -> Option<u128> {
        debug_assert!(limit <= TIME_CAP);
        self.heap.settle();
        let (h, r) = (self.heap.first(), self.run.first());
        // An empty queue's least is NO_EVENT, whose time is past TIME_CAP. The high halves
        // decide nearly always (wasm compares a u128 in two halves and then combines them).
        let (rh, hh) = ((r >> 64) as u64, (h >> 64) as u64);
        if rh < hh || (rh == hh && r < h) {
            if time_of(r) > limit {
                return None;
            }
            self.run.advance();
            Some(r)
        } else {
            if time_of(h) > limit {
                return None;
            }
            self.heap.taken = true;
            Some(h)
        }
    }

    /// Takes every key out, in no particular order.
    fn take_all(&mut self) -> Vec<u128> {
        let mut keys = self.heap.take_all();
        keys.append(&mut self.run.take_all());
        keys
    }
}

/// A binary min-heap of keys. Before the run took most keys, the heap's pops and pushes were
/// about a sixth of a run's instructions; it was small (a source's next send each, a few
/// cells' arrivals, the sampler), and there a pass down with one comparison per child and two
/// children a level costs fewer instructions and fewer mispredicted branches than four
/// children a level (a four-ary heap took 1.4 % more instructions on the ten-source benchmark,
/// 1.8 % more on scale-1000 and 5.9 % more on tcp-over-abr; 0.2 % fewer on gfc1).
///
/// A pop leaves its key at the root, marked taken, and the next push fills that place,
/// sifting down from the root: an event that schedules its successor (a source's next send,
/// a port's next head cell) then costs one pass down the heap instead of a pass down for the
/// pop and one up for the push. The order of keys is the same either way.
#[derive(Clone, Default)]
struct Heap {
    keys: Vec<u128>,
    /// The root's key has been popped: its place waits for the next push (or a pop).
    taken: bool,
}

impl Heap {
    fn len(&self) -> usize {
        self.keys.len() - self.taken as usize
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The least key. With the root taken, it is the least of the root's children (each the
    /// least of its subtree).
    fn peek(&self) -> Option<u128> {
        if self.taken {
            self.keys[1..self.keys.len().min(3)].iter().copied().min()
        } else {
            self.keys.first().copied()
        }
    }

    #[inline]
    fn push(&mut self, key: u128) {
        if self.taken {
            self.taken = false;
            self.sift_down(key);
            return;
        }
        let mut i = self.keys.len();
        self.keys.push(key);
        while i > 0 {
            let parent = (i - 1) / 2;
            let above = self.keys[parent];
            if above <= key {
                break;
            }
            self.keys[i] = above;
            i = parent;
        }
        self.keys[i] = key;
    }

    /// Fills a taken root's place with the last key.
    #[inline(always)]
    fn settle(&mut self) {
        if self.taken {
            self.taken = false;
            let last = self.keys.pop().expect("the taken root");
            if !self.keys.is_empty() {
                self.sift_down(last);
            }
        }
    }

    /// The least key of a settled heap, `NO_EVENT` if it is empty. Its pop is `taken = true`.
    #[inline(always)]
    fn first(&self) -> u128 {
        debug_assert!(!self.taken);
        self.keys.first().copied().unwrap_or(NO_EVENT)
    }

    /// Puts `key` in the root's place (whose key is gone), moving it down to where it belongs.
    #[inline]
    fn sift_down(&mut self, key: u128) {
        let n = self.keys.len();
        let mut i = 0;
        loop {
            let first = 2 * i + 1;
            if first + 2 <= n {
                let (l, r) = (self.keys[first], self.keys[first + 1]);
                let (least, at) = if r < l { (r, first + 1) } else { (l, first) };
                if least >= key {
                    break;
                }
                self.keys[i] = least;
                i = at;
            } else {
                if first < n && self.keys[first] < key {
                    self.keys[i] = self.keys[first];
                    i = first;
                }
                break;
            }
        }
        self.keys[i] = key;
    }

    /// Takes every key out, in no particular order.
    fn take_all(&mut self) -> Vec<u128> {
        if std::mem::take(&mut self.taken) {
            self.keys.swap_remove(0);
        }
        std::mem::take(&mut self.keys)
    }
}

/// Far events in buckets of `2^width_log2` picoseconds: the heap holds every event before
/// `horizon`, bucket `(first + k) % N` those in `[horizon + k·width, horizon + (k + 1)·width)`,
/// and `overflow` those beyond the buckets' span (placed in buckets once a turn of the ring).
/// Width and count are powers of two, so placing an event is a shift and a mask.
#[derive(Clone)]
struct Calendar {
    width_log2: u32,
    horizon: Time,
    first: usize,
    buckets: Vec<Vec<u128>>,
    overflow: Vec<u128>,
    /// Events in the buckets and the overflow.
    len: usize,
}

impl Calendar {
    fn span(&self) -> Time {
        (self.buckets.len() as Time) << self.width_log2
    }

    /// Where an event at `time` (not before the horizon) waits.
    #[inline]
    fn place(&mut self, time: Time, key: u128) {
        let k = (time - self.horizon) >> self.width_log2;
        if k < self.buckets.len() as Time {
            let mask = self.buckets.len() - 1;
            self.buckets[(self.first + k as usize) & mask].push(key);
        } else {
            self.overflow.push(key);
        }
    }

    /// Moves the next non-empty stretch of time into the queue; the queue was empty.
    fn refill(&mut self, queue: &mut Queue) {
        debug_assert!(queue.is_empty() && self.len > 0);
        if self.len == self.overflow.len() {
            // Nothing in the buckets: jump to the first overflow event.
            let earliest = self.overflow.iter().map(|&k| time_of(k)).min().expect("an overflow event");
            self.horizon = earliest;
            self.first = 0;
        }
        while queue.is_empty() {
            if self.first == 0 {
                self.place_overflow();
            }
            let bucket = &mut self.buckets[self.first];
            self.len -= bucket.len();
            for key in bucket.drain(..) {
                // Older keys, in no particular order.
                queue.push::<false>(key);
            }
            self.horizon += 1 << self.width_log2;
            self.first = (self.first + 1) & (self.buckets.len() - 1);
        }
    }

    /// Overflow events now within the buckets' span go to their buckets.
    fn place_overflow(&mut self) {
        let end = self.horizon + self.span();
        let mut i = 0;
        while i < self.overflow.len() {
            let key = self.overflow[i];
            if time_of(key) < end {
                self.overflow.swap_remove(i);
                self.place(time_of(key), key);
            } else {
                i += 1;
            }
        }
    }
}

impl Clock {
    pub fn new(end: Time) -> Self {
        assert!(end < TIME_CAP, "a run ends before {TIME_CAP} ps");
        Clock { now: 0, end, seq: 0, queue: Queue::default(), calendar: None, events: 0 }
    }

    /// A clock for a large network: far events wait in `2^buckets_log2` buckets of
    /// `2^width_log2` picoseconds before they enter the heap (see [`Calendar`]).
    pub fn with_calendar(end: Time, width_log2: u32, buckets_log2: u32) -> Self {
        let mut clock = Clock::new(end);
        clock.calendar = Some(Calendar {
            width_log2,
            horizon: 0,
            first: 0,
            buckets: vec![Vec::new(); 1 << buckets_log2],
            overflow: Vec::new(),
            len: 0,
        });
        clock
    }

    #[inline]
    pub fn push(&mut self, time: Time, kind: EventKind) {
        self.seq += 1;
        if self.seq == SEQ_LIMIT {
            self.renumber();
        }
        self.insert(key(time, self.seq, kind));
    }

    /// Puts a key where it waits: the heap, or the calendar's buckets if it is beyond the horizon.
    #[inline]
    fn insert(&mut self, k: u128) {
        match &mut self.calendar {
            Some(cal) if time_of(k) >= cal.horizon => {
                cal.place(time_of(k), k);
                cal.len += 1;
                if self.queue.is_empty() {
                    cal.refill(&mut self.queue);
                }
            }
            _ => self.queue.push::<true>(k),
        }
    }

    /// After 2⁴⁰ pushes, numbers the pending events afresh in their order (which it keeps).
    #[cold]
    fn renumber(&mut self) {
        let mut pending: Vec<u128> = self.queue.take_all();
        if let Some(cal) = &mut self.calendar {
            pending.extend(cal.buckets.iter_mut().flat_map(|b| b.drain(..)));
            pending.append(&mut cal.overflow);
            cal.len = 0;
        }
        pending.sort_unstable();
        self.seq = 0;
        for k in pending {
            self.seq += 1;
            self.insert(key(time_of(k), self.seq, EventKind::unpack(k)));
        }
        self.seq += 1;
    }

    /// The time of the next event, if there is one.
    pub fn next_time(&self) -> Option<Time> {
        self.queue.peek().map(time_of)
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(Time, EventKind)> {
        self.pop_through(TIME_CAP)
    }

    /// The next event, if it comes at or before `limit`: `next_time` and `pop` in one.
    /// Always inlined: wasm would otherwise return the event through memory.
    #[inline(always)]
    pub fn pop_through(&mut self, limit: Time) -> Option<(Time, EventKind)> {
        let popped = self.queue.pop_through(limit.min(TIME_CAP)).map(|k| (time_of(k), EventKind::unpack(k)));
        if let Some(cal) = &mut self.calendar {
            // The queue holds the earliest events whenever there are any.
            if self.queue.is_empty() && cal.len > 0 {
                cal.refill(&mut self.queue);
            }
        }
        popped
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
        pops_by_time_then_insertion_order(Clock::new(1 << 40));
    }

    #[test]
    fn a_calendar_in_front_of_the_heap_pops_the_very_same_order() {
        // Buckets narrower and wider than the gaps, a span shorter than the far events.
        for (width_log2, buckets_log2) in [(0, 2), (2, 4), (18, 3), (30, 6)] {
            pops_by_time_then_insertion_order(Clock::with_calendar(1 << 40, width_log2, buckets_log2));
        }
    }

    fn pops_by_time_then_insertion_order(mut clock: Clock) {
        let mut rng = SplitMix64::new(7, 0);
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

    /// The benchmark's pattern, which keeps the run in use: sources that each schedule their
    /// next send about a round ahead (so a key passes a few others, sometimes more than
    /// `RUN_REACH`), cells arriving soon, a sampler far ahead. Every pop is checked against
    /// a reference queue ordered by (time, push order), through many of the run's compactions
    /// and growths as the number of sources changes.
    #[test]
    fn a_round_of_sources_pops_exactly_in_time_then_push_order() {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        for mut clock in [Clock::new(1 << 40), Clock::with_calendar(1 << 40, 6, 3)] {
            let mut rng = SplitMix64::new(11, 0);
            let mut reference = BinaryHeap::new();
            let mut pushes = 0u32;
            let mut push = |clock: &mut Clock, reference: &mut BinaryHeap<_>, t: Time| {
                clock.push(t, EventKind::Source(pushes));
                reference.push(Reverse((t, pushes)));
                pushes += 1;
            };
            push(&mut clock, &mut reference, 1_000_000);
            for i in 0..5 {
                push(&mut clock, &mut reference, i);
            }
            let mut sources = 5;
            while let Some((now, kind)) = clock.pop() {
                let Reverse((t, i)) = reference.pop().expect("as many events as the reference");
                assert_eq!((now, kind), (t, EventKind::Source(i)));
                if now >= 1 << 20 {
                    continue;
                }
                // Each event schedules its successor (a round of 10 per source ahead, or soon);
                // between 5 and 40 sources, with ties.
                let round = 10 * sources as Time;
                let jitter = (rng.uniform() * 4.0) as Time;
                match rng.uniform() {
                    u if u < 0.1 => push(&mut clock, &mut reference, now + jitter),
                    u if u < 0.95 => push(&mut clock, &mut reference, now + round + jitter - 2),
                    u if u < 0.975 && sources < 40 => {
                        sources += 1;
                        push(&mut clock, &mut reference, now + round);
                        push(&mut clock, &mut reference, now + jitter);
                    }
                    _ if sources > 5 => sources -= 1,
                    _ => push(&mut clock, &mut reference, now + round),
                }
            }
            assert!(reference.is_empty(), "the clock lost events");
            assert!(pushes > 100_000, "a long run: {pushes} events");
        }
    }

    /// `pop_through` takes the events through its limit, in order, and leaves the later ones
    /// where they were (with or without a calendar, whose far events must not slip past it).
    #[test]
    fn pop_through_stops_at_its_limit_and_keeps_the_rest() {
        for mut clock in [Clock::new(1 << 40), Clock::with_calendar(1 << 40, 2, 2)] {
            for (i, t) in [30, 10, 20, 10, 40, 1_000].into_iter().enumerate() {
                clock.push(t, EventKind::Source(i as u32));
            }
            let mut through_20 = Vec::new();
            while let Some(e) = clock.pop_through(20) {
                through_20.push(e);
            }
            let source = EventKind::Source;
            assert_eq!(through_20, [(10, source(1)), (10, source(3)), (20, source(2))]);
            assert_eq!(clock.pop_through(20), None, "nothing more through 20");
            assert_eq!(clock.next_time(), Some(30), "the later events wait");
            clock.push(25, EventKind::Sample);
            assert_eq!(clock.pop_through(35), Some((25, EventKind::Sample)));
            assert_eq!(clock.pop_through(35), Some((30, source(0))));
            assert_eq!(clock.pop_through(35), None);
            assert_eq!(clock.pop(), Some((40, source(4))));
            assert_eq!(clock.pop(), Some((1_000, source(5))));
            assert_eq!(clock.pop(), None);
        }
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
            EventKind::TcpRelease(5),
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
        renumbering_keeps_order(Clock::new(1_000));
        renumbering_keeps_order(Clock::with_calendar(1_000, 1, 1));
    }

    fn renumbering_keeps_order(mut clock: Clock) {
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
