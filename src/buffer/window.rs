//! The buffer's storage: a window sliding over a `Vec`, so what it holds is one contiguous slice and every
//! lookup is a plain slice index (a ring buffer's index would wrap on every access, and the cursor walk and the
//! bracket read several entries per sample).
//!
//! ```text
//!  items   [ dropped … dropped | live live live live ]      pushing appends; dropping the oldest moves `start`
//!                               ▲ start                     once the dropped prefix is as long as the live part
//!                                                           (and ≥ COMPACT_AT), the live part moves to the front
//! ```
//! Each compaction moves at most as many entries as were dropped since the last one: amortised O(1) per push,
//! and `items` never holds more than about twice the live entries (or `COMPACT_AT`): memory stays bounded.

use std::ops::Deref;

/// The dropped prefix is reclaimed only from this length on (short windows would otherwise compact often).
const COMPACT_AT: usize = 16;

#[derive(Clone, Debug)]
pub(super) struct Window<T> {
    items: Vec<T>,
    start: usize,
}

impl<T: Copy> Window<T> {
    pub fn with_capacity(capacity: usize) -> Self {
        Window { items: Vec::with_capacity(capacity), start: 0 }
    }

    pub fn push_back(&mut self, item: T) {
        let live = self.items.len() - self.start;
        if self.start >= COMPACT_AT && self.start >= live {
            self.items.copy_within(self.start.., 0);
            self.items.truncate(live);
            self.start = 0;
        }
        self.items.push(item);
    }

    /// Inserts at `at` (an index into the live part, `at ≤ len`), moving the later entries back by one.
    pub fn insert(&mut self, at: usize, item: T) {
        self.items.insert(self.start + at, item);
    }

    pub fn pop_front(&mut self) -> Option<T> {
        let first = *self.items.get(self.start)?;
        self.start += 1;
        Some(first)
    }
}

impl<T> Deref for Window<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.items[self.start..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_a_deque_and_stays_bounded() {
        let (mut window, mut model) = (Window::with_capacity(4), std::collections::VecDeque::new());
        for i in 0..1000u32 {
            if i % 7 == 3 {
                let at = model.len() / 2;
                window.insert(at, i);
                model.insert(at, i);
            } else {
                window.push_back(i);
                model.push_back(i);
            }
            while model.len() > 40 {
                assert_eq!(window.pop_front(), model.pop_front());
            }
            assert!(window.iter().eq(model.iter()), "at {i}");
            assert!(window.items.len() <= 2 * 41 + COMPACT_AT, "{} items held at {i}", window.items.len());
        }
        while let Some(front) = model.pop_front() {
            assert_eq!(window.pop_front(), Some(front));
        }
        assert_eq!(window.pop_front(), None);
        assert!(window.is_empty());
    }
}
