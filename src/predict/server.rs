//! The authoritative server for the local player: one physics step per input, in id order, and a snapshot
//! that says which input it has processed (seed 003 §"第二步").
//!
//! ```text
//!  uplink ─► receive_input ─► queue (by id) ─► process: while the next id is there: step, lastProcessed = id
//!                                                   │
//!  every 1/snapshotRate s ───────────────────► make_snapshot: a copy {pos, vel, speed, lastProcessedInputId}
//! ```
//!
//! **Order, duplicates, gaps.** The queue is keyed by id, so inputs that arrive out of order are stepped in
//! order. An id at or below `lastProcessedInputId`, or one already queued, is a duplicate or too late: ignored
//! and counted. When the next id is missing but later ones wait, the server does *not* skip it — it never
//! claims a gap as processed (seed 003: "服务器不能越过未处理的编号就宣称已经连续确认"). It waits up to
//! `inputGapTimeout`; then it steps a zero input *in place of* the missing one, counts it (`substituted`) and
//! acknowledges that id. The client's replay then starts from a state without the lost input and the difference
//! shows as an honest correction. Inputs more than [`MAX_INPUTS_AHEAD`] ids ahead are refused (counted), so a
//! gap can never make the server run an unbounded number of steps.
//!
//! **Sessions.** Stopping the server drops whatever reaches it. Restarting starts a new `epoch`: ids restart at
//! 0, the queue is empty, and inputs of an older epoch are ignored (seed 003's last paragraph: "使用会话标识区分
//! 重启前后的数据"). The player's state is kept.
//!
//! **The mismatch switch** reproduces the article's bug: `sendInput: input => remotePlayer.input = input`. The
//! server only *replaces* its current input, steps whatever input is current on every server tick of its own
//! clock (the same input many times, or a newer one before the older was ever stepped) and reports the latest
//! received id as processed, stepped or not.

use super::input::{Input, Keys};
use super::physics::{self, Arena, PlayerState};
use crate::geom::Vec2;
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// How far past the next expected id an input may be and still be queued.
pub const MAX_INPUTS_AHEAD: u64 = 1024;

/// What the server sends: the player's state, copied at send time, and the last input it reflects.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerSnapshot {
    /// `tick` is the snapshot's sequence number within its epoch, `server_time` its send time, `teleport` set
    /// on the first snapshot after the server moved the player.
    pub snapshot: Snapshot,
    pub speed: f64,
    /// The last input whose step is in `snapshot.pos`; `None` before the first one of this epoch.
    pub last_processed_input_id: Option<u64>,
    pub epoch: u32,
}

impl PlayerSnapshot {
    pub fn state(&self) -> PlayerState {
        PlayerState { pos: self.snapshot.pos, vel: self.snapshot.vel, speed: self.speed }
    }
}

/// What happened to the inputs and snapshots of one server, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerStats {
    /// Physics steps run (one per input, or one per server tick with `mismatch`).
    pub steps: u64,
    /// Zero inputs stepped in place of inputs that did not arrive within `inputGapTimeout`.
    pub substituted: u64,
    /// Inputs ignored because their id was already processed or queued.
    pub late_or_duplicate: u64,
    /// Inputs ignored because they belong to an earlier epoch.
    pub old_epoch: u64,
    /// Inputs refused because they were more than `MAX_INPUTS_AHEAD` ids ahead.
    pub too_far_ahead: u64,
    /// Inputs that reached a stopped server.
    pub dropped_while_stopped: u64,
    pub snapshots: u64,
}

/// The server's authoritative copy of the local player.
#[derive(Clone, Debug)]
pub struct Server {
    state: PlayerState,
    arena: Arena,
    step_dt: f64,
    gap_timeout: f64,
    mismatch: bool,
    running: bool,
    epoch: u32,
    last_processed: Option<u64>,
    /// Inputs waiting, by id: slot `i` holds id `next_id() + i` if it has arrived (ids are at most
    /// [`MAX_INPUTS_AHEAD`] ahead, so this stays small; a ring, not a map: one input per physics step reaches it).
    queue: VecDeque<Option<Input>>,
    /// How many slots of `queue` hold an input.
    queued: usize,
    /// When the server first found the next id missing while later ones wait.
    gap_since: Option<f64>,
    /// With `mismatch`: the last input received, stepped on every server tick.
    current: Option<Input>,
    next_snapshot_tick: u64,
    teleported: bool,
    stats: ServerStats,
}

impl Server {
    /// A running server in epoch 0. `step_dt` is the physics step (1 / tickRate).
    pub fn new(state: PlayerState, arena: Arena, step_dt: f64, gap_timeout: f64, mismatch: bool) -> Self {
        Server {
            state,
            arena,
            step_dt,
            gap_timeout,
            mismatch,
            running: true,
            epoch: 0,
            last_processed: None,
            queue: VecDeque::new(),
            queued: 0,
            gap_since: None,
            current: None,
            next_snapshot_tick: 0,
            teleported: false,
            stats: ServerStats::default(),
        }
    }

    pub fn state(&self) -> &PlayerState {
        &self.state
    }

    pub fn last_processed_input_id(&self) -> Option<u64> {
        self.last_processed
    }

    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    pub fn is_running(&self) -> bool {
        self.running
    }

    /// Inputs waiting for a missing id.
    pub fn queued(&self) -> usize {
        self.queued
    }

    pub fn stats(&self) -> ServerStats {
        self.stats
    }

    /// An input reaches the server (seed 003 `receiveInput`).
    pub fn receive_input(&mut self, input: Input) {
        if !self.running {
            self.stats.dropped_while_stopped += 1;
        } else if input.epoch != self.epoch {
            self.stats.old_epoch += 1;
        } else if self.mismatch {
            self.current = Some(input); // the article's bug: replace, do not step
        } else {
            self.enqueue(input);
        }
    }

    fn next_id(&self) -> u64 {
        self.last_processed.map_or(0, |id| id + 1)
    }

    fn enqueue(&mut self, input: Input) {
        let next = self.next_id();
        if input.id < next || self.queue.get((input.id - next) as usize).is_some_and(Option::is_some) {
            self.stats.late_or_duplicate += 1;
        } else if input.id - next > MAX_INPUTS_AHEAD {
            self.stats.too_far_ahead += 1;
        } else {
            let slot = (input.id - next) as usize;
            if self.queue.len() <= slot {
                self.queue.resize(slot + 1, None);
            }
            self.queue[slot] = Some(input);
            self.queued += 1;
        }
    }

    /// Steps every queued input that is next in line, at server time `now` (seed 003 `processQueuedInputs`).
    /// A missing id blocks until it arrives or has been missing for `inputGapTimeout`. Does nothing with
    /// `mismatch` (that server steps on its own clock, see [`Server::mismatch_tick`]).
    pub fn process(&mut self, now: f64) {
        if !self.running || self.mismatch {
            return;
        }
        loop {
            let next = self.next_id();
            if let Some(Some(input)) = self.queue.front().copied() {
                self.queue.pop_front();
                self.queued -= 1;
                self.step(input.keys, next);
                self.gap_since = None;
                continue;
            }
            if self.queued == 0 {
                self.queue.clear();
                self.gap_since = None;
                return;
            }
            let since = *self.gap_since.get_or_insert(now);
            if now - since < self.gap_timeout {
                return;
            }
            self.queue.pop_front(); // the missing id's empty slot
            self.step(Keys::IDLE, next);
            self.stats.substituted += 1;
        }
    }

    fn step(&mut self, keys: Keys, id: u64) {
        physics::step(&mut self.state, keys, self.step_dt, &self.arena);
        self.last_processed = Some(id);
        self.stats.steps += 1;
    }

    /// With `mismatch`, one tick of the server's own physics loop: step the current input again and claim it.
    pub fn mismatch_tick(&mut self) {
        if !self.running || !self.mismatch {
            return;
        }
        let keys = self.current.map_or(Keys::IDLE, |input| input.keys);
        physics::step(&mut self.state, keys, self.step_dt, &self.arena);
        self.stats.steps += 1;
    }

    /// A copy of the state to send at server time `now`; `None` while stopped (seed 003 `makeSnapshot`).
    pub fn make_snapshot(&mut self, now: f64) -> Option<PlayerSnapshot> {
        if !self.running {
            return None;
        }
        let acknowledged = if self.mismatch { self.current.map(|input| input.id) } else { self.last_processed };
        let mut snapshot = Snapshot::moving(self.next_snapshot_tick, now, self.state.pos, self.state.vel);
        snapshot.teleport = std::mem::take(&mut self.teleported);
        self.next_snapshot_tick += 1;
        self.stats.snapshots += 1;
        Some(PlayerSnapshot {
            snapshot,
            speed: self.state.speed,
            last_processed_input_id: acknowledged,
            epoch: self.epoch,
        })
    }

    /// The server moves the player (teleport, respawn); the next snapshot says so.
    pub fn teleport(&mut self, pos: Vec2) {
        self.state.pos = self.arena.clamp(pos);
        self.state.vel = Vec2::ZERO;
        self.teleported = true;
    }

    /// The server stops answering: inputs that reach it are dropped, no snapshots are sent.
    pub fn stop(&mut self) {
        self.running = false;
    }

    /// The server comes back in a new epoch: ids restart at 0; the player's state is kept.
    pub fn restart(&mut self) {
        self.running = true;
        self.epoch += 1;
        self.last_processed = None;
        self.queue.clear();
        self.queued = 0;
        self.gap_since = None;
        self.current = None;
        self.next_snapshot_tick = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f64 = 1.0 / 60.0;

    fn server(mismatch: bool) -> Server {
        Server::new(PlayerState::at_rest(Vec2::new(50.0, 50.0), 60.0), Arena::square(100.0), DT, 0.2, mismatch)
    }

    fn right(id: u64) -> Input {
        Input { id, epoch: 0, keys: Keys::RIGHT }
    }

    #[test]
    fn each_input_is_one_step_and_the_snapshot_acknowledges_the_last_one() {
        let mut s = server(false);
        assert_eq!(s.make_snapshot(0.0).unwrap().last_processed_input_id, None);
        for id in 0..3 {
            s.receive_input(right(id));
        }
        s.process(0.1);
        let snap = s.make_snapshot(0.1).unwrap();
        assert_eq!(snap.last_processed_input_id, Some(2));
        assert_eq!(snap.snapshot.pos, Vec2::new(53.0, 50.0));
        assert_eq!((snap.snapshot.tick, snap.speed, snap.epoch), (1, 60.0, 0));
    }

    #[test]
    fn inputs_out_of_order_are_stepped_in_order_and_duplicates_ignored() {
        let mut s = server(false);
        s.receive_input(right(1));
        s.receive_input(Input { id: 0, epoch: 0, keys: Keys::DOWN });
        s.receive_input(right(1));
        s.process(0.0);
        assert_eq!(s.state().pos, Vec2::new(51.0, 51.0));
        assert_eq!(s.last_processed_input_id(), Some(1));
        s.receive_input(right(0));
        s.process(0.0);
        assert_eq!(s.stats().late_or_duplicate, 2);
        assert_eq!(s.stats().steps, 2);
    }

    #[test]
    fn a_gap_is_never_acknowledged_before_the_timeout_then_filled_with_a_zero_input() {
        let mut s = server(false);
        s.receive_input(right(0));
        s.receive_input(right(2));
        s.receive_input(right(3));
        s.process(0.0);
        assert_eq!(s.last_processed_input_id(), Some(0), "input 1 is missing: 2 and 3 wait");
        s.process(0.19);
        assert_eq!(s.last_processed_input_id(), Some(0));
        s.process(0.2);
        assert_eq!(s.last_processed_input_id(), Some(3));
        assert_eq!(s.state().pos, Vec2::new(53.0, 50.0), "three moving steps and one zero step");
        assert_eq!(s.stats().substituted, 1);
        s.receive_input(right(1));
        assert_eq!(s.stats().late_or_duplicate, 1, "the late original is ignored");
    }

    #[test]
    fn a_gap_that_fills_in_time_costs_nothing() {
        let mut s = server(false);
        s.receive_input(right(1));
        s.process(0.0);
        s.receive_input(right(0));
        s.process(0.1);
        assert_eq!((s.last_processed_input_id(), s.stats().substituted), (Some(1), 0));
    }

    #[test]
    fn an_input_far_ahead_is_refused() {
        let mut s = server(false);
        s.receive_input(right(MAX_INPUTS_AHEAD + 1));
        s.receive_input(right(MAX_INPUTS_AHEAD));
        assert_eq!((s.queued(), s.stats().too_far_ahead), (1, 1));
    }

    #[test]
    fn a_stopped_server_is_silent_and_a_restart_opens_a_new_epoch() {
        let mut s = server(false);
        s.receive_input(right(0));
        s.process(0.0);
        s.stop();
        s.receive_input(right(1));
        assert_eq!(s.make_snapshot(1.0), None);
        s.restart();
        s.receive_input(right(2)); // an old-epoch input still in flight
        let snap = s.make_snapshot(2.0).unwrap();
        assert_eq!((snap.epoch, snap.last_processed_input_id, snap.snapshot.tick), (1, None, 0));
        assert_eq!(snap.snapshot.pos, Vec2::new(51.0, 50.0), "the state survives a restart");
        assert_eq!((s.stats().dropped_while_stopped, s.stats().old_epoch), (1, 1));
    }

    #[test]
    fn a_teleport_is_flagged_on_the_next_snapshot_only() {
        let mut s = server(false);
        s.teleport(Vec2::new(500.0, 10.0));
        let snap = s.make_snapshot(0.0).unwrap();
        assert!(snap.snapshot.teleport);
        assert_eq!(snap.snapshot.pos, Vec2::new(100.0, 10.0), "clamped to the arena");
        assert!(!s.make_snapshot(0.05).unwrap().snapshot.teleport);
    }

    /// The article's server: receiving replaces, ticks step the current input, the latest id is claimed.
    #[test]
    fn the_mismatch_server_claims_inputs_it_has_not_stepped_and_steps_one_input_many_times() {
        let mut s = server(true);
        s.receive_input(right(0));
        s.receive_input(right(1));
        s.process(0.0);
        let snap = s.make_snapshot(0.0).unwrap();
        assert_eq!(snap.last_processed_input_id, Some(1), "claimed");
        assert_eq!(snap.snapshot.pos, Vec2::new(50.0, 50.0), "but not one step run");
        for _ in 0..3 {
            s.mismatch_tick();
        }
        assert_eq!(s.state().pos, Vec2::new(53.0, 50.0), "input 1 stepped three times, input 0 never");
        assert_eq!(s.make_snapshot(0.1).unwrap().last_processed_input_id, Some(1));
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// The queue is a ring by id; a map keyed by id (what the server kept before) is the reference. Random
        /// arrivals — late, duplicated, out of order, far ahead, with gaps waited out — must step the same ids with
        /// the same keys and count the same. Turns red if the ring loses a slot, keeps a stepped id or miscounts
        /// `queued`.
        #[test]
        fn the_ring_queue_steps_what_a_map_by_id_would(
            batches in proptest::collection::vec(proptest::collection::vec((0u64..1100, 0u8..3), 0..6), 1..60)
        ) {
            use std::collections::BTreeMap;
            let mut s = server(false);
            let (mut map, mut last, mut since): (BTreeMap<u64, Input>, Option<u64>, Option<f64>) =
                (BTreeMap::new(), None, None);
            let (mut stepped, mut dropped) = (Vec::new(), 0u64);
            for (frame, batch) in batches.iter().enumerate() {
                let now = frame as f64 * 0.05;
                for &(id, k) in batch {
                    let keys = [Keys::RIGHT, Keys::LEFT, Keys::UP][k as usize];
                    s.receive_input(Input { id, epoch: 0, keys });
                    let next = last.map_or(0, |l| l + 1);
                    if id < next || map.contains_key(&id) || id - next > MAX_INPUTS_AHEAD {
                        dropped += 1;
                    } else {
                        map.insert(id, Input { id, epoch: 0, keys });
                    }
                }
                s.process(now);
                loop {
                    let next = last.map_or(0, |l| l + 1);
                    if let Some(input) = map.remove(&next) {
                        stepped.push((next, input.keys));
                        (last, since) = (Some(next), None);
                    } else if map.is_empty() {
                        since = None;
                        break;
                    } else if now - *since.get_or_insert(now) < 0.2 {
                        break;
                    } else {
                        stepped.push((next, Keys::IDLE));
                        last = Some(next);
                    }
                }
                proptest::prop_assert_eq!(s.queued(), map.len());
                proptest::prop_assert_eq!(s.last_processed_input_id(), last);
            }
            let (mut state, arena) = (PlayerState::at_rest(Vec2::new(50.0, 50.0), 60.0), Arena::square(100.0));
            for &(_, keys) in &stepped {
                physics::step(&mut state, keys, DT, &arena);
            }
            proptest::prop_assert_eq!(s.state().pos, state.pos, "the same keys stepped in the same order");
            let stats = s.stats();
            proptest::prop_assert_eq!(stats.steps, stepped.len() as u64);
            proptest::prop_assert_eq!(stats.late_or_duplicate + stats.too_far_ahead, dropped);
        }
    }
}
