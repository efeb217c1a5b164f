//! How many cases a property test runs: `PROPTEST_CASES` when it is set (`cargo xtask test --long` sets 10 000),
//! otherwise the count the test chose for the everyday run.

pub fn cases(everyday: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(everyday)
}
