//! The `abrsim` command line: output contract and bad-input handling.

use std::path::PathBuf;
use std::process::{Command, Output};

fn abrsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_abrsim")).args(args).current_dir(root()).output().expect("abrsim runs")
}

/// The repository's root, where `abrsim` runs in these tests.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A scenario file of the repository (`scenarios/…`), parsed.
fn scenario_doc(path: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(root().join(path)).unwrap()).unwrap()
}

/// A directory of one test's own files, removed when the test ends (passed or not).
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("abrsim-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// The path of `name` in it, as a command-line argument.
    fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }

    /// Writes `text` to `name` in it; its path.
    fn write(&self, name: &str, text: &str) -> String {
        std::fs::write(self.0.join(name), text).unwrap();
        self.path(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

#[test]
fn run_prints_the_summary_fields_users_rely_on() {
    let s = json(&abrsim(&["run", "scenarios/two-sources.json", "--duration-ms", "30"]));
    for key in
        ["jain_index", "convergence_ms", "events", "sim_ms", "wall_ms", "digest", "connections", "ports", "links"]
    {
        assert!(s.get(key).is_some(), "missing {key}");
    }
    let c = &s["connections"][0];
    for key in ["id", "mean_rate_mbps", "fair_share_mbps", "delivered_cells", "lost_cells"] {
        assert!(c.get(key).is_some(), "connection lacks {key}");
    }
    assert!(s["ports"][0].get("max_queue_cells").is_some() && s["ports"][0].get("mean_queue_cells").is_some());
    assert!(s["links"][0].get("mean_utilization").is_some());
    assert_eq!(s["sim_ms"], 30.0);
    // The steady window defaults to the last third.
    assert!((s["steady_from_ms"].as_f64().unwrap() - 20.0).abs() < 1e-9);
}

#[test]
fn set_steady_window_and_algorithm_flags_take_effect() {
    let s = json(&abrsim(&[
        "run",
        "scenarios/two-sources.json",
        "--set",
        "nodes.SW1.params.target_utilization=0.8",
        "--steady-from-ms",
        "50",
    ]));
    assert_eq!(s["steady_from_ms"], 50.0);
    let share = s["connections"][0]["fair_share_mbps"].as_f64().unwrap();
    assert!((share - 77.76).abs() < 1e-6, "max-min share of half the link, got {share}");
    let rate = s["connections"][0]["mean_rate_mbps"].as_f64().unwrap();
    // ERICA settles with its load factor between 1 and 1 + δ (δ = 0.1) of the new target.
    let target = 155.52 * 0.8 / 2.0;
    assert!((0.95 * target..=1.1 * target).contains(&rate), "rate {rate}");

    // A window past the run's end is the option's fault, and said so (with --duration-ms too).
    for args in [&["--steady-from-ms", "200"][..], &["--duration-ms", "40", "--steady-from-ms", "50"][..]] {
        let out = abrsim(&[&["run", "scenarios/two-sources.json"][..], args].concat());
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error: --steady-from-ms = ")
                && err.contains("must be between 0 and the run's duration_ms"),
            "{err}"
        );
    }

    let none = json(&abrsim(&["run", "scenarios/two-sources.json", "--algorithm", "none", "--duration-ms", "20"]));
    assert!(none["connections"][0]["lost_cells"].as_u64().unwrap() > 0, "no feedback: the buffer overflows");
}

#[test]
fn series_csv_has_a_time_column_and_one_column_per_series() {
    let dir = Scratch::new("csv");
    let file = dir.path("series.csv");
    json(&abrsim(&["run", "scenarios/two-sources.json", "--duration-ms", "5", "--series-csv", &file]));
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[0], "time_ms");
    assert!(header.iter().any(|h| h.starts_with("acr:C1")));
    assert!(header.iter().any(|h| h.starts_with("queue:SW1->SW2")));
    // A ratio has no unit, and its column no empty brackets.
    assert!(header.contains(&"loss_ratio:C1"), "{header:?}");
    assert!(header.iter().all(|h| !h.ends_with("()")), "{header:?}");
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 11, "0 to 5 ms every 500 µs");
    assert!(rows.iter().all(|r| r.split(',').count() == header.len()));
}

#[test]
fn rm_trace_csv_has_the_contract_columns_and_leaves_the_run_unchanged() {
    let dir = Scratch::new("rm-trace");
    let file = dir.path("trace.csv");
    let args = ["run", "scenarios/two-sources.json", "--duration-ms", "10"];
    let plain = json(&abrsim(&args));
    let traced = json(&abrsim(&[&args[..], &["--rm-trace", &file]].concat()));
    assert_eq!(traced["digest"], plain["digest"]);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "time_us,connection,rm_seq,node,direction,er_in_mbps,er_out_mbps,ccr_mbps,ci,ni,by"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.iter().all(|r| r.len() == 11));
    // C1's first RM cell leaves S1 at t = 0 with ER = PCR (the link rate) and is turned around at D1.
    assert_eq!(rows[0][..5], ["0", "C1", "0", "S1", "sent"]);
    assert!(rows.iter().any(|r| r[1] == "C1" && r[2] == "0" && r[3] == "D1" && r[4] == "turnaround"));
    let times: Vec<f64> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "in time order");

    let out = abrsim(&[&args[..], &["--rm-trace", "/nonexistent-dir/trace.csv"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent-dir/trace.csv"));
}

#[test]
fn bad_input_exits_2_naming_the_field_and_rule() {
    let out = abrsim(&["run", "scenarios/two-sources.json", "--set", "nodes.SW1.params.target_utilization=3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nodes[2] (SW1).params.target_utilization") && err.contains("between 0.1 and 1"), "{err}");
    assert!(err.contains("two-sources.json is not a valid scenario with the command's changes to it:"), "{err}");

    let out = abrsim(&["run", "scenarios/two-sources.json", "--set", "nodes.SW9.algorithm=erica"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no element with id 'SW9'"));

    let out = abrsim(&["run", "no/such/file.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));

    let out = abrsim(&["run", "scenarios/two-sources.json", "--algorithm", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown algorithm 'nope'"));
}

#[test]
fn a_file_that_is_json_but_no_object_is_named_as_such() {
    // serde's own words ("invalid length 0, expected struct Scenario with 17 elements") named
    // a Rust type, not the file's mistake.
    let dir = Scratch::new("shape");
    for (text, what) in [("null", "only null"), ("[]", "an array"), ("5", "a number"), ("\"x\"", "a string")] {
        let file = dir.write("s.json", text);
        let out = abrsim(&["run", &file]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("it holds {what}, not a scenario object")), "{text}: {err}");
        assert!(!err.contains("struct Scenario"), "{text}: {err}");
    }
}

#[test]
fn a_set_parameter_a_later_set_takes_away_is_said_on_stderr() {
    let args = |sets: &[&str]| {
        let mut a = vec!["run", "scenarios/two-sources.json", "--duration-ms", "5"];
        for s in sets {
            a.extend(["--set", s]);
        }
        String::from_utf8_lossy(&abrsim(&a).stderr).to_string()
    };
    let err = args(&["nodes.SW1.params.target_utilization=0.5", "nodes.SW1.algorithm=eprca"]);
    assert!(
        err.contains("note: nodes.SW1.params.target_utilization=0.5 is undone by nodes.SW1.algorithm=eprca: SW1 now runs EPRCA, which has no target_utilization"),
        "{err}"
    );
    let err = args(&["nodes.SW1.algorithm=erica_plus", "nodes.SW1.params.target_delay_us=500"]);
    assert!(!err.contains("undone"), "{err}");
}

#[test]
fn another_algorithm_drops_the_recorded_changes_it_has_no_parameter_for_and_says_so() {
    // A scenario recorded with live changes of ERICA's parameters, run with another algorithm:
    // the changes it cannot apply go (the run would otherwise be refused), said on stderr.
    let dir = Scratch::new("changes");
    let mut doc = scenario_doc("scenarios/two-sources.json");
    doc["changes"] = serde_json::json!([{ "at_ms": 10, "node": "SW1", "param": "delta", "value": 0.2 }]);
    let file = dir.write("recorded.json", &doc.to_string());
    let out = abrsim(&["run", &file, "--algorithm", "efci", "--duration-ms", "20"]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(json(&out)["connections"][0]["delivered_cells"].as_u64().unwrap() > 0);
    assert!(err.contains("note: SW1 now runs EFCI marking: its recorded change of delta at 10 ms is dropped"), "{err}");
    let out = abrsim(&["run", &file, "--set", "nodes.SW1.algorithm=ut", "--duration-ms", "20"]);
    assert!(json(&out)["sim_ms"] == 20.0);
    // A sweep over algorithms says it once for the value that drops it, before any row.
    let out = abrsim(&[
        "sweep",
        &file,
        "--vary",
        "nodes.SW1.algorithm=erica,efci",
        "--set",
        "run.duration_ms=20",
        "--format",
        "json",
    ]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{err}");
    assert_eq!(stdout(&out).lines().count(), 2, "both points run");
    let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("note:")).collect();
    assert_eq!(
        notes,
        ["note: with nodes.SW1.algorithm = efci: SW1 now runs EFCI marking: its recorded change of delta at 10 ms is dropped (EFCI marking has no such parameter)"],
        "{err}"
    );
}

#[test]
fn a_field_varied_by_two_options_is_refused_naming_both() {
    // The later one used to replace the earlier one's values without a word.
    let out = abrsim(&[
        "sweep",
        "scenarios/two-sources.json",
        "--vary",
        "nodes.SW1.algorithm=erica,ut",
        "--vary",
        "nodes.SW1.algorithm=eprca",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "--vary 'nodes.SW1.algorithm=erica,ut' and --vary 'nodes.SW1.algorithm=eprca' both vary nodes.SW1.algorithm"
        ),
        "{err}"
    );
}

#[test]
fn bench_refuses_zero_repeats() {
    // `--repeat 0` ran once all the same, as if asked for 1; --jobs 0 is refused, so is this.
    let out = abrsim(&["bench", "scenarios/two-sources.json", "--repeat", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--repeat 0: give at least 1"));
    assert!(out.stdout.is_empty());
}

#[test]
fn validate_checks_every_library_file() {
    let files: Vec<String> = std::fs::read_dir(root().join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let mut args = vec!["validate"];
    args.extend(files.iter().map(String::as_str));
    let out = abrsim(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.starts_with("ok:")).count(), files.len());
}

/// A valid file with a setting that changes nothing (FECN's `tag_interval_us` where no FECN
/// switch reads the tags) is still valid: `validate` says ok, exits 0, and notes the field and
/// the rule on stderr, as `run` does.
#[test]
fn validate_notes_a_tag_interval_no_fecn_switch_reads_without_refusing_the_file() {
    let scratch = Scratch::new("tag-interval");
    let mut doc = scenario_doc("scenarios/qcn-hotspot.json");
    doc["connections"][1]["params"] = serde_json::json!({ "tag_interval_us": 500 });
    let file = scratch.write("qcn-tagged.json", &doc.to_string());
    let note = format!(
        "note: {file}: connections[1] (F1).params.tag_interval_us: changes nothing, as F1 sends no tags: a flow \
         sends FECN's rate-discovery tags only when its route crosses a switch running FECN"
    );
    let out = abrsim(&["validate", &file]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with(&format!("ok: {file} (qcn-hotspot)")));
    assert!(err.starts_with(&note), "{err}");
    let out = abrsim(&["run", &file, "--duration-ms", "5"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr)
        .lines()
        .any(|l| l.starts_with("note: connections[1] (F1).params.tag_interval_us")));
    // The library file itself: nothing to say.
    let out = abrsim(&["validate", "scenarios/qcn-hotspot.json"]);
    assert_eq!((out.status.code(), String::from_utf8_lossy(&out.stderr).as_ref()), (Some(0), ""));
}

/// A file with a field of no meaning, text for a number and rule breaches is told all of them
/// at once, each with its path and the element's id, in the file's words.
#[test]
fn validate_names_every_problem_of_a_file_at_once() {
    let scratch = Scratch::new("every-problem");
    let mut doc = scenario_doc("scenarios/two-sources.json");
    doc["colour"] = serde_json::json!("red");
    doc["links"][0]["rate_mbps"] = serde_json::json!("fast");
    doc["nodes"][2]["params"] = serde_json::json!({ "target_utilization": 5 });
    doc["connections"][1]["to"] = serde_json::json!("D9");
    let file = scratch.write("bad.json", &doc.to_string());
    let out = abrsim(&["validate", &file]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for line in [
        "  colour: unknown field \"colour\" (the fields here: version, id,",
        "  links[0] (L1).rate_mbps: must be a number, not the text \"fast\"",
        "  nodes[2] (SW1).params.target_utilization: target_utilization = 5 is out of range",
        "  connections[1] (C2).to: no node has id 'D9'",
    ] {
        assert!(err.lines().any(|l| l.starts_with(line)), "{line:?} not in:\n{err}");
    }
    assert_eq!(err.lines().filter(|l| l.starts_with("  ")).count(), 4, "{err}");
}

#[test]
fn algorithms_prints_the_catalogue() {
    let c = json(&abrsim(&["algorithms"]));
    let erica = c["algorithms"].as_array().unwrap().iter().find(|a| a["id"] == "erica").expect("erica");
    let u = erica["params"].as_array().unwrap().iter().find(|p| p["name"] == "target_utilization").unwrap();
    for key in ["unit", "default", "min", "max", "meaning"] {
        assert!(u.get(key).is_some(), "param lacks {key}");
    }
    assert!(c["source_params"].as_array().unwrap().iter().any(|p| p["name"] == "icr_mbps"));
}

#[test]
fn docs_parameters_md_is_the_generated_catalogue() {
    let out = abrsim(&["algorithms", "--markdown"]);
    assert!(out.status.success());
    let committed = std::fs::read_to_string(root().join("docs/parameters.md")).expect("docs/parameters.md");
    assert!(
        committed == String::from_utf8_lossy(&out.stdout),
        "docs/parameters.md is stale: run `engine/target/release/abrsim algorithms --markdown > docs/parameters.md`"
    );
}

#[test]
fn report_writes_one_row_per_group_and_algorithm_in_markdown_and_csv() {
    let scratch = Scratch::new("report");
    let dir = &scratch.0;
    let out = abrsim(&[
        "report",
        "scenarios/two-sources.json",
        "scenarios/gfc1.json",
        "--algorithms",
        "erica,ut",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = std::fs::read_to_string(dir.join("report.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    // two-sources: 2 groups (C1, C2); gfc1: 6 groups (A–F); each under 2 algorithms.
    assert_eq!(rows.len(), (2 + 6) * 2);
    let gfc_ut_f = rows.iter().find(|r| r[0] == "gfc1" && r[1] == "ut" && r[2] == "F").expect("gfc1/ut/F");
    let (rate, share): (f64, f64) = (gfc_ut_f[4].parse().unwrap(), gfc_ut_f[5].parse().unwrap());
    assert!((rate / share - 1.0).abs() < 0.1, "F under UT: {rate} vs {share}");
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("| gfc1 | erica | A | 3 |"));
    // gfc1's published figures, beside ours under each algorithm, with the difference.
    assert!(md.contains("## Published figures beside ours"));
    let figures = std::fs::read_to_string(dir.join("reference.csv")).unwrap();
    let header: Vec<&str> = figures.lines().next().unwrap().split(',').collect();
    assert_eq!(header[..8], ["scenario", "algorithm", "about", "quantity", "unit", "published", "ours", "difference"]);
    let f_rate = figures
        .lines()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|r| r[..4] == ["gfc1", "ut", "group F", "mean_rate_mbps"])
        .expect("gfc1/ut: group F's published rate");
    let (published, ours, difference): (f64, f64, f64) =
        (f_rate[5].parse().unwrap(), f_rate[6].parse().unwrap(), f_rate[7].parse().unwrap());
    assert_eq!(published, 50.0);
    assert!((difference - (ours - published)).abs() < 1e-9);
    assert!(md.contains("| gfc1 | ut | group F | mean_rate_mbps | Mbps | 50 |"), "{md}");

    // Under the algorithm the file already runs (gfc1: ERICA+ with a 2 ms target delay), the
    // file's settings stay: the report's run is `abrsim run`'s.
    let same = dir.join("same");
    let out = abrsim(&["report", "scenarios/gfc1.json", "--algorithms", "erica_plus", "--out", same.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = json(&abrsim(&["run", "scenarios/gfc1.json"]));
    let csv = std::fs::read_to_string(same.join("report.csv")).unwrap();
    let a: Vec<&str> =
        csv.lines().find(|l| l.starts_with("gfc1,erica_plus,A,")).expect("gfc1/erica_plus/A").split(',').collect();
    assert_eq!(a[11].parse::<f64>().unwrap(), run["convergence_ms"].as_f64().unwrap());
    let largest =
        run["ports"].as_array().unwrap().iter().map(|p| p["max_queue_cells"].as_u64().unwrap()).max().unwrap();
    assert_eq!(a[9].parse::<u64>().unwrap(), largest);

    let bad = abrsim(&["report", "--algorithms", "erica,fast", "--out", dir.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown algorithm 'fast'"));
}

/// QA: the report's verdict cell read a bare "–" for a figure without a tolerance, where the lab
/// says why (the file's `no_tolerance_reason`, else that the file gives none).
#[test]
fn report_says_why_a_published_figure_has_no_tolerance_as_the_lab_does() {
    let scratch = Scratch::new("report-no-tolerance");
    // two-sources with one figure that says why it has no tolerance and one that does not.
    let mut doc = scenario_doc("scenarios/two-sources.json");
    doc["run"]["duration_ms"] = serde_json::json!(30);
    doc["reference"] = serde_json::json!([
        {"about": {"connection": "C1"}, "quantity": "mean_rate_mbps", "published": 77.76,
         "no_tolerance_reason": "A target | not a measurement.", "source": "Fig. 1"},
        {"about": {"connection": "C2"}, "quantity": "mean_rate_mbps", "published": 77.76, "source": "Fig. 1"},
        {"about": "network", "quantity": "jain_index", "published": 1, "tolerance": 0.01, "source": "Fig. 2"},
        {"about": {"port": "SW1->SW2"}, "quantity": "max_queue_cells", "published": 100, "tolerance": 0.5,
         "algorithm": "eprca", "source": "Fig. 3"}
    ]);
    let file = scratch.write("figures.json", &doc.to_string());
    let dir = scratch.path("out");
    let out = abrsim(&["report", &file, "--out", &dir]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let md = std::fs::read_to_string(scratch.0.join("out/report.md")).unwrap();
    let verdicts: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| two-sources |") && l.contains("| Fig. "))
        .map(|l| l.split(" | ").nth(9).unwrap())
        .collect();
    // The last, measured under EPRCA where both switches run ERICA, is not judged, and says why.
    assert_eq!(verdicts, ["no tolerance\\*", "no tolerance†", "yes (±1 %)", "not judged‡"], "{md}");
    assert!(
        md.contains("\n‡ Not judged: measured under EPRCA, and here SW1, SW2 run ERICA, so ours is shown beside it without a verdict.\n"),
        "{md}"
    );
    // The notes below the table, in the lab's words: the file's reason, else the lab's sentence.
    assert!(md.contains("\n\\* No tolerance: A target \\| not a measurement.\n"), "{md}");
    let given = abr_sim::reference::NO_TOLERANCE_GIVEN;
    assert!(md.contains(&format!("\n† No tolerance: {given}\n")), "{md}");

    // reference.csv: the reason as a field of its own, empty where the file gives none.
    let csv = std::fs::read_to_string(scratch.0.join("out/reference.csv")).unwrap();
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(",source,no_tolerance_reason,not_judged_note"));
    let rows: Vec<&str> = lines.collect();
    let reasons: Vec<&str> = rows[..3].iter().map(|l| l.rsplit(',').nth(1).unwrap()).collect();
    assert_eq!(reasons, ["A target | not a measurement.", "", ""]);
    assert!(rows[..3].iter().all(|l| l.ends_with(',')), "judged figures: an empty note");
    assert!(rows[3].ends_with(",\"Not judged: measured under EPRCA, and here SW1, SW2 run ERICA, so ours is shown beside it without a verdict.\""));
}

/// The report's convergence beside how much of the steady window the rates were on target:
/// vbr-background's background traffic keeps the shares moving, so convergence never comes
/// (null) although the rates follow their share most of the time.
#[test]
fn report_gives_the_on_target_fraction_beside_convergence() {
    let scratch = Scratch::new("report-on-target");
    let dir = scratch.path("out");
    let out = abrsim(&["report", "scenarios/vbr-background.json", "scenarios/tcp-over-ubr.json", "--out", &dir]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = json(&abrsim(&["run", "scenarios/vbr-background.json"]));
    let fraction = run["on_target_fraction"].as_f64().unwrap();
    assert!(run["convergence_ms"].is_null() && fraction > 0.5 && fraction < 1.0, "{run}");

    let csv = std::fs::read_to_string(scratch.0.join("out/report.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(header[11..], ["convergence_ms", "on_target_fraction"]);
    for line in csv.lines().skip(1) {
        let row: Vec<&str> = line.split(',').collect();
        match row[0] {
            "vbr-background" => assert_eq!(row[12].parse::<f64>().unwrap(), fraction, "{line}"),
            // UBR only: no rate is judged, so there is no fraction.
            _ => assert_eq!(row[12], "", "{line}"),
        }
    }
    let md = std::fs::read_to_string(scratch.0.join("out/report.md")).unwrap();
    assert!(md.contains("| convergence (ms) | on target (% of steady window) |"), "{md}");
    let percent = format!("| {} % |", (100.0 * fraction).floor());
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| vbr-background |")).collect();
    assert!(!rows.is_empty() && rows.iter().all(|l| l.ends_with(&percent)), "{percent}: {rows:?}");
    assert!(md.lines().filter(|l| l.starts_with("| tcp-over-ubr |")).all(|l| l.ends_with("| – |")), "{md}");
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).expect("utf-8")
}

#[test]
fn sweep_rows_are_the_same_on_any_number_of_threads_and_shards() {
    let args = [
        "sweep",
        "scenarios/fecn-delay-sweep.json",
        "--set",
        "run.duration_ms=10",
        "--set",
        "run.steady_from_ms=5",
        "--seeds",
        "2",
    ];
    let one = stdout(&abrsim(&[&args[..], &["--jobs", "1"]].concat()));
    let two = stdout(&abrsim(&[&args[..], &["--jobs", "2"]].concat()));
    assert_eq!(one, two, "--jobs changes nothing but speed");
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(lines.len(), 1 + 4 * 2 * 2, "a header, then 4 delays × 2 Qeq × 2 seeds");
    assert!(lines[0].starts_with("loop_delay_us,qeq_bytes,seed,"), "{}", lines[0]);
    let mut sharded = Vec::new();
    for i in 1..=3 {
        let out = stdout(&abrsim(&[&args[..], &["--shard", &format!("{i}/3")]].concat()));
        let mut rows = out.lines();
        assert_eq!(rows.next(), Some(lines[0]), "every shard prints the same header");
        sharded.extend(rows.map(str::to_string));
    }
    assert_eq!(sharded, lines[1..].iter().map(|s| s.to_string()).collect::<Vec<_>>());
}

#[test]
fn a_sweep_row_equals_the_run_with_the_same_overrides() {
    let out = stdout(&abrsim(&[
        "sweep",
        "scenarios/fecn-n0-sweep.json",
        "--set",
        "run.duration_ms=20",
        "--set",
        "run.steady_from_ms=10",
        "--format",
        "json",
    ]));
    let rows: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1]["n0"], 10);
    let run = json(&abrsim(&[
        "run",
        "scenarios/fecn-n0-sweep.json",
        "--set",
        "run.duration_ms=20",
        "--set",
        "run.steady_from_ms=10",
        "--set",
        "nodes.SW1.params.n0=10",
    ]));
    assert_eq!(rows[1]["digest"], run["digest"]);
    assert_eq!(rows[1]["jain_index"], run["jain_index"]);
    let port = run["ports"].as_array().unwrap().iter().find(|p| p["id"] == "SW1->EP4").unwrap();
    assert_eq!(rows[1]["port.SW1->EP4.dropped_cells"], port["dropped_cells"]);
}

#[test]
fn a_vary_range_runs_the_values_it_spells_out() {
    let rows = |vary: &str| -> Vec<serde_json::Value> {
        let out = stdout(&abrsim(&[
            "sweep",
            "scenarios/two-sources.json",
            "--set",
            "run.duration_ms=5",
            "--vary",
            vary,
            "--format",
            "json",
        ]));
        out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let ranged = rows("nodes.*.params.target_utilization=0.8:0.1:1");
    let listed = rows("nodes.*.params.target_utilization=0.8,0.9,1.0");
    assert_eq!(ranged.len(), 3);
    let column = |r: &[serde_json::Value], k: &str| r.iter().map(|row| row[k].clone()).collect::<Vec<_>>();
    assert_eq!(column(&ranged, "digest"), column(&listed, "digest"));
    let bad = abrsim(&["sweep", "scenarios/two-sources.json", "--vary", "links.L1.delay_us=10:5:0"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("the step 5 does not lead from 10 to 0"));
}

#[test]
fn bad_sweeps_exit_2_naming_the_field_and_rule() {
    let cases: [(&[&str], &str); 7] = [
        (&["--shard", "3/2"], "--shard '3/2': expected I/N with 1 ≤ I ≤ N"),
        (&["--vary", "nodes.SW1.params.n0="], "give at least one value"),
        (&["--vary", "nodes.SW1.params.n0=10,,20"], "value 2 of 3 is empty (a comma too many?)"),
        (&["--vary", "nodes.SW1.params.n0=10,20,"], "value 3 of 3 is empty"),
        (
            &["--vary", "nodes.SW1.params.n0=10,0"],
            "--vary 'nodes.SW1.params.n0=10,0', value 2: 0 makes the scenario invalid: nodes[0] (SW1).params.n0: n0 = 0 is out of range",
        ),
        (&["--vary", "nodes.SW7.params.n0=10"], "no element with id 'SW7'"),
        (&["--format", "xml"], "--format 'xml': expected csv or json"),
    ];
    for (extra, message) in cases {
        let out = abrsim(&[&["sweep", "scenarios/fecn-n0-sweep.json"][..], extra].concat());
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{extra:?}: {err}");
    }
}

#[test]
fn a_bad_vary_or_seeds_option_is_named_as_the_option_not_as_the_files_sweep_block() {
    // fecn-n0-sweep's own block varies n0 over 1, 10, 200 (all valid): a --vary that replaces
    // it, or one added after it, is what is wrong, and the message must say so.
    let cases: [(&[&str], &str); 5] = [
        (
            &["--vary", "nodes.SW1.params.n0=10,0"],
            "--vary 'nodes.SW1.params.n0=10,0', value 2: 0 makes the scenario invalid",
        ),
        (&["--vary", "nodes.SW1.params.qeq_bytes=5,-1"], "--vary 'nodes.SW1.params.qeq_bytes=5,-1', value 2: -1 makes"),
        (&["--vary", "seed=1,2"], "--vary 'seed=1,2': 'seed' names no field of a scenario"),
        (&["--vary", "links[0].delay_us=5,10"], "'links[0]' is not a key: name a list element by its id or its index as a key of its own (links.<id> or links.0)"),
        (&["--seeds", "0"], "--seeds: seeds = 0 must be between 1 and 10000"),
    ];
    for (extra, message) in cases {
        let out = abrsim(&[&["sweep", "scenarios/fecn-n0-sweep.json"][..], extra].concat());
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{extra:?}: {err}");
        assert!(err.contains("cannot be swept as the command asks:"), "{extra:?}: {err}");
        assert!(!err.contains("sweep.vary[") && !err.contains("sweep.seeds"), "{extra:?}: {err}");
    }
    // A bad block in the file is still the file's.
    let dir = Scratch::new("sweep");
    let mut doc = scenario_doc("scenarios/fecn-n0-sweep.json");
    doc["sweep"]["vary"][0]["values"] = serde_json::json!([10, 0]);
    let file = dir.write("bad-block.json", &doc.to_string());
    let out = abrsim(&["sweep", &file, "--vary", "run.seed=1,2"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("sweep.vary[0].values[1]: 0 makes the scenario invalid"), "{err}");
    assert!(!err.contains("with the command's changes to it"), "{err}");
}

/// A seed or a count that is not a whole number is refused with the rule, not with the
/// parser's "invalid digit found in string".
#[test]
fn a_seed_or_count_that_is_not_a_whole_number_says_the_rule() {
    let cases: [&[&str]; 5] = [
        &["run", "scenarios/two-sources.json", "--seed", "-1"],
        &["run", "scenarios/two-sources.json", "--seed", "2.5"],
        &["sweep", "scenarios/two-sources.json", "--seeds", "-3"],
        &["sweep", "scenarios/two-sources.json", "--jobs", "two"],
        &["bench", "scenarios/two-sources.json", "--repeat", "-1"],
    ];
    for args in cases {
        let out = abrsim(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("must be a whole number, 0 or more"), "{args:?}: {err}");
        assert!(!err.contains("invalid digit"), "{args:?}: {err}");
    }
    let out = abrsim(&["run", "scenarios/two-sources.json", "--seed", "99999999999999999999999"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("is too large"));
}

#[test]
fn a_bad_sweep_block_is_said_by_every_reader_and_refused_only_by_what_uses_it() {
    let dir = Scratch::new("sweep-rule");
    let mut doc = scenario_doc("scenarios/fecn-n0-sweep.json");
    doc["sweep"]["vary"][0]["values"] = serde_json::json!([10, 0]);
    doc["run"]["duration_ms"] = serde_json::json!(5);
    doc["run"]["steady_from_ms"] = serde_json::json!(2);
    let file = dir.write("bad-block.json", &doc.to_string());
    let rule = "sweep.vary[0].values[1]: 0 makes the scenario invalid";
    // `run` runs the scenario as it is, and warns.
    let out = abrsim(&["run", &file]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(json(&out)["scenario"], doc["id"]);
    assert!(err.contains("warning:") && err.contains("its sweep block has problems") && err.contains(rule), "{err}");
    // `validate` and `sweep` refuse it, naming the same field and rule.
    for cmd in ["validate", "sweep"] {
        let out = abrsim(&[cmd, &file]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{cmd}: {err}");
        assert!(err.contains(rule), "{cmd}: {err}");
    }
    // A valid block: `run` says nothing about it.
    let out = abrsim(&["run", "scenarios/fecn-n0-sweep.json", "--duration-ms", "5"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("sweep block"));
}

#[test]
fn a_number_past_the_largest_is_refused_by_one_rule_in_a_file_a_set_and_a_vary() {
    let rule = "must be a finite number";
    let beyond = "beyond the largest number (about 1.8e308)";
    let dir = Scratch::new("huge");
    let text = std::fs::read_to_string(root().join("scenarios/two-sources.json")).unwrap();
    let doc = scenario_doc("scenarios/two-sources.json");
    let duration = doc["run"]["duration_ms"].to_string();
    let huge = text.replacen(&format!("\"duration_ms\": {duration}"), "\"duration_ms\": 1e400", 1);
    assert_ne!(huge, text, "the file writes its duration as expected");
    let file = dir.write("huge.json", &huge);
    let out = abrsim(&["validate", &file]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("run.duration_ms: {rule}: its value is {beyond}")), "{err}");
    let out = abrsim(&["run", "scenarios/two-sources.json", "--set", "nodes.SW1.params.target_utilization=1e400"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("nodes.SW1.params.target_utilization {rule}: 1e400 is {beyond}")), "{err}");
    let out = abrsim(&["sweep", "scenarios/two-sources.json", "--vary", "run.duration_ms=10,-1e999"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("run.duration_ms {rule}: -1e999 is {beyond}")), "{err}");
}

// QA: 5e-400 typed for a parameter read as 0 and was refused as "= 0 is out of range", a
// rule about a number the user never wrote.
#[test]
fn a_number_too_small_to_represent_is_refused_by_one_rule_in_a_file_a_set_and_a_vary() {
    let rule = "must be a representable number";
    let small = "too small to represent (below about 4.9e-324), and is not read as 0";
    let dir = Scratch::new("tiny");
    let text = std::fs::read_to_string(root().join("scenarios/two-sources.json")).unwrap();
    let doc = scenario_doc("scenarios/two-sources.json");
    let duration = doc["run"]["duration_ms"].to_string();
    let tiny = text.replacen(&format!("\"duration_ms\": {duration}"), "\"duration_ms\": 5e-400", 1);
    assert_ne!(tiny, text, "the file writes its duration as expected");
    let file = dir.write("tiny.json", &tiny);
    let out = abrsim(&["validate", &file]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("run.duration_ms: {rule}: its value 5e-400 is {small}")), "{err}");
    let out = abrsim(&["run", "scenarios/two-sources.json", "--set", "nodes.SW1.params.target_utilization=5e-400"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("nodes.SW1.params.target_utilization {rule}: 5e-400 is {small}")), "{err}");
    let out = abrsim(&["sweep", "scenarios/two-sources.json", "--vary", "run.duration_ms=10,-0.5e-330"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("run.duration_ms {rule}: -0.5e-330 is {small}")), "{err}");
}

#[test]
fn bench_runs_for_the_duration_asked() {
    let out = abrsim(&["bench", "scenarios/two-sources.json", "--duration-ms", "40", "--repeat", "2"]);
    let line = json(&out);
    assert_eq!(line["sim_ms"], 40.0);
    assert_eq!(line["scenario"], "two-sources");
    assert!(line["events"].as_u64().unwrap() > 0 && line["sim_over_wall"].as_f64().unwrap() > 0.0);
    // Out of range, it says which field and why, and runs nothing.
    let bad = abrsim(&["bench", "scenarios/two-sources.json", "--duration-ms=-5"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("duration_ms"), "{}", String::from_utf8_lossy(&bad.stderr));
    // NaN is a number to the option parser, not to a run: the option says so, as `run` does.
    let bad = abrsim(&["bench", "scenarios/two-sources.json", "--duration-ms", "NaN"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("--duration-ms: duration_ms must be a finite number"), "{err}");
}

/// An empty path is a problem with the path in every command, never a panic; `validate` goes
/// on to the files after it.
#[test]
fn an_empty_path_is_refused_by_every_command_without_a_panic() {
    let dir = Scratch::new("empty-path");
    let mut doc = scenario_doc("scenarios/two-sources.json");
    doc["connections"][0]["path"] = serde_json::json!([]);
    let file = &dir.write("empty-path.json", &doc.to_string());
    let rule = "connections[0] (C1).path: a path must start at 'S1' and end at 'D1'";
    for args in [
        &["run", file][..],
        &["validate", file, "scenarios/two-sources.json"][..],
        &["bench", file, "--duration-ms", "1"][..],
        &["sweep", file, "--vary", "run.seed=1,2"][..],
        &["run", "scenarios/two-sources.json", "--set", "connections.C1.path=[]"][..],
    ] {
        let out = abrsim(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(rule) && !err.contains("panicked"), "{args:?}: {err}");
    }
    let out = abrsim(&["validate", file, "scenarios/two-sources.json"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("two-sources"), "validate checks the next file too");
}

/// `--vary run.seed=…` gives each point its own first seed, and a row equals `run --set`.
#[test]
fn a_varied_seed_is_the_seed_a_row_runs_with() {
    let out = stdout(&abrsim(&[
        "sweep",
        "scenarios/vbr-background.json",
        "--vary",
        "run.seed=1,2",
        "--set",
        "run.duration_ms=20",
        "--format",
        "json",
    ]));
    let rows: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.iter().map(|r| r["seed"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2]);
    let run =
        json(&abrsim(&["run", "scenarios/vbr-background.json", "--set", "run.duration_ms=20", "--set", "run.seed=2"]));
    assert_eq!(rows[1]["digest"], run["digest"]);
    assert_ne!(rows[0]["digest"], rows[1]["digest"], "the two seeds give two runs");
}

#[test]
fn a_list_where_an_object_belongs_exits_2_naming_the_field() {
    // serde read `"run": [10]` by position, as `{ "duration_ms": 10 }`, and the run went ahead.
    let dir = Scratch::new("list");
    let mut doc = scenario_doc("scenarios/two-sources.json");
    doc["run"] = serde_json::json!([10]);
    let file = dir.write("s.json", &doc.to_string());
    for command in ["validate", "run"] {
        let out = abrsim(&[command, &file]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("\n  run: must be an object") && err.contains("not a list"), "{command}: {err}");
        assert!(out.stdout.is_empty(), "{command}: nothing is run or said valid");
    }
}

/// `abrsim run … | head`: a reader that leaves before the summary is written ends the command
/// quietly (status 0), never with a panic; a stdout that cannot be written (a full disk) is an
/// error naming stdout, status 2.
#[test]
fn a_closed_or_full_stdout_is_no_panic() {
    use std::process::Stdio;
    for args in [
        &["run", "scenarios/gfc1.json"][..],
        &["sweep", "scenarios/two-sources.json", "--vary", "run.seed=1,2"][..],
        &["algorithms"][..],
        &["bench", "scenarios/two-sources.json"][..],
    ] {
        let mut child = spawn_abrsim(args);
        drop(child.stdout.take()); // the reader leaves before anything is written
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked") && !err.contains("error"), "{args:?}: {err}");

        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_abrsim"))
            .args(args)
            .current_dir(root())
            .stdout(Stdio::from(full))
            .output()
            .expect("abrsim runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("cannot write to stdout") && !err.contains("panicked"), "{args:?}: {err}");
    }
}

/// `abrsim bench --duration-ms` shorter than a file's steady-state window still benchmarks it
/// (the window goes, as `run` lets it go): gfc1's starts at 250 ms, and the option was refused
/// as making the file invalid, which stopped a bench of the whole library at its first such file.
#[test]
fn bench_runs_a_duration_that_ends_before_the_files_steady_window() {
    let line = json(&abrsim(&["bench", "scenarios/gfc1.json", "--duration-ms", "10"]));
    assert_eq!(line["sim_ms"], 10.0);
    // A negative duration is named by its rule, as `run` names it, not as an unknown argument.
    let bad = abrsim(&["bench", "scenarios/two-sources.json", "--duration-ms", "-5"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("--duration-ms: duration_ms = -5 is out of range"), "{err}");
}

/// The fields of one CSV line (RFC 4180 quoting).
fn csv_fields(line: &str) -> Vec<String> {
    let (mut fields, mut cur, mut quoted, mut chars) = (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    fields.push(cur);
    fields
}

/// The cells of a Markdown table row: split at bars that are not escaped.
fn md_cells(row: &str) -> usize {
    row.replace("\\|", "").matches('|').count() - 1
}

/// A group label is free text: with a comma, a quote or a bar in it, `abrsim report` keeps
/// every row of report.csv and reference.csv at its header's width and every row of report.md
/// at its table's (the group column was written bare into both).
#[test]
fn report_quotes_and_escapes_a_group_label_with_a_comma_or_a_bar() {
    let dir = Scratch::new("report-group-text");
    let label = "A, \"fast\" | x";
    let mut doc = scenario_doc("scenarios/two-sources.json");
    doc["connections"][0]["group"] = serde_json::json!(label);
    doc["reference"] = serde_json::json!([{ "about": { "group": label }, "quantity": "mean_rate_mbps",
        "published": 70, "tolerance": 0.05, "source": "ours | theirs, table 1" }]);
    let file = dir.write("groups.json", &doc.to_string());
    let out = abrsim(&["report", &file, "--out", &dir.path("out")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for name in ["report.csv", "reference.csv"] {
        let text = std::fs::read_to_string(dir.0.join("out").join(name)).unwrap();
        let mut lines = text.lines();
        let width = csv_fields(lines.next().unwrap()).len();
        let rows: Vec<Vec<String>> = lines.map(csv_fields).collect();
        assert!(rows.iter().all(|r| r.len() == width), "{name}: {text}");
        let expected = if name == "report.csv" { label.to_string() } else { format!("group {label}") };
        assert_eq!(rows[0][2], expected, "{name}");
    }
    let md = std::fs::read_to_string(dir.0.join("out").join("report.md")).unwrap();
    for table in md.split("\n\n").filter(|t| t.starts_with("| scenario")) {
        let width = md_cells(table.lines().next().unwrap());
        assert!(table.lines().all(|row| md_cells(row) == width), "{table}");
    }
}

/// Starts abrsim with its stdout and stderr piped, not waiting for it.
fn spawn_abrsim(args: &[&str]) -> std::process::Child {
    use std::process::Stdio;
    Command::new(env!("CARGO_BIN_EXE_abrsim"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("abrsim runs")
}

/// Runs abrsim; its output, or None when it is still running after `secs` (then killed).
fn abrsim_within(args: &[&str], secs: u64) -> Option<Output> {
    let mut child = spawn_abrsim(args);
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed().as_secs() >= secs {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Some(child.wait_with_output().unwrap())
}

/// `abrsim report` refuses a folder it cannot write to, or an invalid file anywhere in its
/// list, before it runs anything: it used to find out only after every run (the whole
/// library, or here an hour of simulated time that takes a minute or more).
#[test]
fn report_refuses_an_unwritable_folder_or_an_invalid_file_before_running() {
    let dir = Scratch::new("report-before-running");
    let mut long = scenario_doc("scenarios/two-sources.json");
    long["run"]["duration_ms"] = serde_json::json!(3_600_000);
    let long = dir.write("long.json", &long.to_string());
    let not_a_folder = dir.write("not-a-folder", "");
    let out = abrsim_within(&["report", &long, "--out", &format!("{not_a_folder}/out")], 20)
        .expect("refused before the hour-long run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot create") && err.contains("not-a-folder"), "{err}");

    let mut bad = scenario_doc("scenarios/two-sources.json");
    bad["links"][0]["rate_mbps"] = serde_json::json!("fast");
    let bad = dir.write("bad.json", &bad.to_string());
    let out = abrsim_within(&["report", &long, &bad, "--out", &dir.path("out")], 20)
        .expect("refused before the hour-long run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("links[0] (L1).rate_mbps: must be a number"), "{err}");
    assert!(!dir.0.join("out/report.md").exists(), "nothing written");
}

/// helper-30: `--duration-ms` shorter than a recorded change was refused ("not a valid scenario
/// with the command's changes"), where a steady window that no longer fits is dropped with a
/// note. The changes after the shorter run's end are left out, with a note, and the rest run.
#[test]
fn a_shorter_run_leaves_out_the_changes_after_its_end_with_a_note() {
    let scratch = Scratch::new("shorter-changes");
    let mut doc = scenario_doc("scenarios/two-sources.json");
    doc["changes"] = serde_json::json!([
        {"at_ms": 10, "node": "SW1", "param": "target_utilization", "value": 0.8},
        {"at_ms": 80, "node": "SW1", "param": "target_utilization", "value": 0.95}
    ]);
    let file = scratch.write("changes.json", &doc.to_string());
    let out = abrsim(&["run", &file, "--duration-ms", "40"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "note: --duration-ms 40 ends the run before 1 of the file's changes (at 80 ms): they are left out"
        ),
        "{err}"
    );
    // The change kept still runs: the same digest as a file with that one change alone.
    doc["changes"] = serde_json::json!([{"at_ms": 10, "node": "SW1", "param": "target_utilization", "value": 0.8}]);
    let one = scratch.write("one.json", &doc.to_string());
    let want = json(&abrsim(&["run", &one, "--duration-ms", "40"]));
    assert_eq!(json(&out)["digest"], want["digest"]);
}
