//! The best-fit time shift of a track (a remote view is meant to be late, so it is compared with the truth `τ`
//! seconds before): the `τ` near a guess that minimises the mean squared distance to the truth.
//!
//! A 20 ms grid within ±0.3 s of the guess is scanned on at most `COARSE` of the shown points, downhill from the
//! guess both ways and then the rest, each shift abandoned as soon as its partial sum (looked at every 4 points)
//! exceeds the best so far; then the vertex of a parabola
//! through the best grid point and its neighbours, on at most `FINE` points. The result is, bit for bit, what a
//! plain scan from the grid's low end finds (the tests below hold that plain scan).

use super::Point;
use crate::run::TruthTrack;

/// The squared distance between a shown point and the truth `tau` seconds before it (`x² + y²`, not the square
/// of a rounded root: no square root per point of the scan).
#[inline(always)]
fn square_error(p: &Point, truth: &TruthTrack, tau: f64) -> f64 {
    (p.pos - truth.at(p.server_now - tau)).length_squared()
}

fn mean_square_error(points: &[&Point], truth: &TruthTrack, tau: f64) -> f64 {
    let sum: f64 = points.iter().map(|p| square_error(p, truth, tau)).sum();
    sum / points.len().max(1) as f64
}

/// [`mean_square_error`], the very same number, or `None` as soon as a partial sum shows it exceeds `bound`: the
/// terms are ≥ 0, so the running sum never falls, and rounding keeps `sum / n` from falling below `partial / n`.
/// The sum is the same left-to-right fold from −0.0 that `Iterator::sum` does.
fn mean_square_error_below(points: &[&Point], truth: &TruthTrack, tau: f64, bound: f64) -> Option<f64> {
    /// Points summed between two looks at the bound (a division each).
    const CHUNK: usize = 4;
    let n = points.len().max(1) as f64;
    let mut sum = -0.0;
    for chunk in points.chunks(CHUNK) {
        sum = chunk.iter().fold(sum, |s, p| s + square_error(p, truth, tau));
        if sum / n > bound {
            return None;
        }
    }
    Some(sum / n)
}

/// [`best_shift_on`] the points [`scan_points`] picks from `points` (the tests' entry: a list of shown points).
#[cfg(test)]
fn best_shift(points: &[&Point], truth: &TruthTrack, guess: f64) -> f64 {
    let coarse: Vec<&Point> = points.iter().step_by(points.len().div_ceil(COARSE).max(1)).copied().collect();
    let fine: Vec<&Point> = points.iter().step_by(points.len().div_ceil(FINE).max(1)).copied().collect();
    best_shift_on(&coarse, &fine, truth, guess)
}

/// Points the shift scan looks at: at most this many on the grid, twice as many for the parabola.
const COARSE: usize = 150;
const FINE: usize = 300;

/// The shown points the shift scan reads ([`best_shift_on`]): every `⌈shown / COARSE⌉`-th (and
/// `⌈shown / FINE⌉`-th) shown point from the first.
fn scan_points(points: &[Point]) -> (Vec<&Point>, Vec<&Point>) {
    let shown = points.len();
    let (coarse_step, fine_step) = (shown.div_ceil(COARSE).max(1), shown.div_ceil(FINE).max(1));
    (points.iter().step_by(coarse_step).collect(), points.iter().step_by(fine_step).collect())
}

/// The shift τ near `guess` that minimises the squared error: a scan of a 20 ms grid within ±0.3 s of the guess on
/// `coarse` (at most `COARSE` of the shown points), then the vertex of a parabola through the best grid point and
/// its neighbours on `fine` (at most `FINE`).
fn best_shift_on(coarse: &[&Point], fine: &[&Point], truth: &TruthTrack, guess: f64) -> f64 {
    const STEP: f64 = 0.02;
    let (lo, hi) = ((guess - 0.3).max(-0.5), (guess + 0.3).min(3.0));
    let steps = ((hi - lo) / STEP).ceil() as usize;
    // The grid point lo + i·STEP with the lowest error, the first (lowest i) of equal ones. The scan starts at the
    // grid point nearest the guess and walks downhill from it both ways (the error is close to a parabola near its
    // minimum), so the best is found early; every other grid point is then abandoned part-way
    // ([`mean_square_error_below`]). Any order finds what a plain scan from `lo` finds: a point is only abandoned
    // when it is strictly worse, and equal errors go to the lower index.
    let start = ((guess - lo) / STEP).round().clamp(0.0, steps as f64) as usize;
    let mut best: Option<(f64, usize)> = None;
    let mut visited = vec![false; steps + 1];
    // Whether grid point `i` became the best.
    let visit = |i: usize, best: &mut Option<(f64, usize)>, visited: &mut [bool]| -> bool {
        visited[i] = true;
        let tau = lo + i as f64 * STEP;
        let bound = best.map_or(f64::INFINITY, |(e, _)| e);
        let Some(e) = mean_square_error_below(coarse, truth, tau, bound) else { return false };
        let better = match *best {
            None => e < f64::INFINITY,
            Some((b, bi)) => e < b || (e == b && i < bi),
        };
        if better {
            *best = Some((e, i));
        }
        better
    };
    visit(start, &mut best, &mut visited);
    for downhill in [1isize, -1] {
        let mut i = start;
        while let Some(next) = i.checked_add_signed(downhill).filter(|&n| n <= steps) {
            if !visit(next, &mut best, &mut visited) {
                break;
            }
            i = next;
        }
    }
    for i in 0..=steps {
        if !visited[i] {
            visit(i, &mut best, &mut visited);
        }
    }
    let t = best.map_or(guess, |(_, i)| lo + i as f64 * STEP);
    // The squared error is close to a parabola near its minimum: fit one through the best grid point and its
    // neighbours (on more points) and take its vertex, kept within one grid step.
    let [a, b, c] = [t - STEP, t, t + STEP].map(|tau| mean_square_error(fine, truth, tau));
    let curvature = a - 2.0 * b + c;
    if curvature <= 0.0 {
        return t;
    }
    t + (STEP * (a - c) / (2.0 * curvature)).clamp(-STEP, STEP)
}

/// The best-fit shift of a track given as its shown points, near `guess` (finite).
pub(super) fn best_shift_of(points: &[Point], truth: &TruthTrack, guess: f64) -> f64 {
    let (coarse, fine) = scan_points(points);
    best_shift_on(&coarse, &fine, truth, guess)
}

/// The plain scan and a late test track, for this module's tests and the per-frame pass's (the parent's).
#[cfg(test)]
pub(super) mod oracle {
    use super::*;
    use crate::geom::Vec2;

    /// The scan `best_shift` must agree with: every grid point from `lo` up, in order, each summed in full, the
    /// first strictly lower error kept (what this module did before the scan with early exits).
    pub(in crate::run::track) fn plain_best_shift(points: &[&Point], truth: &TruthTrack, guess: f64) -> f64 {
        const STEP: f64 = 0.02;
        let coarse: Vec<&Point> = points.iter().step_by(points.len().div_ceil(150).max(1)).copied().collect();
        let fine: Vec<&Point> = points.iter().step_by(points.len().div_ceil(300).max(1)).copied().collect();
        let (lo, hi) = ((guess - 0.3).max(-0.5), (guess + 0.3).min(3.0));
        let steps = ((hi - lo) / STEP).ceil() as usize;
        let mut best = (f64::INFINITY, guess);
        for i in 0..=steps {
            let tau = lo + i as f64 * STEP;
            let e = mean_square_error(&coarse, truth, tau);
            if e < best.0 {
                best = (e, tau);
            }
        }
        let t = best.1;
        let [a, b, c] = [t - STEP, t, t + STEP].map(|tau| mean_square_error(&fine, truth, tau));
        let curvature = a - 2.0 * b + c;
        if curvature <= 0.0 {
            return t;
        }
        t + (STEP * (a - c) / (2.0 * curvature)).clamp(-STEP, STEP)
    }

    /// A track that follows `truth` `lag` seconds late, with a deterministic wobble of `noise` units, 60 fps.
    pub(in crate::run::track) fn late_track(
        truth: &TruthTrack,
        lag: f64,
        noise: f64,
        frames: usize,
        seed: u64,
    ) -> Vec<Point> {
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut wobble = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 2.0 * noise
        };
        (0..frames)
            .map(|i| {
                let server_now = 2.0 + i as f64 / 60.0;
                let pos = truth.at(server_now - lag) + Vec2::new(wobble(), wobble());
                Point { dt: 1.0 / 60.0, server_now, pos }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::oracle::{late_track, plain_best_shift};
    use super::*;
    use crate::motion::MotionScript;

    /// The downhill scan with early exits finds, bit for bit, the shift the plain scan finds: on every motion
    /// script, lags inside and outside the searched window, clean and noisy tracks, guesses near and far. A bound
    /// compared with `>=` instead of `>`, or a tie won by the later grid point, turns it red (see the next test).
    #[test]
    fn the_downhill_scan_finds_the_plain_scans_shift() {
        for script in MotionScript::ALL {
            let truth = TruthTrack::new(script, 120.0);
            for (k, (lag, noise, guess)) in [
                (0.1, 0.0, 0.1),
                (0.1, 3.0, 0.25),
                (0.17, 1.0, 0.0),
                (0.45, 0.5, 0.1),
                (0.8, 8.0, 0.2),
                (0.05, 20.0, -0.4),
                (2.9, 2.0, 2.8),
            ]
            .into_iter()
            .enumerate()
            {
                let points = late_track(&truth, lag, noise, 1800 + 37 * k, k as u64);
                let refs: Vec<&Point> = points.iter().collect();
                let (fast, plain) = (best_shift(&refs, &truth, guess), plain_best_shift(&refs, &truth, guess));
                assert_eq!(fast.to_bits(), plain.to_bits(), "{script:?} lag {lag} noise {noise} guess {guess}");
            }
        }
    }

    /// Where every shift fits equally well (an entity standing still), the plain scan keeps its first grid point,
    /// `guess − 0.3`; the downhill scan, which starts at the guess, must give way to it.
    #[test]
    fn equal_errors_go_to_the_first_grid_point() {
        let still = TruthTrack::new(MotionScript::Circle, 0.0);
        let points = late_track(&still, 0.1, 1.0, 600, 7);
        let refs: Vec<&Point> = points.iter().collect();
        let tau = best_shift(&refs, &still, 0.2);
        assert_eq!(tau.to_bits(), plain_best_shift(&refs, &still, 0.2).to_bits());
        assert!((tau - (0.2 - 0.3)).abs() < 1e-12, "{tau}");
    }
}
