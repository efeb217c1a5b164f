//! Seeded randomness for the simulation: one PCG stream per purpose, derived from the run's seed.
//!
//! Determinism is the point: *scenario + parameters + seed → the same run*. Each consumer (the downlink, the
//! uplink, the ping channel …) gets its own stream, so drawing more numbers in one never shifts another. The
//! link also draws a fixed number of uniforms per packet whatever the parameters, so moving the loss slider
//! keeps every packet's jitter and moving the jitter slider keeps the same packets lost.

use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A seeded stream of uniform numbers.
#[derive(Clone, Debug)]
pub struct SimRng(Pcg64Mcg);

impl SimRng {
    /// The stream numbered `stream` of the run seeded with `seed`.
    pub fn new(seed: u64, stream: u64) -> Self {
        // SplitMix-style mixing keeps neighbouring (seed, stream) pairs far apart.
        let mut z = seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        SimRng(Pcg64Mcg::seed_from_u64(z ^ (z >> 31)))
    }

    /// A uniform number in `[0, 1)` with 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `N` uniforms at once (the link's fixed per-packet draw).
    pub fn uniforms<const N: usize>(&mut self) -> [f64; N] {
        std::array::from_fn(|_| self.uniform())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_and_stream_repeat_and_streams_differ() {
        let a: [f64; 4] = SimRng::new(7, 1).uniforms();
        let b: [f64; 4] = SimRng::new(7, 1).uniforms();
        let c: [f64; 4] = SimRng::new(7, 2).uniforms();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.iter().all(|u| (0.0..1.0).contains(u)));
    }

    #[test]
    fn uniforms_have_the_right_mean() {
        let mut rng = SimRng::new(1, 0);
        let mean = (0..100_000).map(|_| rng.uniform()).sum::<f64>() / 100_000.0;
        assert!((mean - 0.5).abs() < 0.005, "{mean}");
    }
}
