//! A FIFO of `Copy` values in a ring buffer whose capacity is a power of two: the cells on
//! their way through a port (`Port::ring`), pushed and popped once per cell per hop.
//!
//! `VecDeque` does the same, but its `push_back` is not inlined into the event loop (a call per
//! cell) and it wraps indices with a comparison; here an index wraps with a mask, both ends
//! inline, and a masked index needs no bounds check (the capacity is never zero):
//! ten-sources-oc3 1,075 -> 1,042 instructions per delivered cell (1,066 with the checks).

/// A FIFO of `Copy` values. Capacity: a power of two, at least [`Ring::FIRST_CAPACITY`]; it
/// doubles when full. A clone holds only the values (a checkpoint copies no free slots).
pub(crate) struct Ring<T: Copy> {
    /// `slots.len()` is a power of two; the values are `slots[(head + i) & mask]`, `i < len`.
    slots: Box<[T]>,
    head: usize,
    len: usize,
}

impl<T: Copy> Ring<T> {
    /// The capacity of a new ring (and the least of a clone's).
    pub(crate) const FIRST_CAPACITY: usize = 16;

    /// An empty ring; `fill` takes the free slots (never read).
    pub(crate) fn new(fill: T) -> Self {
        Ring { slots: vec![fill; Self::FIRST_CAPACITY].into_boxed_slice(), head: 0, len: 0 }
    }

    #[inline]
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// Slot `i` of the ring, `i` a masked index (`head` is one).
    #[inline]
    fn slot(&self, i: usize) -> &T {
        debug_assert!(i <= self.mask());
        // SAFETY: a masked index is below the capacity (a power of two, not zero).
        unsafe { self.slots.get_unchecked(i) }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub(crate) fn front(&self) -> Option<&T> {
        (self.len > 0).then(|| self.slot(self.head))
    }

    #[inline]
    pub(crate) fn push_back(&mut self, value: T) {
        if self.len == self.slots.len() {
            self.grow();
        }
        let i = (self.head + self.len) & self.mask();
        debug_assert!(i < self.slots.len());
        // SAFETY: `mask` is the capacity (a power of two, not zero) less one, so `i` is a slot.
        unsafe { *self.slots.get_unchecked_mut(i) = value };
        self.len += 1;
    }

    #[inline]
    pub(crate) fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let value = *self.slot(self.head);
        self.head = (self.head + 1) & self.mask();
        self.len -= 1;
        Some(value)
    }

    /// The values, front first.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + '_ {
        (0..self.len).map(move |i| &self.slots[(self.head + i) & self.mask()])
    }

    /// The values in order from slot 0, in `capacity` slots (a power of two, at least `len`).
    fn copied(&self, capacity: usize) -> Self {
        debug_assert!(capacity.is_power_of_two() && capacity >= self.len);
        let fill = self.slots[0];
        let mut slots = vec![fill; capacity];
        for (slot, value) in slots.iter_mut().zip(self.iter()) {
            *slot = *value;
        }
        Ring { slots: slots.into_boxed_slice(), head: 0, len: self.len }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        *self = self.copied(2 * self.slots.len());
    }
}

impl<T: Copy> Clone for Ring<T> {
    fn clone(&self) -> Self {
        self.copied(self.len.next_power_of_two().max(Self::FIRST_CAPACITY))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Against `VecDeque`: the same values come out, in order, across wraps and growth, and a
    /// clone plays on as the original does.
    #[test]
    fn a_ring_is_a_fifo_across_wraps_growth_and_clones() {
        let mut ring = Ring::new(0u64);
        let mut deque = VecDeque::new();
        let mut next = 0u64;
        // Pushes outpace pops in bursts, so the ring wraps at every capacity it grows to.
        for round in 0..2000u64 {
            for _ in 0..(round % 7) {
                ring.push_back(next);
                deque.push_back(next);
                next += 1;
            }
            for _ in 0..(round % 5) {
                assert_eq!(ring.pop_front(), deque.pop_front());
            }
            assert_eq!(ring.len(), deque.len());
            assert_eq!(ring.is_empty(), deque.is_empty());
            assert_eq!(ring.front(), deque.front());
            assert!(ring.iter().eq(deque.iter()));
            assert!(ring.iter().rev().eq(deque.iter().rev()));
            if round % 97 == 0 {
                ring = ring.clone();
            }
        }
        assert!(deque.len() > 1000, "the ring grew past a few capacities");
        while let Some(v) = deque.pop_front() {
            assert_eq!(ring.pop_front(), Some(v));
        }
        assert_eq!(ring.pop_front(), None);
    }
}
