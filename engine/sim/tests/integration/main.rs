//! All integration tests in one binary, a module per area.

mod algorithms;
mod common;
mod determinism;
mod scenarios;
mod validation;
