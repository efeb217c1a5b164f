//! The render-delay trade-off curve: re-run the remote view for a list of delays (same seed, same packets)
//! and measure what each delay buys — fewer underruns — and costs — more added latency (seed 000 §4.3.10:
//! "太小则频繁外推，太大则远端明显滞后").

use crate::param::{in_range, ParamError};
use crate::sim::metrics::track_metrics;
use crate::sim::params::SimParams;
use crate::sim::record::{frame, Recording};
use crate::sim::remote::RemotePipeline;
use crate::sim::world::{TimeMap, TruthTrack};
use crate::sim::{frame_capacity, next_tick};
use serde::Serialize;

/// Delays a sweep accepts at most.
pub const MAX_POINTS: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SweepPoint {
    pub delay: f64,
    pub underrun_pct: f64,
    pub added_latency: f64,
    pub rms_error: f64,
}

/// One point per delay in `delays` (seconds), the rest of `params` unchanged.
pub fn sweep(params: &SimParams, delays: &[f64]) -> Result<Vec<SweepPoint>, ParamError> {
    params.validate()?;
    if delays.len() > MAX_POINTS {
        return Err(ParamError::new("delays", format!("{} delays; at most {MAX_POINTS}", delays.len())));
    }
    let map = TimeMap::new(params);
    let truth = TruthTrack::new(params.scenario.motion, params.scenario.speed);
    delays
        .iter()
        .enumerate()
        .map(|(i, &delay)| {
            in_range(&format!("delays[{i}]"), delay, 0.0, 1.0, "s")?;
            let mut p = params.clone();
            p.remote.clock.render_delay = delay;
            point(&p, map, &truth)
        })
        .collect()
}

fn point(params: &SimParams, map: TimeMap, truth: &TruthTrack) -> Result<SweepPoint, ParamError> {
    let mut remote = RemotePipeline::new(params, map)?;
    let mut rec =
        Recording::with_capacity(frame_capacity(params), (params.duration * params.scenario.send_rate) as usize + 16);
    let mut last = None;
    loop {
        let tick = next_tick(params, &map, last.as_ref());
        if tick.local > params.duration + 1e-9 {
            break;
        }
        let mut row = [f64::NAN; frame::STRIDE];
        row[frame::LOCAL] = tick.reading;
        row[frame::DT] = tick.dt;
        remote.step(&tick, truth, &mut row, &mut rec);
        rec.frames.push(&row);
        last = Some(tick);
    }
    let status = underrun_and_lag(&rec);
    let track = track_metrics(&rec.frames, frame::X, truth, status.1);
    Ok(SweepPoint {
        delay: params.remote.clock.render_delay,
        underrun_pct: status.0,
        added_latency: track.added_latency,
        rms_error: track.rms_error,
    })
}

/// (underrun share, mean lag) without the per-policy tracks.
fn underrun_and_lag(rec: &Recording) -> (f64, f64) {
    let underrun =
        crate::buffer::SampleStatus::ALL.iter().position(|s| *s == crate::buffer::SampleStatus::Underrun).unwrap_or(2)
            as f64;
    let n = rec.frames.len().max(1) as f64;
    let share = rec.frames.column(frame::STATUS).filter(|c| *c == underrun).count() as f64 / n;
    let lags: Vec<f64> = (0..rec.frames.len())
        .filter_map(|i| rec.frames.row(i).map(|r| r[frame::SERVER_NOW] - r[frame::RENDER_TIME]))
        .filter(|l| l.is_finite())
        .collect();
    (share, lags.iter().sum::<f64>() / lags.len().max(1) as f64)
}
