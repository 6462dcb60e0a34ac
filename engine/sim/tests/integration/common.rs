use abr_sim::metrics::{summarize, Summary};
use abr_sim::scenario::{self, Scenario};
use abr_sim::sim::Simulation;
use std::path::PathBuf;

pub fn library_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(format!("{name}.json"))
}

pub fn library_json(name: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(library_path(name)).expect("library file");
    serde_json::from_str(&text).expect("library JSON")
}

/// A library scenario with `--set`-style overrides applied.
pub fn load(name: &str, overrides: &[&str]) -> Scenario {
    let mut doc = library_json(name);
    for o in overrides {
        scenario::apply_override(&mut doc, o).expect("override applies");
    }
    scenario::from_value(doc).unwrap_or_else(|p| panic!("{name} is invalid: {p:?}"))
}

pub fn run(s: Scenario) -> (Simulation, Summary) {
    let mut sim = Simulation::new(s);
    sim.run_to_end();
    let summary = summarize(&sim);
    (sim, summary)
}
