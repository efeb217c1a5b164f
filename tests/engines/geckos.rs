//! geckos.io: `test/snapshot.test.js` and `test/vault.test.js` (geckosio/snapshot-interpolation) reproduced where
//! they test this logic — a 50 ms server tick, an interpolation buffer of 30 ms "only that low for testing" —
//! then the vault's edges and the time offset on fixed traces.

use super::support::{frames, play, snap, stream, Event, SPEED};
use approx::assert_relative_eq;
use netcode_lab::engines::geckos::{interpolate, Geckos, GeckosParams, Vault, VaultEntry};
use netcode_lab::engines::ShownMode;
use netcode_lab::geom::Vec2;

fn test_client() -> Geckos {
    Geckos::new(GeckosParams::buffered(30.0), 0.05)
}

/// `initialize with server fps`: the README's client, `new SnapshotInterpolation(serverFPS)`, buffers three server
/// frames: `(1000 / serverFPS) * 3` ms — 150 ms at 20 Hz, 3000 / rate in general — and the server's FPS is the
/// stream's send rate. Built with the flag off, the value given (`interpolationBuffer.set`, or the library's 100).
/// A default that ignored the stream (a fixed 100 ms) or a rate read as 1 / interval unrounded turns it red.
#[test]
fn the_readme_client_buffers_three_server_frames_of_the_streams_rate() {
    let buffer = |interval: f64| Geckos::new(GeckosParams::default(), interval).interpolation_buffer();
    assert_eq!(buffer(0.05), 150.0);
    // By hand, as JavaScript computes (1000 / fps) * 3: 10 Hz 100 × 3 = 300; 15 Hz 66.666…67 × 3 = 200;
    // 30 Hz 33.333…33 × 3 = 100; 60 Hz 16.666…67 × 3 = 50.000000000000007.
    assert_eq!(buffer(0.1), 300.0);
    assert_eq!(buffer(1.0 / 15.0), (1000.0 / 15.0) * 3.0);
    assert_relative_eq!(buffer(1.0 / 15.0), 200.0, epsilon = 1e-9);
    assert_eq!(buffer(1.0 / 30.0), (1000.0_f64 / 30.0) * 3.0);
    assert_eq!(buffer(1.0 / 60.0), (1000.0_f64 / 60.0) * 3.0);
    assert_relative_eq!(buffer(1.0 / 60.0), 50.0, epsilon = 1e-9);
    assert!(GeckosParams::default().with_server_fps);
    assert_eq!(Geckos::new(GeckosParams::buffered(100.0), 0.05).interpolation_buffer(), 100.0);
    assert_eq!(Geckos::new(GeckosParams::buffered(42.0), 0.1).interpolation_buffer(), 42.0);
}

/// On a clean 20 Hz stream with 50 ms latency the default client renders latency + 150 ms behind the server:
/// timeOffset = 50 ms (the first snapshot's latency), serverTime = now − 50 − 150.
#[test]
fn the_default_client_renders_latency_plus_150_ms_behind() {
    let mut geckos = Geckos::new(GeckosParams::default(), 0.05);
    let mut events = stream(0, 60, 0.05);
    events.extend(frames(0.0, 3.0, 1.0 / 60.0));
    let shown = play(&mut geckos, events);
    let (at, last) = *shown.last().unwrap();
    assert_eq!(last.mode, ShownMode::Interpolated);
    assert_relative_eq!(at - last.render_time, 0.05 + 0.15, epsilon = 1e-9);
    assert_relative_eq!(last.position.unwrap().x, SPEED * (3.0 - 0.2), epsilon = 1e-9);
}

/// Two snapshots with the same server time (a server stamping two states in one millisecond): the vault sorts
/// newest first with a stable sort (`vault.ts` `get`: `this._vault.sort((a, b) => b.time - a.time)`), so equal
/// times stay in the order added and the first added is met first walking from the newest.
///
/// By hand, X (t 1000, x 0), A (1050, x 10), B (1050, x 20), Y (1100, x 30), added X, A, Y, B (B late):
/// sorted newest first [Y, A, B, X].
///   get(1025): the first with time ≤ 1025 is X; the one before it, B: older X, newer B → x = 0 + 20 × 0.5 = 10.
///   get(1050): the first ≤ 1050 is A; newer Y → percentage 0, x = 10.
///   get(1075): older A, newer Y → x = 10 + 20 × 0.5 = 20.
/// The reverse tie order (the last added as older) gives 5, 20 and 25.
#[test]
fn of_two_snapshots_with_one_time_the_first_added_is_the_older() {
    let e = |time: f64, x: f64| VaultEntry { time, pos: Vec2::new(x, 0.0) };
    let mut vault = Vault::new(120);
    for entry in [e(1000.0, 0.0), e(1050.0, 10.0), e(1100.0, 30.0), e(1050.0, 20.0)] {
        vault.add(entry);
    }
    let at = |t: f64| {
        let (older, newer) = vault.get(t).unwrap();
        (older.pos.x, newer.pos.x, interpolate(older, newer, t).pos.x)
    };
    assert_eq!(at(1025.0), (0.0, 20.0, 10.0));
    assert_eq!(at(1050.0), (10.0, 30.0, 10.0));
    assert_eq!(at(1075.0), (10.0, 30.0, 20.0));

    // Full (size 3): `add` sorts oldest first (stable: equal times in the order added) and shifts the first off —
    // of P (1000, x 1) and Q (1000, x 2), P. Then get(1025) = older Q, newer R (1050, x 3): 2 + 1 × 0.5 = 2.5
    // (dropping Q instead leaves P: 1 + 2 × 0.5 = 2).
    let mut full = Vault::new(3);
    for entry in [e(1000.0, 1.0), e(1000.0, 2.0), e(1050.0, 3.0), e(1100.0, 4.0)] {
        full.add(entry);
    }
    assert_eq!(full.size(), 3);
    let (older, newer) = full.get(1025.0).unwrap();
    assert_eq!((older.pos.x, newer.pos.x, interpolate(older, newer, 1025.0).pos.x), (2.0, 3.0, 2.5));
}

/// The same tie on a delivered trace: ticks 0–20 of a 20 Hz stream, then a second state stamped with tick 10's
/// time (x 500) delivered right after tick 10. With the 30 ms test buffer and no latency the render time is
/// now − 30 ms; between 0.470 and 0.500 s server time it moves from tick 9 (x 45) toward the last added of the
/// two at 0.5 s (x 500), and from 0.5 s on from the first added (tick 10, x 50) toward tick 11 (x 55).
/// By hand at now = 0.515 (server 0.485): 45 + (500 − 45) × 0.7 = 363.5; at now = 0.555 (server 0.525):
/// 50 + 5 × 0.5 = 52.5.
#[test]
fn a_trace_with_a_tie_interpolates_toward_the_last_added_and_on_from_the_first() {
    let mut events = stream(0, 20, 0.0);
    let mut twin = snap(10);
    twin.pos = Vec2::new(500.0, 0.0);
    events.push(Event::Deliver(twin, 0.5 + 1e-6));
    events.push(Event::Frame(0.515, 0.04));
    events.push(Event::Frame(0.555, 0.04));
    let mut geckos = test_client();
    let shown = play(&mut geckos, events);
    let x = |i: usize| shown[i].1.position.unwrap().x;
    assert_relative_eq!(x(0), 45.0 + (500.0 - 45.0) * 0.7, epsilon = 1e-9);
    assert_relative_eq!(x(1), 52.5, epsilon = 1e-9);
}

/// `calc interpolated without any data`, `… with not enough data`, `vault should have a size of one`,
/// `should get interpolated value`, `values should be interpolated`, `timeOffset should >= 0`.
#[test]
fn it_interpolates_only_once_two_snapshots_surround_the_render_time() {
    let mut si = test_client();
    assert_eq!(si.calc_interpolation(1000.0), None, "without any data");
    si.add_snapshot(1000.0, Vec2::new(0.0, 0.0), 1000.0);
    assert_eq!(si.calc_interpolation(1050.0), None, "with not enough data");
    assert_eq!(si.vault().size(), 1);
    assert_eq!(si.vault().latest().unwrap().time, 1000.0);
    si.add_snapshot(1100.0, Vec2::new(10.0, 10.0), 1100.0);
    assert_eq!(si.vault().size(), 2);
    let i = si.calc_interpolation(1100.0).expect("interpolated");
    assert!(i.pos.x > 0.0 && i.pos.x < 10.0 && i.pos.y > 0.0 && i.pos.y < 10.0, "{i:?}");
    // By hand: serverTime = 1100 − 0 − 30 = 1070, 70 % of the way.
    assert_relative_eq!(i.percentage, 0.7, epsilon = 1e-12);
    assert!(si.time_offset().unwrap() >= 0.0);
}

/// `custom interpolation`: `interpolate(older, newer, 0.5)` is half way (the percentage path).
#[test]
fn a_custom_interpolation_at_half_is_half_way() {
    let (older, newer) =
        (VaultEntry { time: 1000.0, pos: Vec2::ZERO }, VaultEntry { time: 1050.0, pos: Vec2::new(10.0, 0.0) });
    let half = interpolate(older, newer, 1025.0);
    assert_eq!((half.percentage, half.pos.x, half.server_time), (0.5, 5.0, 1025.0));
}

/// `vault.test.js`: empty, a maximum of 120, `setMaxSize`; beyond the maximum the oldest goes.
#[test]
fn the_vault_keeps_at_most_its_size_dropping_the_oldest() {
    let vault = Vault::new(GeckosParams::default().vault_size);
    assert_eq!((vault.size(), vault.max_size()), (0, 120));
    assert_eq!(Vault::new(180).max_size(), 180);
    let mut small = Vault::new(2);
    for t in [1.0, 2.0, 3.0] {
        small.add(VaultEntry { time: t, pos: Vec2::new(t, 0.0) });
    }
    assert_eq!(small.size(), 2);
    assert_eq!(small.get(1.5), None, "1.0 was dropped");
    assert!(small.get(2.5).is_some());
}

/// Outside the vault `calcInterpolation` returns undefined: before the oldest snapshot, and past the newest —
/// the game keeps the last value it applied (held), never an extrapolated one.
#[test]
fn it_gives_nothing_outside_its_vault() {
    let mut geckos = Geckos::new(GeckosParams::buffered(100.0), 0.05);
    let mut events = stream(0, 40, 0.05);
    events.extend(frames(0.0, 3.0, 1.0 / 60.0));
    let shown = play(&mut geckos, events);
    // Before the second snapshot surrounds the render time: nothing at all.
    assert!(shown.iter().take_while(|(at, _)| *at < 0.15).all(|(_, s)| s.mode == ShownMode::Nothing));
    // The last snapshot is t = 2.0; its render time passes it at 2.0 + 0.05 + 0.1.
    for (at, s) in &shown {
        if *at > 2.0 + 0.15 + 1e-9 {
            assert_eq!(s.mode, ShownMode::Held, "at {at}");
            assert!(s.position.unwrap().x < SPEED * 2.0, "the last value applied, short of the newest snapshot");
        }
    }
    assert_eq!(geckos.calc_interpolation(3.0 * 1000.0), None);
}

/// The offset is measured from the first snapshot, latency included, so the render time is latency +
/// `interpolationBuffer` behind; a change of more than 50 ms resets it (`autoCorrectTimeOffset`), a smaller one
/// does not, and with the correction off the first offset stays for good.
#[test]
fn the_time_offset_includes_the_latency_and_is_corrected_past_50_ms() {
    let offset_after = |first_latency: f64, then: f64, auto: bool| {
        let mut g = Geckos::new(GeckosParams { auto_correct_time_offset: auto, ..GeckosParams::buffered(100.0) }, 0.05);
        let mut events = stream(0, 20, first_latency);
        events.extend(stream(21, 40, then));
        events.extend(frames(0.0, 2.5, 1.0 / 60.0));
        let shown = play(&mut g, events);
        let (at, last) = *shown.last().unwrap();
        (g.time_offset().unwrap(), at - last.render_time)
    };
    let (offset, lag) = offset_after(0.05, 0.05, true);
    assert_relative_eq!(offset, 50.0, epsilon = 1e-6);
    assert_relative_eq!(lag, 0.05 + 0.1, epsilon = 1e-6);
    assert_relative_eq!(offset_after(0.05, 0.11, true).0, 110.0, epsilon = 1e-6);
    assert_relative_eq!(offset_after(0.05, 0.09, true).0, 50.0, epsilon = 1e-6);
    assert_relative_eq!(offset_after(0.05, 0.25, false).0, 50.0, epsilon = 1e-6);
}
