//! A small seeded PRNG (SplitMix64): one stream per random process, identical natively and in
//! wasm (integer arithmetic only), no operating-system entropy.

#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The stream of random process `stream` of a run seeded with `seed`.
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut s = SplitMix64(seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        s.next_u64();
        s
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1].
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// Trials up to and including the first success, success probability `p` (≥ 1).
    pub fn geometric(&mut self, p: f64) -> u64 {
        if p >= 1.0 {
            return 1;
        }
        // libm, not the platform's log: identical natively and in wasm.
        1 + (libm::log(self.uniform()) / libm::log(1.0 - p)).floor() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| SplitMix64::new(7, 1).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(SplitMix64::new(7, 1).next_u64(), SplitMix64::new(7, 2).next_u64());
    }

    #[test]
    fn geometric_has_mean_one_over_p() {
        let mut r = SplitMix64::new(1, 0);
        let n = 200_000;
        let mean = (0..n).map(|_| r.geometric(0.25) as f64).sum::<f64>() / n as f64;
        assert!((mean - 4.0).abs() < 0.05, "mean {mean}");
    }
}
