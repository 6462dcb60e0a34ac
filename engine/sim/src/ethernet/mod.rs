//! Ethernet congestion management (IEEE 802.1Qau): the control laws of FECN and QCN as pure,
//! unit-tested state machines, and the Ethernet host (arrivals, queue, rate limiter).
//! The switch side runs as the `fecn` and `qcn` switch algorithms.

pub mod fecn;
pub mod qcn;
pub mod source;
