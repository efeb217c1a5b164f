use super::*;
use crate::stream::Stream;
use approx::assert_relative_eq;

/// A clock `kind` rendering 100 ms behind the server's present (the derivations below count with 0.1).
fn clock(kind: ClockKind) -> RenderClock {
    RenderClock::new(
        ClockParams { clock: kind, render_delay: 0.1, ..ClockParams::default() },
        &Stream { clock_offset: 5.0, ..Stream::default() },
    )
    .unwrap()
}

/// A steady link: snapshots every 50 ms, 40 ms one way, RTT 80 ms, server = local + 5, frames of 10 ms.
/// Returns the last reading and the render times of the last second.
fn run_steady(clock: &mut RenderClock, seconds: f64) -> (ClockReading, Vec<f64>) {
    let mut reading = None;
    let mut renders = Vec::new();
    let frames = (seconds / 0.01).round() as usize;
    for frame in 1..=frames {
        let now = 0.01 * frame as f64;
        if frame % 5 == 0 {
            let server = now - 0.04 + 5.0;
            clock.on_snapshot(server, now);
            clock.on_rtt_sample(now, 0.08);
        }
        let view = BufferView {
            newest_server_time: Some(now - 0.04 + 5.0 - 0.05 * ((frame % 5) as f64 / 5.0)),
            ..Default::default()
        };
        let r = clock.render_time(now, 0.01, &view);
        if frame + 100 > frames {
            renders.push(r.render_time);
        }
        reading = Some(r);
    }
    (reading.unwrap(), renders)
}

#[test]
fn every_clock_settles_certain_and_close_to_the_known_render_time_on_a_steady_link() {
    for kind in ClockKind::ALL {
        let mut c = clock(kind);
        let (reading, renders) = run_steady(&mut c, 3.0);
        assert_eq!(reading.uncertain, None, "{kind:?}");
        let ideal = 3.0 + 5.0 - 0.1;
        // Timescale holds depth (newest − render) at the delay, so it renders one-way + ~half an interval later.
        let tolerance = if kind == ClockKind::Timescale { 0.1 } else { 0.02 };
        assert!((reading.render_time - ideal).abs() < tolerance, "{kind:?}: {}", reading.render_time);
        assert!(renders.windows(2).all(|w| w[1] >= w[0]), "{kind:?} ran backwards on a steady link");
    }
}

#[test]
fn the_known_clock_reports_the_true_offset() {
    let mut c = clock(ClockKind::Known);
    c.render_time(1.0, 0.01, &BufferView::default());
    let m = c.metrics();
    assert_relative_eq!(m.offset_estimate.unwrap(), 5.0, epsilon = 1e-12);
    assert!(!m.uncertain);
}

#[test]
fn rtt_samples_are_filtered_logged_and_bad_ones_refused() {
    let mut c = clock(ClockKind::Smooth);
    let verdicts: Vec<Verdict> = [0.08, 0.082, 0.079, 0.5, f64::NAN, -0.1, 0.081]
        .iter()
        .enumerate()
        .map(|(i, &r)| c.on_rtt_sample(i as f64, r))
        .collect();
    use Verdict::*;
    assert_eq!(verdicts, [Accepted, Accepted, Accepted, Rejected, Invalid, Invalid, Accepted]);
    let m = c.metrics();
    assert_eq!((m.rtt_accepted, m.rtt_rejected, m.rtt_invalid), (4, 1, 2));
    assert_eq!(m.rtt_last, Some(0.081));
    assert!((m.rtt.unwrap() - 0.08).abs() < 0.002);
    assert_eq!(c.rtt_history().len(), 7);
    assert_eq!(c.rtt_history().nth(3).unwrap().verdict, Rejected);
}

#[test]
fn the_reanchor_clock_counts_the_regressions_a_late_packet_causes() {
    let mut c = clock(ClockKind::Reanchor);
    c.on_rtt_sample(0.0, 0.08);
    let view = BufferView::default();
    c.on_snapshot(5.00, 0.04); // on time: serverNow 5.04, render 4.94
    for frame in 5..=14 {
        c.render_time(0.01 * frame as f64, 0.01, &view); // 4.95 … 5.04
    }
    c.on_snapshot(5.05, 0.14); // 50 ms late: serverNow looks like 5.09 instead of 5.14
    c.render_time(0.15, 0.01, &view); // 5.00 after 5.04: backwards
    let m = c.metrics();
    assert_eq!((m.regressions, m.adjustments), (1, 2));
    assert!(m.jumps >= 1);
}

#[test]
fn a_non_finite_now_is_uncertain_and_does_not_panic() {
    for kind in ClockKind::ALL {
        let mut c = clock(kind);
        run_steady(&mut c, 0.5);
        let r = c.render_time(f64::NAN, f64::NAN, &BufferView::default());
        assert!(r.uncertain.is_some(), "{kind:?}");
    }
}

/// Found by the `playback_ops` fuzz target (fuzz/regressions/playback_ops/): the reanchor clock adds each frame's
/// dt to its timeline, and two frames of 1e308 s took it to infinity while it still claimed to be certain.
#[test]
fn a_clock_that_runs_off_the_end_of_f64_says_it_is_uncertain() {
    for kind in ClockKind::ALL {
        let mut c = clock(kind);
        run_steady(&mut c, 0.5);
        for _ in 0..2 {
            let r = c.render_time(1.0, 1e308, &BufferView::default());
            assert!(r.render_time.is_finite() || r.uncertain.is_some(), "{kind:?}: {r:?}");
        }
    }
}

#[test]
fn external_names_and_params() {
    for kind in ClockKind::ALL {
        assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{}\"", kind.name()));
    }
    let p: ClockParams =
        serde_json::from_str(r#"{"clock":"timescale","renderDelay":0.2,"adaptiveDelay":{"enabled":true}}"#).unwrap();
    assert_eq!((p.clock, p.render_delay, p.adaptive_delay.enabled), (ClockKind::Timescale, 0.2, true));
    let bad = |p: ClockParams| RenderClock::new(p, &Stream::default()).unwrap_err().field;
    assert_eq!(bad(ClockParams { render_delay: 2.0, ..Default::default() }), "renderDelay");
    let offset = Stream { clock_offset: f64::NAN, ..Stream::default() };
    assert_eq!(RenderClock::new(ClockParams::default(), &offset).unwrap_err().field, "clockOffset");
    let slew = SmoothParams { slew_rate: 0.0, ..Default::default() };
    assert_eq!(bad(ClockParams { smooth: slew, ..Default::default() }), "smooth.slewRate");
}

/// Seed 002 "时钟跳变 … 应记录：旧偏移 新偏移 触发样本 估计器状态 受影响的渲染时间": the late packet of the test above
/// moves the reanchor timeline from 5.04 + 0.01 to 5.00, so the offset it implies drops by 50 ms (5.09 − 5.14 … the
/// render time regresses); the record names that snapshot as the cause.
#[test]
fn every_jump_is_logged_with_its_offsets_and_the_sample_that_caused_it() {
    let mut c = clock(ClockKind::Reanchor);
    c.on_rtt_sample(0.0, 0.08);
    let view = BufferView::default();
    c.on_snapshot(5.00, 0.04);
    for frame in 5..=14 {
        c.render_time(0.01 * frame as f64, 0.01, &view);
    }
    c.on_snapshot(5.05, 0.14);
    c.render_time(0.15, 0.01, &view);
    let log = c.metrics().jump_log;
    let jump = log.last().expect("a jump");
    assert_relative_eq!(jump.at, 0.15, epsilon = 1e-12);
    assert_relative_eq!(jump.render_before, 5.04, epsilon = 1e-9);
    assert_relative_eq!(jump.render_after, 5.00, epsilon = 1e-9);
    // offset = render + delay − now: 5.04 + 0.1 − 0.14 = 5.00 before, 5.00 + 0.1 − 0.15 = 4.95 after.
    assert_relative_eq!(jump.old_offset, 5.00, epsilon = 1e-9);
    assert_relative_eq!(jump.new_offset, 4.95, epsilon = 1e-9);
    assert_eq!(jump.cause, Some(ClockInput::Snapshot { server_time: 5.05, arrival: 0.14 }));
    assert_eq!(jump.estimator, "reanchor");
}

#[test]
fn a_step_of_the_local_clock_is_logged_as_such_and_the_log_is_bounded() {
    let mut c = clock(ClockKind::Known);
    let view = BufferView::default();
    let mut now = 0.0;
    for k in 0..(JUMP_LOG + 10) {
        for _ in 0..5 {
            now += 0.01;
            c.render_time(now, 0.01, &view);
        }
        c.on_snapshot(1.0 + k as f64, 0.5); // a sample in the same frame: not the cause of a local step
        now += 0.01 + 0.1; // the client clock jumps 100 ms forward
        c.render_time(now, 0.01, &view);
    }
    let log = c.metrics().jump_log;
    assert_eq!(log.len(), JUMP_LOG, "bounded");
    for jump in &log {
        assert_eq!((jump.estimator, jump.cause), ("localClock", None));
        assert_relative_eq!(jump.render_after - jump.render_before, 0.11, epsilon = 1e-9);
        assert_relative_eq!(jump.new_offset, jump.old_offset, epsilon = 1e-9); // the known offset did not move
    }
    assert_eq!(c.metrics().jumps, (JUMP_LOG + 10) as u64);
}

/// Seed 002 时钟指标 "OffsetUncertainty" and 缓冲过深 "RenderDelayError": the known clock knows the offset (± 0, error
/// 0); reanchor's single sample is only good to ± RTT/2 = 40 ms; timescale counts from the newest snapshot, so its
/// error is the depth minus the delay.
#[test]
fn offset_uncertainty_and_render_delay_error_per_clock() {
    let mut known = clock(ClockKind::Known);
    run_steady(&mut known, 2.0);
    let m = known.metrics();
    assert_eq!(m.offset_uncertainty, Some(0.0));
    assert_relative_eq!(m.render_delay_error.unwrap(), 0.0, epsilon = 1e-9);
    let mut reanchor = clock(ClockKind::Reanchor);
    run_steady(&mut reanchor, 2.0);
    assert_relative_eq!(reanchor.metrics().offset_uncertainty.unwrap(), 0.04, epsilon = 1e-12);
    let mut timescale = clock(ClockKind::Timescale);
    let (reading, _) = run_steady(&mut timescale, 3.0);
    assert_eq!(timescale.metrics().offset_uncertainty, None);
    let newest = 3.0 - 0.04 + 5.0; // the view at the last frame (frame % 5 == 0)
    assert_relative_eq!(timescale.render_delay_error().unwrap(), newest - reading.render_time - 0.1, epsilon = 1e-9);
    let mut smooth = clock(ClockKind::Smooth);
    run_steady(&mut smooth, 3.0);
    let m = smooth.metrics();
    assert!(m.offset_uncertainty.unwrap() < 1e-3, "a steady link: {:?}", m.offset_uncertainty);
    assert!(m.render_delay_error.unwrap().abs() < 2e-3, "{:?}", m.render_delay_error);
}
