//! Seeded randomness for the simulation: one PCG stream per purpose, derived from the run's seed.
//!
//! Determinism is the point: *scenario + parameters + seed → the same run*. Each consumer (the downlink, the
//! uplink, the ping channel …) gets its own stream, so drawing more numbers in one never shifts another. The
//! link also draws a fixed number of uniforms per packet whatever the parameters, so moving the loss slider
//! keeps every packet's jitter and moving the jitter slider keeps the same packets lost.

//!
//! The generator is PCG's 128-bit MCG with the XSL RR output (`rand_pcg::Pcg64Mcg`, seeded by it): its step is one
//! 128-bit multiply. wasm32 has no 64×64→128 multiply, so there `u128 * u128` is a call into compiler-builtins
//! (`__multi3`, ~4 % of a re-simulation's time in V8); `mul_multiplier` does the same product in 64-bit limbs,
//! inline, and a test checks it against `u128::wrapping_mul` — the numbers are the very same.

use rand_core::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// PCG's multiplier for the 128-bit MCG (`rand_pcg`'s `MULTIPLIER`, the PCG reference's).
const MULTIPLIER: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;

/// The most steps [`SimRng::draws`] takes at once.
pub const MAX_DRAWS: usize = 8;

/// `MULTIPLIER^k mod 2¹²⁸` for `k` in `0..=MAX_DRAWS`: `k` steps of the stream are one product, because
/// `state·M·M·…·M = state·M^k` in the ring of integers mod 2¹²⁸ — exactly, not approximately.
const POWERS: [u128; MAX_DRAWS + 1] = {
    let mut powers = [1u128; MAX_DRAWS + 1];
    let mut k = 1;
    while k <= MAX_DRAWS {
        powers[k] = powers[k - 1].wrapping_mul(MULTIPLIER);
        k += 1;
    }
    powers
};

/// `state × MULTIPLIER mod 2¹²⁸`: on wasm32 from 64-bit limbs, elsewhere the native product.
#[inline(always)]
fn mul_multiplier(state: u128) -> u128 {
    mul_const(state, MULTIPLIER)
}

/// `state × m mod 2¹²⁸`: on wasm32 from 64-bit limbs, elsewhere the native product.
#[inline(always)]
fn mul_const(state: u128, m: u128) -> u128 {
    if cfg!(target_arch = "wasm32") {
        mul_limbs(state, m)
    } else {
        state.wrapping_mul(m)
    }
}

/// `state × m mod 2¹²⁸` from 64-bit limbs: the low limbs' full product, plus the two cross products
/// shifted up (the high limbs' product lies wholly above bit 128).
#[inline(always)]
fn mul_limbs(state: u128, m: u128) -> u128 {
    let (lo, hi) = (state as u64, (state >> 64) as u64);
    let (m_lo, m_hi) = (m as u64, (m >> 64) as u64);
    let cross = hi.wrapping_mul(m_lo).wrapping_add(lo.wrapping_mul(m_hi));
    wide_mul(lo, m_lo).wrapping_add(u128::from(cross) << 64)
}

/// The full 128-bit product of two `u64`s from four 32×32→64 products (no `__multi3`).
#[inline(always)]
fn wide_mul(a: u64, b: u64) -> u128 {
    let (a0, a1) = (a & 0xFFFF_FFFF, a >> 32);
    let (b0, b1) = (b & 0xFFFF_FFFF, b >> 32);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    // The middle column: three 32-bit halves summed, fits in 34 bits.
    let mid = (p00 >> 32) + (p01 & 0xFFFF_FFFF) + (p10 & 0xFFFF_FFFF);
    let low = (p00 & 0xFFFF_FFFF) | (mid << 32);
    let high = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    u128::from(low) | (u128::from(high) << 64)
}

/// A seeded stream of uniform numbers: `Pcg64Mcg`'s state, stepped here.
#[derive(Clone, Debug)]
pub struct SimRng(u128);

impl SimRng {
    /// The stream numbered `stream` of the run seeded with `seed`.
    pub fn new(seed: u64, stream: u64) -> Self {
        // SplitMix-style mixing keeps neighbouring (seed, stream) pairs far apart.
        let mut z = seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        SimRng(Pcg64Mcg::seed_from_u64(z ^ (z >> 31)).state())
    }

    /// A uniform number in `[0, 1)` with 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        to_uniform(self.next_u64())
    }

    /// `Pcg64Mcg::next_u64`: one MCG step, then the XSL RR output of the new state.
    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        self.0 = mul_multiplier(self.0);
        output(self.0)
    }

    /// `N` uniforms at once.
    pub fn uniforms<const N: usize>(&mut self) -> [f64; N] {
        std::array::from_fn(|_| self.uniform())
    }

    /// The next `N` uniforms of the stream (`N ≤ MAX_DRAWS`), worked out only when read: the stream moves past
    /// all `N` at once (one product), and [`Draws::get`]`(i)` is the very number `uniforms::<N>()[i]` would
    /// have been. The link's fixed per-packet draw: it reads the loss, reorder and duplicate uniforms only when
    /// those knobs are on, and runs stay comparable because the stream always moves by `N`.
    #[inline(always)]
    pub fn draws<const N: usize>(&mut self) -> Draws<N> {
        const { assert!(N <= MAX_DRAWS) };
        let base = self.0;
        self.0 = mul_const(base, POWERS[N]);
        Draws { base }
    }
}

/// PCG's XSL RR output of a state.
#[inline(always)]
fn output(state: u128) -> u64 {
    let rot = (state >> 122) as u32;
    (((state >> 64) as u64) ^ (state as u64)).rotate_right(rot)
}

/// A uniform in `[0, 1)` from 53 bits of an output.
#[inline(always)]
fn to_uniform(bits: u64) -> f64 {
    (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// `N` uniforms of a stream, each worked out when read ([`SimRng::draws`]).
#[derive(Clone, Copy, Debug)]
pub struct Draws<const N: usize> {
    /// The stream's state before the first of them.
    base: u128,
}

impl<const N: usize> Draws<N> {
    /// The `i`-th of the `N` uniforms (from 0).
    #[inline(always)]
    pub fn get(&self, i: usize) -> f64 {
        debug_assert!(i < N, "uniform {i} of {N}");
        to_uniform(output(mul_const(self.base, POWERS[i + 1])))
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
    fn the_stream_is_pcg64mcg_bit_for_bit() {
        use rand_core::Rng;
        for (seed, stream) in [(1, 0), (7, 3), (u64::MAX, 12)] {
            let mut ours = SimRng::new(seed, stream);
            let mut z = seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            let mut theirs = Pcg64Mcg::seed_from_u64(z ^ (z >> 31));
            for _ in 0..1000 {
                assert_eq!(ours.next_u64(), theirs.next_u64());
            }
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// wasm32's limb product is u128's wrapping product (run natively: the same integer arithmetic). Turns red
        /// if a carry of the middle column or a cross product is dropped.
        #[test]
        fn the_limb_product_is_the_u128_product(lo: u64, hi: u64, a: u64, b: u64) {
            let state = u128::from(lo) | (u128::from(hi) << 64);
            proptest::prop_assert_eq!(mul_limbs(state, MULTIPLIER), state.wrapping_mul(MULTIPLIER));
            let m = u128::from(a) | (u128::from(b) << 64);
            proptest::prop_assert_eq!(mul_limbs(state, m), state.wrapping_mul(m));
            proptest::prop_assert_eq!(wide_mul(a, b), u128::from(a) * u128::from(b));
            proptest::prop_assert_eq!(wide_mul(u64::MAX, u64::MAX), u128::from(u64::MAX) * u128::from(u64::MAX));
        }
    }

    /// `draws` reads the same numbers as drawing them one by one and leaves the stream where they would have.
    /// Turns red if a power of the multiplier is off by one step or the stream is moved by fewer than `N`.
    #[test]
    fn draws_are_the_uniforms_one_by_one() {
        for (seed, stream) in [(1, 0), (7, 3), (u64::MAX, 12)] {
            let (mut ours, mut theirs) = (SimRng::new(seed, stream), SimRng::new(seed, stream));
            for _ in 0..200 {
                let lazy = ours.draws::<8>();
                let eager: [f64; 8] = theirs.uniforms();
                for (i, u) in eager.iter().enumerate() {
                    assert_eq!(lazy.get(i).to_bits(), u.to_bits(), "uniform {i}");
                }
                let three = ours.draws::<3>();
                let eager: [f64; 3] = theirs.uniforms();
                assert_eq!(three.get(2).to_bits(), eager[2].to_bits());
                assert_eq!(ours.uniform().to_bits(), theirs.uniform().to_bits(), "the stream moved by N");
            }
        }
    }

    #[test]
    fn uniforms_have_the_right_mean() {
        let mut rng = SimRng::new(1, 0);
        let mean = (0..100_000).map(|_| rng.uniform()).sum::<f64>() / 100_000.0;
        assert!((mean - 0.5).abs() < 0.005, "{mean}");
    }
}
