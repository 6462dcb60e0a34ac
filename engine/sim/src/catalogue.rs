//! The parameter catalogue as one serialisable document, for the UI, the CLI and the docs.

use crate::algorithms::{Networks, REGISTRY};
use crate::ethernet::source::ETH_SOURCE_PARAMS;
use crate::params::ParamSpec;
use crate::probes::{probe_specs, ProbeSpec};
use crate::source::SOURCE_PARAMS;
use serde::Serialize;
use ts_rs::TS;

const EXPORT_TO: &str = "../../../web/src/contract/generated/";

/// One switch algorithm: the id used in scenario files (`erica_plus`), the name shown in the UI
/// (`ERICA+`), the networks it runs on, one line on what it does, and its parameters.
#[derive(Serialize, TS)]
#[ts(export, export_to = EXPORT_TO, rename = "AlgorithmSpec")]
pub struct AlgorithmEntry {
    #[ts(type = "string")]
    pub id: &'static str,
    #[ts(type = "string")]
    pub name: &'static str,
    /// `atm`, `ethernet` or `both`.
    pub network: Networks,
    #[ts(type = "string")]
    pub summary: &'static str,
    #[ts(as = "Vec<ParamSpec>")]
    pub params: &'static [ParamSpec],
}

/// The algorithm a switch runs when the scenario names none, per kind of network.
#[derive(Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct DefaultAlgorithms {
    #[ts(type = "string")]
    pub atm: &'static str,
    #[ts(type = "string")]
    pub ethernet: &'static str,
}

/// Everything the UI builds its forms and charts from (`abrsim algorithms`, wasm `catalogue()`).
#[derive(Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct Catalogue {
    pub algorithms: Vec<AlgorithmEntry>,
    pub default_algorithm: DefaultAlgorithms,
    /// TM 4.0 ABR source parameters (ATM networks).
    #[ts(as = "Vec<ParamSpec>")]
    pub source_params: &'static [ParamSpec],
    /// Ethernet host parameters (Ethernet networks).
    #[ts(as = "Vec<ParamSpec>")]
    pub ethernet_source_params: &'static [ParamSpec],
    /// Switch settings beside the algorithm: buffers.
    #[ts(as = "Vec<ParamSpec>")]
    pub switch_settings: &'static [ParamSpec],
    /// Port schedulers a switch may use (`nodes[].scheduler`).
    #[ts(type = "Array<string>")]
    pub schedulers: &'static [&'static str],
    /// Every kind of sampled series (the probes), with its owner, units and meaning.
    pub probes: Vec<ProbeSpec>,
}

pub fn catalogue() -> Catalogue {
    Catalogue {
        algorithms: REGISTRY
            .iter()
            .map(|a| AlgorithmEntry {
                id: a.id,
                name: a.name,
                network: a.network,
                summary: a.summary,
                params: a.params,
            })
            .collect(),
        default_algorithm: DefaultAlgorithms {
            atm: crate::algorithms::default_for(false),
            ethernet: crate::algorithms::default_for(true),
        },
        source_params: &SOURCE_PARAMS,
        ethernet_source_params: &ETH_SOURCE_PARAMS,
        switch_settings: &crate::scenario::SWITCH_SETTINGS,
        schedulers: &["fifo", "per_vc"],
        probes: probe_specs(),
    }
}

pub fn catalogue_json() -> String {
    serde_json::to_string(&catalogue()).expect("catalogue serialises")
}

/// The catalogue as Markdown: one table of parameters per algorithm, then the source's.
pub fn catalogue_markdown() -> String {
    let mut out = String::from(
        "# Parameters\n\nGenerated from the engine's catalogue by `abrsim algorithms --markdown`; do not edit.\n",
    );
    let table = |out: &mut String, params: &[ParamSpec]| {
        out.push_str("\n| name | unit | default | range | meaning |\n|---|---|---|---|---|\n");
        for p in params {
            let default = match p.default {
                Some(d) => format!("{d}"),
                None => p.default_note.to_string(),
            };
            let unit = if p.unit.is_empty() { "–" } else { p.unit };
            out.push_str(&format!("| `{}` | {unit} | {default} | {} … {} | {} |\n", p.name, p.min, p.max, p.meaning));
        }
    };
    for a in REGISTRY {
        let network = match a.network {
            Networks::Atm => "ATM",
            Networks::Ethernet => "Ethernet",
            Networks::Both => "ATM and Ethernet",
        };
        out.push_str(&format!("\n## {} (`{}`, {network})\n\n{}\n", a.name, a.id, a.summary));
        if a.params.is_empty() {
            out.push_str("\nNo parameters.\n");
        } else {
            table(&mut out, a.params);
        }
    }
    out.push_str("\n## TM 4.0 source (ATM: `connections[].params`, `defaults.source`)\n");
    table(&mut out, &SOURCE_PARAMS);
    out.push_str("\n## Ethernet host (Ethernet: `connections[].params`, `defaults.source`)\n");
    table(&mut out, &ETH_SOURCE_PARAMS);
    out
}
