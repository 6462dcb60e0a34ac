//! Parameter catalogue: every tunable number is declared once, here or next to its algorithm,
//! with unit, default, range and meaning. The UI builds its forms from this catalogue (exported
//! through wasm) and the CLI prints it (`abrsim algorithms`).

use serde::Serialize;
use std::collections::BTreeMap;

/// One declared parameter.
#[derive(Debug, Clone, Copy, Serialize, ts_rs::TS)]
#[ts(export, export_to = "../../../web/src/contract/generated/")]
pub struct ParamSpec {
    /// Name used in scenario files (`params.<name>`), with its unit as suffix where it has one.
    #[ts(type = "string")]
    pub name: &'static str,
    /// Unit string shown in the UI ("Mbps", "cells", "ms", "" for a pure number).
    #[ts(type = "string")]
    pub unit: &'static str,
    /// Default value; `None` when the default is derived from the network (see `default_note`).
    pub default: Option<f64>,
    /// How a derived default is computed.
    #[serde(skip_serializing_if = "str::is_empty")]
    #[ts(type = "string", optional)]
    pub default_note: &'static str,
    /// Smallest accepted value (inclusive).
    pub min: f64,
    /// Largest accepted value (inclusive).
    pub max: f64,
    /// Only whole numbers are accepted (0/1 switches are integers).
    pub integer: bool,
    /// One line: what it does.
    #[ts(type = "string")]
    pub meaning: &'static str,
}

impl ParamSpec {
    /// A plain numeric parameter with a fixed default.
    pub const fn num(
        name: &'static str,
        unit: &'static str,
        default: f64,
        min: f64,
        max: f64,
        meaning: &'static str,
    ) -> Self {
        ParamSpec { name, unit, default: Some(default), default_note: "", min, max, integer: false, meaning }
    }

    /// A whole-number parameter (counts, and 0/1 switches).
    pub const fn int(
        name: &'static str,
        unit: &'static str,
        default: f64,
        min: f64,
        max: f64,
        meaning: &'static str,
    ) -> Self {
        ParamSpec { name, unit, default: Some(default), default_note: "", min, max, integer: true, meaning }
    }

    /// An on/off parameter: 0 (off) or 1 (on), unit `0/1`, which the lab shows as a checkbox.
    pub const fn on_off(name: &'static str, default_on: bool, meaning: &'static str) -> Self {
        let default = if default_on { 1.0 } else { 0.0 };
        ParamSpec::int(name, SWITCH_UNIT, default, 0.0, 1.0, meaning)
    }

    /// Checks one value against the declared range; the message names the rule.
    pub fn check(&self, value: f64) -> Result<(), String> {
        if !value.is_finite() {
            return Err(format!("{} {}", self.name, crate::scenario::NOT_FINITE));
        }
        if self.unit == SWITCH_UNIT && value != 0.0 && value != 1.0 {
            return Err(format!("{} = {} must be 0 (off) or 1 (on)", self.name, value));
        }
        if value < self.min || value > self.max {
            return Err(format!(
                "{} = {} is out of range: must be between {} and {}{}",
                self.name,
                number(value),
                self.min,
                self.max,
                unit_suffix(self.unit)
            ));
        }
        if self.integer && value.fract() != 0.0 {
            return Err(format!("{} = {} must be a whole number", self.name, value));
        }
        Ok(())
    }
}

/// A number as a message shows it: as written for the sizes scenarios use, in exponent form
/// beyond them (`1e308`, not its 309 digits).
pub fn number(v: f64) -> String {
    if v != 0.0 && !(1e-6..1e15).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// The unit of an on/off parameter (a whole number from 0 to 1).
pub const SWITCH_UNIT: &str = "0/1";

fn unit_suffix(unit: &str) -> String {
    if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    }
}

/// Validates a name → value map against a catalogue; returns (key, message) per problem.
pub fn check_params(specs: &[ParamSpec], values: &BTreeMap<String, f64>) -> Vec<(String, String)> {
    let mut problems = Vec::new();
    for (name, &value) in values {
        match specs.iter().find(|s| s.name == name) {
            None => {
                let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                problems.push((
                    name.clone(),
                    format!("unknown parameter '{name}'; known parameters: {}", known.join(", ")),
                ));
            }
            Some(spec) => {
                if let Err(rule) = spec.check(value) {
                    problems.push((name.clone(), rule));
                }
            }
        }
    }
    problems
}

/// Resolved parameter values: the scenario's values over the catalogue defaults.
#[derive(Debug, Clone)]
pub struct Params<'a> {
    specs: &'a [ParamSpec],
    values: BTreeMap<String, f64>,
}

impl<'a> Params<'a> {
    pub fn new(specs: &'a [ParamSpec], layers: &[&BTreeMap<String, f64>]) -> Self {
        let mut values = BTreeMap::new();
        for layer in layers {
            for (k, v) in layer.iter() {
                values.insert(k.clone(), *v);
            }
        }
        Params { specs, values }
    }

    /// The value set in the scenario, else the catalogue default. Panics on a name that is not
    /// declared (a programming error, caught by the tests of each algorithm).
    pub fn get(&self, name: &str) -> f64 {
        if let Some(v) = self.values.get(name) {
            return *v;
        }
        let spec = self
            .specs
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("parameter '{name}' is not declared in the catalogue"));
        spec.default.unwrap_or(f64::NAN)
    }

    /// The value set in the scenario, or `None` when it falls back to a derived default.
    pub fn explicit(&self, name: &str) -> Option<f64> {
        self.values.get(name).copied()
    }

    pub fn flag(&self, name: &str) -> bool {
        self.get(name) != 0.0
    }
}
