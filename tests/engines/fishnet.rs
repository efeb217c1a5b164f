//! Fish-Networking 4.7.x `NetworkTransform` on fixed traces, by hand. Binary-exact numbers throughout: a 64 Hz
//! server sending every 4 ticks (16 Hz, 62.5 ms), a body at 100 u/s (6.25 u a packet, 1.5625 u a 64 Hz frame).
//! FishNet ships no unit tests for `NetworkTransform`; these derive from `MoveToTarget` and `DataReceived`.

use netcode_lab::engines::fishnet::{Fishnet, FishnetParams};
use netcode_lab::engines::{ShownMode, Smoother};
use netcode_lab::geom::Vec2;

const TICK: f64 = 1.0 / 64.0;
const SEND: f64 = 4.0 * TICK;

fn x(k: u64) -> Vec2 {
    Vec2::new(6.25 * k as f64, 0.0)
}

fn client() -> Fishnet {
    Fishnet::new(FishnetParams::default(), SEND, TICK)
}

/// Packet k (server time k/16, tick 4k) arrives 30 ms later and is read at frame 4k + 2 (2/64 s ≥ 30 ms).
/// Packet 0 is the spawn (no movement from the spawn: rate 0), packets 0 and 1 are queued; packet 2 at frame
/// 10 finds two queued (`interpolation` = 2): goal 0 goes current — it stands its 62.5 ms out (frames 10 to 13),
/// at frame 13 goal 1 takes over with nothing left over, and from frame 14 the body moves 1.5625 u a frame. So
/// at frame j ≥ 14 it is at 1.5625 (j − 13), server time (j − 13)/64: 13/64 s = 203.125 ms behind, every frame
/// interpolated, the queue never above 2 (no speed-up). A model that started on the second packet (or took
/// `interpolation` as a time) would lag one interval (4/64 s) less; one with a render clock would not stand still
/// through goal 0.
#[test]
fn it_starts_on_the_third_packet_and_trails_by_two_intervals_and_the_spawn() {
    let mut f = client();
    for j in 1..=400u64 {
        if j >= 2 && (j - 2) % 4 == 0 {
            let k = (j - 2) / 4;
            f.on_snapshot(
                &netcode_lab::snapshot::Snapshot::moving(0, k as f64 * SEND, x(k), Vec2::new(100.0, 0.0)),
                j as f64 * TICK,
            );
        }
        let s = f.frame(j as f64 * TICK, TICK);
        match j {
            1 => assert_eq!(s.mode, ShownMode::Nothing),
            2..=9 => assert_eq!((s.mode, s.position.unwrap().x), (ShownMode::Waiting, 0.0), "frame {j}"),
            10..=13 => assert_eq!((s.mode, s.position.unwrap().x), (ShownMode::Interpolated, 0.0), "frame {j}"),
            _ => {
                assert_eq!(s.mode, ShownMode::Interpolated, "frame {j}");
                assert_eq!(s.position.unwrap().x, 1.5625 * (j - 13) as f64, "frame {j}");
                assert_eq!(s.render_time, (j - 13) as f64 * TICK, "frame {j}");
                assert!(f.queue_len() <= 2, "frame {j}");
            }
        }
    }
}

/// A burst: packets 0 to 6 with no frame between. 0, 1 queue; 2 makes 0 current ([1, 2]); 3 to 6 queue up to
/// [1 … 6], six, more than `interpolation + 3` = 5: the queue drops to two ([5, 6]), goal 5 goes current with
/// instant rates and the body snaps to it (31.25). The next frame plays goal 5 out at once (time −1 → −dt, the
/// frame left over) and moves on to goal 6 for that frame: 31.25 + 1.5625 = 32.8125. A model without the drop
/// would still stand at the spawn (goal 0's 62.5 ms).
#[test]
fn a_queue_beyond_interpolation_plus_three_drops_to_interpolation_and_snaps() {
    let mut f = client();
    for k in 0..=5 {
        f.data_received(4 * k, x(k), false);
    }
    assert_eq!(f.queue_len(), 5);
    assert_eq!(f.position().unwrap().x, 0.0);
    f.data_received(24, x(6), false);
    assert_eq!(f.queue_len(), 1);
    assert_eq!(f.position().unwrap().x, 31.25, "snapped to goal 5");
    let s = f.frame(1.0, TICK);
    assert_eq!((s.mode, s.position.unwrap().x), (ShownMode::Interpolated, 32.8125));
}

/// Speed-up: with goal 1 current after goal 0 played out (four frames), packets 3, 4, 5 make the queue [2 … 5],
/// four, more than `interpolation + 1` = 3: the frame moves 5 % faster, 1.5625 × 1.05 = 1.640625 u (in f32),
/// and its time runs 5 % faster too. With three queued it would move 1.5625.
#[test]
fn more_than_interpolation_plus_one_queued_moves_five_percent_faster() {
    let mut f = client();
    for k in 0..=2 {
        f.data_received(4 * k, x(k), false);
    }
    for j in 1..=4 {
        f.frame(j as f64 * TICK, TICK);
    }
    assert_eq!(f.current().unwrap().tick, 4, "goal 1 current");
    assert_eq!(f.position().unwrap().x, 0.0);
    for k in 3..=5 {
        f.data_received(4 * k, x(k), false);
    }
    assert_eq!(f.queue_len(), 4);
    let s = f.frame(5.0 * TICK, TICK);
    assert!((s.position.unwrap().x - 1.640625).abs() < 1e-5, "{s:?}");
    assert!((f.current().unwrap().time_remaining - (0.0625 - 0.015625 * 1.05)).abs() < 1e-6);
}

/// Running dry: three packets, then silence. Goal 2 is reached at frame 4 + 4 + 4 = 12 and dropped (the body is
/// on it): held at 12.5. Late packets 3 and 4 only queue (no goal moving, fewer than `interpolation` queued);
/// packet 5 starts goal 3 — from 12.5 towards 18.75 at 100 u/s. An older packet (tick 8 again) is ignored.
#[test]
fn after_running_dry_it_waits_for_interpolation_goals_again() {
    let mut f = client();
    for k in 0..=2 {
        f.data_received(4 * k, x(k), false);
    }
    let mut last = None;
    for j in 1..=20 {
        last = Some(f.frame(j as f64 * TICK, TICK));
    }
    let s = last.unwrap();
    assert_eq!((s.mode, s.position.unwrap().x), (ShownMode::Held, 12.5));
    assert!(f.current().is_none());
    f.data_received(8, x(9), false);
    assert_eq!(f.queue_len(), 0, "an old tick is dropped");
    for k in 3..=4 {
        f.data_received(4 * k, x(k), false);
        let s = f.frame(1.0, TICK);
        assert_eq!((s.mode, s.position.unwrap().x), (ShownMode::Held, 12.5), "packet {k}");
    }
    f.data_received(20, x(5), false);
    let s = f.frame(1.0, TICK);
    assert_eq!((s.mode, s.position.unwrap().x), (ShownMode::Interpolated, 14.0625));
}

/// Bad and shuffled input: snapshots out of order, repeated, with NaN and huge times, frames with NaN, negative
/// and huge `dt` — nothing panics, what is shown is finite, and the queue stays within `interpolation + 3`
/// (the drop) for FishNet and lightyear's history within its bound. A missing tick check or an unbounded queue
/// turns it red.
#[test]
fn shuffled_and_bad_input_keeps_both_bounded_and_finite() {
    use netcode_lab::engines::lightyear::{Lightyear, LightyearParams, HISTORY_LIMIT};
    use netcode_lab::snapshot::Snapshot;
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut f = client();
    let mut ly = Lightyear::new(LightyearParams::default(), SEND, TICK);
    for i in 0..20_000u64 {
        let t = match (next() * 20.0) as u32 {
            0 => f64::NAN,
            1 => 1e300,
            2 => -5.0,
            _ => (i as f64 / 4.0 + next() * 3.0 - 1.5) * SEND,
        };
        let s = Snapshot::moving(i, t, Vec2::new(100.0 * t, if i % 97 == 0 { f64::INFINITY } else { 0.0 }), Vec2::ZERO);
        f.on_snapshot(&s, t);
        ly.on_snapshot(&s, t);
        if i % 3 == 0 {
            ly.on_rtt(t, if i % 50 == 0 { f64::NAN } else { 0.05 + next() * 0.1 });
        }
        let dt = match (next() * 30.0) as u32 {
            0 => f64::NAN,
            1 => -1.0,
            2 => 1e9,
            _ => TICK,
        };
        for shown in [f.frame(t, dt), ly.frame(t, dt)] {
            if let Some(p) = shown.position {
                assert!(p.x.is_finite() && p.y.is_finite(), "{i}: {shown:?}");
            }
        }
        assert!(f.queue_len() <= 2 + 3, "{i}: {}", f.queue_len());
        assert!(ly.history().len() <= HISTORY_LIMIT);
    }
}
