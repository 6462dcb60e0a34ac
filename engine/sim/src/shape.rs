//! Every shape problem of a document at once, in the file's words.
//!
//! serde stops at a document's first wrong-shaped value (an unknown field, text where a number
//! belongs, a field missing), so a file with five mistakes would be reported as one, fixed, and
//! reported again. [`read_every`] reads the document, and after each problem mends a copy of it
//! where the problem lies and reads it again, until it reads:
//!
//! - an unknown field is taken out;
//! - a wrong-shaped value is taken out, so an optional field falls back to its default;
//! - a field that must be there (missing, or taken out just before) gets a stand-in whose type the
//!   next read's problem names (`"?"` first, then a number, `{}`, a list, a variant…).
//!
//! Problems met inside a stand-in are the mending's own and are not reported. The scenario
//! that finally reads goes on to the range and reference rules, except for the elements that
//! hold a stand-in (see [`Read::covers`]): their figures are not the user's.
//!
//! [`plain_rule`] says serde's messages in the format's terms: `invalid type: string "abc",
//! expected f64` becomes `must be a number, not the text "abc"`.

use crate::scenario::Problem;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_path_to_error::Segment;

/// Problems reported before the reading gives up (a file of another format would otherwise
/// list hundreds).
const MAX_PROBLEMS: usize = 50;
/// Reads of one document at most (a problem takes one to four).
const MAX_READS: usize = 400;

/// A place in a JSON document.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// A document read as a `T`, with the shape problems met on the way.
pub(crate) struct Read<T> {
    pub value: T,
    /// In the document's order (see [`in_document_order`]).
    pub problems: Vec<Problem>,
    /// The document as it was given (not as mended).
    pub doc: Value,
    /// The places mended (a wrong value taken out or stood in for), each with its element
    /// (`links[0]`, or a top-level section such as `run`).
    mended: Vec<(String, String)>,
    /// A stand-in is more than a number or a true/false: an id, a kind, a whole element or
    /// list. The rules across elements would then speak of what the user did not write.
    pub structural: bool,
}

impl<T> Read<T> {
    /// A problem of the validator's is about a value the user did not write: it lies at a
    /// mended place, or its rule names one (`… after the step before it (lesson.steps[0].at_ms
    /// = …)`, or within its element `run.steady_from_ms: … (duration_ms = 1)`), or it is a rule
    /// about the whole element holding one (`links[0]: a link needs delay_us or distance_km`,
    /// after a `distance_km` that did not read), or it weighs its field against one (`also`: an
    /// ICR above the PCR a link's unreadable rate stood in for).
    pub fn covers(&self, p: &Problem) -> bool {
        let names = |text: &str, place: &str| {
            text.match_indices(place).any(|(i, _)| {
                let rest = &text[i + place.len()..];
                rest.is_empty() || !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            })
        };
        self.mended.iter().any(|(place, element)| {
            let field = place.rsplit(['.', '[']).next().unwrap_or(place);
            let in_element = p.path.starts_with(element.as_str()) && names(&p.path, element);
            p.path == *element
                || (p.path.starts_with(place.as_str()) && names(&p.path, place))
                || p.also.iter().any(|also| also.starts_with(place.as_str()) && names(also, place))
                || names(&p.rule, place)
                || ((in_element || names(&p.rule, element)) && names(&p.rule, field))
        })
    }
}

/// `doc` read as a `T` (see the module documentation). `Err` when a problem could not be
/// mended (the problems so far, the last one among them) or there are too many.
pub(crate) fn read_every<T: DeserializeOwned>(mut doc: Value) -> Result<Read<T>, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut stand_ins: Vec<Vec<Step>> = Vec::new();
    let mut taken_out: Vec<Vec<Step>> = Vec::new();
    let mut tries: Vec<(Vec<Step>, u32)> = Vec::new();
    let mut last_put: Option<Vec<Step>> = None;
    // The document as given, kept from the first mending on (a valid one is never copied).
    let mut given: Option<Value> = None;
    for _ in 0..MAX_READS {
        let err = match crate::by_name::deserialize::<T>(&doc) {
            Ok(value) => {
                let structural =
                    stand_ins.iter().any(|p| !get(&doc, p).is_some_and(|v| v.is_number() || v.is_boolean()));
                let mended = stand_ins.iter().chain(&taken_out).map(|p| (show(p), show(element(p)))).collect();
                let doc = given.unwrap_or(doc);
                return Ok(Read { value, problems: in_document_order(problems, &doc), doc, mended, structural });
            }
            Err(err) => err,
        };
        given.get_or_insert_with(|| doc.clone());
        let at = steps(err.path());
        let message = err.into_inner().to_string();
        let Some(at) = at else {
            problems.push(Problem::new("", plain_rule(&message)));
            return Err(in_document_order(problems, given.as_ref().unwrap_or(&doc)));
        };
        let at = match inside_enum(&doc, &at, &message) {
            Some(key) => [at, vec![key]].concat(),
            None => at,
        };
        let missing = quoted_after(&message, "missing field `");
        let unknown = quoted_after(&message, "unknown field `");
        // The place of the problem: a missing field's own (serde names the object holding it);
        // an unknown field's (a tagged enum's problems name the enum's field, not the key).
        let mut place = at.clone();
        match (&missing, &unknown) {
            (Some(k), _) => place.push(Step::Key(k.clone())),
            (None, Some(k)) if place.last() != Some(&Step::Key(k.clone())) => place.push(Step::Key(k.clone())),
            _ => {}
        }
        // Inside an internally tagged enum serde names the enum's field for every problem: one
        // there just after a stand-in was put inside it is the stand-in's.
        if let Some(last) = last_put.take() {
            if missing.is_none() && unknown.is_none() && last.len() > place.len() && last.starts_with(&place) {
                place = last;
            }
        }
        let ours = stand_ins.iter().any(|s| place.starts_with(s)) || (missing.is_some() && taken_out.contains(&place));
        if !ours {
            if problems.len() == MAX_PROBLEMS {
                problems.push(Problem::new("", "more problems may follow: these are the first fifty"));
                return Err(in_document_order(problems, given.as_ref().unwrap_or(&doc)));
            }
            problems.push(Problem::new(show(&at), plain_rule(&message)));
        }
        let n = match tries.iter_mut().find(|(p, _)| *p == place) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                tries.push((place.clone(), 1));
                1
            }
        };
        if n > 4 {
            return Err(in_document_order(problems, given.as_ref().unwrap_or(&doc)));
        }
        let stand_in_value = if unknown.is_some() {
            None
        } else if missing.is_some() {
            Some(Value::String("?".into()))
        } else if !ours && matches!(place.last(), Some(Step::Key(_))) && !sole_key(&doc, &place) {
            taken_out.push(place.clone());
            None
        } else {
            match stand_in(&doc, &place, &message) {
                Some(v) => Some(v),
                None => return Err(in_document_order(problems, given.as_ref().unwrap_or(&doc))),
            }
        };
        let mended = match stand_in_value {
            None => take_out(&mut doc, &place),
            Some(v) => {
                if !stand_ins.iter().any(|s| place.starts_with(s)) {
                    stand_ins.push(place.clone());
                }
                last_put = Some(place.clone());
                put(&mut doc, &place, v)
            }
        };
        if !mended {
            return Err(in_document_order(problems, given.as_ref().unwrap_or(&doc)));
        }
    }
    Err(in_document_order(problems, given.as_ref().unwrap_or(&doc)))
}

/// `problems` in the order of the places they name in `doc`: by the position of each key in
/// its object (the file's order) and each element's index, a place before what lies inside it,
/// a key the document does not hold after those it holds, and a problem of the whole document
/// (path "") last. Stable: problems at one place keep their order.
pub(crate) fn in_document_order(mut problems: Vec<Problem>, doc: &Value) -> Vec<Problem> {
    problems.sort_by_cached_key(|p| position(doc, &p.path));
    problems
}

/// Where `path` (`nodes[2].params.x`) lies in `doc`, as a key that sorts in document order.
fn position(doc: &Value, path: &str) -> Vec<usize> {
    if path.is_empty() {
        return vec![usize::MAX];
    }
    let mut key = Vec::new();
    let mut at = Some(doc);
    for part in path.split('.') {
        let (name, indices) = part.split_once('[').map_or((part, ""), |(n, rest)| (n, rest));
        let object = at.and_then(Value::as_object);
        key.push(object.map_or(0, |m| m.keys().position(|k| k == name).unwrap_or(m.len())));
        at = object.and_then(|m| m.get(name));
        for index in indices.split('[').filter(|i| !i.is_empty()) {
            let i = index.trim_end_matches(']').parse().unwrap_or(usize::MAX);
            key.push(i);
            at = at.and_then(|v| v.get(i));
        }
    }
    key
}

/// Inside an internally tagged enum (`behavior`, `background`, `traffic`) serde names the
/// enum's field for every problem; a wrong value's key is found as the one field holding the
/// value the message quotes (`invalid type: string "abc"` in `{ "kind": …, "factor": "abc" }`).
fn inside_enum(doc: &Value, at: &[Step], message: &str) -> Option<Step> {
    let object = get(doc, at)?.as_object()?;
    object.get("kind")?;
    let found = message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: "))?;
    let (found, _) = found.split_once(", expected ")?;
    let holds = |v: &Value| match v {
        Value::String(t) => {
            found.strip_prefix("string ").is_some_and(|q| serde_json::from_str::<String>(q).ok().as_ref() == Some(t))
        }
        Value::Number(n) => [format!("integer `{n}`"), format!("floating point `{n}`")].contains(&found.to_string()),
        Value::Bool(b) => found == format!("boolean `{b}`"),
        Value::Null => found == "null",
        Value::Array(_) => found == "sequence",
        Value::Object(_) => found == "map",
    };
    let mut keys = object.iter().filter(|(k, v)| *k != "kind" && holds(v)).map(|(k, _)| k);
    match (keys.next(), keys.next()) {
        (Some(k), None) => Some(Step::Key(k.clone())),
        _ => None,
    }
}

fn steps(path: &serde_path_to_error::Path) -> Option<Vec<Step>> {
    path.iter()
        .map(|s| match s {
            Segment::Seq { index } => Some(Step::Index(*index)),
            Segment::Map { key } => Some(Step::Key(key.clone())),
            // An externally tagged enum's variant is its object's one key (`{ "chart": … }`).
            Segment::Enum { variant } => Some(Step::Key(variant.clone())),
            Segment::Unknown => None,
        })
        .collect()
}

/// `nodes[2].params.x`, as serde_path_to_error writes a path ("" for the whole document).
fn show(path: &[Step]) -> String {
    let mut out = String::new();
    for s in path {
        match s {
            Step::Key(k) if out.is_empty() => out.push_str(k),
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// The element a place belongs to: up to its last list index (`links[0]`), else its top-level
/// section (`run`).
fn element(path: &[Step]) -> &[Step] {
    match path.iter().rposition(|s| matches!(s, Step::Index(_))) {
        Some(i) => &path[..=i],
        None => &path[..path.len().min(1)],
    }
}

fn get<'a>(doc: &'a Value, path: &[Step]) -> Option<&'a Value> {
    path.iter().try_fold(doc, |v, s| match s {
        Step::Key(k) => v.get(k.as_str()),
        Step::Index(i) => v.get(*i),
    })
}

fn parent_mut<'a>(doc: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let (_, above) = path.split_last()?;
    above.iter().try_fold(doc, |v, s| match s {
        Step::Key(k) => v.get_mut(k.as_str()),
        Step::Index(i) => v.get_mut(*i),
    })
}

fn take_out(doc: &mut Value, path: &[Step]) -> bool {
    match (parent_mut(doc, path), path.last()) {
        (Some(Value::Object(m)), Some(Step::Key(k))) => m.shift_remove(k).is_some(),
        _ => false,
    }
}

fn put(doc: &mut Value, path: &[Step], value: Value) -> bool {
    match (parent_mut(doc, path), path.last()) {
        (Some(Value::Object(m)), Some(Step::Key(k))) => {
            m.insert(k.clone(), value);
            true
        }
        (Some(Value::Array(a)), Some(Step::Index(i))) if *i < a.len() => {
            a[*i] = value;
            true
        }
        _ => false,
    }
}

/// A value of the type `message` expects at `path`, or `None` when it names none we can make.
/// A number is taken from the same field of a neighbouring element where there is one (another
/// link's `rate_mbps`), so that rules across elements see a figure like the user's.
fn stand_in(doc: &Value, path: &[Step], message: &str) -> Option<Value> {
    let expected = message.rsplit_once(", expected ").map_or("", |(_, e)| e);
    if let Some(variant) = quoted_after(expected, "`") {
        return Some(Value::String(variant));
    }
    let number = |whole: bool| {
        neighbour(doc, path).filter(|v| if whole { v.is_u64() } else { v.is_number() }).unwrap_or(Value::from(1))
    };
    Some(match expected {
        "f64" | "f32" => number(false),
        e if integer_range(e).is_some() => number(true),
        "a string" => Value::String("?".into()),
        "a boolean" => Value::Bool(false),
        "a sequence" => Value::Array(Vec::new()),
        e if e == "a map" || e.starts_with("struct ") || e.starts_with("internally tagged enum") => {
            Value::Object(Default::default())
        }
        _ if message.starts_with("must be an object") => Value::Object(Default::default()),
        _ => return None,
    })
}

/// Whether `path` is the only key of its object: the variant of an enum written as a one-key
/// object (`"highlight": { "chart": "nope" }`, `"about": { "connection": 5 }`). Taken out, it
/// would leave `{}`, a second problem of the user's one ("must be an object with exactly one
/// field"); its value is stood in for instead.
fn sole_key(doc: &Value, path: &[Step]) -> bool {
    let [above @ .., Step::Key(_)] = path else { return false };
    get(doc, above).and_then(Value::as_object).is_some_and(|o| o.len() == 1)
}

/// The same field in another element of the same list, when it holds something.
fn neighbour(doc: &Value, path: &[Step]) -> Option<Value> {
    let [above @ .., Step::Index(i), Step::Key(k)] = path else { return None };
    let list = get(doc, above)?.as_array()?;
    list.iter().enumerate().filter(|(j, _)| j != i).find_map(|(_, e)| e.get(k.as_str()).cloned())
}

/// The text between `start` and the next backquote.
fn quoted_after(message: &str, start: &str) -> Option<String> {
    let rest = &message[message.find(start)? + start.len()..];
    rest.split_once('`').map(|(q, _)| q.to_string())
}

/// The range of a Rust integer type's name.
fn integer_range(name: &str) -> Option<(i128, i128)> {
    Some(match name {
        "u8" => (0, u8::MAX as i128),
        "u16" => (0, u16::MAX as i128),
        "u32" => (0, u32::MAX as i128),
        "u64" | "usize" => (0, u64::MAX as i128),
        "i8" => (i8::MIN as i128, i8::MAX as i128),
        "i16" => (i16::MIN as i128, i16::MAX as i128),
        "i32" => (i32::MIN as i128, i32::MAX as i128),
        "i64" | "isize" => (i64::MIN as i128, i64::MAX as i128),
        _ => return None,
    })
}

/// serde's message in the file's terms (others pass unchanged):
///
/// ```text
///   invalid type: string "abc", expected f64        ->  must be a number, not the text "abc"
///   invalid value: integer `-3`, expected u64       ->  must be a whole number, 0 or more, not -3
///   unknown variant `router`, expected one of `source`, `switch`
///                                                   ->  must be one of "source", "switch", not "router"
///   unknown field `colour`, expected one of `id`, `kind`
///                                                   ->  unknown field "colour" (the fields here: id, kind)
///   missing field `rate_mbps`                        ->  the field "rate_mbps" is missing (it has no default)
/// ```
pub(crate) fn plain_rule(message: &str) -> String {
    if let Some(rest) = message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: ")) {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            return format!("must be {}, not {}", plain_expected(expected), plain_found(found));
        }
    }
    if let Some(v) = quoted_after(message, "unknown variant `") {
        let choices = names(message.split_once(", expected ").map_or("", |(_, e)| e));
        return match choices.as_slice() {
            [] => format!("\"{v}\" is not a known choice here"),
            [one] => format!("must be \"{one}\", not \"{v}\""),
            many => format!("must be one of {}, not \"{v}\"", quoted_list(many)),
        };
    }
    if let Some(f) = quoted_after(message, "unknown field `") {
        let fields = names(message.split_once(", expected ").map_or("", |(_, e)| e));
        return if fields.is_empty() {
            format!("unknown field \"{f}\" (this object takes no fields)")
        } else {
            format!("unknown field \"{f}\" (the fields here: {})", fields.join(", "))
        };
    }
    if let Some(f) = quoted_after(message, "missing field `") {
        return format!("the field \"{f}\" is missing (it has no default)");
    }
    message.to_string()
}

/// The backquoted names in serde's "one of `a`, `b`" or "`a` or `b`".
fn names(text: &str) -> Vec<String> {
    text.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

fn quoted_list(names: &[String]) -> String {
    names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ")
}

fn plain_expected(expected: &str) -> String {
    match expected {
        "f64" | "f32" => "a number".into(),
        "a string" => "text in quotes".into(),
        "a boolean" => "true or false".into(),
        "a sequence" => "a list [ … ]".into(),
        "a map" => "an object { … }".into(),
        "map with a single key" => "an object with exactly one field".into(),
        e if e.starts_with("struct ") => "an object { … }".into(),
        e if e.starts_with("internally tagged enum") => "an object { \"kind\": … }".into(),
        e => match integer_range(e) {
            Some((0, max)) if max == u64::MAX as i128 => "a whole number, 0 or more".into(),
            Some((0, max)) => format!("a whole number from 0 to {max}"),
            Some(_) => "a whole number".into(),
            None => e.to_string(),
        },
    }
}

fn plain_found(found: &str) -> String {
    let inner = |prefix: &str| found.strip_prefix(prefix).map(|s| s.trim_matches('`').to_string());
    if let Some(s) = found.strip_prefix("string ") {
        return format!("the text {s}");
    }
    inner("integer ").or_else(|| inner("floating point ")).or_else(|| inner("boolean ")).unwrap_or_else(
        || match found {
            "sequence" => "a list".into(),
            "map" => "an object".into(),
            "unit value" => "null".into(),
            f => f.to_string(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_messages_are_said_in_the_files_terms() {
        let cases = [
            (r#"invalid type: string "abc", expected f64"#, r#"must be a number, not the text "abc""#),
            ("invalid value: integer `-3`, expected u64", "must be a whole number, 0 or more, not -3"),
            (
                "invalid type: floating point `1.5`, expected u32",
                "must be a whole number from 0 to 4294967295, not 1.5",
            ),
            ("invalid type: integer `5`, expected a string", "must be text in quotes, not 5"),
            ("invalid type: map, expected a sequence", "must be a list [ … ], not an object"),
            ("invalid type: null, expected f64", "must be a number, not null"),
            (r#"invalid type: string "yes", expected a boolean"#, r#"must be true or false, not the text "yes""#),
            (
                "unknown variant `router`, expected one of `source`, `switch`, `destination`",
                r#"must be one of "source", "switch", "destination", not "router""#,
            ),
            ("unknown variant `x`, expected `per_vc`", r#"must be "per_vc", not "x""#),
            (
                "unknown field `of_ms`, expected `on_ms` or `off_ms`",
                r#"unknown field "of_ms" (the fields here: on_ms, off_ms)"#,
            ),
            ("unknown field `a`, there are no fields", r#"unknown field "a" (this object takes no fields)"#),
            ("missing field `rate_mbps`", r#"the field "rate_mbps" is missing (it has no default)"#),
            ("must be an object { … }, not a list", "must be an object { … }, not a list"),
        ];
        for (serde, ours) in cases {
            assert_eq!(plain_rule(serde), ours, "from {serde}");
        }
    }

    #[test]
    fn a_place_belongs_to_its_list_element_or_its_section() {
        let p = [Step::Key("links".into()), Step::Index(2), Step::Key("rate_mbps".into())];
        assert_eq!(show(element(&p)), "links[2]");
        assert_eq!(show(element(&[Step::Key("run".into()), Step::Key("seed".into())])), "run");
        let mended = vec![("links[2].rate_mbps".into(), "links[2]".into())];
        let read = Read { value: (), problems: vec![], doc: Value::Null, mended, structural: false };
        let at = |path: &str| Problem::new(path, "a rule");
        assert!(read.covers(&at("links[2]")) && read.covers(&at("links[2].rate_mbps")));
        assert!(!read.covers(&at("links[2].rate_mbps_x")) && !read.covers(&at("links[2].delay_us")));
        assert!(!read.covers(&at("links[20].rate_mbps")) && !read.covers(&at("links[1]")));
        assert!(read.covers(&Problem::new("links[3]", "faster than links[2].rate_mbps (155 Mbps)")));
        assert!(!read.covers(&Problem::new("links[3]", "faster than links[21]")));
        assert!(read.covers(&Problem::new("links[2].delay_us", "too long for rate_mbps = 1")));
        assert!(!read.covers(&Problem::new("links[3].delay_us", "too long for rate_mbps = 1")));
        assert!(read.covers(&Problem::new("defaults", "rate_mbps = 1 is below links[2].from's")));
        let weighed = |also: &str| Problem {
            also: vec![also.into()],
            ..Problem::new(
                "defaults.source.icr_mbps",
                "C1: icr_mbps = 25 must not exceed pcr_mbps = 1, the rate of its access link L1",
            )
        };
        assert!(read.covers(&weighed("links[2].rate_mbps")));
        assert!(!read.covers(&weighed("links[20].rate_mbps")) && !read.covers(&weighed("links[1].rate_mbps")));
    }
}
