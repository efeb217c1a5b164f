//! The seeds' references replay a `RemotePlayback` through `frame_shown`, which builds no whole `Frame` (and, for a
//! plain interpolation, no whole `Sample`): it must show what `frame` shows, frame by frame.

use netcode_lab::buffer::BeforeOldest;
use netcode_lab::clock::ClockKind;
use netcode_lab::extrapolate::UnderrunPolicy;
use netcode_lab::geom::Vec2;
use netcode_lab::playback::{PlaybackParams, RemotePlayback};
use netcode_lab::snapshot::Snapshot;

/// On a jittery, lossy stream with every clock, underrun policy and before-the-oldest rule, each frame of
/// `frame_shown` must be, bit for bit, what `frame` gives (render time, status, what is displayed), and leave the
/// same state (the buffer's counters, the next frames). A short way that skips the prune, or does not keep the
/// presenter's last position, turns it red (tried: the prune removed from a short way, red).
#[test]
fn frame_shown_is_frame() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut uniform = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut kinds = 0;
    for clock in [ClockKind::Smooth, ClockKind::Reanchor, ClockKind::Known, ClockKind::Timescale] {
        for policy in [UnderrunPolicy::Hold, UnderrunPolicy::ExtrapolateDecay, UnderrunPolicy::Hide] {
            for before_oldest in [BeforeOldest::Gap, BeforeOldest::Oldest] {
                let mut p = PlaybackParams::default();
                (p.clock.clock, p.underrun.underrun_policy, p.buffer.before_oldest) = (clock, policy, before_oldest);
                let (mut full, mut shown) = (RemotePlayback::new(p.clone()).unwrap(), RemotePlayback::new(p).unwrap());
                let (mut now, mut statuses) = (0.0, std::collections::BTreeSet::new());
                for tick in 0..1200u64 {
                    let server = tick as f64 * 0.05;
                    let s = Snapshot::moving(tick, server, Vec2::new(server * 5.0, server.cos()), Vec2::new(5.0, 0.0));
                    let late = if tick % 150 < 8 { 0.5 } else { uniform() * 0.06 };
                    if uniform() > 0.1 {
                        let at = server + 0.04 + late;
                        now = f64::max(now, at - 0.01);
                        full.on_snapshot(s, at);
                        shown.on_snapshot(s, at);
                    }
                    if tick % 10 == 0 {
                        let rtt = 0.08 + uniform() * 0.02;
                        full.on_rtt_sample(now, rtt);
                        shown.on_rtt_sample(now, rtt);
                    }
                    for _ in 0..3 {
                        now += 1.0 / 60.0;
                        let (f, g) = (full.frame(now, 1.0 / 60.0), shown.frame_shown(now, 1.0 / 60.0));
                        assert_eq!(
                            (f.reading.render_time.to_bits(), f.sample.status, f.displayed),
                            (g.render_time.to_bits(), g.status, g.displayed),
                            "{clock:?} {policy:?} {before_oldest:?} at {now}"
                        );
                        statuses.insert(f.sample.status.name());
                    }
                }
                assert_eq!(full.metrics(now).buffer, shown.metrics(now).buffer);
                kinds = kinds.max(statuses.len());
            }
        }
    }
    assert!(kinds >= 3, "statuses seen: {kinds}");
}
