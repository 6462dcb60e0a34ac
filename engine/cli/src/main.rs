//! `abrsim`: runs ABR Lab scenarios natively (batch runs, sweeps, benchmarks).
//!
//! Exit status: 0 on success, 2 on bad input (with a message naming the field and the rule).

use abr_sim::{catalogue, metrics, scenario, sim, time};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "abrsim", version, about = "Run ABR Lab scenarios natively")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario and print its summary as JSON.
    Run {
        /// Scenario file (JSON, see scenarios/).
        scenario: PathBuf,
        /// Override a scenario field: PATH=VALUE, PATH dot-separated, list elements by id
        /// (e.g. nodes.SW1.params.target_utilization=0.95). Repeatable.
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
        /// Run every switch with this algorithm.
        #[arg(long)]
        algorithm: Option<String>,
        /// Simulated time to run (ms).
        #[arg(long, allow_negative_numbers = true)]
        duration_ms: Option<f64>,
        /// Seed of the random processes.
        #[arg(long, allow_negative_numbers = true, value_parser = whole_number::<u64>)]
        seed: Option<u64>,
        /// Start of the steady-state window (ms); default: the scenario's, else the last third.
        #[arg(long, allow_negative_numbers = true)]
        steady_from_ms: Option<f64>,
        /// Write every sampled series to this CSV file (a time column, one column per series).
        #[arg(long, value_name = "FILE")]
        series_csv: Option<PathBuf>,
        /// Write every RM-cell event to this CSV file (time_us, connection, rm_seq, node,
        /// direction, er_in_mbps, er_out_mbps, ccr_mbps, ci, ni, by).
        #[arg(long, value_name = "FILE")]
        rm_trace: Option<PathBuf>,
    },
    /// Check scenario files; print every problem with its JSON path.
    Validate {
        #[arg(required = true)]
        scenarios: Vec<PathBuf>,
    },
    /// Print the parameter catalogue (algorithms and TM 4.0 source parameters) as JSON.
    Algorithms {
        /// Print it as Markdown tables instead (docs/parameters.md is made this way).
        #[arg(long)]
        markdown: bool,
    },
    /// Run every library scenario (under each of several algorithms) and write one table of
    /// rates against shares, fairness, utilisation, queues, loss and convergence.
    Report {
        /// Scenario files (default: scenarios/*.json).
        scenarios: Vec<PathBuf>,
        /// Comma-separated algorithm ids to run every switch with, one run each (default: the
        /// algorithms the files set). A switch that already runs one keeps the file's settings
        /// of it; the others run it at its defaults.
        #[arg(long, value_delimiter = ',')]
        algorithms: Vec<String>,
        /// Folder for report.md, report.csv and reference.csv (the published figures beside ours).
        #[arg(long, default_value = "report")]
        out: PathBuf,
    },
    /// Run a sweep: the file's `sweep` block and/or --vary parameters over a grid, each point
    /// with several seeds; print one row per run (varied values, seed, every summary column).
    Sweep {
        /// Scenario file (JSON), with or without a `sweep` block.
        scenario: PathBuf,
        /// Vary a field over values: PATH=V1,V2,… (a --set path; replaces the file's parameter
        /// of the same path); a value may be a range START:STEP:STOP (0.8:0.05:1). Repeatable:
        /// the grid is every combination.
        #[arg(long = "vary", value_name = "PATH=V1,V2,…")]
        vary: Vec<String>,
        /// Runs per point, with seeds run.seed, run.seed + 1, … (default: the file's, else 1).
        #[arg(long, allow_negative_numbers = true, value_parser = whole_number::<u32>)]
        seeds: Option<u32>,
        /// Override a scenario field for every run: PATH=VALUE. Repeatable.
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
        /// Run on this many threads (default: every core).
        #[arg(long, allow_negative_numbers = true, value_parser = whole_number::<usize>)]
        jobs: Option<usize>,
        /// Run only the I-th of N contiguous slices of the runs (1 ≤ I ≤ N), e.g. a Slurm array
        /// task: the shards' rows concatenated in order are the unsharded rows.
        #[arg(long, value_name = "I/N")]
        shard: Option<String>,
        /// `csv` (a header, then one line per run) or `json` (one object per line).
        #[arg(long, default_value = "csv")]
        format: String,
    },
    /// Measure speed: events per second and simulated time / wall time, one JSON line per file.
    Bench {
        /// Scenario files (default: scenarios/*.json and scenarios/bench/*.json).
        scenarios: Vec<PathBuf>,
        /// Repeat each run this many times and report the fastest.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole_number::<u32>)]
        repeat: u32,
        /// Simulate this long (ms) instead of each file's run.duration_ms (a longer run is timed
        /// with less noise; `npm run bench:peers` matches ns-2's simulated time so).
        #[arg(long, allow_negative_numbers = true)]
        duration_ms: Option<f64>,
    },
}

/// A count or a seed: clap's own message for `-1` or `2.5` ("invalid digit found in string")
/// says nothing of the rule; this one does (a count's own range is checked where it is used).
fn whole_number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    match text.trim().parse::<T>() {
        Ok(n) => Ok(n),
        Err(_) if text.trim().parse::<u128>().is_ok() => Err("is too large".into()),
        Err(_) => Err("must be a whole number, 0 or more".into()),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run { scenario, set, algorithm, duration_ms, seed, steady_from_ms, series_csv, rm_trace } => {
            let files = RunFiles { series_csv: series_csv.as_deref(), rm_trace: rm_trace.as_deref() };
            run(&scenario, &set, algorithm, duration_ms, seed, steady_from_ms, files)
        }
        Command::Validate { scenarios } => validate(&scenarios),
        Command::Algorithms { markdown } => {
            if markdown {
                print_out(&catalogue::catalogue_markdown())
            } else {
                print_out(&format!("{}\n", serde_json::to_string_pretty(&catalogue::catalogue()).expect("serialises")))
            }
        }
        Command::Bench { scenarios, repeat, duration_ms } => bench(scenarios, repeat, duration_ms),
        Command::Sweep { scenario, vary, seeds, set, jobs, shard, format } => {
            sweep(&scenario, &vary, seeds, &set, jobs, shard.as_deref(), &format)
        }
        Command::Report { scenarios, algorithms, out } => report(scenarios, &algorithms, &out),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::from(2)
        }
    }
}

/// Writes `text` to stdout. A reader that has gone (`abrsim run … | head`) ends the command
/// quietly, with status 0, as `head` asked, where `println!` would panic; any other failure
/// (a full disk) is an error naming stdout.
fn print_out(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(stdout_error)
}

/// The error of a failed write to stdout; a closed pipe exits at once (see [`print_out`]).
fn stdout_error(e: std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    format!("error: cannot write to stdout: {e}")
}

/// Reads a scenario file into JSON, naming the file in any error.
fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("error: cannot read {}: {e}", path.display()))?;
    scenario::parse_json(&text).map_err(|p| format!("error: {}: {p}", path.display()))
}

fn problems_message(path: &Path, problems: &[scenario::Problem]) -> String {
    let mut msg = format!("error: {} is not a valid scenario:", path.display());
    for p in problems {
        msg.push_str(&format!("\n  {p}"));
    }
    msg
}

/// Applies `--set` overrides in order; what one took away besides what it names (the recorded
/// changes of a switch's old algorithm, a parameter an earlier `--set` gave) is said on stderr.
fn apply_overrides(doc: &mut serde_json::Value, overrides: &[String]) -> Result<(), String> {
    let mut applied = scenario::Overrides::default();
    for o in overrides {
        for note in applied.apply(doc, o).map_err(|e| format!("error: {e}"))? {
            eprintln!("note: {note}");
        }
    }
    Ok(())
}

fn load(path: &Path, overrides: &[String]) -> Result<scenario::Scenario, String> {
    load_doc(path, overrides).map(|(scenario, _)| scenario)
}

/// [`load`], with the document the scenario was read from (the file with the overrides).
fn load_doc(path: &Path, overrides: &[String]) -> Result<(scenario::Scenario, serde_json::Value), String> {
    let mut doc = read_json(path)?;
    apply_overrides(&mut doc, overrides)?;
    let read = scenario::from_value(doc.clone()).map_err(|problems| {
        // Said to be the command's doing when it changed the file.
        let msg = problems_message(path, &scenario::Problem::all_named(problems, &doc));
        if overrides.is_empty() {
            msg
        } else {
            msg.replacen(" is not a valid scenario:", " is not a valid scenario with the command's changes to it:", 1)
        }
    })?;
    Ok((read, doc))
}

/// The one rule for a `sweep` block with problems: it never stops the scenario itself from
/// running (`run` and the lab run it as it is), every reader says its problems (`run` and the
/// lab's import warn), and what would use it refuses (`sweep`, and `validate`, which checks the
/// whole file). The warning, or None when the block is absent or valid.
fn sweep_block_warning(path: &Path, doc: &serde_json::Value) -> Option<String> {
    doc.get("sweep")?;
    let problems = abr_sim::sweep::Plan::new(doc, &[], None).err()?;
    let mut msg = format!(
        "warning: {}: its sweep block has problems (this run does not use it; `abrsim sweep` refuses it until they are mended):",
        path.display()
    );
    for p in scenario::Problem::all_named(problems, doc) {
        msg.push_str(&format!("\n  {p}"));
    }
    Some(msg)
}

/// What `abrsim run` writes besides the summary.
struct RunFiles<'a> {
    series_csv: Option<&'a Path>,
    rm_trace: Option<&'a Path>,
}

fn run(
    path: &Path,
    set: &[String],
    algorithm: Option<String>,
    duration_ms: Option<f64>,
    seed: Option<u64>,
    steady_from_ms: Option<f64>,
    files: RunFiles,
) -> Result<(), String> {
    let mut overrides: Vec<String> = Vec::new();
    if let Some(d) = duration_ms {
        abr_sim::fields::DURATION_MS.check(d).map_err(|rule| format!("error: --duration-ms: {rule}"))?;
        overrides.push(format!("run.duration_ms={d}"));
    }
    if let Some(s) = seed {
        overrides.push(format!("run.seed={s}"));
    }
    if let Some(alg) = &algorithm {
        let doc = read_json(path)?;
        let switches = doc["nodes"].as_array().map(|nodes| {
            nodes
                .iter()
                .filter(|n| n["kind"] == "switch")
                .filter_map(|n| n["id"].as_str().map(str::to_string))
                .collect::<Vec<_>>()
        });
        for id in switches.unwrap_or_default() {
            overrides.push(format!("nodes.{id}.algorithm={}", serde_json::Value::String(alg.clone())));
            // Parameters of the previous algorithm do not apply to the new one.
            overrides.push(format!("nodes.{id}.params={{}}"));
        }
    }
    if let Some(t) = steady_from_ms {
        abr_sim::fields::STEADY_FROM_MS.check(t).map_err(|rule| format!("error: --steady-from-ms: {rule}"))?;
        // Past the run's end (as the other options leave it), the window is the option's fault,
        // not the file's.
        let mut doc = read_json(path)?;
        for o in overrides.iter().chain(set) {
            let _ = scenario::apply_override(&mut doc, o); // a bad one is reported by `load`
        }
        if let Some(d) = doc["run"]["duration_ms"].as_f64().filter(|&d| t > d) {
            return Err(format!("error: --steady-from-ms = {t} must be between 0 and the run's duration_ms = {d}"));
        }
        overrides.push(format!("run.steady_from_ms={t}"));
    } else if let Some(d) = duration_ms {
        // A shorter run than the file's: its steady-state window may no longer fit (the file's
        // window, or the one --set gives it).
        let mut doc = read_json(path)?;
        for o in set {
            let _ = scenario::apply_override(&mut doc, o); // a bad one is reported by `load`
        }
        if let Some(t) = doc["run"]["steady_from_ms"].as_f64().filter(|&t| t > d) {
            eprintln!(
                "note: --duration-ms {d} ends the run before the file's run.steady_from_ms ({t} ms): \
                 the steady-state window is the run's last third (--steady-from-ms sets another)"
            );
            overrides.push("run.steady_from_ms=null".into());
        }
    }
    if let Some(d) = duration_ms {
        // A shorter run than the file's: changes after its end would be refused as outside the
        // run; they are left out, as a steady window that no longer fits is, with a note.
        let mut doc = read_json(path)?;
        for o in set {
            let _ = scenario::apply_override(&mut doc, o); // a bad one is reported by `load`
        }
        if let Some(changes) = doc["changes"].as_array() {
            let (kept, later): (Vec<_>, Vec<_>) =
                changes.iter().cloned().partition(|c| c["at_ms"].as_f64().is_none_or(|t| t <= d));
            if !later.is_empty() {
                let times: Vec<String> =
                    later.iter().filter_map(|c| c["at_ms"].as_f64()).map(|t| t.to_string()).collect();
                eprintln!(
                    "note: --duration-ms {d} ends the run before {} of the file's changes (at {} ms): they are left out",
                    later.len(),
                    times.join(", ")
                );
                overrides.push(format!("changes={}", serde_json::Value::Array(kept)));
            }
        }
    }
    overrides.extend(set.iter().cloned());
    let (scenario, doc) = load_doc(path, &overrides)?;
    if let Some(warning) = sweep_block_warning(path, &doc) {
        eprintln!("{warning}");
    }
    let started = Instant::now();
    let mut sim = sim::Simulation::new(scenario);
    run_writing(&mut sim, files)?;
    let wall_ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut summary = metrics::summarize(&sim);
    summary.wall_ms = wall_ms;
    for note in &summary.notes {
        eprintln!("note: {note}");
    }
    print_out(&format!("{}\n", serde_json::to_string_pretty(&summary).expect("serialises")))
}

/// Events run between two drains of the RM-cell trace: each event records at most a few RM-cell
/// events, so a buffer of `TRACE_CAPACITY` never fills between drains.
const TRACE_SLICE_EVENTS: u64 = 100_000;
const TRACE_CAPACITY: usize = 1 << 20;

/// An open output file and where it goes (for the error message).
struct Out<'a> {
    path: &'a Path,
    w: std::io::BufWriter<std::fs::File>,
}

impl<'a> Out<'a> {
    fn create(path: &'a Path, header: &str) -> Result<Self, String> {
        let fail = |e: std::io::Error| format!("error: cannot write {}: {e}", path.display());
        let mut w = std::io::BufWriter::new(std::fs::File::create(path).map_err(fail)?);
        writeln!(w, "{header}").map_err(fail)?;
        Ok(Out { path, w })
    }

    fn line(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.w, "{text}").map_err(|e| format!("error: cannot write {}: {e}", self.path.display()))
    }

    fn finish(mut self) -> Result<(), String> {
        self.w.flush().map_err(|e| format!("error: cannot write {}: {e}", self.path.display()))
    }
}

/// Runs to the end, writing every sample row (`--series-csv`) and every RM-cell event
/// (`--rm-trace`) as they come: a long run's rows need not fit in memory (the history the
/// engine keeps is bounded), and the trace buffer is drained before it fills.
fn run_writing(sim: &mut sim::Simulation, files: RunFiles) -> Result<(), String> {
    use abr_sim::trace::{RmRecord, CSV_COLUMNS};
    let mut series = match files.series_csv {
        Some(path) => {
            let header: Vec<String> = std::iter::once("time_ms".to_string())
                .chain(sim.rec().meta.iter().map(|m| {
                    // A ratio has no unit: its column is the bare id, not `id ()`.
                    if m.unit.is_empty() {
                        m.id.clone()
                    } else {
                        format!("{} ({})", m.id, m.unit)
                    }
                }))
                .collect();
            sim.stream_samples();
            Some(Out::create(path, &header.join(","))?)
        }
        None => None,
    };
    let mut trace = match files.rm_trace {
        Some(path) => {
            sim.set_rm_trace(TRACE_CAPACITY);
            Some(Out::create(path, &CSV_COLUMNS.join(","))?)
        }
        None => None,
    };
    if series.is_none() && trace.is_none() {
        sim.run_to_end();
        return Ok(());
    }
    let width = sim.rec().width();
    while !sim.done() {
        sim.advance(sim.end(), TRACE_SLICE_EVENTS);
        if let Some(out) = &mut series {
            for row in sim.take_samples().chunks_exact(width) {
                let cells: Vec<String> =
                    row.iter().map(|v| if v.is_nan() { String::new() } else { v.to_string() }).collect();
                out.line(&cells.join(","))?;
            }
        }
        if let Some(out) = &mut trace {
            for e in sim.rm_trace().take() {
                out.line(&RmRecord::new(&e, &sim.net).csv_line())?;
            }
        }
    }
    assert_eq!(sim.rm_trace().dropped(), 0, "the trace buffer holds a slice's events");
    series.map_or(Ok(()), Out::finish)?;
    trace.map_or(Ok(()), Out::finish)
}

fn validate(paths: &[PathBuf]) -> Result<(), String> {
    let mut failed = Vec::new();
    for path in paths {
        // A sweep block is checked value by value, as `abrsim sweep` would before running (the
        // whole file is asked about: see `sweep_block_warning` for the rule).
        let checked = read_json(path).and_then(|doc| {
            let s = scenario::from_value(doc.clone())
                .map_err(|p| problems_message(path, &scenario::Problem::all_named(p, &doc)))?;
            if s.sweep.is_some() {
                abr_sim::sweep::Plan::new(&doc, &[], None)
                    .map_err(|p| problems_message(path, &scenario::Problem::all_named(p, &doc)))?;
            }
            Ok(s)
        });
        match checked {
            Ok(s) => {
                print_out(&format!("ok: {} ({})\n", path.display(), s.id))?;
                // Valid, but with something to know before running it (on stderr, as `run`'s).
                for note in abr_sim::validate::notes(&s) {
                    eprintln!("note: {}: {note}", path.display());
                }
            }
            Err(msg) => failed.push(msg),
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join("\n"))
    }
}

fn library_files() -> Vec<PathBuf> {
    json_files(&["scenarios", "scenarios/bench"])
}

fn json_files(dirs: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in dirs {
        if let Ok(entries) = std::fs::read_dir(dir) {
            let mut v: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect();
            v.sort();
            files.extend(v);
        }
    }
    files
}

fn bench(mut paths: Vec<PathBuf>, repeat: u32, duration_ms: Option<f64>) -> Result<(), String> {
    if repeat == 0 {
        return Err("error: --repeat 0: give at least 1".into());
    }
    if let Some(d) = duration_ms {
        abr_sim::fields::DURATION_MS.check(d).map_err(|rule| format!("error: --duration-ms: {rule}"))?;
    }
    if paths.is_empty() {
        paths = library_files();
        if paths.is_empty() {
            return Err("error: no scenarios given and no scenarios/*.json here (run from the repository root)".into());
        }
    }
    for path in &paths {
        // Reading, parsing and validating the file, then building its network: both should
        // grow about linearly with its size (the scale-* benchmarks check).
        let mut overrides = Vec::new();
        if let Some(d) = duration_ms {
            overrides.push(format!("run.duration_ms={d}"));
            // A shorter run than the file's may end before its steady-state window starts;
            // a benchmark reads no summary, so the window goes (as `run` lets it, with a note).
            if read_json(path)?["run"]["steady_from_ms"].as_f64().is_some_and(|t| t > d) {
                overrides.push("run.steady_from_ms=null".to_string());
            }
        }
        let started = Instant::now();
        let scenario = load(path, &overrides)?;
        let validate_ms = started.elapsed().as_secs_f64() * 1000.0;
        let mut best = f64::INFINITY;
        let mut build_ms = f64::INFINITY;
        let mut events = 0;
        let mut sim_ms = 0.0;
        for _ in 0..repeat {
            let started = Instant::now();
            let mut sim = sim::Simulation::new(scenario.clone());
            let built = started.elapsed().as_secs_f64();
            sim.run_to_end();
            // Events per second count the event loop only, not the build.
            best = best.min(started.elapsed().as_secs_f64() - built);
            build_ms = build_ms.min(built * 1000.0);
            events = sim.events();
            sim_ms = time::to_ms(sim.now());
        }
        let line = serde_json::json!({
            "scenario": scenario.id,
            "runtime": "native",
            "events": events,
            "sim_ms": sim_ms,
            "validate_ms": validate_ms,
            "build_ms": build_ms,
            "wall_ms": best * 1000.0,
            "events_per_s": events as f64 / best,
            "sim_over_wall": sim_ms / 1000.0 / best,
        });
        print_out(&format!("{line}\n"))?;
    }
    Ok(())
}

/// `abrsim sweep`: checks the whole plan first, then runs the shard's runs on `jobs` threads
/// and prints their rows in run order as they complete (a failed run's row says why).
fn sweep(
    path: &Path,
    vary: &[String],
    seeds: Option<u32>,
    set: &[String],
    jobs: Option<usize>,
    shard: Option<&str>,
    format: &str,
) -> Result<(), String> {
    use abr_sim::sweep::{parse_shard, row, Plan};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;
    let csv = match format {
        "csv" => true,
        "json" => false,
        other => return Err(format!("error: --format '{other}': expected csv or json")),
    };
    let (shard_i, shard_n) = shard.map(parse_shard).transpose().map_err(|e| format!("error: {e}"))?.unwrap_or((1, 1));
    if jobs == Some(0) {
        return Err("error: --jobs 0: give at least 1".into());
    }
    let mut doc = read_json(path)?;
    apply_overrides(&mut doc, set)?;
    let extra = vary
        .iter()
        .map(|v| abr_sim::scenario::SweepParam::from_cli(v))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("error: {e}"))?;
    // Two options for one field: the later would silently replace the earlier's values.
    for (j, p) in extra.iter().enumerate() {
        if let Some(i) = extra[..j].iter().position(|q| q.column() == p.column() || q.paths == p.paths) {
            return Err(format!(
                "error: --vary '{}' and --vary '{}' both vary {}: give its values in one --vary",
                vary[i],
                vary[j],
                p.column()
            ));
        }
    }
    let plan = Plan::new(&doc, &extra, seeds).map_err(|p| {
        let (problems, ours) = sweep_option_problems(scenario::Problem::all_named(p, &doc), &doc, vary, &extra, seeds);
        let msg = problems_message(path, &problems);
        if ours {
            // `--seeds 0` is no change to the scenario: the sweep the command asks is what fails.
            msg.replacen(" is not a valid scenario:", " cannot be swept as the command asks:", 1)
        } else if !set.is_empty() {
            msg.replacen(" is not a valid scenario:", " is not a valid scenario with the command's changes to it:", 1)
        } else {
            msg
        }
    })?;
    for note in &plan.notes {
        eprintln!("note: {note}");
    }
    let base = scenario::from_value(plan.scenario_doc(0))
        .map_err(|p| problems_message(path, &scenario::Problem::all_named(p, &doc)))?;
    let header = plan.header(&base);
    let runs = plan.shard(shard_i, shard_n);
    let jobs =
        jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).min(runs.len().max(1));

    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let write = |out: &mut dyn Write, line: String| writeln!(out, "{line}").map_err(stdout_error);
    if csv {
        write(&mut out, header.iter().map(|h| csv_field(h)).collect::<Vec<_>>().join(","))?;
    }
    let next = AtomicUsize::new(runs.start);
    let (tx, rx) = mpsc::channel::<(usize, Vec<(String, serde_json::Value)>)>();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..jobs {
            let (tx, next, plan, end) = (tx.clone(), &next, &plan, runs.end);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= end {
                    break;
                }
                let result = scenario::from_value(plan.scenario_doc(i)).map(|s| {
                    let mut sim = sim::Simulation::new(s.clone());
                    sim.run_to_end();
                    row(&metrics::summarize(&sim), &s)
                });
                let cells = result.unwrap_or_else(|p| {
                    let why = p.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; ");
                    vec![("error".to_string(), serde_json::json!(why))]
                });
                if tx.send((i, cells)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Rows leave in run order: completed ones wait here for their predecessors.
        let mut waiting = std::collections::BTreeMap::new();
        let mut due = runs.start;
        for (i, cells) in rx {
            waiting.insert(i, cells);
            while let Some(cells) = waiting.remove(&due) {
                let run = plan.run(due);
                let line = if csv {
                    sweep_csv_line(&header, &plan, &run, &cells)
                } else {
                    sweep_json_line(&plan, &run, cells)
                };
                write(&mut out, line)?;
                due += 1;
            }
        }
        Ok(())
    })?;
    out.flush().map_err(stdout_error)
}

/// A sweep's problems named as the user gave them: a parameter that `--vary` put (or replaced)
/// at `sweep.vary[i]` by that option, and the seeds by `--seeds`, not by a place in a `sweep`
/// block the file may not even have. Also says whether any problem was the options' doing.
fn sweep_option_problems(
    problems: Vec<scenario::Problem>,
    doc: &serde_json::Value,
    vary: &[String],
    extra: &[scenario::SweepParam],
    seeds: Option<u32>,
) -> (Vec<scenario::Problem>, bool) {
    // The file's own parameters, as the plan merged the options into them (a broken block
    // has none: its problems are the file's).
    let mut params = doc
        .get("sweep")
        .and_then(|b| scenario::read::<scenario::Sweep>(b, "sweep").ok())
        .map_or_else(Vec::new, |s| s.vary);
    let slots = abr_sim::sweep::merge_vary(&mut params, extra);
    let mut ours = false;
    let problems = problems
        .into_iter()
        .map(|p| {
            // The last option to take a place is the one whose values it holds.
            let option = slots.iter().zip(vary).rev().find_map(|(slot, spec)| {
                let rest = p.path.strip_prefix(&format!("sweep.vary[{slot}]"))?;
                let value = rest.strip_prefix(".values[").and_then(|r| r.strip_suffix(']'));
                Some(match value.and_then(|j| j.parse::<usize>().ok()) {
                    Some(j) => format!("--vary '{spec}', value {}", j + 1),
                    None => format!("--vary '{spec}'"),
                })
            });
            let option = option.or_else(|| (seeds.is_some() && p.path == "sweep.seeds").then(|| "--seeds".to_string()));
            match option {
                Some(path) => {
                    ours = true;
                    scenario::Problem { path, at: None, ..p }
                }
                None => p,
            }
        })
        .collect();
    (problems, ours)
}

/// Free text in a Markdown table cell: a bar would end the cell, a line break the row.
fn md_text(s: &str) -> String {
    s.replace('|', "\\|").replace(['\r', '\n'], " ")
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv_value(v: &serde_json::Value) -> String {
    csv_field(&abr_sim::sweep::value_text(v))
}

fn sweep_csv_line(
    header: &[String],
    plan: &abr_sim::sweep::Plan,
    run: &abr_sim::sweep::Run,
    cells: &[(String, serde_json::Value)],
) -> String {
    let n = plan.params.len();
    let mut fields: Vec<String> = run.values.iter().map(csv_value).collect();
    fields.push(run.seed.to_string());
    let error = cells.iter().find(|(k, _)| k == "error");
    for name in &header[n + 1..] {
        let v = cells.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        fields.push(match (v, error, name.as_str()) {
            (Some(v), _, _) => csv_value(v),
            // A failed run says why in its digest column, the last.
            (None, Some((_, why)), "digest") => {
                csv_value(&serde_json::json!(format!("error: {}", why.as_str().unwrap_or(""))))
            }
            _ => String::new(),
        });
    }
    fields.join(",")
}

fn sweep_json_line(
    plan: &abr_sim::sweep::Plan,
    run: &abr_sim::sweep::Run,
    cells: Vec<(String, serde_json::Value)>,
) -> String {
    let mut o = serde_json::Map::new();
    for (p, v) in plan.params.iter().zip(&run.values) {
        o.insert(p.column(), v.clone());
    }
    o.insert("seed".into(), serde_json::json!(run.seed));
    for (k, v) in cells {
        o.insert(k, v);
    }
    serde_json::Value::Object(o).to_string()
}

/// One row of the report: a group of connections in one run.
struct ReportRow {
    scenario: String,
    algorithm: String,
    group: String,
    connections: usize,
    rate_mbps: Option<f64>,
    share_mbps: Option<f64>,
    max_min_mbps: Option<f64>,
    jain_index: Option<f64>,
    bottleneck_utilization: Option<f64>,
    max_queue_cells: u32,
    loss_ratio: f64,
    convergence_ms: Option<f64>,
    /// The part (0 to 1) of the steady window in which the judged rates met convergence's rule.
    on_target_fraction: Option<f64>,
}

fn report(mut paths: Vec<PathBuf>, algorithms: &[String], out: &Path) -> Result<(), String> {
    if paths.is_empty() {
        paths = json_files(&["scenarios"]);
        if paths.is_empty() {
            return Err("error: no scenarios given and no scenarios/*.json here (run from the repository root)".into());
        }
    }
    for a in algorithms {
        if abr_sim::algorithms::find(a).is_none() {
            return Err(format!("error: --algorithms: unknown algorithm '{a}'"));
        }
    }
    // What can be known before the runs (the library takes a while) is checked first: every
    // file reads and is valid, and the folder takes the three files.
    for path in &paths {
        load(path, &[])?;
    }
    std::fs::create_dir_all(out).map_err(|e| format!("error: cannot create {}: {e}", out.display()))?;
    for name in ["report.md", "report.csv", "reference.csv"] {
        let p = out.join(name);
        let existed = p.exists();
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&p)
            .map_err(|e| format!("error: cannot write {}: {e}", p.display()))?;
        if !existed {
            let _ = std::fs::remove_file(&p); // written whole once the runs are done
        }
    }
    let runs: Vec<Option<&String>> =
        if algorithms.is_empty() { vec![None] } else { algorithms.iter().map(Some).collect() };
    let mut rows = Vec::new();
    let mut figures: Vec<(String, String, abr_sim::reference::ReferenceRow)> = Vec::new();
    for path in &paths {
        for alg in &runs {
            let mut overrides = Vec::new();
            if let Some(a) = alg {
                let doc = read_json(path)?;
                let ethernet = doc.get("ethernet").is_some_and(|e| !e.is_null());
                let spec = abr_sim::algorithms::find(a).expect("checked above");
                if !spec.network.allows(ethernet) {
                    let kind = if ethernet { "an Ethernet" } else { "an ATM" };
                    eprintln!(
                        "note: {} is {kind} network, where {} does not run: skipped under it",
                        path.display(),
                        spec.name
                    );
                    continue;
                }
                for n in doc["nodes"].as_array().into_iter().flatten().filter(|n| n["kind"] == "switch") {
                    let id = n["id"].as_str().unwrap_or_default();
                    // A switch that already runs this algorithm keeps the file's settings of it
                    // (gfc1's ERICA+ its 2 ms target delay); another algorithm's settings do not
                    // apply, so the others run it at its defaults.
                    let runs = n["algorithm"].as_str().unwrap_or(abr_sim::algorithms::default_for(ethernet));
                    if runs != a.as_str() {
                        overrides.push(format!("nodes.{id}.algorithm=\"{a}\""));
                        overrides.push(format!("nodes.{id}.params={{}}"));
                    }
                }
            }
            let scenario = load(path, &overrides)?;
            let algorithm = match alg {
                Some(a) => a.to_string(),
                None => {
                    let mut ids: Vec<String> = scenario
                        .nodes
                        .iter()
                        .filter(|n| n.kind == abr_sim::scenario::NodeKind::Switch)
                        .map(|n| {
                            let default = abr_sim::algorithms::default_for(scenario.ethernet.is_some());
                            n.algorithm.clone().unwrap_or_else(|| default.into())
                        })
                        .collect();
                    ids.sort();
                    ids.dedup();
                    ids.join("+")
                }
            };
            let groups: Vec<String> =
                scenario.connections.iter().map(|c| c.group.clone().unwrap_or_else(|| c.id.clone())).collect();
            let mut sim = sim::Simulation::new(scenario);
            sim.run_to_end();
            let s = metrics::summarize(&sim);
            let sent: u64 = s.connections.iter().map(|c| c.sent_cells).sum();
            let lost: u64 = s.connections.iter().map(|c| c.lost_cells).sum();
            let bottleneck = s
                .links
                .iter()
                .filter_map(|l| l.mean_utilization)
                .fold(None, |m: Option<f64>, u| Some(m.map_or(u, |m| m.max(u))));
            let max_queue = s.ports.iter().map(|p| p.max_queue_cells).max().unwrap_or(0);
            figures.extend(s.reference.iter().map(|r| (s.scenario.clone(), algorithm.clone(), r.clone())));
            let mut seen = std::collections::BTreeSet::new();
            for g in groups.iter().filter(|g| seen.insert(g.as_str())) {
                let members: Vec<&metrics::ConnSummary> =
                    s.connections.iter().zip(&groups).filter(|(_, cg)| *cg == g).map(|(c, _)| c).collect();
                // Over the members that have the figure; none when none has (background traffic
                // has no share, a run too short for its window no mean rate).
                let mean = |f: &dyn Fn(&metrics::ConnSummary) -> Option<f64>| {
                    let values: Vec<f64> = members.iter().filter_map(|c| f(c)).collect();
                    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
                };
                rows.push(ReportRow {
                    scenario: s.scenario.clone(),
                    algorithm: algorithm.clone(),
                    group: g.clone(),
                    connections: members.len(),
                    rate_mbps: mean(&|c| c.mean_rate_mbps),
                    share_mbps: mean(&|c| c.target_share_mbps),
                    max_min_mbps: mean(&|c| c.fair_share_mbps),
                    jain_index: s.jain_index,
                    bottleneck_utilization: bottleneck,
                    max_queue_cells: max_queue,
                    loss_ratio: if sent > 0 { lost as f64 / sent as f64 } else { 0.0 },
                    convergence_ms: s.convergence_ms,
                    on_target_fraction: s.on_target_fraction,
                });
            }
        }
    }
    std::fs::create_dir_all(out).map_err(|e| format!("error: cannot create {}: {e}", out.display()))?;
    let opt = |v: Option<f64>, digits: usize| v.map_or(String::new(), |x| format!("{x:.digits$}"));
    // A rate: two decimals in Markdown ("–" if none), every digit in the CSV (empty if none).
    let dash = |v: Option<f64>| v.map_or("–".to_string(), |x| format!("{x:.2}"));
    let num = |v: Option<f64>| v.map_or(String::new(), |x| x.to_string());
    let mut md = String::from(
        "# ABR Lab report\n\nRates are means over each scenario's steady-state window (Mbps); *share* is the max-min share at the algorithms' target utilisation, *max-min* at full link capacity. Bottleneck utilisation is that of the busiest link; convergence is the first sample from which on no more than 1 % of the rates the network sets (ABR sources' ACR, Ethernet rate limits, ABR virtual paths' ACR) are more than 10 % from their share at target utilisation, as `abrsim run` reports `convergence_ms`; *on target* is the part of the steady window's samples in which they met that rule (`on_target_fraction`): how well they track a share that keeps moving, where convergence may never come.\n\n| scenario | algorithm | group | n | rate | share | rate/share | max-min | Jain | bottleneck util. | max queue (cells; frames on Ethernet) | loss ratio | convergence (ms) | on target (% of steady window) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut csv = String::from("scenario,algorithm,group,connections,rate_mbps,share_mbps,max_min_mbps,jain_index,bottleneck_utilization,max_queue_cells,loss_ratio,convergence_ms,on_target_fraction\n");
    for r in &rows {
        // One list of fields: (Markdown text, CSV text); the rate/share ratio is Markdown only.
        let ratio = match (r.rate_mbps, r.share_mbps) {
            (Some(rate), Some(share)) if share > 0.0 => format!("{:.3}", rate / share),
            _ => "–".into(),
        };
        let same = |v: String| (Some(v.clone()), Some(v));
        // Free text (a group label may hold a comma or a bar): quoted in the CSV, escaped in Markdown.
        let text = |v: &str| (Some(md_text(v)), Some(csv_field(v)));
        let fields = [
            text(&r.scenario),
            text(&r.algorithm),
            text(&r.group),
            same(r.connections.to_string()),
            (Some(dash(r.rate_mbps)), Some(num(r.rate_mbps))),
            (Some(dash(r.share_mbps)), Some(num(r.share_mbps))),
            (Some(ratio), None),
            (Some(dash(r.max_min_mbps)), Some(num(r.max_min_mbps))),
            (Some(opt(r.jain_index, 4)), Some(opt(r.jain_index, 6))),
            (Some(opt(r.bottleneck_utilization, 3)), Some(opt(r.bottleneck_utilization, 6))),
            same(r.max_queue_cells.to_string()),
            (Some(format!("{:.4}", r.loss_ratio)), Some(r.loss_ratio.to_string())),
            (Some(opt(r.convergence_ms, 1)), Some(opt(r.convergence_ms, 3))),
            (Some(percent_down(r.on_target_fraction)), Some(num(r.on_target_fraction))),
        ];
        let md_cells: Vec<&str> = fields.iter().filter_map(|(m, _)| m.as_deref()).collect();
        let csv_cells: Vec<&str> = fields.iter().filter_map(|(_, c)| c.as_deref()).collect();
        md.push_str(&format!("| {} |\n", md_cells.join(" | ")));
        csv.push_str(&format!("{}\n", csv_cells.join(",")));
    }
    let (fig_md, fig_csv) = figures_tables(&figures);
    md.push_str(&fig_md);
    let write = |name: &str, text: &str| {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("error: cannot write {}: {e}", p.display()))
    };
    write("report.md", &md)?;
    write("report.csv", &csv)?;
    write("reference.csv", &fig_csv)?;
    print_out(&format!(
        "wrote {} rows to {} and {}, and {} published figures beside ours to {}\n",
        rows.len(),
        out.join("report.md").display(),
        out.join("report.csv").display(),
        figures.len(),
        out.join("reference.csv").display()
    ))
}

/// A fraction in whole percent, rounded down as the lab's Result tab shows it (99.6 % of the
/// window is not all of it); "–" for none. A hair is added first, so that a fraction whose
/// product lands just below a whole number (0.29 × 100 = 28.999…) is not a percent short.
fn percent_down(v: Option<f64>) -> String {
    v.map_or("–".into(), |x| format!("{} %", (100.0 * x + 1e-9).floor()))
}

/// A relative difference in percent to one decimal, signed; one that rounds to nothing is
/// "0.0 %", neither "+0.0 %" nor "-0.0 %" (which would claim a direction it does not show).
fn signed_percent(x: f64) -> String {
    let shown = (1000.0 * x).round() / 10.0;
    if shown == 0.0 {
        "0.0 %".into()
    } else {
        format!("{shown:+.1} %")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_relative_difference_that_rounds_to_nothing_has_no_sign() {
        assert_eq!(super::signed_percent(0.0004), "0.0 %");
        assert_eq!(super::signed_percent(-0.0004), "0.0 %");
        assert_eq!(super::signed_percent(0.0006), "+0.1 %");
        assert_eq!(super::signed_percent(-0.125), "-12.5 %");
    }

    #[test]
    fn a_fraction_is_rounded_down_to_its_whole_percent_not_below() {
        assert_eq!(super::percent_down(Some(0.29)), "29 %"); // 100 × 0.29 is 28.999…
        assert_eq!(super::percent_down(Some(0.996)), "99 %");
        assert_eq!(super::percent_down(Some(1.0)), "100 %");
        assert_eq!(super::percent_down(None), "–");
    }
}

/// The published figures of every run beside ours: a Markdown section for report.md and the
/// text of reference.csv.
fn figures_tables(figures: &[(String, String, abr_sim::reference::ReferenceRow)]) -> (String, String) {
    let mut md = String::from(
        "\n## Published figures beside ours\n\nEach scenario's `reference`: the study's value, ours from the same run, ours − published (and relative to it), and whether that is within the figure's tolerance; a figure without one is marked, and a note below the table says why (the file's `no_tolerance_reason`), as in the lab's Result tab; so is one measured under another scheme than the run's switches run (the figure's `algorithm`), which is not judged.\n\n| scenario | algorithm | about | quantity | unit | published | ours | difference | relative | within tolerance | source |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut csv = String::from(
        "scenario,algorithm,about,quantity,unit,published,ours,difference,relative_difference,tolerance,within_tolerance,source,no_tolerance_reason,not_judged_note\n",
    );
    // One mark per distinct note, in the table's order, as the lab's published table marks them
    // (the verdict cell has room for a mark, not for the reason).
    let mut notes: Vec<String> = Vec::new();
    let mut mark = |note: String| {
        let i = notes.iter().position(|n| *n == note).unwrap_or_else(|| {
            notes.push(note);
            notes.len() - 1
        });
        no_tolerance_mark(i)
    };
    if figures.is_empty() {
        md.push_str("| (no scenario names published figures) |||||||||||\n");
    }
    let num = |v: Option<f64>| v.map_or(String::new(), |x| x.to_string());
    let short = |v: Option<f64>| {
        v.map_or("–".to_string(), |x| format!("{x:.4}").trim_end_matches('0').trim_end_matches('.').to_string())
    };
    let verdict = |v: Option<bool>| v.map_or(String::new(), |b| if b { "yes" } else { "no" }.to_string());
    for (scenario, algorithm, r) in figures {
        md.push_str(&format!(
            "| {scenario} | {algorithm} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            md_text(&r.about_label),
            r.quantity.name(),
            r.unit,
            short(Some(r.published)),
            short(r.ours),
            short(r.difference),
            r.relative_difference.map_or("–".into(), signed_percent),
            match (r.tolerance, r.no_tolerance_note.clone()) {
                // Measured under another scheme than this run's: no verdict, a note says why.
                (Some(_), _) if r.not_judged_note.is_some() => {
                    format!("not judged{}", mark(r.not_judged_note.clone().unwrap_or_default()))
                }
                // "–" when there is no value of ours to judge (no sample in the steady window).
                (Some(t), _) =>
                    format!("{} (±{:.0} %)", r.within_tolerance.map_or("–".into(), |w| verdict(Some(w))), 100.0 * t),
                (None, note) => format!("no tolerance{}", mark(note.unwrap_or_default())),
            },
            md_text(&r.source),
        ));
        let fields = [
            csv_field(scenario),
            csv_field(algorithm),
            csv_field(&r.about_label),
            r.quantity.name().to_string(),
            r.unit.to_string(),
            r.published.to_string(),
            num(r.ours),
            num(r.difference),
            num(r.relative_difference),
            num(r.tolerance),
            verdict(r.within_tolerance),
            csv_field(&r.source),
            csv_field(r.no_tolerance_reason.as_deref().unwrap_or_default()),
            csv_field(r.not_judged_note.as_deref().unwrap_or_default()),
        ];
        csv.push_str(&fields.join(","));
        csv.push('\n');
    }
    for (i, note) in notes.iter().enumerate() {
        md.push_str(&format!("\n{} {}\n", no_tolerance_mark(i), md_text(note)));
    }
    (md, csv)
}

/// The mark of the report's `i`-th note on figures without a tolerance: the lab's marks (`*`,
/// `†`, `‡`, `§`, then `(5)`, `(6)`, …), the star escaped for Markdown.
fn no_tolerance_mark(i: usize) -> String {
    match ["\\*", "†", "‡", "§"].get(i) {
        Some(m) => m.to_string(),
        None => format!("({})", i + 1),
    }
}
