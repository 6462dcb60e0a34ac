//! Sweeps: a scenario's `sweep` block (and the CLI's `--vary`/`--seeds`) expands to a grid of
//! points, each run with several seeds; point `i` is the scenario with that point's overrides
//! applied, so a sweep row equals `abrsim run --set …` of the same values. A run's summary
//! flattens to one row of named columns (`conn.C1.mean_rate_mbps`, `port.SW1->SW2.dropped_cells`,
//! `jain_index`, `digest`, …), the same in the CLI and the browser.

use crate::scenario::{assign_noting, Problem, Scenario, Sweep, SweepParam};
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

const EXPORT_TO: &str = "../../../web/src/contract/generated/";

/// The most seeds a sweep may run per point.
pub const MAX_SEEDS: u32 = 10_000;

/// The most values one `--vary` gives (a range with a tiny step stops here, before its grid).
pub const MAX_RANGE_VALUES: usize = 100_000;

/// A `--vary` value written as a range, start:step:stop (`0.8:0.05:1`, `1000:-250:0`): its
/// values, the stop taken when a step lands on it (within rounding); None when `part` is no
/// range (three numbers apart by colons). Each value is rounded to 12 significant digits, so
/// 0.8 + 3 × 0.05 reads 0.95, not 0.9500000000000001; a whole value is a whole number, however
/// the range was spelt (`1.0:1:3` gives 1, 2, 3; `0.5:0.5:2` gives 0.5, 1, 1.5, 2): the values
/// are numbers the range computes, not text it keeps, and the lab's Sweep form, which reads a
/// range as numbers, makes the same column (QA: the CLI printed 1.0 where the form showed 1).
fn range_values(part: &str) -> Option<Result<Vec<Value>, String>> {
    let fields: Vec<&str> = part.split(':').map(str::trim).collect();
    if fields.len() != 3 {
        return None;
    }
    let numbers: Vec<f64> = fields.iter().filter_map(|f| f.parse::<f64>().ok()).filter(|v| v.is_finite()).collect();
    let [start, step, stop] = numbers[..] else { return None };
    if step == 0.0 || (stop - start) * step < 0.0 {
        return Some(Err(format!("the range {part}: the step {step} does not lead from {start} to {stop}")));
    }
    let count = ((stop - start) / step + 1e-9).floor() + 1.0;
    if count > MAX_RANGE_VALUES as f64 {
        return Some(Err(format!(
            "the range {part} gives {count} values; one parameter takes at most {MAX_RANGE_VALUES}"
        )));
    }
    let values = (0..count as i64)
        .map(|k| {
            let v = start + k as f64 * step;
            let v = format!("{v:.11e}").parse::<f64>().unwrap_or(v);
            // Whole, and exact as an integer (2^53): written as one.
            if v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
                serde_json::json!(v as i64)
            } else {
                serde_json::json!(v)
            }
        })
        .collect();
    Some(Ok(values))
}

impl SweepParam {
    /// A parameter from the CLI's `PATH=V1,V2,…` (each value JSON, else a string).
    pub fn from_cli(spec: &str) -> Result<SweepParam, String> {
        let (path, list) = spec.split_once('=').ok_or_else(|| format!("--vary '{spec}': expected PATH=V1,V2,…"))?;
        if path.is_empty() {
            return Err(format!("--vary '{spec}': the path is empty"));
        }
        if list.trim().is_empty() {
            return Err(format!("--vary '{spec}': give at least one value"));
        }
        let parts: Vec<&str> = list.split(',').map(str::trim).collect();
        if let Some(i) = parts.iter().position(|v| v.is_empty()) {
            return Err(format!(
                "--vary '{spec}': value {} of {} is empty (a comma too many?); values are separated by single commas",
                i + 1,
                parts.len()
            ));
        }
        let mut values: Vec<Value> = Vec::new();
        for part in parts {
            match range_values(part) {
                Some(range) => values.extend(range.map_err(|rule| format!("--vary '{spec}': {rule}"))?),
                None => values.push(
                    crate::scenario::command_value(part).map_err(|rule| format!("--vary '{spec}': {path} {rule}"))?,
                ),
            }
        }
        if values.len() > MAX_RANGE_VALUES {
            return Err(format!(
                "--vary '{spec}': {} values; one parameter takes at most {MAX_RANGE_VALUES}",
                values.len()
            ));
        }
        Ok(SweepParam { name: None, paths: vec![path.to_string()], scale: None, values })
    }

    pub fn column(&self) -> String {
        self.name.clone().unwrap_or_else(|| self.paths.first().cloned().unwrap_or_default())
    }

    /// `value` as it is set: × scale, if the parameter has one.
    fn scaled(&self, value: &Value) -> Result<Value, String> {
        match (self.scale, value.as_f64()) {
            (Some(k), Some(v)) => Ok(serde_json::json!(v * k)),
            (Some(_), None) => Err(format!("value {value} is not a number, and this parameter has a scale")),
            (None, _) => Ok(value.clone()),
        }
    }

    /// Sets every path of this parameter to `value` (× scale) in `doc`; the notes say what
    /// that took away beyond what it names (`assign_noting`).
    fn apply(&self, doc: &mut Value, value: &Value) -> Result<Vec<String>, String> {
        let mut notes = Vec::new();
        for assignment in self.assignments(value)? {
            notes.extend(assign_noting(doc, &assignment)?);
        }
        Ok(notes)
    }

    /// The `--set` assignments that give this parameter `value`: one per path.
    fn assignments(&self, value: &Value) -> Result<Vec<String>, String> {
        let value = self.scaled(value)?;
        Ok(self.paths.iter().map(|path| format!("{path}={value}")).collect())
    }

    /// `value` as a row shows it (a string without its quotes).
    fn shown(value: &Value) -> String {
        value.as_str().map_or_else(|| value.to_string(), str::to_string)
    }
}

/// Adds the command line's parameters to a file's: one with the same paths (or column) as one
/// of `vary` replaces its values and paths (keeping its name), another is added at the end.
/// Returns the place in `vary` each of `extra` took, so that a problem found at
/// `sweep.vary[i]` can be named by the option that put it there.
pub fn merge_vary(vary: &mut Vec<SweepParam>, extra: &[SweepParam]) -> Vec<usize> {
    extra
        .iter()
        .map(|p| match vary.iter().position(|q| q.column() == p.column() || q.paths == p.paths) {
            Some(i) => {
                let name = vary[i].name.take();
                vary[i] = SweepParam { name, ..p.clone() };
                i
            }
            None => {
                vary.push(p.clone());
                vary.len() - 1
            }
        })
        .collect()
}

/// A sweep over a base scenario: its points × seeds, in a fixed order.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The scenario without its sweep block.
    base: Value,
    pub params: Vec<SweepParam>,
    pub seeds: u32,
    pub first_seed: u64,
    pub metrics: Vec<String>,
    /// What a value takes away beyond what it names (a switch's recorded changes of a
    /// parameter its new algorithm lacks), once each, naming the value: `abrsim sweep` prints
    /// them, the lab shows them above its table.
    pub notes: Vec<String>,
}

/// Points × (nodes + links + connections) up to which every point of a grid is validated whole
/// before a sweep runs (about a second natively).
const POINT_CHECK_BUDGET: usize = 250_000;

/// One run of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO, rename = "SweepRun")]
pub struct Run {
    pub index: usize,
    /// The value of each varied parameter, in `Plan::params` order.
    #[ts(type = "Array<number | string>")]
    pub values: Vec<Value>,
    #[ts(type = "number")]
    pub seed: u64,
}

/// The fields at the top of a scenario, where every `--set` or `--vary` path starts.
const TOP_LEVEL_FIELDS: [&str; 16] = [
    "version",
    "id",
    "name",
    "group",
    "description",
    "source",
    "lesson",
    "run",
    "defaults",
    "nodes",
    "links",
    "connections",
    "changes",
    "virtual_paths",
    "ethernet",
    "reference",
];
/// The fields of `run`, which a path without `run.` most likely meant.
const RUN_FIELDS: [&str; 6] =
    ["duration_ms", "sample_interval_us", "seed", "steady_from_ms", "tolerance", "expect_maxmin"];

fn top_level_field(path: &str) -> bool {
    let first = path.split(['.', '=']).next().unwrap_or_default();
    TOP_LEVEL_FIELDS.contains(&first)
}

impl Plan {
    /// The sweep of `doc` (its `sweep` block, with `extra` parameters added or replacing those
    /// of the same column, and `seeds` if given): every value is checked by applying it to the
    /// scenario and validating the result, so that a bad one is named before anything runs. An
    /// extra parameter with the same paths (or column) as one of the file's replaces its values.
    pub fn new(doc: &Value, extra: &[SweepParam], seeds: Option<u32>) -> Result<Plan, Vec<Problem>> {
        let mut base = doc.clone();
        let block = base.as_object_mut().and_then(|o| o.remove("sweep"));
        let scenario = crate::scenario::from_value(base.clone())?;
        let mut sweep: Sweep = match block {
            Some(b) => crate::scenario::read(&b, "sweep").map_err(|p| vec![p])?,
            None => Sweep { vary: Vec::new(), seeds: 1, metrics: Vec::new() },
        };
        merge_vary(&mut sweep.vary, extra);
        if let Some(k) = seeds {
            sweep.seeds = k;
        }
        let mut plan = Plan {
            base,
            params: sweep.vary,
            seeds: sweep.seeds,
            first_seed: scenario.run.seed,
            metrics: sweep.metrics,
            notes: Vec::new(),
        };
        let (problems, notes) = plan.check(&scenario);
        plan.notes = notes;
        if problems.is_empty() {
            Ok(plan)
        } else {
            Err(problems)
        }
    }

    /// The plan's problems, and the notes of its values (see `Plan::notes`).
    fn check(&self, scenario: &Scenario) -> (Vec<Problem>, Vec<String>) {
        let mut p = Vec::new();
        let mut notes = Vec::new();
        if self.seeds == 0 || self.seeds > MAX_SEEDS {
            p.push(Problem::new("sweep.seeds", format!("seeds = {} must be between 1 and {MAX_SEEDS}", self.seeds)));
        } else if self.seed_param().is_none() && self.first_seed.checked_add(u64::from(self.seeds) - 1).is_none() {
            // The seeds run.seed, run.seed + 1, … would pass the largest seed and wrap to 0.
            p.push(Problem::new(
                "sweep.seeds",
                format!(
                    "seeds = {} from run.seed = {} pass the largest seed, {}: give fewer seeds or a smaller run.seed",
                    self.seeds,
                    self.first_seed,
                    u64::MAX
                ),
            ));
        }
        // A row's summary columns (a varied parameter may not take one's name), built once.
        let summary_columns =
            if self.params.is_empty() && self.metrics.is_empty() { Vec::new() } else { columns_of(scenario) };
        let mut columns = std::collections::BTreeSet::new();
        for (i, param) in self.params.iter().enumerate() {
            let at = format!("sweep.vary[{i}]");
            if param.paths.is_empty() || param.paths.iter().any(|s| s.is_empty()) {
                p.push(Problem::new(format!("{at}.paths"), "give at least one --set path (none may be empty)"));
            }
            if param.values.is_empty() {
                p.push(Problem::new(format!("{at}.values"), "give at least one value"));
            }
            if param.scale.is_some_and(|k| !k.is_finite()) {
                p.push(Problem::new(format!("{at}.scale"), "scale must be a finite number"));
            }
            if !columns.insert(param.column()) {
                p.push(Problem::new(format!("{at}.name"), format!("'{}' is varied twice", param.column())));
            }
            // A path that names no field of a scenario (`seed` for `run.seed`): said once, with
            // the field it likely means, instead of once per value (and as a column's name).
            if let Some(path) = param.paths.iter().find(|path| !path.is_empty() && !top_level_field(path)) {
                let first = path.split(['.', '=']).next().unwrap_or_default();
                // `links[0].delay_us`: the list element in index form, said as `--set` says it.
                let rule = if first.contains('[') {
                    format!("'{first}' is not a key: {}", crate::scenario::indexed_key_hint(first))
                } else {
                    let hint = if RUN_FIELDS.contains(&first) {
                        format!(" (did you mean run.{path}?)")
                    } else {
                        String::new()
                    };
                    format!(
                        "'{path}' names no field of a scenario: a path starts at one of {}{hint}",
                        TOP_LEVEL_FIELDS.join(", ")
                    )
                };
                p.push(Problem::new(format!("{at}.paths"), rule));
                continue;
            }
            if param.column() == "seed" || summary_columns.contains(&param.column()) {
                p.push(Problem::new(
                    format!("{at}.name"),
                    format!("'{}' is a column of every row already: give this parameter another name", param.column()),
                ));
            }
            let mut noted: Vec<Vec<String>> = Vec::with_capacity(param.values.len());
            let said: Vec<Vec<String>> = param
                .values
                .iter()
                .map(|v| {
                    let mut doc = self.base.clone();
                    let problems = match param.apply(&mut doc, v) {
                        Err(e) => {
                            noted.push(Vec::new());
                            vec![Problem::new("", e)]
                        }
                        Ok(said) => {
                            noted.push(said);
                            crate::scenario::from_value(doc.clone()).err().unwrap_or_default()
                        }
                    };
                    problems.into_iter().map(|q| q.named(&doc).to_string()).collect()
                })
                .collect();
            // A note every value gives (taking a link's distance away for its delay) is said
            // once for the parameter; the others with the value that gives them.
            let noted_by_all: Vec<&String> = match noted.as_slice() {
                [first, _, ..] => first.iter().filter(|n| noted.iter().all(|s| s.contains(n))).collect(),
                _ => Vec::new(),
            };
            notes.extend(noted_by_all.iter().map(|n| format!("with every value of {}: {n}", param.column())));
            for (v, said) in param.values.iter().zip(&noted) {
                let shown = SweepParam::shown(v);
                notes.extend(
                    said.iter()
                        .filter(|n| !noted_by_all.contains(n))
                        .map(|n| format!("with {} = {shown}: {n}", param.column())),
                );
            }
            // What every value runs into (a path to a node that is not there, a field no node
            // has) is the paths' problem: said once, not once per value.
            let shared: Vec<&String> = match said.as_slice() {
                [first, _, ..] => first.iter().filter(|w| said.iter().all(|s| s.contains(w))).collect(),
                _ => Vec::new(),
            };
            for what in &shared {
                p.push(Problem::new(format!("{at}.paths"), format!("every value makes the scenario invalid: {what}")));
            }
            for (j, (v, whats)) in param.values.iter().zip(&said).enumerate() {
                for what in whats.iter().filter(|w| !shared.contains(w)) {
                    p.push(Problem::new(
                        format!("{at}.values[{j}]"),
                        format!("{v} makes the scenario invalid: {what}"),
                    ));
                }
            }
        }
        if p.is_empty() && self.params.len() > 1 {
            // Validating a point costs about its network's size (4 µs a node, link or
            // connection natively): a grid too large for a second of it is left to its runs.
            let size: usize = ["nodes", "links", "connections"]
                .iter()
                .map(|k| self.base.get(k).and_then(Value::as_array).map_or(0, Vec::len))
                .sum();
            if self.points().saturating_mul(size.max(1)) <= POINT_CHECK_BUDGET {
                let (problems, point_notes) = self.check_points();
                p.extend(problems);
                notes.extend(point_notes);
            } else {
                notes.push(format!(
                    "the values were checked one by one, not at each of the {} points together (too many for a \
                     network of {size} nodes, links and connections): a run whose values do not go together says \
                     why in its row",
                    self.points()
                ));
            }
        }
        if !self.metrics.is_empty() {
            for (i, m) in self.metrics.iter().enumerate() {
                if !summary_columns.contains(m) {
                    p.push(Problem::new(
                        format!("sweep.metrics[{i}]"),
                        format!("'{m}' is not a column of this scenario's summary (see `abrsim sweep --format json` for their names)"),
                    ));
                }
            }
        }
        (p, notes)
    }

    /// Every point of the grid with its values set together, in the parameters' order, as its
    /// runs set them (`check` tries each value alone): one value may take away what an earlier
    /// parameter set (`nodes.SW1.algorithm = eprca` after ERICA's `target_utilization`: the
    /// row would show a value the run never used), or two may make the scenario invalid where
    /// neither does alone (ERICA's parameter set after the switch turned to EPRCA). Each
    /// parameter taken away is said once per value that takes it; invalid points are problems,
    /// the first few named.
    fn check_points(&self) -> (Vec<Problem>, Vec<String>) {
        const NAMED: usize = 3;
        let mut problems = Vec::new();
        let mut invalid = 0;
        let mut notes = std::collections::BTreeSet::new();
        // Which parameter an assignment string came from.
        let mut column_of = std::collections::BTreeMap::new();
        for param in &self.params {
            for v in &param.values {
                for a in param.assignments(v).unwrap_or_default() {
                    column_of.insert(a, param.column());
                }
            }
        }
        for point in 0..self.points() {
            let values = self.run(point * self.seeds as usize).values;
            let mut doc = self.base.clone();
            let mut overrides = crate::scenario::Overrides::default();
            let mut failed = None;
            'point: for (param, v) in self.params.iter().zip(&values) {
                for assignment in param.assignments(v).unwrap_or_default() {
                    match overrides.apply_undoing(&mut doc, &assignment) {
                        Err(e) => {
                            failed = Some(e);
                            break 'point;
                        }
                        // Its own notes (recorded changes dropped) were said for the value alone.
                        Ok((_, undone)) => {
                            for u in undone {
                                let earlier = column_of.get(&u.earlier).cloned().unwrap_or(u.earlier);
                                notes.insert(format!(
                                    "with {} = {}, {earlier} is not applied: {}",
                                    param.column(),
                                    SweepParam::shown(v),
                                    u.why
                                ));
                            }
                        }
                    }
                }
            }
            let failed = failed.or_else(|| {
                let q = crate::scenario::from_value(doc.clone()).err()?;
                Some(q.into_iter().map(|q| q.named(&doc).to_string()).collect::<Vec<_>>().join("; "))
            });
            if let Some(what) = failed {
                invalid += 1;
                if invalid <= NAMED {
                    let at: Vec<String> = self
                        .params
                        .iter()
                        .zip(&values)
                        .map(|(p, v)| format!("{} = {}", p.column(), SweepParam::shown(v)))
                        .collect();
                    problems.push(Problem::new(
                        "sweep.vary",
                        format!(
                            "the point {} makes the scenario invalid (each value is valid alone): {what}",
                            at.join(", ")
                        ),
                    ));
                }
            }
        }
        // An algorithm varied before a parameter of one of them: the usual way into this.
        let algorithm_first = self.params.iter().position(|p| p.paths.iter().any(|path| path.ends_with(".algorithm")));
        if invalid > 0 && algorithm_first.is_some_and(|k| k + 1 < self.params.len()) {
            problems.push(Problem::new(
                "sweep.vary",
                "a switch keeps only its algorithm's parameters: vary the algorithm after the parameters it may not have \
                 (its points then run without them, said as a note), or sweep one algorithm at a time",
            ));
        }
        if invalid > NAMED {
            let more = match invalid - NAMED {
                1 => "1 more point makes".to_string(),
                n => format!("{n} more points make"),
            };
            problems.push(Problem::new(
                "sweep.vary",
                format!("{more} the scenario invalid ({invalid} of {} in all)", self.points()),
            ));
        }
        (problems, notes.into_iter().collect())
    }

    /// How many points the grid has (without seeds).
    pub fn points(&self) -> usize {
        self.params.iter().map(|p| p.values.len()).product()
    }

    /// How many runs: points × seeds.
    pub fn len(&self) -> usize {
        self.points() * self.seeds as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Run `index` (0 ≤ index < len): its values and seed. Seeds vary fastest, then the last
    /// parameter, …, the first parameter slowest. A point runs with seeds `run.seed`,
    /// `run.seed + 1`, …: the scenario's, or the point's own when `run.seed` is varied.
    pub fn run(&self, index: usize) -> Run {
        let seeds = self.seeds as usize;
        let mut point = index / seeds;
        let mut values = vec![Value::Null; self.params.len()];
        for (k, p) in self.params.iter().enumerate().rev() {
            values[k] = p.values[point % p.values.len()].clone();
            point /= p.values.len();
        }
        let first_seed =
            self.seed_param().and_then(|k| self.params[k].scaled(&values[k]).ok()?.as_u64()).unwrap_or(self.first_seed);
        Run { index, values, seed: first_seed + (index % seeds) as u64 }
    }

    /// The varied parameter that sets `run.seed` (the last, if several do): each point's
    /// first seed.
    pub fn seed_param(&self) -> Option<usize> {
        self.params.iter().rposition(|p| p.paths.iter().any(|path| path == "run.seed"))
    }

    /// The scenario document of run `index`.
    pub fn scenario_doc(&self, index: usize) -> Value {
        let run = self.run(index);
        let mut doc = self.base.clone();
        for (p, v) in self.params.iter().zip(&run.values) {
            // Its notes were taken when the plan was made.
            p.apply(&mut doc, v).expect("checked when the plan was made");
        }
        doc["run"]["seed"] = serde_json::json!(run.seed);
        doc
    }

    /// The runs of shard `i` of `n` (1 ≤ i ≤ n): contiguous blocks, so that the shards' rows
    /// concatenated in order are the unsharded rows.
    pub fn shard(&self, i: usize, n: usize) -> std::ops::Range<usize> {
        let len = self.len();
        (i - 1) * len / n..i * len / n
    }

    /// The column names of a row: the varied parameters, `seed`, then the summary's.
    pub fn header(&self, scenario: &Scenario) -> Vec<String> {
        let mut h: Vec<String> = self.params.iter().map(|p| p.column()).collect();
        h.push("seed".into());
        h.extend(columns_of(scenario));
        h
    }
}

/// What the lab needs to lay out a sweep before running it.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct PlanInfo {
    /// Runs: points × seeds.
    #[ts(type = "number")]
    pub runs: usize,
    #[ts(type = "number")]
    pub points: usize,
    pub seeds: u32,
    /// The varied parameters' columns and values, in plan order.
    pub params: Vec<ParamInfo>,
    /// The columns the file asks to tabulate (may be empty).
    pub metrics: Vec<String>,
    /// Every column of a row: the parameters, `seed`, then the summary's.
    pub header: Vec<String>,
    /// The parameter (index into `params`) that varies `run.seed`, if one does: a point's
    /// seeds start at its value instead of the scenario's `run.seed`.
    #[ts(type = "number | null")]
    pub seed_param: Option<usize>,
    /// What the plan's values take away beyond what they name (`Plan::notes`).
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct ParamInfo {
    pub column: String,
    #[ts(type = "Array<number | string>")]
    pub values: Vec<Value>,
    /// Each value as `abrsim sweep` writes it in its CSV ([`value_text`]): `200.0` as the file
    /// has it, where a JavaScript number would read 200. Always given; optional for the types.
    #[ts(as = "Option<Vec<String>>", optional)]
    pub texts: Vec<String>,
}

/// A varied value as a sweep's CSV writes it (before CSV quoting): a string as it is, null as
/// nothing, a number as the file writes it (`200.0` stays `200.0`).
pub fn value_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Plan {
    pub fn info(&self, scenario: &Scenario) -> PlanInfo {
        PlanInfo {
            runs: self.len(),
            points: self.points(),
            seeds: self.seeds,
            params: self
                .params
                .iter()
                .map(|p| ParamInfo {
                    column: p.column(),
                    values: p.values.clone(),
                    texts: p.values.iter().map(value_text).collect(),
                })
                .collect(),
            metrics: self.metrics.clone(),
            header: self.header(scenario),
            seed_param: self.seed_param(),
            notes: self.notes.clone(),
        }
    }
}

/// Parses a shard spec `I/N` (1 ≤ I ≤ N).
pub fn parse_shard(spec: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard '{spec}': expected I/N with 1 ≤ I ≤ N (e.g. 3/8)");
    let (i, n) = spec.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The summary columns of a scenario, in row order (what [`row`] yields for any run of it).
pub fn columns_of(scenario: &Scenario) -> Vec<String> {
    let mut sim = crate::sim::Simulation::new(scenario.clone());
    sim.advance(0, 0);
    let summary = crate::metrics::summarize(&sim);
    row(&summary, scenario).into_iter().map(|(k, _)| k).collect()
}

/// A summary as named columns: totals first, then per connection (`conn.<id>.*`), port
/// (`port.<id>.*`), link (`link.<id>.*`, with `throughput_mbps`), virtual path (`vp.<id>.*`) and
/// virtual source (`vs.<switch>.<connection>.*`); numbers (null where the summary has none) and
/// the digest. The wall time is left out: a row depends on the scenario alone.
pub fn row(summary: &crate::metrics::Summary, scenario: &Scenario) -> Vec<(String, Value)> {
    let v = serde_json::to_value(summary).expect("a summary serialises");
    let mut out: Vec<(String, Value)> = Vec::new();
    let num = |x: f64| if x.is_finite() { serde_json::json!(x) } else { Value::Null };
    // A total over one field of a list: whole numbers stay whole (counts), others are f64.
    let total = |name: &str, list: &str, ints: fn(u64, u64) -> u64, floats: fn(f64, f64) -> f64| -> Value {
        let items: Vec<&Value> =
            v[list].as_array().into_iter().flatten().filter_map(|o| o.get(name)).filter(|x| x.is_number()).collect();
        if items.is_empty() {
            Value::Null
        } else if items.iter().all(|x| x.is_u64()) {
            serde_json::json!(items.iter().filter_map(|x| x.as_u64()).reduce(ints))
        } else {
            num(items.iter().filter_map(|x| x.as_f64()).reduce(floats).unwrap_or(f64::NAN))
        }
    };
    let sum = |name: &str, list: &str| total(name, list, |a, b| a + b, |a, b| a + b);
    let max = |name: &str, list: &str| total(name, list, u64::max, f64::max);
    for key in ["jain_index", "convergence_ms", "on_target_fraction", "jain_among_virtual_paths", "events"] {
        out.push((key.into(), v.get(key).cloned().unwrap_or(Value::Null)));
    }
    out.push(("lost_cells".into(), sum("lost_cells", "connections")));
    out.push(("dropped_cells".into(), sum("dropped_cells", "ports")));
    out.push(("max_queue_cells".into(), max("max_queue_cells", "ports")));
    out.push(("max_utilization".into(), max("mean_utilization", "links")));
    out.push(("goodput_mbps".into(), sum("goodput_mbps", "connections")));
    out.push(("timeouts".into(), sum("timeouts", "connections")));
    let lists = [("connections", "conn"), ("ports", "port"), ("links", "link"), ("virtual_paths", "vp")];
    for (list, prefix) in lists {
        for item in v[list].as_array().into_iter().flatten() {
            let Some(o) = item.as_object() else { continue };
            let id = o.get("id").and_then(Value::as_str).unwrap_or_default();
            for (k, x) in o {
                if x.is_number() || x.is_null() {
                    out.push((format!("{prefix}.{id}.{k}"), x.clone()));
                }
            }
            if list == "links" {
                let rate = scenario.links.iter().find(|l| l.id == id).map(|l| l.rate_mbps);
                let util = o.get("mean_utilization").and_then(Value::as_f64);
                let t = match (rate, util) {
                    (Some(r), Some(u)) => num(r * u),
                    _ => Value::Null,
                };
                out.push((format!("link.{id}.throughput_mbps"), t));
            }
        }
    }
    for item in v["virtual_sources"].as_array().into_iter().flatten() {
        let Some(o) = item.as_object() else { continue };
        let (sw, c) = (o["switch"].as_str().unwrap_or_default(), o["connection"].as_str().unwrap_or_default());
        for (k, x) in o {
            if x.is_number() || x.is_null() {
                out.push((format!("vs.{sw}.{c}.{k}"), x.clone()));
            }
        }
    }
    out.push(("digest".into(), v["digest"].clone()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc() -> Value {
        serde_json::json!({"version":1,"id":"t","run":{"duration_ms":2,"seed":5},
            "nodes":[{"id":"S1","kind":"source"},{"id":"SW1","kind":"switch"},{"id":"D1","kind":"destination"}],
            "links":[{"id":"L1","from":"S1","to":"SW1","rate_mbps":155.52,"delay_us":5},
                     {"id":"L2","from":"SW1","to":"D1","rate_mbps":155.52,"delay_us":5}],
            "connections":[{"id":"C1","from":"S1","to":"D1"}],
            "sweep":{"vary":[{"paths":["nodes.SW1.params.target_utilization"],"values":[0.8,0.9,0.95]},
                             {"name":"delay_us","paths":["links.L1.delay_us","links.L2.delay_us"],"scale":0.5,"values":[10,20]}],
                     "seeds":2}})
    }

    #[test]
    fn runs_go_seed_fastest_then_last_parameter_first_slowest() {
        let plan = Plan::new(&doc(), &[], None).unwrap();
        assert_eq!((plan.points(), plan.len()), (6, 12));
        let r = plan.run(0);
        assert_eq!((r.values.clone(), r.seed), (vec![serde_json::json!(0.8), serde_json::json!(10)], 5));
        assert_eq!(plan.run(1).seed, 6);
        assert_eq!(plan.run(2).values, vec![serde_json::json!(0.8), serde_json::json!(20)]);
        assert_eq!(plan.run(11).values, vec![serde_json::json!(0.95), serde_json::json!(20)]);
        let d = plan.scenario_doc(3);
        assert_eq!(d["links"][0]["delay_us"], serde_json::json!(10.0), "20 × scale 0.5");
        assert_eq!(d["links"][1]["delay_us"], serde_json::json!(10.0));
        assert_eq!(d["run"]["seed"], serde_json::json!(6));
        assert!(d.get("sweep").is_none());
    }

    /// `doc()` with its sweep varying `first` and then `second` (paths and values each).
    fn two_params(first: (&str, Value), second: (&str, Value)) -> Value {
        let mut d = doc();
        d["sweep"] =
            serde_json::json!({"vary":[{"paths":[first.0],"values":first.1},{"paths":[second.0],"values":second.1}]});
        d
    }

    /// Each value is valid alone; together, an algorithm without ERICA's parameter drops it
    /// (set before it) or is refused it (set after it): the row would show a value its run
    /// never used, or the run would fail after the plan was accepted.
    #[test]
    fn a_grid_point_is_checked_with_all_its_values_set() {
        let tu = ("nodes.SW1.params.target_utilization", serde_json::json!([0.8, 0.95]));
        let alg = ("nodes.SW1.algorithm", serde_json::json!(["erica", "eprca"]));
        let plan =
            Plan::new(&two_params(tu.clone(), alg.clone()), &[], None).expect("the parameter is dropped, not refused");
        assert_eq!(
            plan.notes,
            vec!["with nodes.SW1.algorithm = eprca, nodes.SW1.params.target_utilization is not applied: \
                 SW1 now runs EPRCA, which has no target_utilization"
                .to_string()],
            "said once for both of its values"
        );
        let problems = Plan::new(&two_params(alg, tu), &[], None).unwrap_err();
        let rules: Vec<&str> = problems.iter().map(|p| p.rule.as_str()).collect();
        assert_eq!(rules.len(), 3, "{rules:?}");
        assert!(rules[0]
            .starts_with("the point nodes.SW1.algorithm = eprca, nodes.SW1.params.target_utilization = 0.8 makes"));
        assert!(rules[0].contains("unknown parameter 'target_utilization'"), "{}", rules[0]);
        assert!(rules[1].contains("= 0.95 makes"));
        assert!(rules[2].contains("vary the algorithm after the parameters"));
        assert!(problems.iter().all(|p| p.path == "sweep.vary"));
    }

    #[test]
    fn a_vary_value_may_be_a_range() {
        let p = SweepParam::from_cli("nodes.SW1.params.target_utilization=0.8:0.05:1").unwrap();
        assert_eq!(p.values, vec![json!(0.8), json!(0.85), json!(0.9), json!(0.95), json!(1)]);
        let p = SweepParam::from_cli("links.L1.delay_us=5,1000:-250:0").unwrap();
        assert_eq!(p.values, vec![json!(5), json!(1000), json!(750), json!(500), json!(250), json!(0)]);
        let e = SweepParam::from_cli("links.L1.delay_us=0:-1:5").unwrap_err();
        assert!(e.contains("the step -1 does not lead from 0 to 5"), "{e}");
        let e = SweepParam::from_cli("links.L1.delay_us=0:0:5").unwrap_err();
        assert!(e.contains("the step 0 does not lead"), "{e}");
        let e = SweepParam::from_cli("run.duration_ms=1:0.00001:100").unwrap_err();
        assert!(e.contains("at most 100000"), "{e}");
        // Not three numbers: a value as any other (refused or taken by the field's rules).
        let p = SweepParam::from_cli("nodes.SW1.algorithm=a:b:c").unwrap();
        assert_eq!(p.values, vec![json!("a:b:c")]);
    }

    /// QA: `1.0:1:3` printed 1.0, 2.0, 3.0 where the lab's Sweep form, reading the range as
    /// numbers, showed 1, 2, 3: a range's whole values are whole numbers, however it is spelt.
    #[test]
    fn a_ranges_whole_values_are_whole_numbers_however_it_is_spelt() {
        let values = |spec: &str| SweepParam::from_cli(spec).unwrap().values;
        assert_eq!(values("nodes.SW1.buffer_cells=1.0:1:3"), vec![json!(1), json!(2), json!(3)]);
        assert_eq!(values("nodes.SW1.buffer_cells=1:1.0:3"), values("nodes.SW1.buffer_cells=1:1:3"));
        assert_eq!(values("run.seed=0.5:0.5:2"), vec![json!(0.5), json!(1), json!(1.5), json!(2)]);
        assert_eq!(values("links.L1.delay_us=1e3:-5e2:0"), vec![json!(1000), json!(500), json!(0)]);
        // As a row and the plan write them.
        assert_eq!(value_text(&values("nodes.SW1.buffer_cells=1.0:1:3")[0]), "1");
        // A value written in a list stays as written (as in a file: `200.0` stays `200.0`).
        assert_eq!(values("nodes.SW1.buffer_cells=1.0,2"), vec![json!(1.0), json!(2)]);
    }

    /// A delay sweep of a link written in kilometres takes the distance away at every value:
    /// said once for the parameter, not once per value (a sweep of 20 delays printed it 20 times).
    #[test]
    fn a_note_every_value_gives_is_said_once() {
        let mut d = doc();
        d["links"][0] = serde_json::json!({"id":"L1","from":"S1","to":"SW1","rate_mbps":155.52,"distance_km":1});
        d["sweep"] = serde_json::json!({"vary":[{"paths":["links.L1.delay_us"],"values":[10, 100, 1000]}]});
        let plan = Plan::new(&d, &[], None).unwrap();
        assert_eq!(
            plan.notes,
            vec!["with every value of links.L1.delay_us: links.L1.distance_km (1 km) is taken away: the link's \
                 delay is now given by delay_us"
                .to_string()]
        );
        // With one value there is no "every": the value is named.
        d["sweep"]["vary"][0]["values"] = serde_json::json!([10]);
        let plan = Plan::new(&d, &[], None).unwrap();
        assert_eq!(plan.notes.len(), 1);
        assert!(plan.notes[0].starts_with("with links.L1.delay_us = 10: links.L1.distance_km"), "{:?}", plan.notes);
    }

    /// A grid too large to validate point by point (its points × its network's size) is
    /// checked value by value, and says so.
    #[test]
    fn a_grid_too_large_to_check_whole_says_so() {
        let values: Vec<f64> = (0..1000).map(|k| 1.0 + k as f64).collect();
        let steady: Vec<f64> = (0..50).map(|k| k as f64 / 100.0).collect();
        let d = two_params(
            ("run.duration_ms", serde_json::json!(values)),
            ("run.steady_from_ms", serde_json::json!(steady)),
        );
        let plan = Plan::new(&d, &[], None).unwrap();
        assert_eq!(plan.points(), 50_000, "× 6 nodes, links and connections: over the budget");
        assert_eq!(plan.notes.len(), 1);
        assert!(plan.notes[0].contains("not at each of the 50000 points together"), "{:?}", plan.notes);
        let small = two_params(
            ("run.duration_ms", serde_json::json!([1, 2])),
            ("run.steady_from_ms", serde_json::json!([0, 0.5])),
        );
        assert!(Plan::new(&small, &[], None).unwrap().notes.is_empty());
    }

    /// Invalid points beyond the first three are counted, not listed.
    #[test]
    fn invalid_points_past_the_first_few_are_counted() {
        // ICR above PCR is invalid; each value alone is not (the defaults: ICR 25, PCR 155.52).
        let icr = ("connections.C1.params.icr_mbps", serde_json::json!([10, 60, 70, 80, 90]));
        let pcr = ("connections.C1.params.pcr_mbps", serde_json::json!([50, 155.52]));
        let problems = Plan::new(&two_params(icr, pcr), &[], None).unwrap_err();
        let rules: Vec<&str> = problems.iter().map(|p| p.rule.as_str()).collect();
        assert_eq!(rules.len(), 4, "{rules:?}");
        assert!(
            rules[0].contains("connections.C1.params.icr_mbps = 60, connections.C1.params.pcr_mbps = 50"),
            "{}",
            rules[0]
        );
        assert_eq!(rules[3], "1 more point makes the scenario invalid (4 of 10 in all)");
    }

    #[test]
    fn shards_are_contiguous_and_cover_every_run_once() {
        let plan = Plan::new(&doc(), &[], None).unwrap();
        for n in 1..=13 {
            let all: Vec<usize> = (1..=n).flat_map(|i| plan.shard(i, n)).collect();
            assert_eq!(all, (0..plan.len()).collect::<Vec<_>>(), "{n} shards");
        }
        assert_eq!(parse_shard("3/8"), Ok((3, 8)));
        for bad in ["3/2", "0/2", "2", "a/b", "1/0"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    /// The fields a path may start at are the scenario's own (serde's list, but `sweep`).
    #[test]
    fn top_level_fields_are_the_scenarios() {
        let err = crate::scenario::from_value(serde_json::json!({"no such field": 1})).unwrap_err();
        let rule = &err.iter().find(|p| p.rule.contains("the fields here: ")).expect("serde names the fields").rule;
        let named: Vec<&str> =
            rule.split("the fields here: ").nth(1).unwrap().trim_end_matches(')').split(", ").collect();
        let mut want: Vec<&str> = named.into_iter().filter(|f| *f != "sweep").collect();
        let mut have = TOP_LEVEL_FIELDS.to_vec();
        want.sort_unstable();
        have.sort_unstable();
        assert_eq!(have, want);
    }

    #[test]
    fn a_path_naming_no_field_is_refused_once_with_the_field_it_likely_means() {
        let p = Plan::new(&doc(), &[SweepParam::from_cli("seed=1,2").unwrap()], None).unwrap_err();
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].path, "sweep.vary[2].paths");
        assert!(
            p[0].rule.starts_with("'seed' names no field of a scenario")
                && p[0].rule.ends_with("(did you mean run.seed?)"),
            "{p:?}"
        );
        let p = Plan::new(&doc(), &[SweepParam::from_cli("nodez.SW1.algorithm=erica").unwrap()], None).unwrap_err();
        assert!(!p[0].rule.contains("did you mean"), "{p:?}");
    }

    #[test]
    fn bad_sweeps_are_named_with_their_path() {
        let mut d = doc();
        d["sweep"]["vary"][0]["values"] = serde_json::json!([0.9, 7]);
        let p = Plan::new(&d, &[], None).unwrap_err();
        assert!(
            p.iter()
                .any(|p| p.path == "sweep.vary[0].values[1]"
                    && p.rule.contains("target_utilization = 7 is out of range")),
            "{p:?}"
        );
        let p = Plan::new(&doc(), &[SweepParam::from_cli("nodes.SW9.algorithm=erica").unwrap()], None).unwrap_err();
        assert!(p.iter().any(|p| p.path == "sweep.vary[2].values[0]" && p.rule.contains("SW9")), "{p:?}");
        // A path every value fails on is the paths' problem, said once; a value of its own
        // stays with that value.
        let vary = SweepParam::from_cli("nodes.SW9.algorithm=erica,eprca,debra").unwrap();
        let p = Plan::new(&doc(), &[vary], None).unwrap_err();
        let about_sw9: Vec<_> = p.iter().filter(|p| p.rule.contains("SW9")).collect();
        assert_eq!(about_sw9.len(), 1, "{p:?}");
        assert_eq!(about_sw9[0].path, "sweep.vary[2].paths");
        assert!(about_sw9[0].rule.starts_with("every value makes the scenario invalid"), "{p:?}");
        assert!(!about_sw9[0].rule.contains("--set"), "a block's path is no --set option: {p:?}");
        let mut d = doc();
        d["sweep"]["vary"][0]["values"] = serde_json::json!([7, 8]);
        let p = Plan::new(&d, &[], None).unwrap_err();
        let paths: Vec<_> = p.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(paths, ["sweep.vary[0].values[0]", "sweep.vary[0].values[1]"], "{p:?}");
        let mut d = doc();
        d["sweep"]["vary"][1]["values"] = serde_json::json!([]);
        let p = Plan::new(&d, &[], None).unwrap_err();
        assert!(p.iter().any(|p| p.path == "sweep.vary[1].values"), "{p:?}");
        let p = Plan::new(&doc(), &[], Some(0)).unwrap_err();
        assert!(p.iter().any(|p| p.path == "sweep.seeds"), "{p:?}");
        let mut d = doc();
        d["sweep"]["metrics"] = serde_json::json!(["jain_index", "port.SW1->D1.dropped_cells", "conn.C9.lost_cells"]);
        let p = Plan::new(&d, &[], None).unwrap_err();
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].path, "sweep.metrics[2]");
        let mut d = doc();
        d["sweep"]["colour"] = serde_json::json!(1);
        assert!(Plan::new(&d, &[], None).unwrap_err()[0].rule.contains(r#"unknown field "colour""#));
    }
    #[test]
    fn seeds_that_would_pass_the_largest_seed_are_refused_not_wrapped() {
        let mut doc = doc();
        doc["run"]["seed"] = serde_json::json!(u64::MAX - 1);
        assert!(Plan::new(&doc, &[], Some(2)).is_ok(), "u64::MAX - 1 and u64::MAX");
        let p = Plan::new(&doc, &[], Some(3)).err().expect("a third seed would wrap to 0");
        assert!(p.iter().any(|p| p.path == "sweep.seeds" && p.rule.contains("pass the largest seed")), "{p:?}");
    }

    #[test]
    fn a_cli_parameter_replaces_the_file_parameter_of_the_same_column() {
        let extra = SweepParam::from_cli("nodes.SW1.params.target_utilization=0.5,0.6").unwrap();
        let plan = Plan::new(&doc(), &[extra], Some(1)).unwrap();
        assert_eq!(plan.params.len(), 2);
        assert_eq!(plan.params[0].values, vec![serde_json::json!(0.5), serde_json::json!(0.6)]);
        assert_eq!(plan.len(), 4);
    }

    /// A varied `run.seed` is each point's first seed, as `abrsim run --set run.seed=…` would
    /// take it: points 1 and 2 with two seeds each run 1, 2 and 2, 3.
    #[test]
    fn a_varied_run_seed_is_its_points_first_seed() {
        let extra = SweepParam::from_cli("run.seed=1,2").unwrap();
        let mut d = doc();
        d["sweep"]["vary"] = serde_json::json!([]);
        let plan = Plan::new(&d, &[extra], Some(2)).unwrap();
        let seeds: Vec<u64> = (0..plan.len()).map(|i| plan.run(i).seed).collect();
        assert_eq!(seeds, [1, 2, 2, 3]);
        for i in 0..plan.len() {
            assert_eq!(plan.scenario_doc(i)["run"]["seed"], serde_json::json!(plan.run(i).seed), "run {i}");
        }
    }

    #[test]
    fn a_parameter_may_not_take_the_name_of_a_row_column() {
        for name in ["seed", "digest", "jain_index", "conn.C1.mean_rate_mbps"] {
            let mut d = doc();
            d["sweep"]["vary"][1]["name"] = serde_json::json!(name);
            let p = Plan::new(&d, &[], None).unwrap_err();
            assert!(
                p.iter().any(|p| p.path == "sweep.vary[1].name" && p.rule.contains("a column of every row")),
                "{name}: {p:?}"
            );
        }
    }

    /// The plan reads its block apart from the scenario, and refuses a list where an object
    /// belongs as the scenario does: `[[…], 2]` was read by position as `{ "vary": …, "seeds": 2 }`.
    #[test]
    fn a_sweep_block_or_parameter_given_as_a_list_is_refused() {
        let vary = serde_json::json!([{"paths": ["run.seed"], "values": [1, 2]}]);
        let param = serde_json::json!(["x", ["run.seed"], null, [1, 2]]);
        for (block, path) in
            [(serde_json::json!([vary, 2]), "sweep"), (serde_json::json!({"vary": [param]}), "sweep.vary[0]")]
        {
            let mut d = doc();
            d["sweep"] = block;
            let p = Plan::new(&d, &[], None).unwrap_err();
            assert!(p.len() == 1 && p[0].path == path && p[0].rule.contains("not a list"), "{p:?}");
        }
    }

    /// A row has exactly the header's summary columns, in order, whatever the run.
    #[test]
    fn rows_have_the_columns_of_the_header() {
        let plan = Plan::new(&doc(), &[], None).unwrap();
        let scenario = crate::scenario::from_value(plan.scenario_doc(0)).unwrap();
        let header = plan.header(&scenario);
        let mut sim = crate::sim::Simulation::new(scenario.clone());
        sim.run_to_end();
        let row = row(&crate::metrics::summarize(&sim), &scenario);
        let names: Vec<&str> = row.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, header[3..].iter().map(|s| s.as_str()).collect::<Vec<_>>());
        let get = |k: &str| row.iter().find(|(n, _)| n == k).unwrap().1.clone();
        assert!(get("conn.C1.mean_rate_mbps").as_f64().unwrap() > 0.0);
        assert_eq!(get("lost_cells"), get("conn.C1.lost_cells"));
        let util = get("link.L2.mean_utilization").as_f64().unwrap();
        assert!((get("link.L2.throughput_mbps").as_f64().unwrap() - util * 155.52).abs() < 1e-9);
        assert!(get("digest").is_string());
    }
}
