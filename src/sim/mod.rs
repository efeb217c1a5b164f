//! One deterministic run: scenario + parameters + seed → timelines and metrics.
//!
//! ```text
//!  SimParams ─► TimeMap (server ↔ local ↔ client clock)          TruthTrack (where the remote really was)
//!      │
//!      ▼   for each client frame (fps; fewer during a stall), in true local time:
//!  RemotePipeline  server snapshots → Link → buffer → clock → underrun policies   (remote.rs)
//!  PathPipeline    server moveLists → Link → timed player | lerp chase            (paths.rs)
//!  LocalPipeline   your inputs → Link → server → Link → reconcile → smoothing     (local.rs)
//!      │
//!      ▼
//!  Recording (bounded timelines: frames, snapshots, batches, corrections, rtt)  ─► metrics/, the page
//! ```
//! Every random draw comes from a stream seeded by `(seed, purpose)`, so changing any parameter re-runs the
//! whole window with the same packets lost and the same jitter: comparisons are fair. Nothing here reads a
//! clock. `Simulation` can also be stepped frame by frame (live keys on the page).

pub mod local;
pub mod metrics;
pub mod params;
pub mod paths;
pub mod presets;
pub mod record;
pub mod remote;
pub mod rerun;

use crate::buffer_metrics::BufferMetrics;
use crate::clock::ClockMetrics;
use crate::link::LinkStats;
use crate::param::ParamError;
use crate::path::lerp_chase::LerpCounters;
use crate::path::player::PathCounters;
use crate::predict::input::Keys;
use crate::predict::session::SessionStats;
use crate::run::{ClientInput, FrameTick, TimeMap, Timeline, TruthTrack};
use local::LocalPipeline;
use metrics::{LocalMetrics, PathTrackMetrics, RemoteMetrics};
use params::SimParams;
use paths::PathPipeline;
use record::{frame, rtt, Recording, RTT_VERDICTS};
use remote::RemotePipeline;
use serde::Serialize;

/// The frame after `previous` (or the first frame): `1 / fps` apart, `1 / stallFps` inside the stall.
fn next_tick(params: &SimParams, map: &TimeMap, previous: Option<&FrameTick>) -> FrameTick {
    let normal = 1.0 / params.fps;
    let Some(prev) = previous else {
        return FrameTick::at(0, 0.0, normal, map);
    };
    let events = &params.events;
    let stalled = events.stall_at.is_some_and(|at| prev.local >= at && prev.local < at + events.stall_duration);
    let dt = if stalled { 1.0 / events.stall_fps } else { normal };
    let local = prev.local + dt;
    FrameTick::at(prev.index + 1, local, dt, map)
}

/// Counters and quality metrics of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SimMetrics {
    pub frames: usize,
    pub remote: RemoteMetrics,
    pub paths: PathTrackMetrics,
    pub local: LocalMetrics,
    pub buffer: BufferMetrics,
    pub clock: ClockMetrics,
    pub path_counters: PathCounters,
    pub lerp_counters: LerpCounters,
    pub session: SessionStats,
    pub downlink: LinkStats,
}

/// A run in progress (or finished): the three pipelines and what they recorded.
pub struct Simulation {
    params: SimParams,
    map: TimeMap,
    truth: TruthTrack,
    remote: RemotePipeline,
    paths: PathPipeline,
    local: LocalPipeline,
    recording: Recording,
    last: Option<FrameTick>,
    /// Pipelines adopted from a previous run, and that run's frames to copy their columns from.
    reused: Option<(rerun::Reuse, Timeline)>,
}

/// Frames the window can hold: `duration × fps` plus slack for the first frame.
fn frame_capacity(params: &SimParams) -> usize {
    (params.duration * params.fps).ceil() as usize + 2
}

impl Simulation {
    /// Checks `params` and sets up a run at local time 0.
    pub fn new(params: &SimParams) -> Result<Self, ParamError> {
        params.validate()?;
        let map = params.time_map();
        let snapshots = (params.duration * params.scenario.send_rate * 1.1).ceil() as usize + 16;
        let mut remote = RemotePipeline::new(params, map)?;
        // The run is bounded (params.duration ≤ 120 s), so it keeps its client inputs for the engines: one per
        // frame, per snapshot delivered (duplicates: the 10 % slack) and per RTT sample, reserved at once rather
        // than grown (and copied) a dozen times.
        let pongs = (params.duration / remote::PING_INTERVAL).ceil() as usize + 1;
        remote.log = Some(Vec::with_capacity(frame_capacity(params) + snapshots + pongs));
        Ok(Simulation {
            params: params.clone(),
            map,
            truth: params.truth(),
            remote,
            paths: PathPipeline::new(params, map)?,
            local: LocalPipeline::new(params, params.script.clone())?,
            recording: Recording::with_capacity(frame_capacity(params), snapshots),
            last: None,
            reused: None,
        })
    }

    pub fn params(&self) -> &SimParams {
        &self.params
    }

    /// The next frame's tick, if it falls inside the window.
    pub fn peek(&self) -> Option<FrameTick> {
        let tick = next_tick(&self.params, &self.map, self.last.as_ref());
        (tick.local <= self.params.duration + 1e-9).then_some(tick)
    }

    /// Simulates one frame; `false` once the window is over.
    pub fn step(&mut self) -> bool {
        let Some(tick) = self.peek() else { return false };
        // The row is written where the timeline keeps it (`push_with`), not built on the stack and copied in
        // (wasm: one `memory.copy` call per frame). The pipelines never touch the frames timeline, so it is
        // lent out of the recording for the frame.
        let mut frames = std::mem::take(&mut self.recording.frames);
        frames.push_with(|row| self.fill_frame(&tick, row.try_into().expect("a frame row has frame::STRIDE numbers")));
        self.recording.frames = frames;
        self.last = Some(tick);
        true
    }

    /// One frame's row (NaN where nothing is drawn): every pipeline's step, or its columns of the previous run.
    #[inline(always)]
    fn fill_frame(&mut self, tick: &FrameTick, row: &mut remote::Row) {
        row[frame::LOCAL] = tick.reading;
        row[frame::DT] = tick.dt;
        let (reuse, old) = match &self.reused {
            Some((reuse, old)) => (*reuse, old.row(tick.index)),
            None => (rerun::Reuse::default(), None),
        };
        let copy = |row: &mut [f64], columns: std::ops::Range<usize>| {
            if let Some(old) = old {
                row[columns.clone()].copy_from_slice(&old[columns]);
            }
        };
        if reuse.remote {
            copy(row, rerun::REMOTE_COLUMNS);
        } else {
            self.remote.step(tick, &self.truth, row, &mut self.recording);
        }
        if reuse.paths {
            copy(row, rerun::PATH_COLUMNS);
        } else {
            self.paths.step(tick, row, &mut self.recording);
        }
        if reuse.local {
            copy(row, rerun::LOCAL_COLUMNS);
        } else {
            self.local.step(tick, row, &mut self.recording);
        }
    }

    /// Simulates every remaining frame of the window.
    pub fn run_to_end(&mut self) {
        while self.step() {}
        let remote_reused = self.reused.as_ref().is_some_and(|(r, _)| r.remote);
        if !remote_reused {
            self.copy_rtt_history();
        }
        self.reused = None;
    }

    /// Steers the local player with live keys from the next frame on.
    pub fn set_live_keys(&mut self, keys: Keys) {
        self.local.set_live_keys(keys);
    }

    pub fn recording(&self) -> &Recording {
        &self.recording
    }

    pub fn recording_mut(&mut self) -> &mut Recording {
        &mut self.recording
    }

    /// The path batches sent so far with their send times (true local time).
    pub fn sent_batches(&self) -> &[(f64, crate::path::PathBatch)] {
        self.paths.sent()
    }

    pub fn truth(&self) -> &TruthTrack {
        &self.truth
    }

    /// How this run's clocks relate (true local time, server time, the client's reading).
    pub fn time_map(&self) -> &TimeMap {
        &self.map
    }

    /// Everything the remote pipeline's client received, in order, and the id naming those inputs (it changes
    /// whenever the remote side is re-run): what the engines' strategies replay (`crate::engines`).
    pub fn client_inputs(&self) -> (u64, &[ClientInput]) {
        self.remote.inputs()
    }

    fn copy_rtt_history(&mut self) {
        let history: Vec<[f64; rtt::STRIDE]> = self
            .remote
            .playback()
            .clock()
            .rtt_history()
            .map(|p| {
                let verdict = RTT_VERDICTS.iter().position(|v| *v == verdict_name(p.verdict)).unwrap_or(0);
                [p.at, p.rtt, p.smoothed.unwrap_or(f64::NAN), verdict as f64]
            })
            .collect();
        for row in history {
            self.recording.rtt.push_row(&row);
        }
    }

    /// The clock's metrics alone (its jump log among them), without the rest of [`Simulation::metrics`]: what
    /// the page's status card reads at its first frame, on the first-frame build, which has no `metrics()`.
    pub fn clock_metrics(&self) -> crate::clock::ClockMetrics {
        let now = self.last.map_or(0.0, |t| t.reading);
        self.remote.playback().metrics(now).clock
    }

    /// Counters and quality metrics so far.
    pub fn metrics(&self) -> SimMetrics {
        let now = self.last.map_or(0.0, |t| t.reading);
        let playback = self.remote.playback().metrics(now);
        let p = &self.params;
        let playback_delay = p.paths.batch_interval + p.network.downlink.latency + p.paths.player.interpolation_delay;
        SimMetrics {
            frames: self.recording.frames.len(),
            remote: metrics::remote_metrics(&self.recording.frames, &self.truth),
            paths: metrics::path_metrics(&self.recording.frames, &self.truth, playback_delay),
            local: metrics::local_metrics(&self.recording.frames, &self.recording.corrections),
            buffer: playback.buffer,
            clock: playback.clock,
            path_counters: self.paths.player().counters().clone(),
            lerp_counters: self.paths.lerp().counters().clone(),
            session: self.local.session().stats(),
            downlink: self.remote.downlink().stats(),
        }
    }
}

fn verdict_name(v: crate::clock::Verdict) -> &'static str {
    use crate::clock::Verdict;
    match v {
        Verdict::Accepted => "accepted",
        Verdict::Rejected => "rejected",
        Verdict::Reseeded => "reseeded",
        Verdict::Invalid => "invalid",
    }
}

/// The remote pipeline alone over the whole window: every input its client received, in order (the log the
/// strategies and the delay sweep replay; the same packets as a whole run of `params`).
pub fn deliveries(params: &SimParams) -> Result<Vec<ClientInput>, ParamError> {
    deliveries_with(params, |_, _| {})
}

/// [`deliveries`], handing each frame's tick and row (the remote columns of `record::frame`: what the pipeline
/// showed) to `on_frame` as it goes.
pub fn deliveries_with(
    params: &SimParams,
    mut on_frame: impl FnMut(&FrameTick, &[f64]),
) -> Result<Vec<ClientInput>, ParamError> {
    let map = params.time_map();
    let truth = params.truth();
    let mut remote = RemotePipeline::new(params, map)?;
    remote.log = Some(Vec::new());
    let mut rec = Recording::with_capacity(1, (params.duration * params.scenario.send_rate) as usize + 16);
    let mut last: Option<FrameTick> = None;
    let mut row = [f64::NAN; frame::STRIDE];
    loop {
        let tick = next_tick(params, &map, last.as_ref());
        if tick.local > params.duration + 1e-9 {
            break;
        }
        remote.step(&tick, &truth, &mut row, &mut rec);
        on_frame(&tick, &row);
        last = Some(tick);
    }
    Ok(remote.log.take().unwrap_or_default())
}

/// Runs the whole window of `params`.
pub fn run(params: &SimParams) -> Result<Simulation, ParamError> {
    let mut sim = Simulation::new(params)?;
    sim.run_to_end();
    Ok(sim)
}
