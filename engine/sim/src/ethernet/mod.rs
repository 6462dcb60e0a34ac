//! The Ethernet host (IEEE 802.1Qau end station): frame arrivals, its queue and rate limiter,
//! FECN's rate-discovery tags, and QCN's reaction point. The switch side of FECN and QCN are
//! the `fecn` and `qcn` switch algorithms (`algorithms/fecn.rs`, `algorithms/qcn.rs`).

pub mod reaction_point;
pub mod source;
