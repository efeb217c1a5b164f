//! A whole prediction run: client, server and the two links between them, stepped frame by frame in
//! simulated time — deterministic from parameters + input script + frame times.
//!
//! ```text
//!              uplink (inputs)                    one frame of dt, ending at local time `now`:
//!   client ───────────────────────► server          0. every view offset decays by dt (time has passed)
//!     ▲                                 │           1. server: every input that arrived by `now`, every
//!     └─────────────────────────────────┘              snapshot due by `now`, in time order (snapshots are
//!              downlink (snapshots)                    copied when sent, delivered later by the downlink)
//!                                                   2. client: reconcile each snapshot that arrived
//!                                                   3. client: physics steps owed by the accumulator
//!                                                   4. render every smoothing mode, record
//! ```
//!
//! Latency is honest (seed 003's last section): the server keeps its own send rhythm and each snapshot is a
//! copy that travels `downlinkDelay`; inputs travel `uplinkDelay` on their own link. The article's
//! `setTimeout(runUpdate, updateTickRate * 1000 + ping)` stretched the broadcast interval instead (300 ms of
//! "ping" gave one broadcast every 316.7 ms with no delay in flight). Both links are [`Channel`]s, so a lossy,
//! jittery, reordering link plugs in with [`Session::with_channels`]; the delay parameters then only serve
//! [`Session::new`]'s [`FixedDelay`] links.
//!
//! The server's events run at their own times, independent of the client's frame rate; the client sees
//! arrivals at its frame boundaries, as a browser does. Client and server clocks agree (no clock offset).
//!
//! Drive it with [`Session::run`] for a whole window, or with [`Session::step_frame`] once per page frame
//! (after [`Session::set_live_keys`]). A frame longer than [`MAX_FRAME_DT`] is shortened to it and counted, so
//! a stalled tab cannot queue thousands of physics steps.

use super::client::{Client, ClientConfig, ClientStats, Reconciliation, SnapshotOutcome};
use super::input::{InputPacket, InputScript, InputSource, Keys};
use super::params::PredictParams;
use super::physics::{Arena, PlayerState};
use super::server::{PlayerSnapshot, Server, ServerStats};
use super::smoothing::{DecayMemo, PerMode, RenderBase, Smoother, SmoothingParams};
use crate::channel::{Channel, Delivery, FixedDelay};
use crate::geom::Vec2;
use crate::param::{in_range, ParamError};
use serde::Serialize;

/// The longest frame the session steps at once, in seconds.
pub const MAX_FRAME_DT: f64 = 0.25;
/// The most frames one [`Session::run`] records.
pub const MAX_RUN_FRAMES: usize = 100_000;

/// What one frame showed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameRecord {
    pub frame: u64,
    /// Local time at the end of the frame (seconds).
    pub time: f64,
    /// The frame's duration after clamping.
    pub dt: f64,
    /// Physics steps run this frame.
    pub steps: u32,
    pub alpha: f64,
    /// The client's predicted physics position (latest step).
    pub predicted: Vec2,
    /// The physics position the view is built on (`renderBase`).
    pub base: Vec2,
    /// The server's authoritative position at this instant (the client does not know it yet).
    pub server: Vec2,
    /// The position in the last snapshot the client reconciled with.
    pub last_snapshot: Option<Vec2>,
    /// The rendered position of the mode chosen by `smoothing`.
    pub rendered: Vec2,
    /// The rendered position of every mode.
    pub modes: PerMode<Vec2>,
    /// `|rendered − base|` of every mode: the offset size (the lag, for `firstVersion`).
    pub offsets: PerMode<f64>,
    pub pending: usize,
    pub acknowledged: Option<u64>,
    /// Snapshots reconciled this frame.
    pub reconciled: u32,
}

/// One reconciliation and what it did to the view.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CorrectionRecord {
    pub frame: u64,
    pub time: f64,
    pub reconciliation: Reconciliation,
    /// The correction was a teleport, a new epoch or longer than `resetDistance`: the view was reset.
    pub reset: bool,
    /// What went into the `halfLife` and `linear` offsets (zero after a reset).
    pub offset_added: Vec2,
    /// Every mode's rendered position just before and just after the reconciliation (same frame, same alpha).
    pub rendered_before: PerMode<Vec2>,
    pub rendered_after: PerMode<Vec2>,
}

/// Counts for the whole session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionStats {
    pub frames: u64,
    /// Frames longer than `MAX_FRAME_DT`, shortened.
    pub clamped_frames: u64,
    pub resets: u64,
    pub client: ClientStats,
    pub server: ServerStats,
}

/// The records of [`Session::run`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    pub frames: Vec<FrameRecord>,
    pub corrections: Vec<CorrectionRecord>,
    pub stats: SessionStats,
}

/// What the server does next within a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ServerEvent {
    Arrival,
    Tick,
    Snapshot,
}

/// Client + server + uplink + downlink, in simulated time.
#[derive(Clone, Debug)]
pub struct Session<U = FixedDelay<InputPacket>, D = FixedDelay<PlayerSnapshot>> {
    params: PredictParams,
    /// Seconds between two of the server's snapshots (a fact of the server, not a setting of the client).
    snapshot_interval: f64,
    source: InputSource,
    client: Client,
    server: Server,
    uplink: U,
    downlink: D,
    smoothers: PerMode<Smoother>,
    decay: DecayMemo,
    now: f64,
    frame: u64,
    server_ticks: u64,
    snapshots_due: u64,
    last_snapshot: Option<Vec2>,
    clamped_frames: u64,
    resets: u64,
    arrived_inputs: Vec<Delivery<InputPacket>>,
    arrived_snapshots: Vec<Delivery<PlayerSnapshot>>,
}

impl Session {
    /// A session over [`FixedDelay`] links of `uplinkDelay` and `downlinkDelay`, its server sending
    /// `snapshot_rate` snapshots a second.
    pub fn new(params: PredictParams, snapshot_rate: f64, script: InputScript) -> Result<Self, ParamError> {
        params.validate()?;
        let (up, down) = (FixedDelay::new(params.uplink_delay), FixedDelay::new(params.downlink_delay));
        Session::with_channels(params, snapshot_rate, script, up, down)
    }
}

impl<U: Channel<InputPacket>, D: Channel<PlayerSnapshot>> Session<U, D> {
    /// A session over any links (the network simulator's lossy ones, a test's scripted ones), its server sending
    /// `snapshot_rate` snapshots a second (a fact of the server, 1..=240 Hz: the simulator's send rate).
    pub fn with_channels(
        params: PredictParams,
        snapshot_rate: f64,
        script: InputScript,
        uplink: U,
        downlink: D,
    ) -> Result<Self, ParamError> {
        params.validate()?;
        in_range("snapshotRate", snapshot_rate, 1.0, 240.0, "Hz")?;
        let arena = Arena::square(params.arena_size);
        let spawn = PlayerState::at_rest(arena.center(), params.speed);
        let config = ClientConfig {
            arena,
            step_dt: params.step_dt(),
            max_pending_inputs: params.max_pending_inputs as usize,
            input_redundancy: params.input_redundancy as usize,
            mismatch_input_interval: params.mismatch.then_some(params.mismatch_input_interval),
        };
        Ok(Session {
            client: Client::new(config, spawn),
            server: Server::new(spawn, arena, params.step_dt(), params.input_gap_timeout, params.mismatch),
            params,
            snapshot_interval: 1.0 / snapshot_rate,
            source: InputSource::Scripted(script),
            uplink,
            downlink,
            smoothers: PerMode::from_fn(Smoother::new),
            decay: DecayMemo::default(),
            now: 0.0,
            frame: 0,
            server_ticks: 0,
            snapshots_due: 0,
            last_snapshot: None,
            clamped_frames: 0,
            resets: 0,
            arrived_inputs: Vec::new(),
            arrived_snapshots: Vec::new(),
        })
    }

    pub fn params(&self) -> &PredictParams {
        &self.params
    }

    /// Local time (seconds) at the end of the last frame.
    pub fn time(&self) -> f64 {
        self.now
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    pub fn server(&self) -> &Server {
        &self.server
    }

    pub fn stats(&self) -> SessionStats {
        SessionStats {
            frames: self.frame,
            clamped_frames: self.clamped_frames,
            resets: self.resets,
            client: self.client.stats(),
            server: self.server.stats(),
        }
    }

    /// Changes the live smoothing parameters; a refused value changes nothing.
    pub fn set_smoothing(&mut self, smoothing: SmoothingParams) -> Result<(), ParamError> {
        smoothing.validate()?;
        self.params.smoothing = smoothing;
        Ok(())
    }

    /// From now on the client reads these keys (the page's keyboard), not the script.
    pub fn set_live_keys(&mut self, keys: Keys) {
        self.source = InputSource::Live(keys);
    }

    /// From now on the client reads `script` at its local time.
    pub fn set_script(&mut self, script: InputScript) {
        self.source = InputSource::Scripted(script);
    }

    /// Stops the server (it drops what reaches it and sends nothing) or restarts it in a new epoch.
    pub fn set_server_running(&mut self, running: bool) {
        match (running, self.server.is_running()) {
            (false, true) => self.server.stop(),
            (true, false) => self.server.restart(),
            _ => {}
        }
    }

    /// The server moves the player to `pos` (respawn, teleport).
    pub fn teleport(&mut self, pos: Vec2) {
        self.server.teleport(pos);
    }

    /// Runs `duration` seconds of frames at `fps` and returns every record.
    pub fn run(&mut self, duration: f64, fps: f64) -> Result<Run, ParamError> {
        let duration = in_range("duration", duration, 0.0, 3600.0, "s")?;
        let fps = in_range("fps", fps, 1.0, 1000.0, "Hz")?;
        let count = (duration * fps).round() as usize;
        if count > MAX_RUN_FRAMES {
            return Err(ParamError::new("duration", format!("{count} frames is more than {MAX_RUN_FRAMES}")));
        }
        let (mut frames, mut corrections) = (Vec::with_capacity(count), Vec::new());
        for _ in 0..count {
            frames.push(self.step_frame(1.0 / fps, &mut corrections)?);
        }
        Ok(Run { frames, corrections, stats: self.stats() })
    }

    /// Steps one frame of `dt` seconds; reconciliations are appended to `corrections`. A non-finite or
    /// negative `dt` is refused (field `dt`) and changes nothing.
    pub fn step_frame(&mut self, dt: f64, corrections: &mut Vec<CorrectionRecord>) -> Result<FrameRecord, ParamError> {
        if !dt.is_finite() || dt < 0.0 {
            return Err(ParamError::new("dt", format!("{} is not a finite frame time ≥ 0 s", crate::words::num(dt))));
        }
        let mut dt = dt;
        if dt > MAX_FRAME_DT {
            dt = MAX_FRAME_DT;
            self.clamped_frames += 1;
        }
        self.now += dt;
        self.frame += 1;
        let smoothing = self.params.smoothing;
        let decay = self.decay.decay(dt, smoothing.half_life);
        self.smoothers.for_each_mut(|s| s.advance_by(dt, decay, &smoothing));
        self.run_server(self.now);
        let reconciled = self.receive_snapshots(corrections);
        let steps = self.client.advance(self.now, dt, &self.source, &mut self.uplink);
        let base = self.base();
        let modes = self.smoothers.map(|_, s| s.render(base, &smoothing));
        let record = FrameRecord {
            frame: self.frame,
            time: self.now,
            dt,
            steps,
            alpha: self.client.alpha(),
            predicted: self.client.state().pos,
            base,
            server: self.server.state().pos,
            last_snapshot: self.last_snapshot,
            rendered: *modes.get(smoothing.smoothing),
            modes,
            offsets: modes.map(|_, p| p.distance(base)),
            pending: self.client.pending(),
            acknowledged: self.client.acknowledged(),
            reconciled,
        };
        self.smoothers.for_each_mut(|s| s.end_frame(base, &smoothing));
        Ok(record)
    }

    /// The server's side of the world up to `until`: input arrivals, its own ticks (mismatch only) and
    /// snapshot sends, in time order; on a tie, arrivals first, then ticks, then snapshots.
    fn run_server(&mut self, until: f64) {
        let mut arrivals = std::mem::take(&mut self.arrived_inputs);
        arrivals.clear();
        self.uplink.receive(until, &mut arrivals);
        let mut arrivals_iter = arrivals.iter().peekable();
        let tick_dt = self.params.step_dt();
        let snapshot_dt = self.snapshot_interval;
        loop {
            let arrival = arrivals_iter.peek().map(|d| (ServerEvent::Arrival, d.arrival));
            let tick = self.params.mismatch.then(|| (ServerEvent::Tick, (self.server_ticks + 1) as f64 * tick_dt));
            let snapshot = Some((ServerEvent::Snapshot, self.snapshots_due as f64 * snapshot_dt));
            let next = [arrival, tick, snapshot]
                .into_iter()
                .flatten()
                .filter(|&(_, at)| at <= until)
                .min_by(|a, b| a.1.total_cmp(&b.1)); // the first of equals: arrivals, ticks, snapshots
            match next {
                Some((ServerEvent::Arrival, at)) => {
                    if let Some(delivery) = arrivals_iter.next() {
                        for &input in delivery.item.inputs().iter().rev() {
                            self.server.receive_input(input);
                        }
                    }
                    self.server.process(at);
                }
                Some((ServerEvent::Tick, _)) => {
                    self.server_ticks += 1;
                    self.server.mismatch_tick();
                }
                Some((ServerEvent::Snapshot, at)) => {
                    self.snapshots_due += 1;
                    self.server.process(at);
                    if let Some(snapshot) = self.server.make_snapshot(at) {
                        self.downlink.send(at, snapshot); // a copy, sent now, delivered later
                    }
                }
                None => break,
            }
        }
        self.arrived_inputs = arrivals;
    }

    /// Reconciles every snapshot that has arrived; returns how many were reconciled.
    fn receive_snapshots(&mut self, corrections: &mut Vec<CorrectionRecord>) -> u32 {
        let mut arrived = std::mem::take(&mut self.arrived_snapshots);
        arrived.clear();
        self.downlink.receive(self.now, &mut arrived);
        let mut reconciled = 0;
        for delivery in &arrived {
            let rendered_before = self.render_all();
            if let SnapshotOutcome::Reconciled(reconciliation) = self.client.apply_snapshot(&delivery.item) {
                self.last_snapshot = Some(delivery.item.snapshot.pos);
                let offset_added = self.show_correction(&reconciliation);
                corrections.push(CorrectionRecord {
                    frame: self.frame,
                    time: self.now,
                    reconciliation,
                    reset: offset_added.is_none(),
                    offset_added: offset_added.unwrap_or(Vec2::ZERO),
                    rendered_before,
                    rendered_after: self.render_all(),
                });
                reconciled += 1;
            }
        }
        self.arrived_snapshots = arrived;
        reconciled
    }

    /// Hands a correction to every smoother, or resets the view (teleport, new epoch, or longer than
    /// `resetDistance`: seed 003 §"如何判断修复是否有效"). Returns the offset added, `None` after a reset.
    fn show_correction(&mut self, r: &Reconciliation) -> Option<Vec2> {
        let smoothing = self.params.smoothing;
        let reset = r.teleport || r.new_epoch || r.correction.length() > smoothing.reset_distance;
        if reset {
            self.client.settle_interpolation();
            self.smoothers.for_each_mut(Smoother::reset);
            self.resets += 1;
            None
        } else {
            self.smoothers.for_each_mut(|s| s.add_correction(r.correction, &smoothing));
            Some(r.correction)
        }
    }

    fn base(&self) -> Vec2 {
        match self.params.smoothing.render_base {
            RenderBase::Interpolated => self.client.interpolated(),
            RenderBase::Latest => self.client.state().pos,
        }
    }

    fn render_all(&self) -> PerMode<Vec2> {
        let base = self.base();
        self.smoothers.map(|_, s| s.render(base, &self.params.smoothing))
    }
}

/// A whole deterministic run over `FixedDelay` links: `duration` seconds at `fps`, keys from `script`, the server
/// sending `snapshot_rate` snapshots a second.
pub fn run(
    params: PredictParams,
    snapshot_rate: f64,
    script: InputScript,
    duration: f64,
    fps: f64,
) -> Result<Run, ParamError> {
    Session::new(params, snapshot_rate, script)?.run(duration, fps)
}
