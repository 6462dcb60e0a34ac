//! Thin wasm-bindgen layer: converts and forwards to `abr_sim`; no simulation logic here.

use abr_sim::{catalogue, metrics, scenario, sim, time, trace, validate};
use wasm_bindgen::prelude::*;

/// Routes Rust panics to `console.error`, so that a crash report says what went wrong (the
/// instance is unusable afterwards: the worker must be restarted).
#[wasm_bindgen(start)]
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        web_sys_console_error(&format!("abr engine panic: {info}"));
    }));
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn web_sys_console_error(message: &str);
}

/// The parameter catalogue (algorithms and TM 4.0 source parameters) as JSON.
#[wasm_bindgen]
pub fn catalogue() -> String {
    catalogue::catalogue_json()
}

/// Every problem of a scenario as a JSON array of `{path, rule, at?}` (`at` names the element
/// by its id too); `[]` when it is valid.
#[wasm_bindgen(js_name = validateScenario)]
pub fn validate_scenario(json: &str) -> String {
    let problems = match scenario::parse(json) {
        Ok(_) => Vec::new(),
        Err(p) => scenario::Problem::all_named(p, &serde_json::from_str(json).unwrap_or_default()),
    };
    serde_json::to_string(&problems).expect("problems serialise")
}

/// A sweep's plan as JSON: `{"plan": PlanInfo}`, or `{"problems": [{path, rule}]}` when the
/// scenario or its sweep block is invalid.
#[wasm_bindgen(js_name = sweepPlan)]
pub fn sweep_plan(json: &str) -> String {
    let result = scenario::parse_json(json).map_err(|p| vec![p]).and_then(|doc| {
        let plan = abr_sim::sweep::Plan::new(&doc, &[], None).map_err(|p| scenario::Problem::all_named(p, &doc))?;
        let base = scenario::from_value(plan.scenario_doc(0)).map_err(|p| scenario::Problem::all_named(p, &doc))?;
        Ok(plan.info(&base))
    });
    match result {
        Ok(info) => serde_json::json!({ "plan": info }).to_string(),
        Err(problems) => serde_json::json!({ "problems": problems }).to_string(),
    }
}

/// The scenario (JSON) of run `index` of the sweep in `json`: what the lab runs for that row.
#[wasm_bindgen(js_name = sweepScenario)]
pub fn sweep_scenario(json: &str, index: f64) -> Result<String, JsError> {
    let doc = scenario::parse_json(json).map_err(|p| JsError::new(&p.to_string()))?;
    let plan = abr_sim::sweep::Plan::new(&doc, &[], None)
        .map_err(|p| JsError::new(&p.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n")))?;
    let i = index as usize;
    if index < 0.0 || i >= plan.len() {
        return Err(JsError::new(&format!("run {index} is outside the sweep's {} runs", plan.len())));
    }
    Ok(plan.scenario_doc(i).to_string())
}

/// A compare variant: the scenario `json` with the `--set` overrides in `sets` (a JSON list of
/// strings) applied by the engine's own rules, as `{"scenario": "<its JSON text>", "notes":
/// [...]}` (notes: what an override took away beyond what it names, e.g. the recorded changes of
/// a switch's old algorithm); the error names, one a line, each override that does not apply and
/// each rule the scenario they make breaks.
#[wasm_bindgen(js_name = applyVariant)]
pub fn apply_variant(json: &str, sets: &str) -> Result<String, JsError> {
    let mut doc = scenario::parse_json(json).map_err(|p| JsError::new(&p.to_string()))?;
    let sets: Vec<String> =
        serde_json::from_str(sets).map_err(|e| JsError::new(&format!("sets: expected a list of strings ({e})")))?;
    // One problem a line (a rule may hold "; " itself).
    let notes = scenario::apply_variant(&mut doc, &sets).map_err(|p| JsError::new(&p.join("\n")))?;
    Ok(serde_json::json!({ "scenario": doc.to_string(), "notes": notes }).to_string())
}

/// One simulation run.
#[wasm_bindgen]
pub struct Simulation(sim::Simulation);

#[wasm_bindgen]
impl Simulation {
    /// Builds a run from scenario JSON; throws an Error listing the problems if it is invalid.
    #[wasm_bindgen(constructor)]
    pub fn new(json: &str) -> Result<Simulation, JsError> {
        match scenario::parse(json) {
            Ok(s) => {
                let mut sim = sim::Simulation::new(s);
                // The page keeps the rows it takes (takeSamples); the engine keeps only what
                // the summary needs and a minimal history.
                sim.stream_samples();
                sim.set_history_budget(0);
                Ok(Simulation(sim))
            }
            Err(problems) => {
                let problems = scenario::Problem::all_named(problems, &serde_json::from_str(json).unwrap_or_default());
                let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
                Err(JsError::new(&text.join("\n")))
            }
        }
    }

    /// What the reader of this (valid) scenario should know before running it, as a JSON array
    /// of strings, each naming its field's path (`validate::notes`: what `abrsim validate` says
    /// and the run's summary carries in `notes`).
    pub fn notes(&self) -> String {
        serde_json::to_string(&validate::notes(&self.0.scenario)).expect("notes serialise")
    }

    /// The series of every sample row, as a JSON array of `{id, kind, label, unit, owner}`.
    #[wasm_bindgen(js_name = seriesMeta)]
    pub fn series_meta(&self) -> String {
        serde_json::to_string(&self.0.rec().meta).expect("meta serialises")
    }

    /// A copy of the run as it is now (a checkpoint): it plays on exactly as this one would.
    /// Free it when done; it shares nothing with this one.
    pub fn snapshot(&self) -> Simulation {
        Simulation(self.0.clone())
    }

    /// Roughly the bytes a `snapshot` of the run takes now (to budget checkpoints).
    #[wasm_bindgen(js_name = stateBytes)]
    pub fn state_bytes(&self) -> f64 {
        self.0.state_bytes() as f64
    }

    /// Runs events up to `until_ms` (never past the end) or `max_events`; returns events run.
    pub fn advance(&mut self, until_ms: f64, max_events: f64) -> f64 {
        self.0.advance(time::from_ms(until_ms.max(0.0)), max_events.max(1.0) as u64) as f64
    }

    #[wasm_bindgen(js_name = nowMs)]
    pub fn now_ms(&self) -> f64 {
        time::to_ms(self.0.now())
    }

    #[wasm_bindgen(js_name = endMs)]
    pub fn end_ms(&self) -> f64 {
        time::to_ms(self.0.end())
    }

    pub fn done(&self) -> bool {
        self.0.done()
    }

    #[wasm_bindgen(js_name = eventsProcessed)]
    pub fn events_processed(&self) -> f64 {
        self.0.events() as f64
    }

    /// Sample rows recorded since the last call, row-major `[time_ms, v0, v1, …]`, copied out
    /// of wasm memory (safe to transfer).
    #[wasm_bindgen(js_name = takeSamples)]
    pub fn take_samples(&mut self) -> js_sys::Float64Array {
        self.0.drain_samples(|rows| js_sys::Float64Array::from(rows))
    }

    /// The run summary as JSON (the CLI's `abrsim run` output), over the scenario's steady
    /// window.
    pub fn summary(&self) -> String {
        serde_json::to_string(&metrics::summarize(&self.0)).expect("summary serialises")
    }

    /// The summary as one row of named columns (JSON array of `[name, value]` pairs), the same
    /// as `abrsim sweep` prints for this run.
    #[wasm_bindgen(js_name = summaryRow)]
    pub fn summary_row(&self) -> String {
        let row = abr_sim::sweep::row(&metrics::summarize(&self.0), &self.0.scenario);
        serde_json::to_string(&row).expect("row serialises")
    }

    /// Changes a switch parameter from the current time on; the change is recorded in the
    /// scenario (see `scenario()`), replacing the later recorded changes of that parameter.
    /// Returns JSON: `{"replaced": [ParamChange…]}` on success, else a `{path, rule}` problem
    /// (path relative to the change: `node`, `param` or `value`).
    #[wasm_bindgen(js_name = setParam)]
    pub fn set_param(&mut self, node: &str, param: &str, value: f64) -> String {
        match self.0.set_param(node, param, value) {
            Ok(replaced) => serde_json::json!({ "replaced": replaced }).to_string(),
            Err(problem) => serde_json::to_string(&problem).expect("problem serialises"),
        }
    }

    /// The scenario as run so far, with the parameter changes made during the run (JSON).
    pub fn scenario(&self) -> String {
        serde_json::to_string(&self.0.scenario).expect("scenario serialises")
    }

    /// Digest of every sample so far (equal natively and in wasm for the same scenario).
    pub fn digest(&self) -> String {
        self.0.rec().digest()
    }

    /// Records RM-cell events from now on, keeping the newest `capacity` (0 stops and clears).
    #[wasm_bindgen(js_name = setRmTrace)]
    pub fn set_rm_trace(&mut self, capacity: f64) {
        self.0.set_rm_trace(capacity.max(0.0) as usize);
    }

    /// The RM-cell events recorded since the last call, oldest first, as a JSON array of
    /// `RmRecord` (a copy: nothing refers to wasm memory).
    #[wasm_bindgen(js_name = takeRmTrace)]
    pub fn take_rm_trace(&mut self) -> String {
        let events = self.0.rm_trace().take();
        let records: Vec<trace::RmRecord> = events.iter().map(|e| trace::RmRecord::new(e, &self.0.net)).collect();
        serde_json::to_string(&records).expect("records serialise")
    }

    /// RM-cell events dropped so far because the buffer was full (the oldest go first).
    #[wasm_bindgen(js_name = rmTraceDropped)]
    pub fn rm_trace_dropped(&mut self) -> f64 {
        self.0.rm_trace().dropped() as f64
    }

    /// Runs until an RM-cell event at `node` of `direction` and of `connection` (a connection or
    /// virtual path id; "" for any, each) is recorded, or `until_ms`, or `max_events`, in one
    /// call: JSON `{"events": n, "found": RmRecord | null}`, or `{"problem": {path, rule}}`
    /// (path `node`, `direction` or `connection`). The events stay in the trace.
    #[wasm_bindgen(js_name = advanceToRmEvent)]
    pub fn advance_to_rm_event(
        &mut self,
        node: &str,
        direction: &str,
        connection: &str,
        until_ms: f64,
        max_events: f64,
    ) -> String {
        let direction = (!direction.is_empty()).then_some(direction);
        let until = time::from_ms(until_ms.max(0.0));
        match self.0.advance_to_rm_event(node, direction, connection, until, max_events.max(1.0) as u64) {
            Ok(s) => {
                let found = s.found.map(|e| trace::RmRecord::new(&e, &self.0.net));
                serde_json::json!({ "events": s.events, "found": found }).to_string()
            }
            Err(p) => serde_json::json!({ "problem": p }).to_string(),
        }
    }

    /// What the algorithm of `switch_id`'s port `port` (`SW1->SW2`, or the node it leads to)
    /// says about its state now: JSON `{"explain": Explain}` or `{"problem": {path, rule}}`.
    pub fn explain(&self, switch_id: &str, port: &str) -> String {
        match self.0.explain(switch_id, port) {
            Ok(e) => serde_json::json!({ "explain": e }).to_string(),
            Err(p) => serde_json::json!({ "problem": p }).to_string(),
        }
    }
}
