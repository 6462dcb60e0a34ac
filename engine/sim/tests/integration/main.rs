//! All integration tests in one binary, a module per area.

mod common;
mod determinism;
mod scenarios;
mod validation;
