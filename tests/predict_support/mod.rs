//! Imperfect links for the prediction tests: the session is generic over `Channel`, so these plug in where
//! the network simulator's link will.
#![allow(dead_code)]

use netcode_lab::channel::{Channel, Delivery};

/// A fixed delay that loses the items whose send index (0-based) is listed.
#[derive(Clone, Debug)]
pub struct Dropping<T> {
    pub delay: f64,
    pub lose: Vec<u64>,
    sent: u64,
    in_flight: Vec<Delivery<T>>,
}

impl<T> Dropping<T> {
    pub fn new(delay: f64, lose: Vec<u64>) -> Self {
        Dropping { delay, lose, sent: 0, in_flight: Vec::new() }
    }
}

impl<T> Channel<T> for Dropping<T> {
    fn send(&mut self, now: f64, item: T) {
        if !self.lose.contains(&self.sent) {
            self.in_flight.push(Delivery { arrival: now + self.delay, item });
        }
        self.sent += 1;
    }

    fn receive(&mut self, now: f64, out: &mut Vec<Delivery<T>>) {
        let (arrived, waiting) = std::mem::take(&mut self.in_flight).into_iter().partition(|d| d.arrival <= now);
        self.in_flight = waiting;
        out.extend::<Vec<_>>(arrived);
    }

    fn in_flight(&self) -> usize {
        self.in_flight.len()
    }
}

/// A seeded link with loss, duplication and jitter (so reordering): every draw comes from `seed`.
#[derive(Clone, Debug)]
pub struct Lossy<T> {
    delay: f64,
    jitter: f64,
    loss: f64,
    duplicate: f64,
    state: u64,
    in_flight: Vec<Delivery<T>>,
}

impl<T> Lossy<T> {
    pub fn new(delay: f64, jitter: f64, loss: f64, duplicate: f64, seed: u64) -> Self {
        Lossy { delay, jitter, loss, duplicate, state: seed, in_flight: Vec::new() }
    }

    /// SplitMix64, mapped to [0, 1).
    fn draw(&mut self) -> f64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as f64 / (u64::MAX as f64 + 1.0)
    }
}

impl<T: Clone> Channel<T> for Lossy<T> {
    fn send(&mut self, now: f64, item: T) {
        if self.draw() < self.loss {
            return;
        }
        let copies = if self.draw() < self.duplicate { 2 } else { 1 };
        for _ in 0..copies {
            let arrival = now + self.delay + self.jitter * self.draw();
            self.in_flight.push(Delivery { arrival, item: item.clone() });
        }
    }

    fn receive(&mut self, now: f64, out: &mut Vec<Delivery<T>>) {
        let (mut arrived, waiting): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.in_flight).into_iter().partition(|d| d.arrival <= now);
        self.in_flight = waiting;
        arrived.sort_by(|a, b| a.arrival.total_cmp(&b.arrival));
        out.extend(arrived);
    }

    fn in_flight(&self) -> usize {
        self.in_flight.len()
    }
}
