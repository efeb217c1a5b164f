//! From a Sample to what is on screen: the underrun policy applied, with a mode that says which it was.
//!
//! ```text
//!  Sample ──► Ready ────────────────────────────────────────────► interpolated  (the sample's position)
//!        └──► not Ready ─► policy hide ─────────────────────────► hidden        (no position)
//!                          policy snap ─────────────────────────► snapped       (the newest snapshot)
//!                          policy hold ─────────────────────────► held          (the last displayed position)
//!                          policy extrapolate-* ─ anchor known? ► extrapolated  (anchor + v·reach(ahead), `ahead`)
//!                                               │               ► held          (past the cap: frozen on the curve)
//!                                               └ no anchor ────► as hold
//! ```
//! The buffer never picks a fallback (seed 002: "不能在基础采样器中静默选择"); this layer does, by name, and says so.
//!
//! Choices, per status (seed 002 lists 冻结最后位置 / 外推速度 / 跳到最新快照):
//! - `hold` on an **Underrun** freezes at the *newest snapshot in the buffer* — seed 000 §4.3.5: "直接冻结在最新快照
//!   位置". That is where interpolation left off when frames come steadily, and it stays right when frames were
//!   skipped (a stalled tab, a low frame rate): after a 1 s stall the render time is past snapshots that arrived
//!   during the stall, and the entity stands on the newest of them, not where it was last drawn a second ago.
//!   For a **Gap** or an **InvalidInterval** (a hole, a teleport ahead, a respawn) it is the last *displayed*
//!   position (seed 002's "冻结最后位置"): the entity waits where it was seen until the render time reaches a valid
//!   bracket again, rather than jumping across the hole. The same for Priming and ClockUncertain. With nothing
//!   displayed yet it falls back to the anchor snapshot, or shows nothing.
//! - `extrapolate-seed` / `extrapolate-decay` continue from the *anchor* (the last snapshot at or before the render
//!   time: the newest on an Underrun, the left side of a Gap or InvalidInterval, the single snapshot while
//!   Priming — which is what seed 000 §4.3.7's one-snapshot test does). Past the cap the mode is `held`. The cap is
//!   `maxExtrapolation` or half a send interval (`capRule`, see `crate::extrapolate`). On
//!   ClockUncertain or before the oldest snapshot there is no anchor, so they behave as `hold`.
//! - `snap` shows the newest snapshot held, whatever the status; `hide` shows nothing.

use crate::buffer::{Sample, SampleStatus};
use crate::extrapolate::{CapRule, UnderrunParams, UnderrunPolicy};
use crate::geom::Vec2;
use crate::param::ParamError;
use serde::{Deserialize, Serialize};

/// How the displayed position was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DisplayMode {
    Interpolated,
    Extrapolated,
    Held,
    Snapped,
    Hidden,
}

impl DisplayMode {
    pub const ALL: [DisplayMode; 5] = [
        DisplayMode::Interpolated,
        DisplayMode::Extrapolated,
        DisplayMode::Held,
        DisplayMode::Snapped,
        DisplayMode::Hidden,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DisplayMode::Interpolated => "interpolated",
            DisplayMode::Extrapolated => "extrapolated",
            DisplayMode::Held => "held",
            DisplayMode::Snapped => "snapped",
            DisplayMode::Hidden => "hidden",
        }
    }
}

/// What is displayed for one frame.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Displayed {
    pub mode: DisplayMode,
    /// `None` only when hidden.
    pub position: Option<Vec2>,
    /// Seconds past the anchor snapshot, when extrapolating (also when frozen past the cap).
    pub ahead: Option<f64>,
}

impl Displayed {
    fn at(mode: DisplayMode, position: Vec2) -> Self {
        Displayed { mode, position: Some(position), ahead: None }
    }

    const HIDDEN: Displayed = Displayed { mode: DisplayMode::Hidden, position: None, ahead: None };
}

/// The underrun policy layer: turns Samples into Displayed, remembering the last displayed position.
#[derive(Clone, Debug, PartialEq)]
pub struct Presenter {
    params: UnderrunParams,
    /// The extrapolation cap in force (seconds), resolved from `capRule` once.
    cap: f64,
    last: Option<Vec2>,
}

impl Presenter {
    /// A presenter with a fixed cap (`capRule: maxExtrapolation`); a half-send-interval cap needs the interval,
    /// see [`Presenter::for_send_interval`].
    pub fn new(params: UnderrunParams) -> Result<Self, ParamError> {
        if params.cap_rule == CapRule::HalfSendInterval {
            return Err(ParamError::new(
                "capRule",
                "halfSendInterval needs the send interval (Presenter::for_send_interval)",
            ));
        }
        Self::for_send_interval(params, f64::NAN)
    }

    /// A presenter for snapshots `send_interval` seconds apart (what a half-send-interval cap is half of).
    pub fn for_send_interval(params: UnderrunParams, send_interval: f64) -> Result<Self, ParamError> {
        params.validate()?;
        let cap = params.cap(send_interval);
        Ok(Presenter { params, cap, last: None })
    }

    pub fn params(&self) -> &UnderrunParams {
        &self.params
    }

    /// The extrapolation cap in force, seconds.
    pub fn cap(&self) -> f64 {
        self.cap
    }

    /// The last position shown, if any.
    pub fn last_displayed(&self) -> Option<Vec2> {
        self.last
    }

    /// What to display for `sample`. (A plain interpolation, nearly every frame, is decided inline; the
    /// policies are not.)
    #[inline]
    pub fn show(&mut self, sample: &Sample) -> Displayed {
        if let (SampleStatus::Ready, Some(p)) = (sample.status, sample.position) {
            return self.show_interpolated(p);
        }
        self.show_policy(sample)
    }

    /// What [`Presenter::show`] gives for a Ready sample at `position` (every policy shows the interpolation).
    #[inline]
    pub fn show_interpolated(&mut self, position: Vec2) -> Displayed {
        self.last = Some(position);
        Displayed::at(DisplayMode::Interpolated, position)
    }

    #[inline(never)]
    fn show_policy(&mut self, sample: &Sample) -> Displayed {
        let shown = self.decide(sample);
        if shown.position.is_some() {
            self.last = shown.position;
        }
        shown
    }

    fn decide(&self, sample: &Sample) -> Displayed {
        if let (SampleStatus::Ready, Some(p)) = (sample.status, sample.position) {
            return Displayed::at(DisplayMode::Interpolated, p);
        }
        match self.params.underrun_policy {
            UnderrunPolicy::Hide => Displayed::HIDDEN,
            UnderrunPolicy::Snap => {
                sample.newest.map_or(Displayed::HIDDEN, |n| Displayed::at(DisplayMode::Snapped, n.pos))
            }
            UnderrunPolicy::Hold => self.hold(sample),
            policy @ (UnderrunPolicy::ExtrapolateSeed | UnderrunPolicy::ExtrapolateDecay) => {
                self.extrapolate(policy, sample).unwrap_or_else(|| self.hold(sample))
            }
        }
    }

    fn hold(&self, sample: &Sample) -> Displayed {
        if sample.status == SampleStatus::Underrun {
            if let Some(newest) = sample.newest {
                return Displayed::at(DisplayMode::Held, newest.pos);
            }
        }
        match self.last.or(sample.anchor.map(|a| a.pos)) {
            Some(p) => Displayed::at(DisplayMode::Held, p),
            None => Displayed::HIDDEN,
        }
    }

    fn extrapolate(&self, policy: UnderrunPolicy, sample: &Sample) -> Option<Displayed> {
        let anchor = sample.anchor?;
        let ahead = sample.ahead()?;
        let cap = self.cap;
        let reach = policy.reach(ahead, cap)?;
        let mode = if ahead < cap { DisplayMode::Extrapolated } else { DisplayMode::Held };
        Some(Displayed { mode, position: Some(anchor.pos + anchor.vel * reach), ahead: Some(ahead) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::SnapshotBuffer;
    use crate::snapshot::Snapshot;
    use approx::assert_relative_eq;

    fn presenter(policy: UnderrunPolicy) -> Presenter {
        Presenter::new(UnderrunParams { underrun_policy: policy, max_extrapolation: 0.1, ..Default::default() })
            .unwrap()
    }

    /// Two snapshots 50 ms apart moving at 100 u/s; x = 5 at the newest (t = 1.05).
    fn buffer() -> SnapshotBuffer {
        let mut buffer = SnapshotBuffer::new(8);
        for (tick, t, x) in [(1, 1.0, 0.0), (2, 1.05, 5.0)] {
            buffer.insert(Snapshot::moving(tick, t, Vec2::new(x, 0.0), Vec2::new(100.0, 0.0)), t + 0.05);
        }
        buffer
    }

    fn x(d: Displayed) -> f64 {
        d.position.expect("a position").x
    }

    #[test]
    fn each_policy_on_a_plain_underrun() {
        let mut buffer = buffer();
        let ready = buffer.sample(1.04);
        let underrun = buffer.sample(1.10); // 50 ms past the newest: half the cap
        for (policy, mode, expected) in [
            // Seed 000 §4.3.5 "冻结在最新快照位置": the newest snapshot (x 5), not the last frame drawn (x 4).
            (UnderrunPolicy::Hold, DisplayMode::Held, 5.0),
            (UnderrunPolicy::Snap, DisplayMode::Snapped, 5.0),
            (UnderrunPolicy::ExtrapolateSeed, DisplayMode::Extrapolated, 5.0 + 100.0 * 0.05 * 0.5),
            (UnderrunPolicy::ExtrapolateDecay, DisplayMode::Extrapolated, 5.0 + 100.0 * (0.05 - 0.0025 / 0.2)),
        ] {
            let mut p = presenter(policy);
            assert_eq!(p.show(&ready).mode, DisplayMode::Interpolated);
            let shown = p.show(&underrun);
            assert_eq!(shown.mode, mode, "{policy:?}");
            assert_relative_eq!(x(shown), expected, epsilon = 1e-9);
        }
        let mut hide = presenter(UnderrunPolicy::Hide);
        assert_eq!(hide.show(&underrun), Displayed::HIDDEN);
    }

    #[test]
    fn past_the_cap_extrapolation_is_held_on_its_curve() {
        let mut buffer = buffer();
        let late = buffer.sample(1.30);
        let shown = presenter(UnderrunPolicy::ExtrapolateDecay).show(&late);
        assert_eq!(shown.mode, DisplayMode::Held);
        assert_relative_eq!(x(shown), 5.0 + 100.0 * 0.05, epsilon = 1e-9);
        assert_relative_eq!(shown.ahead.unwrap(), 0.25, epsilon = 1e-9);
        let seed = presenter(UnderrunPolicy::ExtrapolateSeed).show(&late);
        assert_relative_eq!(x(seed), 5.0, epsilon = 1e-9);
    }

    #[test]
    fn without_an_anchor_extrapolation_holds_and_hold_without_history_shows_nothing() {
        let mut buffer = buffer();
        let before = buffer.sample(0.5);
        assert_eq!(before.status, SampleStatus::Gap);
        assert_eq!(presenter(UnderrunPolicy::ExtrapolateSeed).show(&before), Displayed::HIDDEN);
        let uncertain = buffer.sample_uncertain(1.10, Some("too few clock samples".into()));
        let mut p = presenter(UnderrunPolicy::ExtrapolateSeed);
        p.show(&buffer.sample(1.02));
        assert_eq!(p.show(&uncertain).mode, DisplayMode::Held);
    }

    #[test]
    fn hold_on_an_underrun_after_skipped_frames_stands_on_the_newest_snapshot() {
        // Seed 000 §4.3.5: 20 Hz snapshots 1 u apart; the last frame drawn is at render 1.02 (x 20.4, interpolated).
        // The tab stalls for a second; snapshots up to 2.0 (x 40) arrive meanwhile. The next frame renders 2.05,
        // past the newest: an Underrun, and hold stands at x 40 — not at x 20.4, where it was drawn a second ago.
        let mut buffer = SnapshotBuffer::new(64);
        let snap = |k: u64| Snapshot::moving(k, k as f64 * 0.05, Vec2::new(k as f64, 0.0), Vec2::new(20.0, 0.0));
        for k in 0..=21 {
            buffer.insert(snap(k), k as f64 * 0.05 + 0.05);
        }
        let mut hold = presenter(UnderrunPolicy::Hold);
        assert_relative_eq!(x(hold.show(&buffer.sample(1.02))), 20.4, epsilon = 1e-9);
        buffer.prune(1.02);
        for k in 22..=40 {
            buffer.insert(snap(k), k as f64 * 0.05 + 0.05);
        }
        let after = buffer.sample(2.05);
        assert_eq!(after.status, SampleStatus::Underrun);
        let shown = hold.show(&after);
        assert_eq!((shown.mode, x(shown)), (DisplayMode::Held, 40.0));
        // A Gap keeps the documented choice: the last displayed position.
        let mut gap = SnapshotBuffer::new(8);
        gap.insert(snap(1), 0.1);
        gap.insert(snap(2), 0.15);
        gap.insert(snap(9), 0.5);
        let mut hold = presenter(UnderrunPolicy::Hold);
        hold.show(&gap.sample(0.09));
        let wide = gap.sample(0.2);
        assert_eq!(wide.status, SampleStatus::Gap);
        assert_relative_eq!(x(hold.show(&wide)), 1.8, epsilon = 1e-9);
    }

    #[test]
    fn a_half_send_interval_cap_needs_the_interval_and_uses_half_of_it() {
        let half = UnderrunParams { cap_rule: CapRule::HalfSendInterval, ..Default::default() };
        assert_eq!(Presenter::new(half.clone()).unwrap_err().field, "capRule");
        let p = Presenter::for_send_interval(half, 0.05).unwrap();
        assert_relative_eq!(p.cap(), 0.025, epsilon = 1e-15);
        // Past 25 ms the decay is frozen at v·cap/2 = 100 · 0.0125 = 1.25 past the newest (x 5).
        let mut p = p;
        let mut buffer = buffer();
        assert_relative_eq!(x(p.show(&buffer.sample(1.10))), 6.25, epsilon = 1e-9);
    }

    #[test]
    fn the_names_are_the_external_ones() {
        for mode in DisplayMode::ALL {
            assert_eq!(serde_json::to_string(&mode).unwrap(), format!("\"{}\"", mode.name()));
        }
    }
}
