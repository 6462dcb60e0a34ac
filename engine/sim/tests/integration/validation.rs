//! Bad scenarios get a message naming the field (JSON path) and the rule.

use crate::common::library_json;
use abr_sim::scenario::{apply_override, apply_override_noting, apply_variant, from_value, parse, Problem};

fn problems_after(overrides: &[&str]) -> Vec<Problem> {
    let mut doc = library_json("two-sources");
    for o in overrides {
        apply_override(&mut doc, o).expect("override applies");
    }
    from_value(doc).err().unwrap_or_default()
}

fn assert_problem(problems: &[Problem], path: &str, rule_part: &str) {
    assert!(
        problems.iter().any(|p| p.path == path && p.rule.contains(rule_part)),
        "expected a problem at {path} mentioning {rule_part:?}, got {problems:?}"
    );
}

#[test]
fn every_library_scenario_is_valid() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).unwrap();
            let s = parse(&text).unwrap_or_else(|p| panic!("{}: {p:?}", path.display()));
            assert_eq!(format!("{}.json", s.id), path.file_name().unwrap().to_str().unwrap(), "file name = id");
            for (i, step) in s.lesson.steps().iter().enumerate() {
                assert!(
                    step.at_ms <= s.run.duration_ms,
                    "{}: lesson.steps[{i}] at {} ms is after the run's end",
                    s.id,
                    step.at_ms
                );
            }
            assert!(
                !s.lesson.text().is_empty() && !s.source.is_empty() && !s.description.is_empty(),
                "{} needs lesson, source, description",
                s.id
            );
            count += 1;
        }
    }
    assert!(count >= 4);
}

#[test]
fn a_link_to_a_missing_node_is_named() {
    assert_problem(&problems_after(&["links.L3.to=\"SW9\""]), "links[2].to", "no node has id 'SW9'");
}

#[test]
fn an_unknown_algorithm_lists_the_known_ones() {
    assert_problem(&problems_after(&["nodes.SW1.algorithm=\"fast\""]), "nodes[2].algorithm", "known algorithms: erica");
}

#[test]
fn an_out_of_range_parameter_shows_its_range() {
    assert_problem(
        &problems_after(&["nodes.SW1.params.target_utilization=1.5"]),
        "nodes[2].params.target_utilization",
        "between 0.1 and 1",
    );
    assert_problem(&problems_after(&["connections.C1.params.nrm=3.5"]), "connections[0].params.nrm", "whole number");
    assert_problem(&problems_after(&["defaults.source.rif=2"]), "defaults.source.rif", "between");
}

#[test]
fn an_unknown_parameter_is_refused() {
    assert_problem(&problems_after(&["nodes.SW1.params.speed=3"]), "nodes[2].params.speed", "unknown parameter");
}

#[test]
fn a_path_must_follow_links() {
    assert_problem(
        &problems_after(&["connections.C1.path=[\"S1\",\"SW2\",\"D1\"]"]),
        "connections[0].path[1]",
        "no link joins 'S1' and 'SW2'",
    );
    assert_problem(
        &problems_after(&["connections.C1.path=[\"S1\",\"SW1\",\"D1\"]"]),
        "connections[0].path[2]",
        "no link joins 'SW1' and 'D1'",
    );
}

#[test]
fn an_empty_or_one_node_path_is_refused_not_a_panic() {
    // The connection sets no PCR, so its PCR would come from the path's first link.
    for path in ["[]", "[\"S1\"]"] {
        assert_problem(
            &problems_after(&[&format!("connections.C1.path={path}")]),
            "connections[0].path",
            "a path must start at 'S1' and end at 'D1'",
        );
    }
}

#[test]
fn a_rate_above_pcr_is_reported_where_it_is_set_and_says_where_pcr_comes_from() {
    // ICR set by the connection, PCR by the access link's rate.
    let p = problems_after(&["connections.C1.params.icr_mbps=200"]);
    assert_problem(&p, "connections[0].params.icr_mbps", "icr_mbps = 200 must not exceed pcr_mbps = 155.52");
    assert_problem(&p, "connections[0].params.icr_mbps", "the rate of its access link L1");
    // ICR from the defaults, PCR set by the connection: the problem is the default's, for C1.
    let p = problems_after(&["defaults.source.icr_mbps=50", "connections.C1.params.pcr_mbps=10"]);
    assert_problem(
        &p,
        "defaults.source.icr_mbps",
        "C1: icr_mbps = 50 must not exceed pcr_mbps = 10 (connections[0].params.pcr_mbps)",
    );
    assert!(!p.iter().any(|p| p.rule.starts_with("C2")), "C2's PCR is its link's: {p:?}");
}

#[test]
fn an_on_off_parameter_takes_0_or_1() {
    assert_problem(
        &problems_after(&["nodes.SW1.params.max_alloc=3"]),
        "nodes[2].params.max_alloc",
        "max_alloc = 3 must be 0 (off) or 1 (on)",
    );
}

#[test]
fn a_huge_value_is_reported_once_in_exponent_form() {
    let p = problems_after(&["defaults.source.icr_mbps=1e308"]);
    assert_eq!(p.len(), 1, "the range, not also each connection's PCR: {p:?}");
    assert_problem(&p, "defaults.source.icr_mbps", "icr_mbps = 1e308 is out of range");
    assert_problem(
        &problems_after(&["links.L3.rate_mbps=1e300"]),
        "links[2].rate_mbps",
        "rate_mbps = 1e300 is out of range",
    );
}

#[test]
fn a_message_keeps_the_ids_as_written() {
    assert_problem(&problems_after(&["nodes.S1.algorithm=\"ut\""]), "nodes[0]", "node 'S1' is a source: only switches");
}

#[test]
fn a_connection_needs_a_route() {
    assert_problem(&problems_after(&["links.L3.to=\"D2\""]), "connections[0]", "no path of links");
}

#[test]
fn ids_must_be_unique() {
    assert_problem(&problems_after(&["nodes.S2.id=\"S1\""]), "nodes[1].id", "used twice");
    assert_problem(&problems_after(&["links.L2.id=\"L1\""]), "links[1].id", "used twice");
}

#[test]
fn virtual_path_ids_must_be_unique_and_its_ends_switches() {
    let mut doc = library_json("vpc-abr");
    let vps = doc["virtual_paths"].as_array().unwrap().clone();
    assert!(vps.len() >= 2, "vpc-abr has two virtual paths");
    let first = vps[0]["id"].as_str().unwrap().to_string();
    doc["virtual_paths"][1]["id"] = serde_json::json!(first);
    let p = from_value(doc.clone()).unwrap_err();
    assert_problem(&p, "virtual_paths[1].id", &format!("virtual path id '{first}' is used twice"));
    doc["virtual_paths"][1]["id"] = vps[1]["id"].clone();
    doc["virtual_paths"][0]["from"] = serde_json::json!("nowhere");
    assert_problem(&from_value(doc).unwrap_err(), "virtual_paths[0].from", "no node has id 'nowhere'");
}

#[test]
fn unknown_fields_are_refused_inside_behaviours_backgrounds_and_traffic() {
    let p = problems_after(&["connections.C1.behavior={\"kind\":\"on_off\",\"on_ms\":1,\"off_ms\":1,\"of_ms\":2}"]);
    assert_problem(&p, "connections[0].behavior", r#"unknown field "of_ms""#);
    let p = problems_after(&["connections.C1.background={\"kind\":\"cbr\",\"rate_mbps\":1,\"burst\":2}"]);
    assert_problem(&p, "connections[0].background", r#"unknown field "burst""#);
    let mut doc = library_json("qcn-hotspot");
    let id = doc["connections"][0]["id"].as_str().unwrap().to_string();
    apply_override(
        &mut doc,
        &format!("connections.{id}.traffic={{\"kind\":\"constant\",\"load_percent\":50,\"jitter\":1}}"),
    )
    .unwrap();
    assert_problem(&from_value(doc).unwrap_err(), "connections[0].traffic", r#"unknown field "jitter""#);
}

#[test]
fn structural_fields_are_checked_against_their_declared_ranges() {
    use abr_sim::fields::FIELDS;
    // One field of every section, just outside its declared range: the message is the
    // declaration's, at the field's path.
    let mss = FIELDS.tcp.iter().find(|f| f.name == "mss_bytes").unwrap();
    let p = problems_after(&[&format!("connections.C1.tcp={{\"mss_bytes\":{}}}", mss.min - 1.0)]);
    assert_problem(&p, "connections[0].tcp.mss_bytes", &format!("must be between {} and {} bytes", mss.min, mss.max));
    let p = problems_after(&["connections.C1.tcp={\"mss_bytes\":1000,\"window_bytes\":500}"]);
    assert_problem(&p, "connections[0].tcp.window_bytes", "must be at least mss_bytes = 1000");
    let factor = FIELDS.behavior.iter().find(|k| k.kind == "dishonest").unwrap().fields[1];
    let p = problems_after(&[&format!(
        "connections.C1.behavior={{\"kind\":\"dishonest\",\"from_ms\":0,\"factor\":{},\"greedy_ms\":1,\"normal_ms\":1}}",
        factor.max * 2.0
    )]);
    assert_problem(&p, "connections[0].behavior.factor", "is out of range");
    let p = problems_after(&[
        "connections.C1.background={\"kind\":\"on_off\",\"peak_mbps\":1,\"mean_on_ms\":0,\"mean_off_ms\":1}",
    ]);
    assert_problem(&p, "connections[0].background.mean_on_ms", "is out of range");
    assert_problem(&problems_after(&["links.L1.rate_mbps=0"]), "links[0].rate_mbps", "is out of range");
    assert_problem(&problems_after(&["nodes.SW1.buffer_cells=0.5"]), "nodes[2].buffer_cells", "is out of range");
    assert_problem(&problems_after(&["nodes.SW1.buffer_cells=10.5"]), "nodes[2].buffer_cells", "whole number");
    assert_problem(&problems_after(&["run.sample_interval_us=0"]), "run.sample_interval_us", "is out of range");
    assert_problem(&problems_after(&["connections.C1.stop_ms=3700000"]), "connections[0].stop_ms", "is out of range");
}

#[test]
fn a_key_twice_in_one_object_is_refused_with_its_place() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/two-sources.json"),
    )
    .unwrap();
    let dup = text.replacen("\"kind\": \"source\"", "\"kind\": \"source\", \"kind\": \"switch\"", 1);
    assert_ne!(dup, text);
    let p = parse(&dup).unwrap_err();
    assert_problem(&p, "nodes[0]", "the key 'kind' appears twice in one object");
}

#[test]
fn paths_longer_than_the_limit_are_refused() {
    use abr_sim::fields::MAX_PATH_NODES;
    // A chain of switches one longer than the limit allows.
    let n = MAX_PATH_NODES - 1;
    let mut nodes = vec![serde_json::json!({"id": "S", "kind": "source"})];
    let mut links = Vec::new();
    let mut prev = "S".to_string();
    for i in 0..n {
        let id = format!("W{i}");
        nodes.push(serde_json::json!({"id": id, "kind": "switch", "algorithm": "none"}));
        links.push(serde_json::json!({"id": format!("L{i}"), "from": prev, "to": id, "rate_mbps": 10, "delay_us": 1}));
        prev = id;
    }
    nodes.push(serde_json::json!({"id": "D", "kind": "destination"}));
    links.push(serde_json::json!({"id": "Lend", "from": prev, "to": "D", "rate_mbps": 10, "delay_us": 1}));
    let doc = serde_json::json!({"version": 1, "id": "chain", "run": {"duration_ms": 1}, "nodes": nodes, "links": links,
        "connections": [{"id": "C1", "from": "S", "to": "D"}]});
    let p = from_value(doc).unwrap_err();
    assert_problem(&p, "connections[0].path", &format!("visits {} nodes; at most {MAX_PATH_NODES}", n + 2));
}

#[test]
fn minimum_rates_that_no_link_can_carry_are_refused() {
    // Two sources with MCR 100 share the 155.52 Mbps link SW1 → SW2.
    let p = problems_after(&[
        "connections.C1.params.mcr_mbps=100",
        "connections.C1.params.icr_mbps=100",
        "connections.C2.params.mcr_mbps=100",
        "connections.C2.params.icr_mbps=100",
    ]);
    assert_problem(
        &p,
        "connections[1].params.mcr_mbps",
        "add up to 200 Mbps on link L3 (SW1 → SW2), more than its 155.52 Mbps",
    );
    // 70 + 70 fits.
    assert!(problems_after(&[
        "connections.C1.params.mcr_mbps=70",
        "connections.C1.params.icr_mbps=70",
        "connections.C2.params.mcr_mbps=70",
        "connections.C2.params.icr_mbps=70",
    ])
    .is_empty());
}

#[test]
fn wrong_types_and_unknown_fields_name_their_path() {
    assert_problem(
        &problems_after(&["run.duration_ms=\"fast\""]),
        "run.duration_ms",
        r#"must be a number, not the text "fast""#,
    );
    let p = problems_after(&["nodes.SW1.colour=\"red\""]);
    assert!(p.iter().any(|p| p.path.starts_with("nodes[2]") && p.rule.contains(r#"unknown field "colour""#)), "{p:?}");
    assert_problem(
        &problems_after(&["nodes.S1.kind=\"router\""]),
        "nodes[0].kind",
        r#"must be one of "source", "switch", "destination", not "router""#,
    );
}

/// A problem of shape (an unknown field, text for a number) no longer hides the others: the
/// file's every problem is said at once, shape first.
#[test]
fn shape_problems_do_not_hide_the_others() {
    let p = problems_after(&[
        "colour=\"red\"",
        "links.L1.rate_mbps=\"abc\"",
        "nodes.S1.size=3",
        "nodes.SW1.params.target_utilization=5",
        "connections.C2.to=\"D9\"",
        "defaults.source.icr_mbps=-1",
    ]);
    assert_problem(&p, "colour", r#"unknown field "colour""#);
    assert_problem(&p, "links[0].rate_mbps", r#"must be a number, not the text "abc""#);
    assert_problem(&p, "nodes[0].size", r#"unknown field "size""#);
    assert_problem(&p, "nodes[2].params.target_utilization", "out of range");
    assert_problem(&p, "connections[1].to", "no node has id 'D9'");
    assert_problem(&p, "defaults.source.icr_mbps", "out of range");
    assert_eq!(p.len(), 6, "{p:?}");
}

/// A long list reads in the file's order, whatever found each problem (the reading of shapes or
/// the range and reference rules): a file's keys keep their order, and problems are sorted by
/// the places they name.
#[test]
fn problems_come_in_the_order_of_the_file() {
    let text = std::fs::read_to_string(crate::common::library_path("two-sources")).unwrap();
    let edit = |text: String, from: &str, to: &str| {
        assert_eq!(text.matches(from).count(), 1, "{from}");
        text.replace(from, to)
    };
    let text = edit(text, r#""id": "two-sources","#, r#""id": "two-sources", "colour": "red","#);
    let text = edit(text, r#""duration_ms": 100"#, r#""duration_ms": -1"#);
    let text = edit(
        text,
        r#""id": "L2", "from": "S2", "to": "SW1", "rate_mbps": 155.52"#,
        r#""id": "L2", "from": "S2", "to": "SW1", "rate_mbps": "fast""#,
    );
    let text = edit(
        text,
        r#""id": "SW1", "kind": "switch", "algorithm": "erica""#,
        r#""id": "SW1", "kind": "switch", "algorithm": "erica", "size": 3"#,
    );
    let paths: Vec<String> = parse(&text).unwrap_err().into_iter().map(|p| p.path).collect();
    // colour (2nd key), run (9th), nodes[2] (11th), links[1] (12th): shape, rule, shape, shape.
    assert_eq!(paths, ["colour", "run.duration_ms", "nodes[2].size", "links[1].rate_mbps"]);
}

/// A problem inside a list's element names that element by its id too, for people (the lab's
/// problem list, abrsim), while `path` stays the JSON path the lab finds the field by.
#[test]
fn a_problem_names_the_element_it_is_in_by_its_id() {
    let mut doc = library_json("two-sources");
    apply_override(&mut doc, "links.L2.rate_mbps=0").unwrap();
    apply_override(&mut doc, "run.duration_ms=-1").unwrap();
    apply_override(&mut doc, "nodes.SW1.params.target_utilization=5").unwrap();
    let named: Vec<Problem> = from_value(doc.clone()).unwrap_err().into_iter().map(|p| p.named(&doc)).collect();
    let at = |path: &str| named.iter().find(|p| p.path == path).unwrap_or_else(|| panic!("{path}: {named:?}"));
    assert_eq!(at("links[1].rate_mbps").at.as_deref(), Some("links[1] (L2).rate_mbps"));
    assert_eq!(
        at("nodes[2].params.target_utilization").at.as_deref(),
        Some("nodes[2] (SW1).params.target_utilization")
    );
    assert!(at("links[1].rate_mbps").to_string().starts_with("links[1] (L2).rate_mbps: "));
    // Outside a list of elements with ids there is nothing more to say.
    assert_eq!(at("run.duration_ms").at, None);
    assert!(at("run.duration_ms").to_string().starts_with("run.duration_ms: "));
}

/// A field that must be there and does not read gets a stand-in so that reading goes on, and
/// the element holding it is not judged by the stand-in's figure; a field missing is said once.
#[test]
fn a_required_field_that_does_not_read_hides_nothing_else() {
    let p = problems_after(&["links.L1.rate_mbps=true", "nodes.SW1.params.target_utilization=5"]);
    assert_problem(&p, "links[0].rate_mbps", "must be a number, not true");
    assert_problem(&p, "nodes[2].params.target_utilization", "out of range");
    assert_eq!(p.len(), 2, "{p:?}");
    let mut doc = library_json("two-sources");
    doc["links"][1].as_object_mut().unwrap().remove("rate_mbps");
    doc["connections"][0]["behavior"] = serde_json::json!({"kind": "on_off", "of_ms": 5});
    let p = from_value(doc).unwrap_err();
    assert_problem(&p, "links[1]", r#"the field "rate_mbps" is missing"#);
    assert_problem(&p, "connections[0].behavior", r#"unknown field "of_ms" (the fields here: on_ms, off_ms)"#);
    assert_problem(&p, "connections[0].behavior", r#"the field "on_ms" is missing"#);
    assert_problem(&p, "connections[0].behavior", r#"the field "off_ms" is missing"#);
    assert_eq!(p.len(), 4, "{p:?}");
}

/// A rule that weighs a field against one that did not read (an ICR default against the PCR
/// an access link's rate gives) is not judged by the stand-in's figure either, however many
/// links stand in: two-sources' ICR of 25 Mbps would exceed a stand-in rate of 1 Mbps.
#[test]
fn a_rule_weighed_against_a_stand_in_waits() {
    for sets in [&["links.L1.rate_mbps=\"fast\""][..], &["links.L1.rate_mbps=\"fast\"", "links.L2.rate_mbps=\"fast\""]]
    {
        let p = problems_after(sets);
        assert_eq!(p.len(), sets.len(), "{sets:?}: {p:?}");
        assert!(p.iter().all(|p| p.rule == r#"must be a number, not the text "fast""#), "{p:?}");
    }
}

/// A stand-in for an id or a whole list would make the reference rules speak of what the user
/// did not write ("no node has id 'S1'"): they wait, and the reader is told so.
#[test]
fn reference_rules_wait_while_an_id_or_a_list_does_not_read() {
    for (set, path) in [("nodes.S1.id=5", "nodes[0].id"), ("links={}", "links"), ("nodes.SW1.kind=7", "nodes[2].kind")]
    {
        let p = problems_after(&[set, "connections.C2.to=\"D9\""]);
        assert_problem(&p, path, "must be");
        assert_problem(&p, "", "checked once the problems above are mended");
        assert_eq!(p.len(), 2, "{set}: {p:?}");
    }
}

/// In every library scenario, a field of no meaning added to any one object is that one
/// problem, at the object.
#[test]
fn any_one_unknown_field_is_one_problem_at_its_object() {
    fn objects(v: &serde_json::Value, path: String, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Array(a) => {
                a.iter().enumerate().for_each(|(i, e)| objects(e, format!("{path}[{i}]"), out));
            }
            serde_json::Value::Object(m) => {
                out.push(path.clone());
                for (key, e) in m {
                    objects(e, if path.is_empty() { key.clone() } else { format!("{path}.{key}") }, out);
                }
            }
            _ => {}
        }
    }
    let mut tried = 0;
    for name in
        ["two-sources-staggered", "gfc1", "vsvd-1", "tcp-over-abr", "fecn-hotspot", "parking-lot-3", "dishonest"]
    {
        let doc = library_json(name);
        let mut places = Vec::new();
        objects(&doc, String::new(), &mut places);
        for place in places.into_iter().filter(|p| !p.starts_with("sweep")) {
            let mut d = doc.clone();
            let pointer = format!("/{}", place.replace(['.', '['], "/").replace(']', ""));
            let object = if place.is_empty() { &mut d } else { d.pointer_mut(&pointer).unwrap() };
            object.as_object_mut().unwrap().insert("zz_extra".into(), serde_json::json!(1));
            let p = from_value(d).unwrap_err();
            assert!(p.len() == 1 && p[0].path.starts_with(&place), "{name}: zz_extra in {place:?}: {p:?}");
            tried += 1;
        }
    }
    assert!(tried > 100, "only {tried} objects tried");
}

/// In every library scenario, any one number turned into text is that one problem, at its
/// path: the stand-in put in its place leaves no trace in the other rules.
#[test]
fn any_one_number_given_as_text_is_one_problem_at_its_path() {
    fn numbers(v: &serde_json::Value, path: String, out: &mut Vec<(String, Vec<String>)>, keys: Vec<String>) {
        match v {
            serde_json::Value::Number(_) => out.push((path, keys)),
            serde_json::Value::Array(a) => {
                for (i, e) in a.iter().enumerate() {
                    let mut k = keys.clone();
                    k.push(i.to_string());
                    numbers(e, format!("{path}[{i}]"), out, k);
                }
            }
            serde_json::Value::Object(m) => {
                for (key, e) in m {
                    let mut k = keys.clone();
                    k.push(key.clone());
                    let p = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
                    numbers(e, p, out, k);
                }
            }
            _ => {}
        }
    }
    let mut tried = 0;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().to_str()?.strip_suffix(".json").map(str::to_string))
        .collect();
    names.sort();
    for name in &names {
        let doc = library_json(name);
        let mut leaves = Vec::new();
        numbers(&doc, String::new(), &mut leaves, Vec::new());
        // `version` is checked before anything else; a sweep's values may be of any type.
        leaves.retain(|(p, _)| p != "version" && !p.starts_with("sweep"));
        assert!(!leaves.is_empty(), "{name}");
        for (path, keys) in leaves {
            let mut d = doc.clone();
            let slot = keys.iter().fold(&mut d, |v, k| match k.parse::<usize>() {
                Ok(i) if v.is_array() => &mut v[i],
                _ => &mut v[k.as_str()],
            });
            *slot = serde_json::Value::String("abc".into());
            let p = from_value(d).unwrap_err();
            assert!(
                p.len() == 1 && p[0].path == path && p[0].rule.starts_with("must be a"),
                "{name}: {path} given as text: {p:?}"
            );
            tried += 1;
        }
    }
    assert!(names.len() > 40 && tried > 1000, "only {tried} numbers tried");
}

#[test]
fn an_epd_threshold_above_the_buffer_is_refused() {
    assert_problem(
        &problems_after(&["nodes.SW1.buffer_cells=500", "nodes.SW1.epd_threshold_cells=600"]),
        "nodes[2].epd_threshold_cells",
        "epd_threshold_cells = 600 must be at most the buffer (500 cells)",
    );
    assert!(problems_after(&["nodes.SW1.buffer_cells=500", "nodes.SW1.epd_threshold_cells=500"]).is_empty());
}

#[test]
fn stop_before_start_is_refused() {
    assert_problem(
        &problems_after(&["connections.C1.start_ms=50", "connections.C1.stop_ms=20"]),
        "connections[0].stop_ms",
        "must be after start_ms",
    );
}

#[test]
fn broken_json_and_future_versions_get_a_clear_message() {
    let p = parse("{\"version\": 1, \"id\": ").unwrap_err();
    assert!(p[0].rule.starts_with("not valid JSON"), "{p:?}");
    // The path names where the parser got to, without the `?` of a key it never read.
    assert_problem(&parse("{\"version\": 1,\n \"id\": \"x\",,}").unwrap_err(), "", "key must be a string at line 2");
    assert_problem(&parse("{\"run\": {\"duration_ms\": 5,}}").unwrap_err(), "run", "trailing comma");
    // A file saved with a byte-order mark reads as without it.
    let text =
        std::fs::read_to_string(format!("{}/../../scenarios/two-sources.json", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert_eq!(parse(&format!("\u{feff}{text}")).unwrap().id, "two-sources");
    assert_problem(&problems_after(&["version=2"]), "version", "unsupported scenario version 2");
}

#[test]
fn overrides_address_list_elements_by_id_and_report_missing_ones() {
    let mut doc = library_json("two-sources");
    apply_override(&mut doc, "nodes.SW1.params.target_utilization=0.95").unwrap();
    assert_eq!(doc["nodes"][2]["params"]["target_utilization"], 0.95);
    let err = apply_override(&mut doc, "nodes.SW7.algorithm=erica").unwrap_err();
    assert!(err.contains("no element with id 'SW7'"), "{err}");
    assert!(apply_override(&mut doc, "run.duration_ms").unwrap_err().contains("PATH=VALUE"));
}

#[test]
fn an_indexed_key_is_refused_with_the_form_to_write() {
    // `links[0]` would become a new top-level field, refused as unknown but named after the
    // link it looks like ("links[0] (L1): unknown field") — neither says what to write.
    let mut doc = library_json("two-sources");
    let err = apply_override(&mut doc, "links[0].delay_us=100").unwrap_err();
    assert!(err.contains("'links[0]' is not a key") && err.contains("links.<id> or links.0"), "{err}");
    assert_eq!(doc, library_json("two-sources"), "a refused override leaves the document as it was");
    apply_override(&mut doc, "links.0.delay_us=100").unwrap();
    assert_eq!(doc["links"][0]["delay_us"], 100);
}

#[test]
fn setting_a_links_delay_takes_the_other_way_of_giving_it_away() {
    // gfc1 gives its links in kilometres; a delay sweep sets delay_us, which means the link's
    // delay, not "both, refused".
    let mut doc = library_json("gfc1");
    let index = doc["links"].as_array().unwrap().iter().position(|l| l.get("distance_km").is_some()).unwrap();
    let id = doc["links"][index]["id"].as_str().unwrap().to_string();
    let km = doc["links"][index]["distance_km"].as_f64().unwrap();
    let notes = apply_override_noting(&mut doc, &format!("links.{id}.delay_us=250")).unwrap();
    assert_eq!(doc["links"][index]["delay_us"], 250);
    assert!(doc["links"][index].get("distance_km").is_none());
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].contains(&format!("links.{id}.distance_km ({km} km)")) && notes[0].contains("delay_us"),
        "{notes:?}"
    );
    let scenario = from_value(doc.clone()).expect("the scenario is valid again");
    let link = scenario.links.iter().find(|l| l.id == id).unwrap();
    assert_eq!(link.delay_us(), 250.0);
    // And back: kilometres take the microseconds away.
    let notes = apply_override_noting(&mut doc, &format!("links.{id}.distance_km=2")).unwrap();
    assert!(doc["links"][index].get("delay_us").is_none() && notes[0].contains("delay_us (250 µs)"), "{notes:?}");
    // Every link at once; links that gave delay_us already lose nothing and say nothing.
    let mut all = library_json("gfc1");
    let had_km = all["links"].as_array().unwrap().iter().filter(|l| l.get("distance_km").is_some()).count();
    let notes = apply_override_noting(&mut all, "links.*.delay_us=5").unwrap();
    assert_eq!(notes.len(), had_km, "{notes:?}");
    assert!(from_value(all).is_ok());
    // Another field of a link leaves both alone.
    let mut other = library_json("gfc1");
    assert!(apply_override_noting(&mut other, &format!("links.{id}.rate_mbps=100")).unwrap().is_empty());
    assert_eq!(other["links"][index]["distance_km"], km);
}

#[test]
fn an_id_with_dots_is_addressed_whole() {
    let mut doc = library_json("two-sources");
    apply_override(&mut doc, "nodes.SW1.id=\"core.SW1\"").unwrap();
    for link in doc["links"].as_array_mut().unwrap() {
        for end in ["from", "to"] {
            if link[end] == "SW1" {
                link[end] = serde_json::json!("core.SW1");
            }
        }
    }
    apply_override(&mut doc, "nodes.core.SW1.algorithm=ut").unwrap();
    apply_override(&mut doc, "nodes.core.SW1.params.target_utilization=0.8").unwrap();
    assert_eq!(
        (&doc["nodes"][2]["algorithm"], &doc["nodes"][2]["params"]["target_utilization"]),
        (&serde_json::json!("ut"), &serde_json::json!(0.8))
    );
    assert!(from_value(doc.clone()).is_ok());
    let err = apply_override(&mut doc, "nodes.core.SW9.algorithm=ut").unwrap_err();
    assert!(err.contains("no element with id 'core'"), "{err}");
}

#[test]
fn a_star_sets_every_switch_and_a_new_algorithm_keeps_only_its_own_parameters() {
    let mut doc = library_json("gfc1");
    apply_override(&mut doc, "nodes.SW1.params.target_utilization=0.9").unwrap();
    apply_override(&mut doc, "nodes.*.algorithm=erica").unwrap();
    let switches: Vec<&serde_json::Value> =
        doc["nodes"].as_array().unwrap().iter().filter(|n| n["kind"] == "switch").collect();
    assert_eq!(switches.len(), 5);
    for sw in &switches {
        assert_eq!(sw["algorithm"], "erica");
        // ERICA+'s queue target means nothing to ERICA; a parameter they share survives.
        let params = sw["params"].as_object().map(|p| p.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
        assert!(!params.contains(&"target_delay_us".to_string()), "{params:?}");
    }
    assert_eq!(switches[0]["params"]["target_utilization"], 0.9);
    assert!(doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] != "switch")
        .all(|n| n.get("algorithm").is_none()));
    assert!(from_value(doc).is_ok(), "ERICA on every switch of GFC-1 is valid");

    // Setting the same algorithm again keeps every parameter.
    let mut doc = library_json("gfc1");
    let before = doc["nodes"].clone();
    apply_override(&mut doc, "nodes.*.algorithm=erica_plus").unwrap();
    assert_eq!(doc["nodes"], before);

    // A star over a list with nothing to set says so.
    let mut doc = library_json("two-sources");
    doc["virtual_paths"] = serde_json::json!([]);
    let err = apply_override(&mut doc, "virtual_paths.*.to=\"D1\"").unwrap_err();
    assert!(err.contains("has no element"), "{err}");
}

#[test]
fn a_star_over_a_list_the_file_does_not_have_names_the_list() {
    // two-sources has no `changes` and no `virtual_paths`: the override used to make each an
    // object with a "*" key, refused as "changes: invalid type: map, expected a sequence".
    for set in ["changes.*.value=0.5", "virtual_paths.*.service=abr"] {
        let mut doc = library_json("two-sources");
        let err = apply_override(&mut doc, set).unwrap_err();
        let list = set.split('.').next().unwrap();
        assert!(err.contains(&format!("the scenario has no '{list}'")), "{err}");
        assert!(doc.get(list).is_none(), "nothing is added: {doc}");
    }
}

#[test]
fn a_compare_variant_applies_its_overrides_and_keeps_the_topology() {
    let mut doc = library_json("two-sources");
    let sets = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    apply_variant(&mut doc, &sets(&["nodes.*.algorithm=erica_plus", "run.seed=7"])).unwrap();
    assert_eq!(doc["nodes"][2]["algorithm"], "erica_plus");
    assert_eq!(doc["run"]["seed"], 7);
    // Every override that does not apply is named; an id change is refused as a topology change.
    let err = apply_variant(&mut library_json("two-sources"), &sets(&["nodes.SW9.algorithm=erica", "run..seed=1"]))
        .unwrap_err();
    assert_eq!(err.len(), 2, "{err:?}");
    assert!(err[0].contains("no element with id 'SW9'") && err[1].contains("empty key"), "{err:?}");
    // A value out of range is named with the override that does not apply, not only once that
    // one is mended.
    let err = apply_variant(
        &mut library_json("two-sources"),
        &sets(&["nodes.SW9.algorithm=erica", "nodes.SW1.params.target_utilization=7"]),
    )
    .unwrap_err();
    assert_eq!(err.len(), 2, "{err:?}");
    assert!(err[0].contains("no element with id 'SW9'"), "{err:?}");
    assert!(err[1].contains("target_utilization") && err[1].contains("between 0.1 and 1"), "{err:?}");
    let err = apply_variant(&mut library_json("two-sources"), &sets(&["nodes.SW2.id=SW9"])).unwrap_err();
    assert!(err[0].contains("may not change the node or link ids"), "{err:?}");
    let err = apply_variant(&mut library_json("two-sources"), &sets(&["links.0.id=\"L9\""])).unwrap_err();
    assert!(err[0].contains("may not change the node or link ids"), "{err:?}");
}

/// A parameter one override sets and a later one takes away (a switch given an algorithm that
/// has no such parameter keeps only its own) is said, naming both; the other order, or a
/// parameter the file gave, says nothing.
#[test]
fn a_parameter_set_and_then_taken_away_by_a_later_override_is_said() {
    let sets = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut doc = library_json("two-sources");
    let notes = apply_variant(
        &mut doc,
        &sets(&[
            "nodes.SW1.params.target_utilization=0.8",
            "nodes.*.params.target_utilization=0.7",
            "nodes.SW2.algorithm=eprca",
        ]),
    )
    .unwrap();
    assert_eq!(
        notes,
        ["nodes.*.params.target_utilization=0.7 is undone by nodes.SW2.algorithm=eprca: SW2 now runs EPRCA, which has no target_utilization"],
        "SW1 keeps 0.7; SW2's is gone"
    );
    assert_eq!(doc["nodes"][2]["params"]["target_utilization"], 0.7);
    assert!(doc["nodes"][3]["params"].get("target_utilization").is_none(), "{doc}");
    let notes = apply_variant(
        &mut library_json("two-sources"),
        &sets(&["nodes.SW1.params.target_utilization=0.8", "nodes.SW1.params={}"]),
    )
    .unwrap();
    assert_eq!(notes, ["nodes.SW1.params.target_utilization=0.8 is undone by nodes.SW1.params={}: SW1's params no longer hold target_utilization"]);
    // The algorithm first: the parameter is set on the algorithm that has it (or refused).
    let none = apply_variant(
        &mut library_json("two-sources"),
        &sets(&["nodes.SW1.algorithm=erica_plus", "nodes.SW1.params.target_delay_us=500"]),
    )
    .unwrap();
    assert!(none.is_empty(), "{none:?}");
    // A parameter only the file gave goes with its algorithm as before, unsaid.
    let mut doc = library_json("two-sources");
    apply_override(&mut doc, "nodes.SW1.params.target_utilization=0.8").unwrap();
    let file = doc.clone();
    let notes = apply_variant(&mut doc, &sets(&["nodes.SW1.algorithm=eprca"])).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    // But one typed equal to the file's value is the override's as much as any other value.
    for typed in ["nodes.SW1.params.target_utilization=0.8", "nodes.SW1.params={\"target_utilization\":0.8}"] {
        let notes = apply_variant(&mut file.clone(), &sets(&[typed, "nodes.SW1.algorithm=eprca"])).unwrap();
        assert_eq!(
            notes,
            [format!(
                "{typed} is undone by nodes.SW1.algorithm=eprca: SW1 now runs EPRCA, which has no target_utilization"
            )]
        );
    }
    // An override elsewhere writes no parameter, whatever it sets.
    let notes = apply_variant(&mut file.clone(), &sets(&["run.seed=3", "nodes.SW1.algorithm=eprca"])).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
}

/// `reference` (published figures): every entry names an element that exists, a quantity that
/// element has, a finite value, a tolerance in range and a source; unknown fields are refused.
#[test]
fn a_published_figure_about_a_missing_element_or_quantity_is_named() {
    let figure = |about: &str, quantity: &str, extra: &str| {
        format!(r#"reference=[{{"about":{about},"quantity":"{quantity}","published":10,"source":"Fig. 1"{extra}}}]"#)
    };
    assert!(problems_after(&[&figure(r#"{"connection":"C1"}"#, "mean_rate_mbps", "")]).is_empty());
    assert!(problems_after(&[&figure(r#"{"port":"SW1->SW2"}"#, "mean_queue_cells", "")]).is_empty());
    assert!(problems_after(&[&figure(r#""network""#, "jain_index", r#","tolerance":0.05"#)]).is_empty());
    let p = problems_after(&[&figure(r#"{"connection":"C9"}"#, "mean_rate_mbps", "")]);
    assert_problem(&p, "reference[0].about.connection", "no connection has id 'C9'");
    let p = problems_after(&[&figure(r#"{"group":"A"}"#, "mean_rate_mbps", "")]);
    assert_problem(&p, "reference[0].about.group", "no connection has group 'A'");
    let p = problems_after(&[&figure(r#"{"port":"S1->SW1"}"#, "max_queue_cells", "")]);
    assert_problem(&p, "reference[0].about.port", "no switch output port 'S1->SW1'");
    let p = problems_after(&[&figure(r#"{"link":"L9"}"#, "utilization", "")]);
    assert_problem(&p, "reference[0].about.link", "no link has id 'L9'");
    let p = problems_after(&[&figure(r#"{"connection":"C1"}"#, "mean_queue_cells", "")]);
    assert_problem(&p, "reference[0].quantity", "a connection has no mean_queue_cells");
    let p = problems_after(&[&figure(r#"{"connection":"C1"}"#, "mean_rate_mbps", r#","tolerance":-1"#)]);
    assert_problem(&p, "reference[0].tolerance", "between 0 and 10");
    let p =
        problems_after(&[&figure(r#"{"connection":"C1"}"#, "mean_rate_mbps", r#","source":" ""#)
            .replace(r#""source":"Fig. 1","#, "")]);
    assert_problem(&p, "reference[0].source", "name the figure or table");
    let p = problems_after(&[&figure(r#"{"connection":"C1"}"#, "mean_rate_mbps", r#","note":"x""#)]);
    assert_problem(&p, "reference[0].note", r#"unknown field "note""#);
    let p = problems_after(&[&figure(r#"{"connection":"C1"}"#, "rate", "")]);
    assert_problem(&p, "reference[0].quantity", r#"not "rate""#);
}

/// QA: core-edge's verdict cells read "–" with nothing to say why. A figure without a tolerance
/// may say why in words; one with a tolerance may not also say it has none, nor say nothing.
#[test]
fn a_published_figure_says_why_it_has_no_tolerance_or_has_one() {
    let figure = |extra: &str| {
        format!(
            r#"reference=[{{"about":{{"connection":"C1"}},"quantity":"mean_rate_mbps","published":10,"source":"Fig. 1"{extra}}}]"#
        )
    };
    assert!(problems_after(&[&figure(r#","no_tolerance_reason":"the max-min allocation""#)]).is_empty());
    let p = problems_after(&[&figure(r#","tolerance":0.05,"no_tolerance_reason":"none""#)]);
    assert_problem(&p, "reference[0].no_tolerance_reason", "give one or the other");
    let p = problems_after(&[&figure(r#","no_tolerance_reason":" ""#)]);
    assert_problem(&p, "reference[0].no_tolerance_reason", "say why");
}

fn lesson_problems(lesson: &str) -> Vec<Problem> {
    problems_after(&[&format!("lesson={lesson}")])
}

#[test]
fn a_lesson_with_steps_is_read_and_a_plain_lesson_stays_text() {
    let steps = r#"{"text":"watch","steps":[{"at_ms":0,"prompt":"a"},{"at_ms":50,"prompt":"b","reveal":"c","highlight":{"series":"SW1->SW2"}},{"at_ms":100,"prompt":"d","highlight":{"node":"SW1"}}]}"#;
    assert_eq!(lesson_problems(steps), vec![]);
    let mut doc = library_json("two-sources");
    apply_override(&mut doc, &format!("lesson={steps}")).unwrap();
    let s = from_value(doc).unwrap();
    assert_eq!(s.lesson.text(), "watch");
    assert_eq!(s.lesson.steps().len(), 3);
    let plain = from_value(library_json("two-sources")).unwrap();
    assert!(serde_json::to_value(&plain).unwrap()["lesson"].is_string());
}

#[test]
fn lesson_steps_are_checked_field_by_field() {
    let p =
        lesson_problems(r#"{"steps":[{"at_ms":-1,"prompt":"c"},{"at_ms":60,"prompt":"a"},{"at_ms":40,"prompt":" "}]}"#);
    assert_problem(&p, "lesson.steps[0].at_ms", "0 ms or more");
    assert_problem(&p, "lesson.steps[2].at_ms", "after the step before it (lesson.steps[1].at_ms = 60)");
    assert_problem(&p, "lesson.steps[2].prompt", "needs a prompt");
    assert_eq!(p.len(), 3, "{p:?}");
    // A run shortened below a step (an edit, a sweep of durations) keeps its lesson.
    assert_eq!(lesson_problems(r#"{"steps":[{"at_ms":50,"prompt":"a"},{"at_ms":500,"prompt":"b"}]}"#), vec![]);
    let p = lesson_problems(
        r#"{"steps":[{"at_ms":1,"prompt":"a","highlight":{"node":"SW9"}},{"at_ms":2,"prompt":"b","highlight":{"series":"C7"}},{"at_ms":3,"prompt":"c","reveal":""}]}"#,
    );
    assert_problem(&p, "lesson.steps[0].highlight.node", "no node has id 'SW9'");
    assert_problem(&p, "lesson.steps[1].highlight.series", "'C7' is no connection");
    assert_problem(&p, "lesson.steps[2].reveal", "must not be empty");
    assert_problem(&lesson_problems(r#"{"steps":[]}"#), "lesson.steps", "at least one step");
}

#[test]
fn unknown_lesson_fields_and_charts_are_refused_with_their_path() {
    assert_problem(
        &lesson_problems(r#"{"steps":[{"at_ms":1,"prompt":"a","pause":true}]}"#),
        "lesson.steps[0].pause",
        r#"unknown field "pause""#,
    );
    assert_problem(
        &lesson_problems(r#"{"steps":[{"at_ms":1,"prompt":"a","highlight":{"chart":"speed"}}]}"#),
        "lesson.steps[0].highlight.chart",
        r#"not "speed""#,
    );
    assert_problem(&lesson_problems(r#"{"txt":"a","steps":[]}"#), "lesson.txt", r#"unknown field "txt""#);
    assert_problem(&lesson_problems("3"), "lesson", "the lesson's text, or an object");
}

/// The summary's means need two samples in the steady-state window (from `steady_from_ms`,
/// two thirds of the run by default, to the end); samples fall on multiples of the interval.
/// two-sources runs 100 ms, so its window starts at 66.667 ms. Too few is no error (the run is
/// fine to watch), but the summary says why its means are missing.
#[test]
fn a_steady_window_without_two_samples_is_noted() {
    let note =
        |overrides: &[&str]| abr_sim::validate::steady_window_note(&crate::common::load("two-sources", overrides));
    // Samples at 0, 20, …, 100 ms: 80 and 100 are in the window.
    assert_eq!(note(&["run.sample_interval_us=20000"]), None);
    // Samples at 0, 40, 80 ms: only 80.
    let n = note(&["run.sample_interval_us=40000"]).expect("a note");
    assert!(n.contains("from 66.667 ms (two thirds of the run) to the run's end at 100 ms, holds 1 sample "), "{n}");
    assert!(n.contains("at most 16666.667 µs"), "{n}");
    // Longer than the run: only the sample at 0.
    assert!(note(&["run.sample_interval_us=200000"]).expect("a note").contains("holds 0 samples"));
    // A window from 90 ms holds 90, 95 and 100; from 96 ms only 100.
    assert_eq!(note(&["run.sample_interval_us=5000", "run.steady_from_ms=90"]), None);
    assert!(note(&["run.sample_interval_us=5000", "run.steady_from_ms=96"])
        .expect("a note")
        .contains("from 96 ms (run.steady_from_ms)"));
    // A window starting at a sample's time (to the picosecond) holds it: 80 and 100.
    assert_eq!(note(&["run.sample_interval_us=20000", "run.steady_from_ms=80"]), None);
    // No library scenario has one.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let s = parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert_eq!(abr_sim::validate::steady_window_note(&s), None, "{}", s.id);
        }
    }
}

/// The note reaches the summary, whose means are then null; a run with its two samples has none.
#[test]
fn a_summary_without_means_says_why() {
    let summary = |overrides: &[&str]| crate::common::run(crate::common::load("two-sources", overrides)).1;
    let sparse = summary(&["run.sample_interval_us=40000"]);
    assert_eq!(sparse.connections[0].mean_rate_mbps, None);
    assert_eq!(sparse.notes.len(), 1);
    assert!(sparse.notes[0].starts_with("no means:"));
    let dense = summary(&["run.sample_interval_us=20000"]);
    assert!(dense.connections[0].mean_rate_mbps.is_some());
    assert!(dense.notes.is_empty());
}

/// Binary feedback (EFCI, EPRCA) with the format's RIF = 1 swings far above the shares: the
/// summary says so, and how to run the scheme as TM 4.0 defines it (RIF = 1/16).
#[test]
fn binary_feedback_with_a_large_rif_is_noted() {
    let note = |overrides: &[&str]| abr_sim::validate::binary_rif_note(&crate::common::load("two-sources", overrides));
    let efci = ["nodes.SW1.algorithm=\"efci\"", "nodes.SW1.params={}"];
    let n = note(&efci).expect("a note");
    assert!(n.starts_with("binary feedback at SW1 with RIF = 1:"), "{n}");
    assert!(n.contains("defaults.source.rif = 0.0625 runs the scheme as TM 4.0 defines it"), "{n}");
    assert_eq!(note(&[&efci[..], &["defaults.source.rif=0.0625"]].concat()), None);
    assert_eq!(
        note(&["nodes.SW2.algorithm=\"eprca\"", "nodes.SW2.params={}", "connections.C1.params.rif=0.5"])
            .map(|n| n.contains("SW2 with RIF = 1")),
        Some(true)
    );
    assert_eq!(note(&[]), None); // ERICA: explicit rates, RIF is no matter
    let (_, summary) =
        crate::common::run(crate::common::load("two-sources", &[&efci[..], &["run.duration_ms=5"]].concat()));
    assert!(summary.notes.iter().any(|n| n.starts_with("binary feedback")), "{:?}", summary.notes);
}

/// A flow sends FECN's rate-discovery tags only when its route crosses a FECN switch, so a
/// `tag_interval_us` where none does changes nothing (qcn-hotspot and fqcn-hotspot carried one
/// in their defaults). The file still loads and runs — a note, not a problem — and the note
/// names the field and the rule; the library sets none in vain.
#[test]
fn a_tag_interval_no_fecn_switch_reads_is_noted_not_refused() {
    use abr_sim::validate::tag_interval_notes;
    let notes = |name: &str, overrides: &[&str]| tag_interval_notes(&crate::common::load(name, overrides));
    let flow = notes("qcn-hotspot", &["connections.F1.params.tag_interval_us=500"]);
    assert_eq!(flow.len(), 1, "{flow:?}");
    assert!(flow[0].starts_with("connections[1] (F1).params.tag_interval_us: changes nothing"), "{flow:?}");
    assert!(flow[0].contains("only when its route crosses a switch running FECN"), "{flow:?}");
    assert!(flow[0].ends_with("its route (EP1 → SW1 → EP4) crosses none (SW1 runs QCN)"), "{flow:?}");
    let defaults = notes("qcn-hotspot", &["defaults.source.tag_interval_us=500"]);
    assert_eq!(defaults.len(), 1, "{defaults:?}");
    assert!(defaults[0].starts_with("defaults.source.tag_interval_us: changes nothing"), "{defaults:?}");
    // Through a FECN switch the interval is the flow's own: nothing to say.
    let fecn = ["nodes.SW1.algorithm=\"fecn\"", "nodes.SW1.params={}"];
    assert_eq!(notes("qcn-hotspot", &[&fecn[..], &["connections.F1.params.tag_interval_us=500"]].concat()), [""; 0]);
    assert_eq!(notes("qcn-hotspot", &[&fecn[..], &["defaults.source.tag_interval_us=500"]].concat()), [""; 0]);
    // Dead indeed: the run is the same to the digest, and its summary carries the note.
    let short = ["run.duration_ms=20", "run.steady_from_ms=null"];
    let (_, plain) = crate::common::run(crate::common::load("qcn-hotspot", &short));
    let (_, tagged) = crate::common::run(crate::common::load(
        "qcn-hotspot",
        &[&short[..], &["defaults.source.tag_interval_us=10"]].concat(),
    ));
    assert_eq!((&plain.digest, plain.events), (&tagged.digest, tagged.events));
    assert!(plain.notes.is_empty(), "{:?}", plain.notes);
    assert_eq!(tagged.notes, notes("qcn-hotspot", &["defaults.source.tag_interval_us=10"]));
    // ATM sources have no such parameter: refused as before, not noted.
    assert!(!problems_after(&["defaults.source.tag_interval_us=500"]).is_empty());
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let s = parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert_eq!(tag_interval_notes(&s), [""; 0], "{}", s.id);
        }
    }
}

#[test]
fn a_new_algorithm_drops_the_recorded_changes_of_parameters_it_does_not_have_and_says_so() {
    let mut doc = library_json("two-sources");
    doc["changes"] = serde_json::json!([
        { "at_ms": 20, "node": "SW1", "param": "target_utilization", "value": 0.6 },
        { "at_ms": 30, "node": "SW1", "param": "delta", "value": 0.2 },
        { "at_ms": 40, "node": "SW2", "param": "delta", "value": 0.3 },
    ]);
    assert!(from_value(doc.clone()).is_ok());

    // Uniform Tracking shares ERICA's target_utilization, not its delta: SW1's delta goes,
    // SW2 (still ERICA) keeps its own.
    let notes = apply_override_noting(&mut doc, "nodes.SW1.algorithm=ut").unwrap();
    assert_eq!(
        notes,
        ["SW1 now runs Uniform Tracking: its recorded change of delta at 30 ms is dropped (Uniform Tracking has no such parameter)"]
    );
    let kept: Vec<(&str, &str)> = doc["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["node"].as_str().unwrap(), c["param"].as_str().unwrap()))
        .collect();
    assert_eq!(kept, [("SW1", "target_utilization"), ("SW2", "delta")]);
    assert!(from_value(doc.clone()).is_ok(), "the scenario it makes runs");

    // Every switch to EFCI: every change goes, named per switch; the same algorithm again
    // drops nothing.
    let mut doc2 = doc.clone();
    let notes = apply_variant(&mut doc2, &["nodes.*.algorithm=efci".into()]).unwrap();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0]
            .starts_with("SW1 now runs EFCI marking: its recorded change of target_utilization at 20 ms is dropped"),
        "{notes:?}"
    );
    assert!(notes[1].starts_with("SW2 now runs EFCI marking: its recorded change of delta at 40 ms"), "{notes:?}");
    assert_eq!(doc2["changes"], serde_json::json!([]));
    assert!(apply_override_noting(&mut doc, "nodes.SW1.algorithm=ut").unwrap().is_empty());

    // A change the file got wrong by itself is not the override's to drop: still refused.
    let mut doc = library_json("two-sources");
    doc["changes"] = serde_json::json!([{ "at_ms": 20, "node": "SW2", "param": "gain", "value": 0.5 }]);
    assert!(apply_override_noting(&mut doc, "nodes.SW1.algorithm=ut").unwrap().is_empty());
    assert!(from_value(doc).is_err());
}

/// serde reads a struct from a list by position, so `"run": [10]` loaded as
/// `{ "duration_ms": 10 }`, round the unknown-field check. Every place that takes an object
/// refuses a list, naming the place.
#[test]
fn a_list_where_an_object_belongs_is_refused_naming_the_field() {
    let cases = [
        ("run=[10]", "run"),
        ("defaults=[{\"icr_mbps\": 25}]", "defaults"),
        ("defaults.source=[25]", "defaults.source"),
        ("nodes.S1=[\"S1\", \"source\"]", "nodes[0]"),
        ("nodes.SW1.params=[0.9]", "nodes[2].params"),
        ("links.L1=[\"L1\", \"S1\", \"SW1\", 155.52, 5]", "links[0]"),
        ("connections.C1=[\"C1\", \"S1\", \"D1\"]", "connections[0]"),
        ("connections.C1.params=[100]", "connections[0].params"),
        ("connections.C1.behavior=[\"on_off\", 10, 10]", "connections[0].behavior"),
        ("connections.C1.background=[\"cbr\", 10]", "connections[0].background"),
        ("connections.C1.tcp=[1460]", "connections[0].tcp"),
        ("connections.C1.traffic=[\"bernoulli\", 50]", "connections[0].traffic"),
        ("changes=[[10, \"SW1\", \"target_utilization\", 0.8]]", "changes[0]"),
        ("virtual_paths=[[\"VP1\", [\"C1\"], \"SW1\", \"SW2\"]]", "virtual_paths[0]"),
        ("ethernet=[1500]", "ethernet"),
        ("sweep=[[]]", "sweep"),
        ("sweep={\"vary\": [[\"x\", [\"run.seed\"], null, [1, 2]]]}", "sweep.vary[0]"),
        ("reference=[[{\"connection\": \"C1\"}, \"mean_rate_mbps\", 70, null, \"Fig. 1\"]]", "reference[0]"),
        (
            "reference=[{\"about\": [\"connection\", \"C1\"], \"quantity\": \"mean_rate_mbps\", \"published\": 70, \"source\": \"Fig. 1\"}]",
            "reference[0].about",
        ),
        ("lesson=[\"watch S1\"]", "lesson"),
        ("lesson={\"steps\": [[10, \"What next?\"]]}", "lesson.steps[0]"),
        (
            "lesson={\"steps\": [{\"at_ms\": 10, \"prompt\": \"What next?\", \"highlight\": [\"node\", \"SW1\"]}]}",
            "lesson.steps[0].highlight",
        ),
    ];
    for (set, path) in cases {
        let problems = problems_after(&[set]);
        assert_problem(&problems, path, "not a list");
        // One problem of shape; the rules after it may wait for the shape to be mended.
        let shape: Vec<_> = problems.iter().filter(|p| !p.path.is_empty()).collect();
        assert_eq!(shape.len(), 1, "{set}: {problems:?}");
    }
}

/// The lists the format has still load, and a sweep value may itself be a list (a path).
#[test]
fn the_formats_own_lists_still_load() {
    let p = problems_after(&[
        "connections.C1.path=[\"S1\", \"SW1\", \"SW2\", \"D1\"]",
        "changes=[{\"at_ms\": 10, \"node\": \"SW1\", \"param\": \"target_utilization\", \"value\": 0.8}]",
        "lesson={\"text\": \"t\", \"steps\": [{\"at_ms\": 10, \"prompt\": \"p\", \"highlight\": {\"chart\": \"rate\"}}]}",
        "reference=[{\"about\": \"network\", \"quantity\": \"jain_index\", \"published\": 1, \"source\": \"Fig. 1\"}]",
        "sweep={\"vary\": [{\"paths\": [\"connections.C1.path\"], \"values\": [[\"S1\", \"SW1\", \"SW2\", \"D1\"]]}]}",
    ]);
    assert!(p.is_empty(), "{p:?}");
}

/// A recorded change with two problems named only the first (`check_change` returned at the
/// first rule broken): each is named, at its own field.
#[test]
fn a_change_with_several_problems_names_each() {
    let changes = r#"changes=[
        {"at_ms": -5, "node": "SW9", "param": "target_utilization", "value": 0.9},
        {"at_ms": 1e9, "node": "SW1", "param": "speed", "value": 1},
        {"at_ms": -1, "node": "SW1", "param": "target_utilization", "value": 7},
        {"at_ms": -1, "node": "S1", "param": "target_utilization", "value": 0.9}
    ]"#;
    let p = problems_after(&[changes]);
    for (path, rule) in [
        ("changes[0].at_ms", "must be within the run"),
        ("changes[0].node", "no node has id 'SW9'"),
        ("changes[1].at_ms", "must be within the run"),
        ("changes[1].param", "'speed' is not a parameter of ERICA"),
        ("changes[2].at_ms", "must be within the run"),
        ("changes[2].value", "between 0.1 and 1"),
        ("changes[3].at_ms", "must be within the run"),
        ("changes[3].node", "'S1' is not a switch"),
    ] {
        assert_problem(&p, path, rule);
    }
    assert_eq!(p.len(), 8, "{p:?}");
}

/// A link rate or a PCR out of range is one problem, at its field: ICR (25 Mbps by default)
/// was also said to exceed "pcr_mbps = 0, the rate of its access link", a problem of
/// `defaults.source.icr_mbps` that mending the link mends.
#[test]
fn an_out_of_range_pcr_or_access_link_rate_does_not_also_blame_icr() {
    for (set, path) in [
        ("links.L1.rate_mbps=0", "links[0].rate_mbps"),
        ("links.L1.rate_mbps=-1", "links[0].rate_mbps"),
        ("connections.C1.params.pcr_mbps=0", "connections[0].params.pcr_mbps"),
    ] {
        let p = problems_after(&[set]);
        assert_eq!(p.len(), 1, "{set}: {p:?}");
        assert_problem(&p, path, "out of range");
    }
}

/// A one-field object naming a choice (a lesson step's `highlight`, a figure's `about`) with a
/// wrong value is one problem, at that value: it was also said, at the object, that it "must be
/// map with a single key, not an object" (serde's words about the `{}` left once the value was
/// taken out to read on); an object of two fields or none says so in the file's words.
#[test]
fn a_wrong_value_in_a_one_field_choice_is_one_problem_in_the_files_words() {
    let problems = |set: &str| {
        let mut doc = library_json("two-sources");
        apply_override(&mut doc, "lesson={\"text\":\"t\",\"steps\":[{\"at_ms\":50,\"prompt\":\"p\"}]}").unwrap();
        apply_override(&mut doc, set).unwrap();
        from_value(doc).err().unwrap_or_default()
    };
    // Besides the note that ranges and references wait for the problems to be mended.
    let own = |p: &[Problem]| p.iter().filter(|p| !p.rule.starts_with("ranges and references")).count();
    let p = problems("lesson.steps.0.highlight={\"chart\":\"nope\"}");
    assert_eq!(own(&p), 1, "{p:?}");
    assert_problem(&p, "lesson.steps[0].highlight.chart", "must be one of \"rate\", \"queue\"");
    let p = problems(
        "reference=[{\"about\":{\"connection\":5},\"quantity\":\"mean_rate_mbps\",\"published\":1,\"source\":\"s\"}]",
    );
    assert_eq!(own(&p), 1, "{p:?}");
    assert_problem(&p, "reference[0].about.connection", "must be text in quotes, not 5");
    for two in ["{\"chart\":\"rate\",\"node\":\"SW1\"}", "{}"] {
        let p = problems(&format!("lesson.steps.0.highlight={two}"));
        assert_problem(&p, "lesson.steps[0].highlight", "must be an object with exactly one field, not an object");
    }
}

#[test]
fn a_figures_scheme_is_a_known_algorithm_that_runs_on_the_network() {
    let figure = |alg: &str| {
        format!(
            r#"reference=[{{"about":{{"connection":"C1"}},"quantity":"mean_rate_mbps","published":70,"tolerance":0.1,"source":"x","algorithm":"{alg}"}}]"#
        )
    };
    assert_eq!(problems_after(&[&figure("erica")]), []);
    assert_problem(&problems_after(&[&figure("ericaa")]), "reference[0].algorithm", "unknown algorithm 'ericaa'");
    assert_problem(&problems_after(&[&figure("none")]), "reference[0].algorithm", "'none' runs no scheme");
    assert_problem(&problems_after(&[&figure("qcn")]), "reference[0].algorithm", "does not run here");
}

/// helper-30: a network without connections loaded and ran, exit 0, an empty summary, without a
/// word. It stays valid (the lab's empty canvas is one while it is drawn), with a note.
#[test]
fn a_network_without_connections_is_valid_with_a_note_saying_it_sends_nothing() {
    let s = crate::common::load("two-sources", &["connections=[]"]);
    let notes = abr_sim::validate::notes(&s);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].starts_with("no connections: nothing is sent"), "{notes:?}");
    assert!(abr_sim::validate::notes(&crate::common::load("two-sources", &[]))
        .iter()
        .all(|n| !n.starts_with("no connections")));
}

/// helper-30: a figure about a port no connection sends through validated, and its "ours" was
/// always empty without a word. It stays valid (the port exists), with a note naming it; a
/// utilisation figure there is measured (the link's backward cells), so it gets none.
#[test]
fn a_queue_figure_at_a_port_no_connection_sends_through_gets_a_note() {
    let figure = |port: &str, quantity: &str| {
        format!(r#"{{"about":{{"port":"{port}"}},"quantity":"{quantity}","published":1,"tolerance":0.5,"source":"x"}}"#)
    };
    let refs = format!(
        "reference=[{},{},{}]",
        figure("SW1->SW2", "max_queue_cells"),
        figure("SW2->SW1", "max_queue_cells"),
        figure("SW2->SW1", "utilization")
    );
    let s = crate::common::load("two-sources", &[&refs, "run.duration_ms=20", "run.steady_from_ms=null"]);
    assert_eq!(abr_sim::validate::validate(&s), []);
    let notes = abr_sim::validate::notes(&s);
    let about_ports: Vec<_> = notes.iter().filter(|n| n.starts_with("reference[")).collect();
    assert_eq!(about_ports.len(), 1, "{notes:?}");
    assert!(
        about_ports[0].starts_with("reference[1].about.port: no connection's data leaves SW2 towards SW1"),
        "{notes:?}"
    );
    // The note says what the run shows: no value of ours there, one at the port data leaves by.
    let (_, sum) = crate::common::run(s);
    let rows = &sum.reference;
    assert!(rows[0].ours.is_some() && rows[1].ours.is_none() && rows[2].ours.is_some(), "{rows:?}");
}
