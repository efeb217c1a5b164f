//! The visual side of a correction: how the rendered player gets from where it was shown to where the
//! physics now says it is — the correction offset and its alternatives (seed 003 §"第三步", §"第四步").
//!
//! ```text
//!  a reconcile at t0 moves the physics by −c       (c = P_old − P_new = before − after)
//!
//!  halfLife      offset += c;  each frame offset *= 0.5^(dt / halfLife);  shown = base + offset
//!                continuous at t0, halves every halfLife whatever the frame rate
//!  linear        error = (what is left) + c;  shown = base + error · max(0, 1 − (t − t0) / smoothTime)
//!                continuous at t0, gone at t0 + smoothTime (Source's cl_smoothtime)
//!  snap          shown = base: the view jumps by c at t0 (Gambetta's demo: no smoothing)
//!  firstVersion  shown = shown.lerp(base, 0.1) each frame: it chases every motion, not just corrections,
//!                so the player drags behind its own input, at a speed set by the frame rate
//!                (seed 003 §"第一版把正常移动也一起平滑了")
//! ```
//!
//! `base` is the physics position the view is built on: `lerp(lastPos, pos, alpha)` (`interpolated`) or
//! `pos` (`latest`), chosen by [`RenderBase`] (seed 003 §"第四步"). All four modes run side by side on one
//! run; the `smoothing` parameter only says which one the page shows as "the" player.
//!
//! **Frame order.** A frame first lets the offset decay by its `dt`, then adds the corrections that arrived,
//! then renders. The article renders first and decays afterwards with the same `deltaTime`; with a steady
//! frame rate both show the same numbers, but with uneven frames the article's offset lags one frame's decay
//! behind `O · 0.5^(t / halfLife)`, while decaying first shows exactly that curve at every frame time.
//!
//! A correction longer than `resetDistance` (teleport, respawn) is not slid over: the session calls
//! [`Smoother::reset`] instead (seed 003 §"如何判断修复是否有效").

use crate::geom::Vec2;
use crate::param::{Choice, ParamError, Params};
use serde::{Deserialize, Serialize};

/// The article's first version chases 10 % of the remaining gap per frame.
pub const FIRST_VERSION_LERP: f64 = 0.1;

/// How a correction is shown. External names: `halfLife`, `snap`, `firstVersion`, `linear`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Choice)]
#[serde(rename_all = "camelCase")]
pub enum SmoothingMode {
    /// The offset halves every `halfLife` seconds (the article's fix).
    #[default]
    HalfLife,
    /// No smoothing: the view jumps with the physics.
    Snap,
    /// `renderPos.lerp(target, 0.1)` every frame (the article's first version, kept to show the drag).
    FirstVersion,
    /// The offset fades linearly to zero over `smoothTime` (Source's `cl_smoothtime`).
    Linear,
}

/// The physics position the view is built on (seed 003 §"第四步"). External names: `interpolated`, `latest`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Choice)]
#[serde(rename_all = "camelCase")]
pub enum RenderBase {
    /// `lerp(lastPos, pos, alpha)`: smooth at any refresh rate, about one physics step behind.
    #[default]
    Interpolated,
    /// `pos`: no added delay, but 60 Hz steps may look stepped on a faster screen.
    Latest,
}

/// The parameters of the visual correction; all of them may change between frames.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SmoothingParams {
    /// Which mode the page shows as the player (all four are computed). Default `halfLife`.
    pub smoothing: SmoothingMode,
    /// Seconds for the offset to halve. Default 0.08 (the article's starting value; seed 003 §"第四步").
    #[param(range(0.001, 2.0), unit = "s", control(5.0, 500.0, 5.0, "ms", 1000.0))]
    pub half_life: f64,
    /// Seconds for the linear mode to fade an offset out. Default 0.1 (Source's `cl_smoothtime`).
    #[param(range(0.01, 2.0), unit = "s")]
    pub smooth_time: f64,
    /// `lerp(lastPos, pos, alpha)` or `pos` under the offset. Default `interpolated`.
    pub render_base: RenderBase,
    /// A correction longer than this (world units) resets the view instead of sliding. Default 25 (a quarter
    /// of the default arena: a teleport, not a misprediction); 0 resets on every non-zero correction.
    #[param(range(0.0, 1e6), unit = "units")]
    pub reset_distance: f64,
}

impl Default for SmoothingParams {
    fn default() -> Self {
        SmoothingParams {
            smoothing: SmoothingMode::HalfLife,
            half_life: 0.08,
            smooth_time: 0.1,
            render_base: RenderBase::Interpolated,
            reset_distance: 25.0,
        }
    }
}

impl SmoothingParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }
}

/// The fraction of a half-life offset left after `dt` seconds: `0.5^(dt / halfLife)`.
pub fn half_life_decay(dt: f64, half_life: f64) -> f64 {
    0.5f64.powf(dt / half_life)
}

/// `half_life_decay(dt, half_life)` remembered for the last `(dt, half_life)`: the frames of a run are
/// mostly of one length, so the `powf` (a software routine in wasm) runs once per run, not once per frame. The
/// same call on the same bits gives the same bits, so nothing a run shows changes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DecayMemo {
    last: Option<(u64, u64, f64)>,
}

impl DecayMemo {
    pub fn decay(&mut self, dt: f64, half_life: f64) -> f64 {
        let key = (dt.to_bits(), half_life.to_bits());
        match self.last {
            Some((d, h, decay)) if (d, h) == key => decay,
            _ => {
                let decay = half_life_decay(dt, half_life);
                self.last = Some((key.0, key.1, decay));
                decay
            }
        }
    }
}

/// One value per smoothing mode, in the order of [`SmoothingMode::ALL`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PerMode<T> {
    pub half_life: T,
    pub snap: T,
    pub first_version: T,
    pub linear: T,
}

impl<T> PerMode<T> {
    pub fn from_fn(mut f: impl FnMut(SmoothingMode) -> T) -> Self {
        PerMode {
            half_life: f(SmoothingMode::HalfLife),
            snap: f(SmoothingMode::Snap),
            first_version: f(SmoothingMode::FirstVersion),
            linear: f(SmoothingMode::Linear),
        }
    }

    pub fn get(&self, mode: SmoothingMode) -> &T {
        match mode {
            SmoothingMode::HalfLife => &self.half_life,
            SmoothingMode::Snap => &self.snap,
            SmoothingMode::FirstVersion => &self.first_version,
            SmoothingMode::Linear => &self.linear,
        }
    }

    pub fn map<U>(&self, mut f: impl FnMut(SmoothingMode, &T) -> U) -> PerMode<U> {
        PerMode::from_fn(|mode| f(mode, self.get(mode)))
    }

    pub fn for_each_mut(&mut self, mut f: impl FnMut(&mut T)) {
        for v in [&mut self.half_life, &mut self.snap, &mut self.first_version, &mut self.linear] {
            f(v);
        }
    }
}

/// The view state of one mode. Its methods expect validated [`SmoothingParams`] (`halfLife`, `smoothTime`
/// above zero), as the session and [`super::decay::decay_curve`] guarantee.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Smoother {
    HalfLife {
        offset: Vec2,
    },
    Snap,
    /// `shown` is the last rendered position; `None` until the first frame or after a reset.
    FirstVersion {
        shown: Option<Vec2>,
    },
    /// `error` fades out over `smoothTime`; `elapsed` seconds have passed since it was set.
    Linear {
        error: Vec2,
        elapsed: f64,
    },
}

impl Smoother {
    pub fn new(mode: SmoothingMode) -> Self {
        match mode {
            SmoothingMode::HalfLife => Smoother::HalfLife { offset: Vec2::ZERO },
            SmoothingMode::Snap => Smoother::Snap,
            SmoothingMode::FirstVersion => Smoother::FirstVersion { shown: None },
            SmoothingMode::Linear => Smoother::Linear { error: Vec2::ZERO, elapsed: 0.0 },
        }
    }

    pub fn mode(&self) -> SmoothingMode {
        match self {
            Smoother::HalfLife { .. } => SmoothingMode::HalfLife,
            Smoother::Snap => SmoothingMode::Snap,
            Smoother::FirstVersion { .. } => SmoothingMode::FirstVersion,
            Smoother::Linear { .. } => SmoothingMode::Linear,
        }
    }

    /// Where this frame shows the player, given the physics `base`; changes nothing.
    pub fn render(&self, base: Vec2, params: &SmoothingParams) -> Vec2 {
        match *self {
            Smoother::HalfLife { offset } => base + offset,
            Smoother::Snap => base,
            Smoother::FirstVersion { shown } => shown.map_or(base, |s| s.lerp(base, FIRST_VERSION_LERP)),
            Smoother::Linear { error, elapsed } => base + error * linear_fade(elapsed, params.smooth_time),
        }
    }

    /// `render(base) − base`: how far the view is from the physics.
    pub fn offset(&self, base: Vec2, params: &SmoothingParams) -> Vec2 {
        self.render(base, params) - base
    }

    /// `dt` seconds have passed since the last frame: the offset decays, the linear fade moves on. Called at
    /// the start of a frame, before corrections and rendering, so the offset a frame shows is exactly
    /// `O · 0.5^((t − t_correction) / halfLife)` at the frame's own time, even when frame times vary.
    pub fn advance(&mut self, dt: f64, params: &SmoothingParams) {
        self.advance_by(dt, half_life_decay(dt, params.half_life), params);
    }

    /// [`Smoother::advance`] with `decay` = `half_life_decay(dt, params.half_life)` worked out by the caller (a
    /// session computes it once per frame for all modes, and once per run when the frames are even:
    /// [`DecayMemo`]).
    pub fn advance_by(&mut self, dt: f64, decay: f64, params: &SmoothingParams) {
        match self {
            Smoother::HalfLife { offset } => *offset = *offset * decay,
            Smoother::Snap | Smoother::FirstVersion { .. } => {}
            Smoother::Linear { error, elapsed } => {
                *elapsed += dt;
                if *elapsed >= params.smooth_time {
                    *error = Vec2::ZERO;
                }
            }
        }
    }

    /// The frame showed `render(base)`: the first version remembers it, to chase from there next frame.
    pub fn end_frame(&mut self, base: Vec2, params: &SmoothingParams) {
        let shown_now = self.render(base, params);
        if let Smoother::FirstVersion { shown } = self {
            *shown = Some(shown_now);
        }
    }

    /// The physics just moved by −`correction` (`correction` = before − after): keep the view where it was.
    /// `O_new = O_old + P_old − P_new`, so `P_new + O_new = P_old + O_old` (seed 003 §"第三步").
    pub fn add_correction(&mut self, correction: Vec2, params: &SmoothingParams) {
        match self {
            Smoother::HalfLife { offset } => *offset += correction,
            Smoother::Snap | Smoother::FirstVersion { .. } => {}
            Smoother::Linear { error, elapsed } => {
                // Source keeps what is left of the previous error and restarts the fade with the sum.
                *error = *error * linear_fade(*elapsed, params.smooth_time) + correction;
                *elapsed = 0.0;
            }
        }
    }

    /// Teleport or respawn: show the physics as it is, with no offset and no chase.
    pub fn reset(&mut self) {
        *self = Smoother::new(self.mode());
    }
}

/// The share of a linear error still shown after `elapsed` of `smooth_time` seconds.
fn linear_fade(elapsed: f64, smooth_time: f64) -> f64 {
    (1.0 - elapsed / smooth_time).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn params() -> SmoothingParams {
        SmoothingParams::default()
    }

    /// Runs whole frames of `1/fps` and a last short frame so that exactly `t` seconds pass.
    fn half_life_offset_after(t: f64, fps: f64) -> f64 {
        let p = params();
        let mut s = Smoother::new(SmoothingMode::HalfLife);
        s.add_correction(Vec2::new(10.0, 0.0), &p);
        let mut elapsed = 0.0;
        while elapsed < t {
            let dt = (1.0 / fps).min(t - elapsed);
            s.advance(dt, &p);
            elapsed += dt;
        }
        s.offset(Vec2::ZERO, &p).x
    }

    /// Seed 003 §"第四步": "the remaining offset halves every 80 ms" — at any frame rate.
    #[test]
    fn an_80_ms_half_life_halves_the_offset_in_80_ms_at_30_60_and_144_fps() {
        for fps in [30.0, 60.0, 144.0] {
            assert_relative_eq!(half_life_offset_after(0.08, fps), 5.0, max_relative = 1e-12);
            assert_relative_eq!(half_life_offset_after(0.16, fps), 2.5, max_relative = 1e-12);
        }
    }

    /// Seed 003 §"第三步": P_new + O_new = P_old + O_old, for a view built on any base.
    #[test]
    fn half_life_and_linear_keep_the_view_still_at_a_correction_snap_jumps_first_version_moves_a_tenth() {
        let p = params();
        let (old_base, correction) = (Vec2::new(30.0, 40.0), Vec2::new(3.0, -4.0));
        let new_base = old_base - correction;
        for mode in SmoothingMode::ALL {
            let mut s = Smoother::new(mode);
            s.add_correction(Vec2::new(1.0, 1.0), &p); // some offset is already being smoothed
            s.end_frame(old_base, &p);
            s.advance(0.01, &p);
            let before = s.render(old_base, &p);
            s.add_correction(correction, &p);
            let jump = s.render(new_base, &p).distance(before);
            let expected = match mode {
                SmoothingMode::HalfLife | SmoothingMode::Linear => 0.0,
                SmoothingMode::Snap => 5.0,
                SmoothingMode::FirstVersion => 0.5,
            };
            assert!((jump - expected).abs() < 1e-9, "{mode:?}: jump {jump}, expected {expected}");
        }
    }

    #[test]
    fn the_linear_mode_restarts_its_fade_with_what_is_left_plus_the_new_error() {
        let p = params();
        let mut s = Smoother::new(SmoothingMode::Linear);
        s.add_correction(Vec2::new(10.0, 0.0), &p);
        s.advance(0.025, &p); // 1/4 of smoothTime: 7.5 left
        s.add_correction(Vec2::new(1.0, 0.0), &p);
        assert_relative_eq!(s.offset(Vec2::ZERO, &p).x, 8.5, max_relative = 1e-12);
        s.advance(0.05, &p);
        assert_relative_eq!(s.offset(Vec2::ZERO, &p).x, 4.25, max_relative = 1e-12);
    }

    #[test]
    fn reset_clears_every_offset() {
        let p = params();
        for mode in SmoothingMode::ALL {
            let mut s = Smoother::new(mode);
            s.end_frame(Vec2::new(50.0, 0.0), &p);
            s.add_correction(Vec2::new(9.0, 0.0), &p);
            s.reset();
            assert_eq!(s.render(Vec2::new(1.0, 2.0), &p), Vec2::new(1.0, 2.0), "{mode:?}");
            assert_eq!(s.mode(), mode);
        }
    }

    #[test]
    fn params_are_checked_by_name_and_use_camel_case_outside() {
        assert_eq!(params().validate(), Ok(()));
        let bad = |f: fn(&mut SmoothingParams)| {
            let mut p = params();
            f(&mut p);
            p.validate().unwrap_err().field
        };
        assert_eq!(bad(|p| p.half_life = -1.0), "halfLife");
        assert_eq!(bad(|p| p.smooth_time = f64::INFINITY), "smoothTime");
        assert_eq!(bad(|p| p.reset_distance = -0.5), "resetDistance");
        let json = serde_json::to_string(&params()).unwrap();
        assert_eq!(
            json,
            r#"{"smoothing":"halfLife","halfLife":0.08,"smoothTime":0.1,"renderBase":"interpolated","resetDistance":25.0}"#
        );
        let p: SmoothingParams = serde_json::from_str(r#"{"smoothing":"firstVersion","renderBase":"latest"}"#).unwrap();
        assert_eq!((p.smoothing, p.render_base, p.half_life), (SmoothingMode::FirstVersion, RenderBase::Latest, 0.08));
        for mode in SmoothingMode::ALL {
            assert_eq!(serde_json::to_string(&mode).unwrap(), format!("\"{}\"", mode.name()));
        }
    }
}
