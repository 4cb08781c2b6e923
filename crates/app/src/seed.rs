//! Seeds that vary the engine's opening decisions from game to game: read from the wall clock,
//! so that no two games open alike.

/// A seed from the wall clock (the nanoseconds since 1970; 1 for a clock set before then).
#[must_use]
pub fn time_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}
