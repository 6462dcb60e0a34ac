//! All integration tests in one binary, a module per area.

mod algorithms;
mod checkpoint;
mod common;
mod determinism;
mod ethernet;
mod folding;
mod history;
mod library;
mod properties;
mod reference;
mod scenarios;
mod tcp;
mod trace;
mod validation;
mod vpc;
mod vsvd;
