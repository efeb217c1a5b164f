//! A one-way channel in simulated time: what goes in at `t` comes out later, or never.
//!
//! ```text
//!  sender ──send(t, copy)──►  in flight  ──receive(now)──► receiver
//!                               (arrival = t + delay)
//! ```
//! Items are moved in when sent, so the receiver sees the state *as it was when sent* (seed 003: "在生成时复制
//! 快照，再延迟交付" — never read the live state in the delivery callback). Time is always an argument.
//! `FixedDelay` is the honest minimum; the network simulator's link (jitter, loss, reordering, duplication)
//! implements the same trait.

use std::collections::VecDeque;

/// Something that has arrived, and when (receiver's local time, seconds).
#[derive(Clone, Debug, PartialEq)]
pub struct Delivery<T> {
    pub arrival: f64,
    pub item: T,
}

/// A one-way path from a sender to a receiver.
pub trait Channel<T> {
    /// Hands `item` to the channel at time `now` (seconds).
    fn send(&mut self, now: f64, item: T);
    /// Moves everything that has arrived by `now` into `out`, in arrival order.
    fn receive(&mut self, now: f64, out: &mut Vec<Delivery<T>>);
    /// How many items are still in flight.
    fn in_flight(&self) -> usize;
}

/// Every item arrives exactly `delay` seconds after it was sent, in order; nothing is lost.
#[derive(Clone, Debug)]
pub struct FixedDelay<T> {
    delay: f64,
    queue: VecDeque<Delivery<T>>,
}

impl<T> FixedDelay<T> {
    /// A channel with a constant one-way delay; negative or non-finite delays count as 0.
    pub fn new(delay: f64) -> Self {
        let delay = if delay.is_finite() { delay.max(0.0) } else { 0.0 };
        FixedDelay { delay, queue: VecDeque::new() }
    }

    pub fn delay(&self) -> f64 {
        self.delay
    }
}

impl<T> Channel<T> for FixedDelay<T> {
    fn send(&mut self, now: f64, item: T) {
        self.queue.push_back(Delivery { arrival: now + self.delay, item });
    }

    fn receive(&mut self, now: f64, out: &mut Vec<Delivery<T>>) {
        while self.queue.front().is_some_and(|d| d.arrival <= now) {
            out.extend(self.queue.pop_front());
        }
    }

    fn in_flight(&self) -> usize {
        self.queue.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_delay_delivers_copies_in_order_after_the_delay() {
        let mut channel = FixedDelay::new(0.1);
        let mut state = 1;
        channel.send(0.0, state);
        state = 2; // the live state changes after sending; the copy in flight does not
        channel.send(0.05, state);
        let mut out = Vec::new();
        channel.receive(0.099, &mut out);
        assert!(out.is_empty());
        channel.receive(0.2, &mut out);
        assert_eq!(out, vec![Delivery { arrival: 0.1, item: 1 }, Delivery { arrival: 0.15000000000000002, item: 2 }]);
        assert_eq!(channel.in_flight(), 0);
    }
}
