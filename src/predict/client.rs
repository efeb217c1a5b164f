//! The predicting client: it moves at once on its own inputs and reconciles with the server when a snapshot
//! arrives (seed 003 §"第一步", §"第三步").
//!
//! ```text
//!  frame:   accumulator += dt
//!           while accumulator ≥ step:   keys → Input{id}   lastPos = pos   step(pos, input)
//!                                       pending.push(input)   send(input)   accumulator −= step
//!           alpha = accumulator / step                  (where the frame sits between lastPos and pos)
//!
//!  snapshot {pos, vel, speed, lastProcessedInputId = k} arrives:
//!     1. before = pos                                         save the prediction
//!     2. pos, vel, speed = snapshot's                         restore the authority
//!     3. drop pending ids ≤ k; step every remaining one       replay what the server has not seen yet
//!     4. correction = before − pos; lastPos −= correction     both interpolation ends move together
//!        → the session adds `correction` to the visual offset
//!
//!  pending: │ k−2 │ k−1 │ k │ k+1 │ k+2 │ k+3 │      ids ≤ k are acknowledged and dropped,
//!                          └──────── replayed ───────┘   k+1 … are replayed from the server's state
//! ```
//!
//! With the same inputs, the same step function and the same order on both sides, the replay lands exactly
//! (bit for bit) on the prediction and the correction is zero; anything else is a real disagreement.
//!
//! **Pending inputs are bounded** (`maxPendingInputs`, see [`super::pending`]): when the server stops
//! answering, the oldest is dropped for every new one and the client keeps predicting; a snapshot whose
//! acknowledgement is older than a dropped input is not applied (counted `unreplayable`).
//!
//! **Epochs.** A snapshot of a newer server epoch (a restart) resets the client onto it: pending inputs are
//! cleared and ids restart at 0 (seed 003's last paragraph). Snapshots of an older epoch, or older than the last
//! one applied, are ignored and counted.
//!
//! The reconciliation is the same with or without the mismatch switch: only the protocol breaks.
//!
//! **The mismatch switch** samples inputs on an independent timer (the article's `setInterval(…, 1/60)`, whose
//! ms argument made it fire every few ms): each timer input gets an id, is pending and sent, but physics steps
//! use whichever input is current — one input may drive several steps, another none. The replay still assumes
//! one step per input, so it cannot match.

use super::input::{Input, InputPacket, InputSource, Keys};
use super::pending::PendingInputs;
use super::physics::{self, Arena, PlayerState};
use super::server::PlayerSnapshot;
use crate::channel::Channel;
use crate::geom::Vec2;
use crate::snapshot::{InvalidSnapshot, Problem};
use serde::{Deserialize, Serialize};

/// How the client steps and sends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClientConfig {
    pub arena: Arena,
    /// The physics step, 1 / tickRate seconds.
    pub step_dt: f64,
    pub max_pending_inputs: usize,
    /// Earlier unacknowledged inputs repeated with every new one (0: each input is sent once).
    pub input_redundancy: usize,
    /// `None`: one input per physics step. `Some(interval)`: the article's independent input timer.
    pub mismatch_input_interval: Option<f64>,
}

/// One reconciliation, as the client saw it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reconciliation {
    /// The predicted position before the snapshot (P_old).
    pub before: Vec2,
    /// The position after restoring and replaying (P_new).
    pub after: Vec2,
    /// `before − after`: what the visual offset must absorb.
    pub correction: Vec2,
    pub acknowledged: Option<u64>,
    /// Inputs replayed on top of the server's state.
    pub replayed: usize,
    /// The server moved the player on purpose: reset, do not slide.
    pub teleport: bool,
    /// The snapshot opened a new server epoch: the client was reset onto it.
    pub new_epoch: bool,
}

/// What a snapshot did to the client.
#[derive(Clone, Debug, PartialEq)]
pub enum SnapshotOutcome {
    Reconciled(Reconciliation),
    /// Older than (or the same as) the last snapshot applied in this epoch.
    Stale,
    /// From an epoch before the client's.
    OldEpoch,
    /// It acknowledges an input older than one dropped from the pending list: no replay possible.
    Unreplayable,
    Invalid(InvalidSnapshot),
}

/// Counts of what happened on the client.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientStats {
    pub steps: u64,
    pub inputs_sent: u64,
    /// Earlier inputs repeated alongside new ones (`inputRedundancy`).
    pub inputs_repeated: u64,
    /// Pending inputs dropped because the list was full.
    pub pending_dropped: u64,
    pub reconciled: u64,
    pub stale: u64,
    pub old_epoch: u64,
    pub unreplayable: u64,
    pub invalid: u64,
    pub epochs_joined: u64,
}

/// The local player as the client simulates it.
#[derive(Clone, Debug)]
pub struct Client {
    config: ClientConfig,
    state: PlayerState,
    last_pos: Vec2,
    accumulator: f64,
    pending: PendingInputs,
    next_id: u64,
    epoch: u32,
    last_snapshot_tick: Option<u64>,
    acknowledged: Option<u64>,
    /// With mismatch: the input the physics uses, and how many timer ticks have fired.
    current_input: Keys,
    timer_fired: u64,
    stats: ClientStats,
}

impl Client {
    pub fn new(config: ClientConfig, state: PlayerState) -> Self {
        Client {
            config,
            last_pos: state.pos,
            state,
            accumulator: 0.0,
            pending: PendingInputs::new(config.max_pending_inputs),
            next_id: 0,
            epoch: 0,
            last_snapshot_tick: None,
            acknowledged: None,
            current_input: Keys::IDLE,
            timer_fired: 0,
            stats: ClientStats::default(),
        }
    }

    /// The predicted physics state (latest step).
    pub fn state(&self) -> &PlayerState {
        &self.state
    }

    /// The previous step's position, shifted by every correction since (the interpolation's left end).
    pub fn last_pos(&self) -> Vec2 {
        self.last_pos
    }

    /// Where this frame sits between `last_pos` (0) and `pos` (1).
    pub fn alpha(&self) -> f64 {
        self.accumulator / self.config.step_dt
    }

    pub fn interpolated(&self) -> Vec2 {
        self.last_pos.lerp(self.state.pos, self.alpha())
    }

    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    pub fn acknowledged(&self) -> Option<u64> {
        self.acknowledged
    }

    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    pub fn stats(&self) -> ClientStats {
        ClientStats { pending_dropped: self.pending.dropped(), ..self.stats }
    }

    /// Runs the physics steps a frame of `dt` seconds ending at local time `now` owes, reading keys from
    /// `source` and sending every new input on `uplink`. Returns the number of steps.
    pub fn advance(&mut self, now: f64, dt: f64, source: &InputSource, uplink: &mut impl Channel<InputPacket>) -> u32 {
        if let Some(interval) = self.config.mismatch_input_interval {
            self.fire_input_timer(now, interval, source, uplink);
        }
        self.accumulator += dt;
        let mut steps = 0;
        while self.accumulator >= self.config.step_dt {
            let keys = match self.config.mismatch_input_interval {
                None => {
                    let input = self.new_input(source.keys_at(now));
                    self.send(now, input, uplink);
                    input.keys
                }
                Some(_) => self.current_input,
            };
            self.last_pos = self.state.pos;
            physics::step(&mut self.state, keys, self.config.step_dt, &self.config.arena);
            self.accumulator -= self.config.step_dt;
            steps += 1;
        }
        self.stats.steps += u64::from(steps);
        steps
    }

    /// The article's independent timer: every `interval` seconds, a new numbered input, pending and sent,
    /// that replaces the one the physics uses.
    fn fire_input_timer(
        &mut self,
        now: f64,
        interval: f64,
        source: &InputSource,
        uplink: &mut impl Channel<InputPacket>,
    ) {
        loop {
            let fire_at = (self.timer_fired + 1) as f64 * interval;
            if fire_at > now {
                return;
            }
            self.timer_fired += 1;
            let input = self.new_input(source.keys_at(fire_at));
            self.current_input = input.keys;
            self.send(fire_at, input, uplink);
        }
    }

    fn new_input(&mut self, keys: Keys) -> Input {
        let input = Input { id: self.next_id, epoch: self.epoch, keys };
        self.next_id += 1;
        input
    }

    /// Pending first, then sent (seed 003 §"第一步": the acknowledgement can never arrive before the input is
    /// pending). A full list drops its oldest input.
    /// Sends `input` and repeats the last `input_redundancy` unacknowledged ones: with the article's
    /// one-copy sends a single lost packet leaves a gap the server must wait out (seed 003 "服务器不能越过未处理的
    /// 编号"); repeats fill it from the next packet. The server drops the copies it already has.
    /// The article's buggy client (`mismatch`) sends each input once, as its code did.
    fn send(&mut self, at: f64, input: Input, uplink: &mut impl Channel<InputPacket>) {
        let repeat = if self.config.mismatch_input_interval.is_some() { 0 } else { self.config.input_redundancy };
        let packet = InputPacket::with_repeats(input, self.pending.iter().rev().take(repeat).copied());
        self.pending.push(input);
        uplink.send(at, packet);
        self.stats.inputs_sent += 1;
        self.stats.inputs_repeated += packet.inputs().len() as u64 - 1;
    }

    /// Applies a snapshot: reconcile (the article's four steps), join a new epoch, or ignore it and say why.
    pub fn apply_snapshot(&mut self, snap: &PlayerSnapshot) -> SnapshotOutcome {
        if let Err(invalid) = snap.snapshot.validate() {
            self.stats.invalid += 1;
            return SnapshotOutcome::Invalid(invalid);
        }
        if !snap.speed.is_finite() {
            self.stats.invalid += 1;
            let (tick, value) = (snap.snapshot.tick, snap.speed);
            return SnapshotOutcome::Invalid(InvalidSnapshot {
                tick,
                field: "speed",
                problem: Problem::NotFinite { value },
            });
        }
        if snap.epoch < self.epoch {
            self.stats.old_epoch += 1;
            return SnapshotOutcome::OldEpoch;
        }
        if snap.epoch > self.epoch {
            return SnapshotOutcome::Reconciled(self.join_epoch(snap));
        }
        if self.last_snapshot_tick.is_some_and(|tick| snap.snapshot.tick <= tick) {
            self.stats.stale += 1;
            return SnapshotOutcome::Stale;
        }
        self.last_snapshot_tick = Some(snap.snapshot.tick);
        let ack = snap.last_processed_input_id;
        if !self.pending.can_replay_after(ack) {
            self.stats.unreplayable += 1;
            return SnapshotOutcome::Unreplayable;
        }
        SnapshotOutcome::Reconciled(self.reconcile(snap))
    }

    /// Seed 003 §"第三步" `reconcile(snapshot)`.
    fn reconcile(&mut self, snap: &PlayerSnapshot) -> Reconciliation {
        let before = self.state.pos; // 1. save the prediction
        self.state = snap.state(); // 2. restore the server's state
        let ack = snap.last_processed_input_id;
        self.pending.acknowledge(ack); // 3. drop acknowledged inputs …
        for input in self.pending.iter() {
            physics::step(&mut self.state, input.keys, self.config.step_dt, &self.config.arena);
            // … replay
        }
        let correction = before - self.state.pos; // 4. the difference goes to the visual offset
        self.last_pos -= correction; //    and shifts the interpolation's left end
        self.acknowledged = ack;
        self.stats.reconciled += 1;
        Reconciliation {
            before,
            after: self.state.pos,
            correction,
            acknowledged: ack,
            replayed: self.pending.len(),
            teleport: snap.snapshot.teleport,
            new_epoch: false,
        }
    }

    /// The server restarted: reset onto its state, forget the old history, restart ids.
    fn join_epoch(&mut self, snap: &PlayerSnapshot) -> Reconciliation {
        let before = self.state.pos;
        self.state = snap.state();
        self.last_pos = self.state.pos;
        self.pending.clear();
        self.next_id = 0;
        self.epoch = snap.epoch;
        self.last_snapshot_tick = Some(snap.snapshot.tick);
        self.acknowledged = snap.last_processed_input_id;
        self.stats.epochs_joined += 1;
        Reconciliation {
            before,
            after: self.state.pos,
            correction: before - self.state.pos,
            acknowledged: snap.last_processed_input_id,
            replayed: 0,
            teleport: snap.snapshot.teleport,
            new_epoch: true,
        }
    }

    /// Teleport or respawn on the client side: no interpolation across the jump.
    pub fn settle_interpolation(&mut self) {
        self.last_pos = self.state.pos;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::FixedDelay;
    use crate::snapshot::Snapshot;

    const DT: f64 = 1.0 / 60.0;

    fn client(max_pending: usize) -> Client {
        let config = ClientConfig {
            arena: Arena::square(100.0),
            step_dt: DT,
            max_pending_inputs: max_pending,
            input_redundancy: 0,
            mismatch_input_interval: None,
        };
        Client::new(config, PlayerState::at_rest(Vec2::new(50.0, 50.0), 60.0))
    }

    fn snapshot(tick: u64, pos: Vec2, ack: Option<u64>) -> PlayerSnapshot {
        PlayerSnapshot {
            snapshot: Snapshot::moving(tick, 0.0, pos, Vec2::ZERO),
            speed: 60.0,
            last_processed_input_id: ack,
            epoch: 0,
        }
    }

    fn hold_right(c: &mut Client, frames: usize) -> FixedDelay<InputPacket> {
        let mut uplink = FixedDelay::new(0.0);
        for n in 1..=frames {
            c.advance(n as f64 * DT, DT, &InputSource::Live(Keys::RIGHT), &mut uplink);
        }
        uplink
    }

    #[test]
    fn one_input_per_step_pending_and_sent_in_order() {
        let mut c = client(100);
        let uplink = hold_right(&mut c, 5);
        assert_eq!(c.state().pos, Vec2::new(55.0, 50.0));
        assert_eq!(c.last_pos(), Vec2::new(54.0, 50.0));
        assert_eq!((c.pending(), uplink.in_flight(), c.stats().steps), (5, 5, 5));
    }

    #[test]
    fn a_frame_shorter_than_a_step_only_moves_alpha() {
        let mut c = client(100);
        let mut uplink = FixedDelay::new(0.0);
        c.advance(DT / 4.0, DT / 4.0, &InputSource::Live(Keys::RIGHT), &mut uplink);
        assert_eq!((c.stats().steps, uplink.in_flight()), (0, 0));
        assert!((c.alpha() - 0.25).abs() < 1e-12);
    }

    /// Seed 003 §"第三步" with numbers: 5 inputs predicted to x = 55; the server has processed 0..=2 but says the
    /// player is at x = 52.5. Replaying 3 and 4 lands at 54.5: correction (0.5, 0), lastPos shifted to 53.5.
    #[test]
    fn reconcile_restores_drops_acknowledged_replays_the_rest_and_shifts_last_pos() {
        let mut c = client(100);
        hold_right(&mut c, 5);
        let outcome = c.apply_snapshot(&snapshot(0, Vec2::new(52.5, 50.0), Some(2)));
        let SnapshotOutcome::Reconciled(corr) = outcome else { panic!("{outcome:?}") };
        assert_eq!(corr.before, Vec2::new(55.0, 50.0));
        assert_eq!(corr.after, Vec2::new(54.5, 50.0));
        assert_eq!(corr.correction, Vec2::new(0.5, 0.0));
        assert_eq!((corr.replayed, c.pending(), c.acknowledged()), (2, 2, Some(2)));
        assert_eq!(c.last_pos(), Vec2::new(53.5, 50.0));
    }

    #[test]
    fn stale_old_epoch_and_invalid_snapshots_are_ignored_and_counted() {
        let mut c = client(100);
        hold_right(&mut c, 2);
        assert!(matches!(
            c.apply_snapshot(&snapshot(3, Vec2::new(51.0, 50.0), Some(0))),
            SnapshotOutcome::Reconciled(_)
        ));
        assert_eq!(c.apply_snapshot(&snapshot(2, Vec2::new(0.0, 0.0), None)), SnapshotOutcome::Stale);
        let mut bad = snapshot(4, Vec2::new(f64::NAN, 0.0), None);
        assert!(matches!(c.apply_snapshot(&bad), SnapshotOutcome::Invalid(InvalidSnapshot { field: "x", .. })));
        bad.snapshot.pos.x = 1.0;
        bad.speed = f64::INFINITY;
        assert!(matches!(c.apply_snapshot(&bad), SnapshotOutcome::Invalid(InvalidSnapshot { field: "speed", .. })));
        assert_eq!(c.state().pos, Vec2::new(52.0, 50.0), "nothing ignored touched the prediction");
        let stats = c.stats();
        assert_eq!((stats.reconciled, stats.stale, stats.invalid), (1, 1, 2));
    }

    #[test]
    fn pending_inputs_stay_bounded_and_an_unreplayable_snapshot_is_not_applied() {
        let mut c = client(10);
        hold_right(&mut c, 25);
        assert_eq!((c.pending(), c.stats().pending_dropped), (10, 15));
        // the server answers again, but only up to input 3: inputs 4..=14 are gone from the history
        let outcome = c.apply_snapshot(&snapshot(0, Vec2::new(54.0, 50.0), Some(3)));
        assert_eq!(outcome, SnapshotOutcome::Unreplayable);
        assert_eq!(c.state().pos, Vec2::new(75.0, 50.0));
        // once the acknowledgements reach the kept inputs (15..=24), reconciling works again
        let outcome = c.apply_snapshot(&snapshot(1, Vec2::new(70.0, 50.0), Some(19)));
        let SnapshotOutcome::Reconciled(corr) = outcome else { panic!("{outcome:?}") };
        assert_eq!((corr.after, corr.correction, corr.replayed), (Vec2::new(75.0, 50.0), Vec2::ZERO, 5));
    }

    #[test]
    fn a_new_epoch_resets_history_and_ids() {
        let mut c = client(100);
        hold_right(&mut c, 4);
        let mut snap = snapshot(0, Vec2::new(20.0, 30.0), None);
        snap.epoch = 1;
        let SnapshotOutcome::Reconciled(corr) = c.apply_snapshot(&snap) else { panic!() };
        assert!(corr.new_epoch);
        assert_eq!((c.state().pos, c.last_pos(), c.pending(), c.epoch()), (snap.snapshot.pos, snap.snapshot.pos, 0, 1));
        let mut uplink = FixedDelay::new(0.0);
        c.advance(1.0, DT, &InputSource::Live(Keys::IDLE), &mut uplink);
        let mut out = Vec::new();
        uplink.receive(1.0, &mut out);
        assert_eq!(out[0].item.inputs(), &[Input { id: 0, epoch: 1, keys: Keys::IDLE }]);
        snap.epoch = 0;
        snap.snapshot.tick = 9;
        assert_eq!(c.apply_snapshot(&snap), SnapshotOutcome::OldEpoch);
    }

    #[test]
    fn the_mismatch_timer_numbers_more_inputs_than_there_are_steps() {
        let config = ClientConfig {
            arena: Arena::square(100.0),
            step_dt: DT,
            max_pending_inputs: 1000,
            input_redundancy: 0,
            mismatch_input_interval: Some(0.004),
        };
        let mut c = Client::new(config, PlayerState::at_rest(Vec2::new(50.0, 50.0), 60.0));
        let mut uplink = FixedDelay::new(0.0);
        for n in 1..=60 {
            c.advance(n as f64 * DT, DT, &InputSource::Live(Keys::RIGHT), &mut uplink);
        }
        assert_eq!(c.stats().steps, 60);
        assert_eq!(c.pending(), 250, "one second of a 4 ms timer");
        assert_eq!(c.state().pos, Vec2::new(100.0, 50.0), "60 steps from x = 50, clamped at the wall");
    }
}
