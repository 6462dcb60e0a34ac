//! Ethernet congestion management (IEEE 802.1Qau): the control laws of FECN and QCN as pure,
//! unit-tested state machines. They are not yet wired into the event loop (frames of bytes,
//! Gbps links and Bernoulli sources come with the Ethernet network model); see issue 7.

pub mod fecn;
pub mod qcn;
