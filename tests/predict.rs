//! Local player prediction, reconciliation and correction smoothing, run end to end (seed 003).

mod predict_support;

use approx::assert_relative_eq;
use netcode_lab::channel::FixedDelay;
use netcode_lab::geom::Vec2;
use netcode_lab::predict::input::{InputScript, KeyEvent, Keys};
use netcode_lab::predict::params::PredictParams;
use netcode_lab::predict::session::{run, CorrectionRecord, FrameRecord, Run, Session, MAX_FRAME_DT};
use netcode_lab::predict::smoothing::{RenderBase, SmoothingMode, SmoothingParams};
use predict_support::{Dropping, Lossy};

const FPS: [f64; 3] = [30.0, 60.0, 144.0];
/// The server's snapshots per second (seed 003's 20 Hz).
const SNAPSHOT_RATE: f64 = 20.0;
/// One physics step of the default speed: 50 units/s at 60 Hz.
const STEP: f64 = 50.0 / 60.0;

fn hold_right() -> InputScript {
    InputScript::new(vec![KeyEvent { time: 0.0, keys: Keys::RIGHT }]).unwrap()
}

/// A long corridor, so holding a key for seconds never reaches a wall.
/// A wide arena, inputs sent once (the article's way), so one lost input opens a gap.
fn wide() -> PredictParams {
    PredictParams { arena_size: 10_000.0, input_redundancy: 0, ..PredictParams::default() }
}

fn mismatch() -> PredictParams {
    PredictParams { mismatch: true, ..PredictParams::default() }
}

/// Steps `n` frames at 60 fps.
fn frames_60(session: &mut Session, n: usize, corrections: &mut Vec<CorrectionRecord>) -> Vec<FrameRecord> {
    (0..n).map(|_| session.step_frame(1.0 / 60.0, corrections).unwrap()).collect()
}

fn non_zero(run: &Run) -> Vec<&CorrectionRecord> {
    run.corrections.iter().filter(|c| c.reconciliation.correction != Vec2::ZERO).collect()
}

// ── seed 003 §"第三步": the view is continuous when the physics is corrected ────────────────────────────

/// P_new + O_new = P_old + O_old: at every one of hundreds of real corrections (the mismatch switch makes
/// them), at 30, 60 and 144 fps and on both render bases, the half-life and linear views do not move, while
/// snap jumps by the whole correction and the first version by a tenth of it.
#[test]
fn the_rendered_position_is_the_same_just_before_and_just_after_every_correction() {
    for fps in FPS {
        for render_base in [RenderBase::Interpolated, RenderBase::Latest] {
            let smoothing = SmoothingParams { render_base, reset_distance: 1e6, ..SmoothingParams::default() };
            let run = run(PredictParams { smoothing, ..mismatch() }, SNAPSHOT_RATE, InputScript::demo(10.0), 10.0, fps)
                .unwrap();
            let corrections = non_zero(&run);
            assert!(corrections.len() > 50, "{fps} fps: only {} corrections", corrections.len());
            for c in corrections {
                let size = c.reconciliation.correction.length();
                let jump = |mode| c.rendered_before.get(mode).distance(*c.rendered_after.get(mode));
                assert!(jump(SmoothingMode::HalfLife) < 1e-9, "{fps} fps {render_base:?}: {c:?}");
                assert!(jump(SmoothingMode::Linear) < 1e-9, "{fps} fps {render_base:?}: {c:?}");
                assert!((jump(SmoothingMode::Snap) - size).abs() < 1e-9);
                assert!((jump(SmoothingMode::FirstVersion) - 0.1 * size).abs() < 1e-9);
                assert_eq!(c.offset_added, c.reconciliation.correction);
            }
        }
    }
}

// ── seed 003 §"第四步": offset *= 0.5^(dt / halfLife), frame-rate independent ─────────────────────────────

/// One lost input makes exactly one real correction (see below); from the frame that shows it, 80 ms of
/// frames at 30, 60 or 144 fps (the last one shortened to land on 80 ms) leave exactly half of it.
#[test]
fn an_80_ms_half_life_halves_a_real_correction_in_80_ms_at_30_60_and_144_fps() {
    for fps in FPS {
        let mut session = Session::with_channels(
            wide(),
            SNAPSHOT_RATE,
            hold_right(),
            Dropping::new(0.05, vec![30]),
            FixedDelay::new(0.05),
        )
        .unwrap();
        let mut corrections = Vec::new();
        let shown = loop {
            let frame = session.step_frame(1.0 / fps, &mut corrections).unwrap();
            if corrections.iter().any(|c: &CorrectionRecord| c.reconciliation.correction != Vec2::ZERO) {
                break frame.offsets.half_life;
            }
            assert!(frame.time < 2.0, "no correction came");
        };
        assert_relative_eq!(shown, STEP, max_relative = 1e-9);
        let mut elapsed = 0.0;
        let mut last = shown;
        while elapsed < 0.08 - 1e-12 {
            let dt = (1.0 / fps).min(0.08 - elapsed);
            last = session.step_frame(dt, &mut corrections).unwrap().offsets.half_life;
            elapsed += dt;
        }
        assert_relative_eq!(last, shown / 2.0, max_relative = 1e-9);
    }
}

/// Between corrections every frame multiplies the shown offset by 0.5^(dt / 0.08), whatever dt is.
#[test]
fn between_corrections_each_frame_decays_the_offset_by_its_own_duration() {
    for fps in FPS {
        let run = run(mismatch(), SNAPSHOT_RATE, InputScript::demo(5.0), 5.0, fps).unwrap();
        let mut checked = 0;
        for pair in run.frames.windows(2) {
            let (a, b): (&FrameRecord, &FrameRecord) = (&pair[0], &pair[1]);
            if b.reconciled == 0 && a.offsets.half_life > 1e-3 {
                let expected = a.offsets.half_life * 0.5f64.powf(b.dt / 0.08);
                assert!((b.offsets.half_life - expected).abs() < 1e-9, "{fps} fps, frame {}", b.frame);
                checked += 1;
            }
        }
        assert!(checked > 20, "{fps} fps: {checked}");
    }
}

// ── seed 003 §"如何判断修复是否有效": when client and server agree, replay lands exactly ──────────────────

#[test]
fn replay_gives_exactly_zero_correction_when_client_and_server_agree_for_any_fixed_delays() {
    for (uplink_delay, downlink_delay) in [(0.0, 0.0), (0.013, 0.2), (0.3, 0.02), (0.5, 0.5), (1.0, 0.25)] {
        for fps in FPS {
            let params = PredictParams { uplink_delay, downlink_delay, ..PredictParams::default() };
            let run = run(params, SNAPSHOT_RATE, InputScript::demo(8.0), 8.0, fps).unwrap();
            assert!(run.corrections.len() > 100);
            assert!(non_zero(&run).is_empty(), "delays {uplink_delay}/{downlink_delay} at {fps} fps");
            assert_eq!((run.stats.resets, run.stats.client.unreplayable), (0, 0));
            for f in &run.frames {
                assert_eq!(f.modes.half_life, f.base);
                assert_eq!(f.modes.linear, f.base);
            }
        }
    }
}

// ── seed 003 §"输入编号没有对应实际模拟步": the mismatch switch ─────────────────────────────────────────────

/// The article's code: inputs from a 4 ms timer (one step uses several, replay steps each), a server that
/// replaces its input and claims ids it has not stepped. Holding one key, the corrections never stop
/// (±1–4 steps, every second), and the prediction runs 15–18 units ahead of the server instead of the
/// honest 2.5 (50 units/s × 50 ms uplink): over a 0.1 s round trip the replay steps 25 inputs where 6 real
/// steps happened, (25 − 6) × 0.83 ≈ 16 units too far.
#[test]
fn the_mismatch_switch_makes_corrections_that_never_stop() {
    for fps in FPS {
        let honest = run(wide(), SNAPSHOT_RATE, hold_right(), 10.0, fps).unwrap();
        let buggy = run(PredictParams { mismatch: true, ..wide() }, SNAPSHOT_RATE, hold_right(), 10.0, fps).unwrap();
        assert!(non_zero(&honest).is_empty());
        let corrections = non_zero(&buggy);
        for second in 1..10 {
            let in_second = corrections.iter().filter(|c| c.time > second as f64 && c.time <= (second + 1) as f64);
            assert!(in_second.count() >= 5, "{fps} fps: second {second} is quiet");
        }
        let steady = corrections.iter().filter(|c| c.time > 1.0);
        assert!(steady.map(|c| c.reconciliation.correction.length()).all(|size| size <= 4.0 * STEP + 1e-9));
        let ahead = |run: &Run| {
            let last_second = &run.frames[run.frames.len() - fps as usize..];
            last_second.iter().map(|f| f.predicted.x - f.server.x).sum::<f64>() / fps
        };
        assert!((ahead(&honest) - 2.5).abs() < STEP, "{fps} fps: {}", ahead(&honest));
        assert!((14.0..=19.5).contains(&ahead(&buggy)), "{fps} fps: {}", ahead(&buggy));
    }
}

/// On the demo's reversals the same bug makes corrections of 13–19 units, a fifth of the arena.
#[test]
fn the_mismatch_corrections_peak_at_reversals() {
    let run = run(mismatch(), SNAPSHOT_RATE, InputScript::demo(20.0), 20.0, 60.0).unwrap();
    let largest = non_zero(&run).iter().map(|c| c.reconciliation.correction.length()).fold(0.0, f64::max);
    assert!((13.0..=19.0).contains(&largest), "{largest}");
}

// ── seed 003 §"第一版把正常移动也一起平滑了": the first version drags, the half-life does not ───────────

/// Holding a key at 50 units/s with no correction at all, the first version settles `v·dt·0.9/0.1` behind
/// the physics: 15 units at 30 fps, 7.5 at 60, 3.125 at 144. The half-life view is exactly on it.
#[test]
fn the_first_version_lags_behind_a_moving_player_and_the_half_life_does_not() {
    for (fps, lag) in [(30.0, 15.0), (60.0, 7.5), (144.0, 3.125)] {
        let run = run(wide(), SNAPSHOT_RATE, hold_right(), 5.0, fps).unwrap();
        let last = run.frames.last().unwrap();
        assert_relative_eq!(last.offsets.first_version, lag, max_relative = 1e-6);
        assert!(last.modes.first_version.x < last.base.x);
        assert_eq!(last.modes.half_life, last.base);
        assert_eq!(last.offsets.half_life, 0.0);
    }
}

/// When the key is released the physics stops; the half-life view stops with it, the first version keeps
/// sliding: 7.5 · 0.9^n after n frames at 60 fps.
#[test]
fn after_a_stop_the_first_version_keeps_sliding() {
    let script =
        InputScript::new(vec![KeyEvent { time: 0.0, keys: Keys::RIGHT }, KeyEvent { time: 2.0, keys: Keys::IDLE }])
            .unwrap();
    let run = run(wide(), SNAPSHOT_RATE, script, 3.0, 60.0).unwrap();
    let stopped = run.frames.iter().position(|f| f.time > 2.05).unwrap();
    let (a, b) = (&run.frames[stopped], &run.frames[stopped + 5]);
    assert_eq!(a.modes.half_life, b.modes.half_life, "stopped");
    assert!(b.modes.first_version.x - a.modes.first_version.x > 2.0, "still sliding");
}

// ── seed 003's last section: honest latency ─────────────────────────────────────────────────────────────

/// A snapshot is copied when sent and delivered `downlinkDelay` later: what the client last heard is the
/// server's position of 0.3 s (and at most one snapshot interval and one frame more) ago — not the live one.
/// The send rhythm stays 20 Hz whatever the delay (the article's setTimeout stretched it instead).
#[test]
fn snapshots_are_copied_when_sent_and_delivered_later_at_an_unchanged_rate() {
    let mut sent = Vec::new();
    for downlink_delay in [0.0, 0.3] {
        let params = PredictParams { downlink_delay, ..wide() };
        let run = run(params, SNAPSHOT_RATE, hold_right(), 5.0, 60.0).unwrap();
        sent.push(run.stats.server.snapshots);
        let first_heard = run.frames.iter().find(|f| f.last_snapshot.is_some()).unwrap();
        assert!(first_heard.time >= downlink_delay);
        for f in run.frames.iter().filter(|f| f.time > 1.0) {
            let behind = f.server.x - f.last_snapshot.unwrap().x;
            let (min, max) = (downlink_delay * 50.0, (downlink_delay + 0.05 + 1.0 / 60.0) * 50.0);
            assert!(behind >= min - 1e-9 && behind <= max + 1e-9, "{downlink_delay}: {behind} at {}", f.time);
        }
    }
    assert_eq!(sent[0], sent[1]);
    assert!((100..=101).contains(&sent[0]), "one every 50 ms for 5 s: {}", sent[0]);
}

// ── seed 003's last paragraph: the server stops answering ───────────────────────────────────────────────

#[test]
fn pending_inputs_stay_bounded_while_the_server_is_stopped_and_a_restart_resets_onto_a_new_epoch() {
    let params = PredictParams { max_pending_inputs: 120, ..PredictParams::default() };
    let mut session = Session::new(params, SNAPSHOT_RATE, InputScript::demo(30.0)).unwrap();
    let mut corrections = Vec::new();
    frames_60(&mut session, 120, &mut corrections);
    session.set_server_running(false);
    let stopped = frames_60(&mut session, 600, &mut corrections);
    assert_eq!(stopped.iter().map(|f| f.pending).max(), Some(120));
    let stats = session.stats();
    assert!(stats.client.pending_dropped >= 600 - 120, "{stats:?}");
    assert!(stats.server.dropped_while_stopped > 500);

    session.set_server_running(true);
    let mut corrections = Vec::new();
    let after = frames_60(&mut session, 120, &mut corrections);
    let join = corrections.iter().position(|c| c.reconciliation.new_epoch).expect("the client joins the new epoch");
    assert!(corrections[join].reset);
    assert!(corrections[join + 1..].iter().all(|c| c.reconciliation.correction == Vec2::ZERO));
    assert!(after.last().unwrap().pending <= 12, "back to a round trip's worth");
    let stats = session.stats();
    assert_eq!((stats.client.epochs_joined, session.client().epoch()), (1, 1));
    assert!(stats.server.old_epoch > 0, "inputs of the old epoch still in flight are ignored");
}

// ── resets: teleport, respawn, large errors (seed 003 §"如何判断修复是否有效") ────────────────────────────

#[test]
fn a_teleport_resets_the_view_instead_of_sliding() {
    let mut session = Session::new(PredictParams::default(), SNAPSHOT_RATE, hold_right()).unwrap();
    let mut corrections = Vec::new();
    frames_60(&mut session, 30, &mut corrections);
    session.teleport(Vec2::new(10.0, 10.0));
    frames_60(&mut session, 30, &mut corrections);
    let jump = corrections.iter().find(|c| c.reconciliation.teleport).expect("the teleport arrives");
    assert!(jump.reset);
    assert_eq!(jump.offset_added, Vec2::ZERO);
    assert!(jump.reconciliation.correction.length() > 40.0);
    for mode in SmoothingMode::ALL {
        assert_eq!(*jump.rendered_after.get(mode), jump.reconciliation.after, "{mode:?} shows the new place at once");
    }
}

#[test]
fn a_correction_longer_than_reset_distance_resets_and_a_shorter_one_slides() {
    let smoothing = SmoothingParams { reset_distance: 2.0, ..SmoothingParams::default() };
    let run =
        run(PredictParams { smoothing, ..mismatch() }, SNAPSHOT_RATE, InputScript::demo(10.0), 10.0, 60.0).unwrap();
    let (resets, slides): (Vec<&CorrectionRecord>, Vec<_>) = non_zero(&run).into_iter().partition(|c| c.reset);
    assert!(!resets.is_empty() && !slides.is_empty());
    assert!(resets.iter().all(|c| c.reconciliation.correction.length() > 2.0 && c.offset_added == Vec2::ZERO));
    assert!(slides.iter().all(|c| c.reconciliation.correction.length() <= 2.0));
    assert_eq!(run.stats.resets, resets.len() as u64);
}

// ── gaps, loss, duplicates and reordering on a link that is not a FixedDelay ────────────────────────────

/// Input 30 is lost (and not repeated: `wide()` sends each input once). The server never acknowledges past 29 until `inputGapTimeout` (0.2 s) has passed, then
/// steps a zero input in its place: the client, which moved on input 30, is corrected by exactly one step.
#[test]
fn a_lost_input_is_never_claimed_then_replaced_by_a_zero_step_and_corrected_once() {
    let params = wide();
    let up = Dropping::new(0.05, vec![30]);
    let run = Session::with_channels(params, SNAPSHOT_RATE, hold_right(), up, FixedDelay::new(0.05))
        .unwrap()
        .run(3.0, 60.0)
        .unwrap();
    assert_eq!(run.stats.server.substituted, 1);
    let corrections = non_zero(&run);
    assert_eq!(corrections.len(), 1);
    assert!((corrections[0].reconciliation.correction.x - STEP).abs() < 1e-9);
    // input 31 arrives at 32/60 + 0.05 s; nothing past 29 is acknowledged before 0.2 s later + the way back
    let first_past_29 = run.frames.iter().find(|f| f.acknowledged.is_some_and(|a| a >= 30)).unwrap();
    assert!(first_past_29.time >= 32.0 / 60.0 + 0.05 + 0.2 + 0.05, "{}", first_past_29.time);
}

#[test]
fn a_lossy_duplicating_reordering_link_is_survived_and_counted() {
    let up = Lossy::new(0.04, 0.06, 0.1, 0.1, 7);
    let down = Lossy::new(0.04, 0.06, 0.1, 0.1, 8);
    let run = Session::with_channels(PredictParams::default(), SNAPSHOT_RATE, InputScript::demo(20.0), up, down)
        .unwrap()
        .run(20.0, 60.0)
        .unwrap();
    let s = run.stats;
    assert!(s.server.substituted > 0 && s.server.late_or_duplicate > 0, "{s:?}");
    assert!(s.client.stale > 0, "reordered and duplicated snapshots are ignored: {s:?}");
    assert!(!non_zero(&run).is_empty(), "lost inputs are corrected");
    assert!(run.frames.iter().all(|f| f.rendered.is_finite()));
}

// ── driving the session ─────────────────────────────────────────────────────────────────────────────────

#[test]
fn the_same_parameters_and_script_give_the_same_run() {
    let params = PredictParams { mismatch: true, ..PredictParams::default() };
    let a = run(params, SNAPSHOT_RATE, InputScript::demo(5.0), 5.0, 144.0).unwrap();
    let b = run(params, SNAPSHOT_RATE, InputScript::demo(5.0), 5.0, 144.0).unwrap();
    assert_eq!(a, b);
}

#[test]
fn live_keys_stepped_frame_by_frame_match_the_same_keys_scripted() {
    let scripted = run(PredictParams::default(), SNAPSHOT_RATE, hold_right(), 2.0, 60.0).unwrap();
    let mut session = Session::new(PredictParams::default(), SNAPSHOT_RATE, InputScript::idle()).unwrap();
    session.set_live_keys(Keys::RIGHT);
    let mut corrections = Vec::new();
    let live = frames_60(&mut session, 120, &mut corrections);
    assert_eq!(live, scripted.frames);
    assert_eq!(corrections, scripted.corrections);
}

#[test]
fn a_bad_frame_time_is_refused_and_a_huge_one_is_shortened() {
    let mut session = Session::new(PredictParams::default(), SNAPSHOT_RATE, hold_right()).unwrap();
    let mut corrections = Vec::new();
    for bad in [f64::NAN, -0.01, f64::INFINITY] {
        assert_eq!(session.step_frame(bad, &mut corrections).unwrap_err().field, "dt");
    }
    assert_eq!(session.time(), 0.0);
    let frame = session.step_frame(10.0, &mut corrections).unwrap();
    assert_eq!((frame.dt, frame.steps, session.stats().clamped_frames), (MAX_FRAME_DT, 15, 1));
    assert_eq!(session.step_frame(0.0, &mut corrections).unwrap().steps, 0);
}

#[test]
fn bad_parameters_and_run_lengths_are_refused_by_name() {
    assert_eq!(Session::new(PredictParams::default(), 0.0, InputScript::idle()).unwrap_err().field, "snapshotRate");
    let mut session = Session::new(PredictParams::default(), SNAPSHOT_RATE, InputScript::idle()).unwrap();
    assert_eq!(session.run(1.0, 0.0).unwrap_err().field, "fps");
    assert_eq!(session.run(-1.0, 60.0).unwrap_err().field, "duration");
    assert_eq!(session.run(3600.0, 1000.0).unwrap_err().field, "duration");
}

#[test]
fn smoothing_parameters_change_live_and_a_bad_one_changes_nothing() {
    let mut session = Session::new(mismatch(), SNAPSHOT_RATE, InputScript::demo(5.0)).unwrap();
    let mut corrections = Vec::new();
    let bad = SmoothingParams { half_life: f64::NAN, ..SmoothingParams::default() };
    assert_eq!(session.set_smoothing(bad).unwrap_err().field, "halfLife");
    assert_eq!(session.params().smoothing, SmoothingParams::default());
    let snap = SmoothingParams { smoothing: SmoothingMode::Snap, render_base: RenderBase::Latest, ..bad };
    session.set_smoothing(SmoothingParams { half_life: 0.2, ..snap }).unwrap();
    let frame = session.step_frame(1.0 / 60.0, &mut corrections).unwrap();
    assert_eq!((frame.rendered, frame.base), (frame.modes.snap, frame.predicted));
}
