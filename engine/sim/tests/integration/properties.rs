//! Property tests over mutated library scenarios: whatever one field of a library file is
//! changed to, the engine either refuses the file with problems that name where, or runs it to
//! the end without panicking, within its history budget, conserving every cell.

use crate::common::library_json;
use abr_sim::scenario::from_value;
use abr_sim::sim::Simulation;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Small files of every kind: ABR, UBR/TCP, VBR, virtual paths, VS/VD, Series-D, Ethernet.
const FILES: &[&str] = &[
    "two-sources",
    "parking-lot-3",
    "vbr-background",
    "dishonest",
    "tcp-over-ubr-epd",
    "vpc-abr",
    "vsvd-1",
    "seriesd-lan",
    "fecn-hotspot",
    "qcn-hotspot",
];

/// Runs are cut to this much simulated time, so that a case takes milliseconds.
const MAX_RUN_MS: f64 = 4.0;

/// Every place in a document: the path to each value, objects and lists included.
fn places(v: &Value, here: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(here.clone());
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                here.push(k.clone());
                places(x, here, out);
                here.pop();
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                here.push(i.to_string());
                places(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[String]) -> &'a mut Value {
    path.iter().fold(v, |v, k| match v {
        Value::Object(map) => map.get_mut(k).expect("a key of the walk"),
        Value::Array(items) => &mut items[k.parse::<usize>().expect("an index of the walk")],
        _ => unreachable!("the walk only descends into objects and lists"),
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    Number(f64),
    Text(String),
    Null,
    Bool(bool),
    EmptyList,
    EmptyObject,
    Remove,
    /// Another value of the same document (a node where a link was, an id where a rate was).
    CopyOf(usize),
    /// The number there times a factor (a value near the file's, mostly valid).
    Scale(f64),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (0.0..4.0f64).prop_map(Mutation::Scale),
        1 => prop_oneof![
            Just(0.0),
            Just(-1.0),
            Just(1e-9),
            Just(1e300),
            Just(-1e300),
            Just(0.5),
            Just(65536.0),
            -1e6..1e6f64,
        ]
        .prop_map(Mutation::Number),
        1 => prop_oneof![Just(String::new()), Just("SW1".to_string()), Just("erica".to_string()), "[a-z*.]{0,6}"]
            .prop_map(Mutation::Text),
        1 => Just(Mutation::Null),
        1 => any::<bool>().prop_map(Mutation::Bool),
        1 => Just(Mutation::EmptyList),
        1 => Just(Mutation::EmptyObject),
        1 => Just(Mutation::Remove),
        1 => any::<usize>().prop_map(Mutation::CopyOf),
    ]
}

/// The library file with one place changed.
fn mutated(file: usize, place: usize, m: &Mutation) -> Value {
    let mut doc = library_json(FILES[file % FILES.len()]);
    let mut all = Vec::new();
    places(&doc, &mut Vec::new(), &mut all);
    let path = all[place % all.len()].clone();
    let new = match m {
        Mutation::Number(x) => json!(x),
        Mutation::Text(s) => json!(s),
        Mutation::Null => Value::Null,
        Mutation::Bool(b) => json!(b),
        Mutation::EmptyList => json!([]),
        Mutation::EmptyObject => json!({}),
        Mutation::CopyOf(k) => at(&mut doc.clone(), &all[k % all.len()]).clone(),
        Mutation::Scale(f) => match at(&mut doc, &path).as_f64() {
            Some(x) => json!(x * f),
            None => Value::Null,
        },
        Mutation::Remove => {
            if let Some((last, parent)) = path.split_last() {
                match at(&mut doc, parent) {
                    Value::Object(map) => {
                        map.remove(last);
                    }
                    Value::Array(items) => {
                        items.remove(last.parse::<usize>().unwrap());
                    }
                    _ => {}
                }
            }
            return doc;
        }
    };
    *at(&mut doc, &path) = new;
    doc
}

/// Cuts a document's run short (where it has one), so that a case runs in milliseconds.
fn cut_short(doc: &mut Value) {
    if let Some(run) = doc.get_mut("run").and_then(Value::as_object_mut) {
        if run.get("duration_ms").and_then(Value::as_f64).is_some_and(|d| d > MAX_RUN_MS) {
            run.insert("duration_ms".into(), json!(MAX_RUN_MS));
            run.insert("steady_from_ms".into(), Value::Null);
        }
        run.remove("changes");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_mutated_library_file_is_refused_with_paths_or_runs_cleanly(
        file in 0..FILES.len(),
        place in any::<usize>(),
        m in mutation(),
    ) {
        let mut doc = mutated(file, place, &m);
        cut_short(&mut doc);
        match from_value(doc) {
            Err(problems) => {
                prop_assert!(!problems.is_empty());
                for p in &problems {
                    prop_assert!(!p.rule.is_empty(), "a problem without a rule: {p:?}");
                    // A path names the field, or the problem is about the whole file.
                    prop_assert!(p.path.is_empty() || !p.path.contains(".."), "a malformed path: {p:?}");
                }
            }
            Ok(scenario) => {
                let mut sim = Simulation::new(scenario);
                sim.run_to_end();
                let kept = sim.rec().history();
                prop_assert!(kept.row_count() <= kept.capacity(), "{} rows kept, capacity {}", kept.row_count(), kept.capacity());
                for c in 0..sim.net.conns.len() {
                    prop_assert!(sim.cells_conserved(c), "{} does not conserve cells", sim.net.conns[c].id);
                }
                let summary = abr_sim::metrics::summarize(&sim);
                for l in &summary.links {
                    prop_assert!(l.mean_utilization.into_iter().chain(l.reverse_mean_utilization).all(|u| u <= 1.0 + 1e-12));
                }
            }
        }
    }
}
