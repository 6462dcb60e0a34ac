//! Simulated time and unit conversions. Time is an integer count of picoseconds (u64 holds
//! more than 200 days), so runs are exact and identical natively and in wasm.

/// Simulated time in picoseconds.
pub type Time = u64;

pub const PS_PER_US: u64 = 1_000_000;
pub const PS_PER_MS: u64 = 1_000_000_000;
pub const PS_PER_S: u64 = 1_000_000_000_000;

/// Bits in one ATM cell (53 bytes).
pub const CELL_BITS: f64 = 424.0;

/// A time given in milliseconds (rounded to the picosecond).
pub fn from_ms(ms: f64) -> Time {
    (ms * PS_PER_MS as f64).round().max(0.0) as Time
}

/// A time given in microseconds (rounded to the picosecond).
pub fn from_us(us: f64) -> Time {
    (us * PS_PER_US as f64).round().max(0.0) as Time
}

pub fn to_ms(t: Time) -> f64 {
    t as f64 / PS_PER_MS as f64
}

pub fn to_s(t: Time) -> f64 {
    t as f64 / PS_PER_S as f64
}

/// Mbps of cells → cells/s.
pub fn mbps_to_cells(mbps: f64) -> f64 {
    mbps * 1e6 / CELL_BITS
}

/// cells/s → Mbps of cells.
pub fn cells_to_mbps(cells_per_s: f64) -> f64 {
    cells_per_s * CELL_BITS / 1e6
}
