//! The client's pending inputs: sent, predicted, not yet acknowledged — bounded, with a stated policy for a
//! server that stops answering (seed 003's last paragraph: "停止期间 pendingInputs 会持续增长，需要设置缓存策略").
//!
//! ```text
//!  acknowledged ≤ k          pending (replayed on every reconciliation)
//!  ─────────────────┤ k+1 │ k+2 │ k+3 │ … │ newest │     at most `maxPendingInputs`
//!
//!  full:   ✗ oldest │ … │ newest │ + new      the oldest is dropped, the client keeps predicting
//!          └ dropped_through = its id
//! ```
//!
//! A snapshot acknowledging `k` can only be replayed if every input after `k` is still here. After a drop,
//! an acknowledgement older than the dropped id cannot be replayed: the client must not apply that snapshot
//! (it would restore the server's state and replay an incomplete history). Once acknowledgements reach the kept
//! inputs, replay is exact again. Size the bound above round trip × tickRate, or the client can never
//! reconcile.

use super::input::Input;
use std::collections::VecDeque;

#[derive(Clone, Debug)]
pub struct PendingInputs {
    inputs: VecDeque<Input>,
    capacity: usize,
    /// The highest id dropped because the list was full, until acknowledgements pass it.
    dropped_through: Option<u64>,
    dropped: u64,
}

impl PendingInputs {
    /// A list that keeps at most `capacity` inputs (at least 1).
    pub fn new(capacity: usize) -> Self {
        PendingInputs { inputs: VecDeque::new(), capacity: capacity.max(1), dropped_through: None, dropped: 0 }
    }

    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// Inputs dropped because the list was full, ever.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Adds the newest input; a full list first drops its oldest.
    pub fn push(&mut self, input: Input) {
        if self.inputs.len() >= self.capacity {
            if let Some(oldest) = self.inputs.pop_front() {
                self.dropped_through = Some(oldest.id);
                self.dropped += 1;
            }
        }
        self.inputs.push_back(input);
    }

    /// Whether every input after `acknowledged` is still here.
    pub fn can_replay_after(&self, acknowledged: Option<u64>) -> bool {
        match (self.dropped_through, acknowledged) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(dropped), Some(ack)) => ack >= dropped,
        }
    }

    /// Forgets every input up to and including `acknowledged`; the rest are the ones to replay.
    pub fn acknowledge(&mut self, acknowledged: Option<u64>) {
        if let Some(ack) = acknowledged {
            self.inputs.retain(|input| input.id > ack);
            if self.dropped_through.is_some_and(|dropped| ack >= dropped) {
                self.dropped_through = None;
            }
        }
    }

    /// Oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Input> {
        self.inputs.iter()
    }

    /// A new history (a new server epoch).
    pub fn clear(&mut self) {
        self.inputs.clear();
        self.dropped_through = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predict::input::Keys;

    fn input(id: u64) -> Input {
        Input { id, epoch: 0, keys: Keys::IDLE }
    }

    #[test]
    fn acknowledging_k_keeps_the_inputs_after_k() {
        let mut p = PendingInputs::new(10);
        (0..5).for_each(|id| p.push(input(id)));
        p.acknowledge(None);
        assert_eq!(p.len(), 5);
        p.acknowledge(Some(2));
        assert_eq!(p.iter().map(|i| i.id).collect::<Vec<_>>(), vec![3, 4]);
    }

    #[test]
    fn a_full_list_drops_its_oldest_and_old_acknowledgements_cannot_be_replayed() {
        let mut p = PendingInputs::new(3);
        (0..5).for_each(|id| p.push(input(id)));
        assert_eq!((p.len(), p.dropped()), (3, 2));
        assert!(!p.can_replay_after(None));
        assert!(!p.can_replay_after(Some(0)), "input 1 is gone");
        assert!(p.can_replay_after(Some(1)));
        p.acknowledge(Some(1));
        assert!(p.can_replay_after(None), "nothing missing any more");
        assert_eq!(p.iter().map(|i| i.id).collect::<Vec<_>>(), vec![2, 3, 4]);
    }
}
