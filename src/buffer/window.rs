//! The buffer's storage: a window sliding over a `Vec`, so what it holds is one contiguous slice and every
//! lookup is a plain slice index (a ring buffer's index would wrap on every access, and the cursor walk and the
//! bracket read several entries per sample). What slid out of the window stays in front of it: the last `KEEP`
//! of them are the buffer's memory of dropped snapshots (late duplicates are recognised against it), read in
//! place — dropping the oldest entry is one increment, nothing is copied.
//!
//! ```text
//!  items   [ forgotten … | popped (the last KEEP) | live live live live ]   pushing appends; popping moves `start`
//!                                                 ▲ start
//!  once the forgotten part is SLACK times as long as the popped and live parts together (and ≥ COMPACT_AT),
//!  those two move to the front in one copy:   [ popped | live live live live ]
//! ```
//! Each compaction moves at most 1/SLACK as many items as were forgotten since the last one: amortised at most
//! 1/SLACK item copied per push, and `items` never holds more than about (SLACK + 1) × (`KEEP` + the live items)
//! (or `COMPACT_AT`): memory stays bounded. SLACK is 3, not 1: with 1 the copies are a quarter of an in-order
//! insert's instructions (72 of 269 at 128 live, callgrind); with 3 they are a third of that, for a `Vec` of
//! 4 × (128 + 64) entries of 72 bytes, 55 KB, instead of 28 KB.

use std::ops::Deref;

/// The forgotten prefix is reclaimed only from this length on (short windows would otherwise compact often).
const COMPACT_AT: usize = 16;
/// The forgotten prefix is reclaimed once it is this many times as long as what is kept (popped and live).
const SLACK: usize = 3;

#[derive(Clone, Debug)]
pub(crate) struct Window<T, const KEEP: usize> {
    items: Vec<T>,
    /// Where the live part begins: everything before it was popped, oldest first.
    start: usize,
}

impl<T: Copy, const KEEP: usize> Window<T, KEEP> {
    /// A window with room for `live` items (and the `KEEP` popped ones) before its first compaction.
    pub fn with_room(live: usize) -> Self {
        Window { items: Vec::with_capacity((SLACK + 1) * (live + KEEP).max(COMPACT_AT) + 1), start: 0 }
    }

    #[inline]
    pub fn push_back(&mut self, item: T) {
        self.make_room();
        self.items.push(item);
    }

    /// Inserts at `at` (an index into the live part, `at ≤ len`), moving the later entries back by one.
    pub fn insert(&mut self, at: usize, item: T) {
        self.make_room();
        self.items.insert(self.start + at, item);
    }

    #[inline]
    fn make_room(&mut self) {
        let live = self.items.len() - self.start;
        let forgotten = self.start.saturating_sub(KEEP);
        if forgotten >= SLACK * (live + KEEP).max(COMPACT_AT) {
            self.compact();
        }
    }

    /// Moves the popped items still remembered and the live ones to the front.
    #[cold]
    #[inline(never)]
    fn compact(&mut self) {
        let forgotten = self.start.saturating_sub(KEEP);
        self.items.copy_within(forgotten.., 0);
        self.items.truncate(self.items.len() - forgotten);
        self.start -= forgotten;
    }

    /// Removes the live item at `at` (`at < len`), moving the later ones forward by one.
    pub fn remove(&mut self, at: usize) -> T {
        self.items.remove(self.start + at)
    }

    #[inline]
    pub fn pop_front(&mut self) -> Option<T> {
        let first = *self.items.get(self.start)?;
        self.start += 1;
        Some(first)
    }

    /// The last `KEEP` items popped (all of them while fewer were), oldest first.
    pub fn popped(&self) -> &[T] {
        &self.items[self.start.saturating_sub(KEEP)..self.start]
    }
}

impl<T, const KEEP: usize> Deref for Window<T, KEEP> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        &self.items[self.start..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a `VecDeque` (the live items) and a second one (the last `KEEP` popped), for live lengths from
    /// short (compaction at `COMPACT_AT`) to long; `items` stays within its bound.
    fn behaves_like_a_deque_and_stays_bounded<const KEEP: usize>(longest: usize) {
        let mut window: Window<u32, KEEP> = Window::with_room(4);
        let (mut model, mut popped) = (std::collections::VecDeque::new(), std::collections::VecDeque::new());
        for i in 0..3000u32 {
            if i % 7 == 3 {
                let at = model.len() / 2;
                window.insert(at, i);
                model.insert(at, i);
            } else {
                window.push_back(i);
                model.push_back(i);
            }
            while model.len() > longest {
                let front = model.pop_front();
                assert_eq!(window.pop_front(), front);
                popped.extend(front);
                if popped.len() > KEEP {
                    popped.pop_front();
                }
            }
            assert!(window.iter().eq(model.iter()), "at {i}");
            assert!(window.popped().iter().eq(popped.iter()), "popped at {i}");
            let bound = (SLACK + 1) * (longest + 1 + KEEP).max(COMPACT_AT) + 1;
            assert!(window.items.len() <= bound, "{} items held at {i} (bound {bound})", window.items.len());
        }
        while let Some(front) = model.pop_front() {
            assert_eq!(window.pop_front(), Some(front));
        }
        assert_eq!(window.pop_front(), None);
        assert!(window.is_empty());
    }

    #[test]
    fn behaves_like_a_deque_remembers_the_last_popped_and_stays_bounded() {
        for longest in [1, 5, 40, 200] {
            behaves_like_a_deque_and_stays_bounded::<0>(longest);
            behaves_like_a_deque_and_stays_bounded::<3>(longest);
            behaves_like_a_deque_and_stays_bounded::<64>(longest);
        }
    }
}
