//! ABR Lab engine: a deterministic, cell-level discrete-event simulator of ATM ABR explicit-rate
//! congestion control. Pure Rust: no wasm, no I/O. Start reading at [`sim`] (the event loop),
//! then [`source`] (TM 4.0 end systems) and [`algorithms`] (switch algorithms).
//!
//! ```
//! let json = r#"{"version":1,"id":"demo","run":{"duration_ms":5},
//!   "nodes":[{"id":"S1","kind":"source"},{"id":"SW1","kind":"switch"},{"id":"D1","kind":"destination"}],
//!   "links":[{"id":"L1","from":"S1","to":"SW1","rate_mbps":155.52,"distance_km":1},
//!            {"id":"L2","from":"SW1","to":"D1","rate_mbps":155.52,"distance_km":1}],
//!   "connections":[{"id":"C1","from":"S1","to":"D1"}]}"#;
//! let scenario = abr_sim::scenario::parse(json).expect("valid");
//! let mut sim = abr_sim::sim::Simulation::new(scenario);
//! sim.run_to_end();
//! assert!(sim.net.conns[0].delivered > 0);
//! ```

pub mod algorithms;
pub mod background;
mod by_name;
pub mod catalogue;
pub mod cell;
pub mod ethernet;
pub mod fields;
pub mod history;
pub mod lesson;
pub mod maxmin;
pub mod metrics;
pub mod network;
pub mod params;
pub mod probes;
pub mod reference;
mod ring;
pub mod rng;
pub mod scenario;
mod shape;
pub mod shares;
pub mod sim;
pub mod source;
pub mod sweep;
pub mod tcp;
pub mod time;
pub mod topology;
pub mod trace;
pub mod validate;
pub mod window;
