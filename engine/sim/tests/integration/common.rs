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

/// (scenario, duration, algorithm override): ATM scenarios over every ATM algorithm, plus
/// virtual source/destination and virtual-path runs.
pub const ATM_RUNS: &[(&str, f64, Option<&str>)] = &[
    ("two-sources", 60.0, None),
    ("three-sources", 60.0, None),
    ("parking-lot-3", 60.0, None),
    ("upstream", 80.0, None),
    ("gfc1", 60.0, None),
    ("dishonest", 60.0, None),
    ("vsvd-1", 1500.0, None),
    ("vsvd-2", 1500.0, None),
    ("vpc-abr", 80.0, None),
    ("seriesd-lan", 60.0, None),
    ("parking-lot-3", 60.0, Some("debra")),
    ("parking-lot-3", 60.0, Some("eprca")),
    ("parking-lot-3", 60.0, Some("ut")),
    ("parking-lot-3", 60.0, Some("efci")),
    ("parking-lot-3", 60.0, Some("series_d")),
];

/// `ATM_RUNS`, then TCP over ABR and the Ethernet algorithms (FECN, QCN).
pub fn all_runs() -> impl Iterator<Item = (&'static str, f64, Option<&'static str>)> {
    ATM_RUNS.iter().copied().chain([
        ("fecn-hotspot", 40.0, None),
        ("qcn-hotspot", 40.0, None),
        ("tcp-over-abr", 60.0, None),
    ])
}

/// A library scenario cut to `duration_ms`, every switch running `algorithm` (if given).
pub fn cut(name: &str, duration_ms: f64, algorithm: Option<&str>) -> Scenario {
    let mut overrides = vec![format!("run.duration_ms={duration_ms}"), "run.steady_from_ms=null".to_string()];
    if let Some(alg) = algorithm {
        let doc = library_json(name);
        for n in doc["nodes"].as_array().unwrap().iter().filter(|n| n["kind"] == "switch") {
            let id = n["id"].as_str().unwrap();
            overrides.push(format!("nodes.{id}.algorithm=\"{alg}\""));
            overrides.push(format!("nodes.{id}.params={{}}"));
        }
    }
    let overrides: Vec<&str> = overrides.iter().map(String::as_str).collect();
    load(name, &overrides)
}

pub fn run(s: Scenario) -> (Simulation, Summary) {
    let mut sim = Simulation::new(s);
    sim.run_to_end();
    let summary = summarize(&sim);
    (sim, summary)
}
