//! The reference model of the jitter buffer's sampling rule, shared by the property tests (`tests/buffer_props.rs`)
//! and the fuzz targets' oracles (`fuzz/oracles.rs`, also replayed by `tests/fuzz_corpus.rs`): seed 002's checks
//! written the plain way — a linear scan of the snapshots held, no cursor, no short way — against which the buffer's
//! own `sample` is compared.

use netcode_lab::buffer::{BeforeOldest, BufferParams, SampleStatus};
use netcode_lab::snapshot::Snapshot;

/// The status, left tick and right tick a plain linear scan expects for render time `t`, given the snapshots held
/// (oldest first), whether the buffer has ever been primed, its parameters and the stream's send interval.
pub fn expected_sample(
    held: &[Snapshot],
    t: f64,
    primed: bool,
    params: &BufferParams,
    send_interval: f64,
) -> (SampleStatus, Option<u64>, Option<u64>) {
    use SampleStatus::*;
    if !t.is_finite() {
        return (ClockUncertain, None, None);
    }
    if held.is_empty() || !primed {
        return (Priming, None, None);
    }
    let i = held.iter().filter(|s| s.server_time <= t).count();
    if i == 0 && params.before_oldest == BeforeOldest::Oldest {
        return (Ready, Some(held[0].tick), Some(held[0].tick)); // seed 000 §4.3.4: the oldest is shown
    }
    if i == 0 {
        return (Gap, None, Some(held[0].tick));
    }
    let left = held[i - 1];
    if left.server_time == t {
        return (Ready, Some(left.tick), Some(left.tick)); // seed 002 "第五步": exactly on a snapshot
    }
    let Some(right) = held.get(i) else { return (Underrun, Some(left.tick), None) };
    let status = if left.generation != right.generation || right.teleport {
        InvalidInterval
    } else if right.server_time - left.server_time > params.gap_factor * send_interval {
        Gap
    } else {
        Ready
    };
    (status, Some(left.tick), Some(right.tick))
}
