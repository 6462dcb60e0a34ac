//! The parameter catalogue as one serialisable document, for the UI, the CLI and the docs.

use crate::algorithms::{Feedback, Networks, REGISTRY};
use crate::ethernet::source::ETH_SOURCE_PARAMS;
use crate::fields::{ScenarioFields, FIELDS};
use crate::params::ParamSpec;
use crate::probes::{probe_specs, ProbeSpec};
use crate::scenario::{Discard, Recovery, Scheduler, Service, Traffic};
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
    /// The name where room is short (`UT`, `FIFO`; a switch card in the Network view), at
    /// most 8 characters.
    #[ts(type = "string")]
    pub short_name: &'static str,
    /// `atm`, `ethernet` or `both`.
    pub network: Networks,
    /// What it tells the sources, in which cells.
    pub feedback: Feedback,
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

/// What the engine takes when a scenario leaves a choice out, so that the UI shows (and
/// writes) the engine's own choice instead of a copy of it.
#[derive(Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct ChoiceDefaults {
    /// A switch without `scheduler`.
    pub scheduler: Scheduler,
    /// A switch without `discard`.
    pub discard: Discard,
    /// A TCP connection or a virtual path without `service`.
    pub service: Service,
    /// A TCP connection without `recovery`.
    pub recovery: Recovery,
    /// An Ethernet source without `traffic`.
    pub traffic: Traffic,
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
    /// Every structural field of a scenario with a range (run, links, connections, TCP,
    /// behaviours, background and Ethernet traffic, switch buffers, virtual paths).
    pub fields: ScenarioFields,
    /// Port schedulers a switch may use (`nodes[].scheduler`).
    #[ts(type = "Array<string>")]
    pub schedulers: &'static [&'static str],
    /// Frame discard policies of an ATM switch (`nodes[].discard`).
    #[ts(type = "Array<string>")]
    pub discard_policies: &'static [&'static str],
    /// Service categories of a TCP connection or a virtual path (`tcp.service`, `virtual_paths[].service`).
    #[ts(type = "Array<string>")]
    pub services: &'static [&'static str],
    /// How a TCP sender leaves fast recovery (`tcp.recovery`).
    #[ts(type = "Array<string>")]
    pub recoveries: &'static [&'static str],
    /// The choices above (and the traffic of an Ethernet source) when a scenario names none.
    pub defaults: ChoiceDefaults,
    /// Propagation delay per km of a link given by `distance_km` (µs).
    pub delay_us_per_km: f64,
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
                short_name: a.short_name,
                network: a.network,
                feedback: a.feedback,
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
        fields: FIELDS,
        schedulers: &["fifo", "per_vc"],
        discard_policies: &["tail", "epd", "ppd", "epd_ppd"],
        services: &["abr", "ubr"],
        recoveries: &["newreno", "reno"],
        defaults: ChoiceDefaults {
            scheduler: Scheduler::default(),
            discard: Discard::default(),
            service: Service::default(),
            recovery: Recovery::default(),
            traffic: Traffic::default(),
        },
        delay_us_per_km: crate::fields::DELAY_US_PER_KM,
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
    out.push_str("\n# Scenario fields\n");
    let f = &FIELDS;
    for (title, section) in [
        ("run", f.run),
        ("ethernet", f.ethernet),
        ("switches (`nodes[]` of kind switch)", f.switch),
        ("links[]", f.link),
        ("connections[]", f.connection),
        ("connections[].tcp", f.tcp),
        ("virtual_paths[]", f.virtual_path),
    ] {
        out.push_str(&format!("\n## `{title}`\n"));
        table(&mut out, section);
    }
    for (field, kinds) in [("behavior", f.behavior), ("background", f.background), ("traffic", f.traffic)] {
        for k in kinds {
            out.push_str(&format!("\n## `connections[].{field}` of kind `{}`\n\n{}\n", k.kind, k.meaning));
            table(&mut out, k.fields);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The name lists are what serde reads: each name parses, and there are as many names as
    /// variants (each variant serialises to a listed name).
    #[test]
    fn enumerations_match_the_schema() {
        fn names<T: serde::de::DeserializeOwned + serde::Serialize>(list: &[&str], variants: &[T]) {
            for n in list {
                assert!(serde_json::from_value::<T>(serde_json::json!(n)).is_ok(), "'{n}' does not parse");
            }
            for v in variants {
                let n = serde_json::to_value(v).unwrap();
                assert!(list.contains(&n.as_str().unwrap()), "{n} is not listed");
            }
            assert_eq!(list.len(), variants.len());
        }
        let c = catalogue();
        names(c.schedulers, &[Scheduler::Fifo, Scheduler::PerVc]);
        names(c.discard_policies, &[Discard::Tail, Discard::Epd, Discard::Ppd, Discard::EpdPpd]);
        names(c.services, &[Service::Abr, Service::Ubr]);
        names(c.recoveries, &[Recovery::NewReno, Recovery::Reno]);
    }
}
