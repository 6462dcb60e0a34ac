//! The parameter catalogue as one serialisable document, for the UI, the CLI and the docs.

use crate::algorithms::REGISTRY;
use crate::params::ParamSpec;
use crate::source::SOURCE_PARAMS;
use serde::Serialize;

#[derive(Serialize)]
pub struct AlgorithmEntry {
    pub id: &'static str,
    pub name: &'static str,
    pub summary: &'static str,
    pub params: &'static [ParamSpec],
}

#[derive(Serialize)]
pub struct Catalogue {
    pub algorithms: Vec<AlgorithmEntry>,
    pub source_params: &'static [ParamSpec],
}

pub fn catalogue() -> Catalogue {
    Catalogue {
        algorithms: REGISTRY
            .iter()
            .map(|a| AlgorithmEntry { id: a.id, name: a.name, summary: a.summary, params: a.params })
            .collect(),
        source_params: &SOURCE_PARAMS,
    }
}

pub fn catalogue_json() -> String {
    serde_json::to_string(&catalogue()).expect("catalogue serialises")
}
