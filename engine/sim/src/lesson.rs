//! A scenario's lesson: plain text for a class, or text with steps a student walks through.
//!
//! ```json
//! "lesson": "what to watch, what it shows, questions"
//! "lesson": { "text": "…", "steps": [
//!   { "at_ms": 100, "prompt": "S2 starts now. Predict S1's rate.", "reveal": "It halves…",
//!     "highlight": { "chart": "rate" } } ] }
//! ```
//!
//! The plain text form is what every file had before steps existed and is written back as it
//! was (a string), so old files, links and stored work read and serialise unchanged. The lesson
//! never reaches the simulation: it cannot change a run or its digest.

use crate::scenario::{Problem, Scenario};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use ts_rs::TS;

const EXPORT_TO: &str = "../../../web/src/contract/generated/";

/// The lesson: its text alone, or its text and steps.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(untagged)]
#[ts(export, export_to = EXPORT_TO)]
pub enum Lesson {
    Text(String),
    Guided(GuidedLesson),
}

/// A lesson with steps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct GuidedLesson {
    /// What to watch, what it shows, questions for a class (paragraphs split by blank lines).
    #[serde(default)]
    #[ts(as = "Option<String>", optional)]
    pub text: String,
    /// In ascending time; the run pauses at each.
    pub steps: Vec<LessonStep>,
}

/// One stop of a walk-through: the run pauses at `at_ms` and the prompt is shown (a step after
/// the run's end is never reached).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub struct LessonStep {
    /// Simulated time at which the run pauses (ms, within the run).
    pub at_ms: f64,
    /// What the student is asked ("Predict what S1 does when S2 leaves").
    pub prompt: String,
    /// The answer, shown when the student asks for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reveal: Option<String>,
    /// What to look at while the step is shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub highlight: Option<Highlight>,
}

/// What a step marks: one chart, one node of the drawing, or one series (a connection's, a
/// virtual path's or a switch output port's lines on every chart).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[ts(export, export_to = EXPORT_TO)]
pub enum Highlight {
    Chart(LessonChart),
    /// A node id (`SW1`).
    Node(String),
    /// A connection id (`C1`), a virtual path id, or a switch output port (`SW1->SW2`).
    Series(String),
}

/// The lab's charts, by the names the UI gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, export_to = EXPORT_TO)]
pub enum LessonChart {
    /// Allowed cell rates and shares.
    Rate,
    Queue,
    Utilization,
    Delivered,
    Loss,
    Cwnd,
    Goodput,
    /// The switch algorithm's inner quantities.
    Algorithm,
}

impl Default for Lesson {
    fn default() -> Self {
        Lesson::Text(String::new())
    }
}

impl Lesson {
    /// The lesson's prose (the whole of a plain lesson).
    pub fn text(&self) -> &str {
        match self {
            Lesson::Text(t) => t,
            Lesson::Guided(g) => &g.text,
        }
    }

    pub fn steps(&self) -> &[LessonStep] {
        match self {
            Lesson::Text(_) => &[],
            Lesson::Guided(g) => &g.steps,
        }
    }

    /// No text and no steps.
    pub fn is_empty(&self) -> bool {
        self.text().trim().is_empty() && self.steps().is_empty()
    }
}

// A string or an object, read by hand rather than `untagged` so that a problem inside the
// object keeps its path (`lesson.steps[2].at_ms: invalid type…`) instead of becoming "data did
// not match any variant".
impl<'de> Deserialize<'de> for Lesson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LessonVisitor)
    }
}

struct LessonVisitor;

impl<'de> serde::de::Visitor<'de> for LessonVisitor {
    type Value = Lesson;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("the lesson's text, or an object { \"text\": …, \"steps\": […] }")
    }
    fn visit_str<E>(self, v: &str) -> Result<Lesson, E> {
        Ok(Lesson::Text(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Lesson, E> {
        Ok(Lesson::Text(v))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<Lesson, A::Error> {
        Err(serde::de::Error::custom(
            "must be the lesson's text, or an object { \"text\": …, \"steps\": […] }, not a list",
        ))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Lesson, A::Error> {
        GuidedLesson::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Lesson::Guided)
    }
}

/// Every problem of the scenario's lesson steps, with its path (`lesson.steps[2].at_ms`).
pub(crate) fn problems(s: &Scenario) -> Vec<Problem> {
    let Lesson::Guided(g) = &s.lesson else { return Vec::new() };
    let mut out = Vec::new();
    if g.steps.is_empty() {
        out.push(Problem::new(
            "lesson.steps",
            "a lesson object needs at least one step (a lesson without steps is plain text: \"lesson\": \"…\")",
        ));
    }
    let targets = SeriesTargets::of(s);
    let mut before: Option<f64> = None;
    for (i, step) in g.steps.iter().enumerate() {
        let at = format!("lesson.steps[{i}]");
        let t = step.at_ms;
        // No upper bound: a run shortened by an edit, a `--set`, a sweep or a compare variant
        // keeps its lesson valid (a step after the end is simply never reached); the library's
        // steps are checked against their runs by the library test.
        if !t.is_finite() || t < 0.0 {
            out.push(Problem::new(
                format!("{at}.at_ms"),
                format!("at_ms = {t} must be a simulated time of 0 ms or more"),
            ));
        } else if let Some(prev) = before.filter(|&p| t <= p) {
            out.push(Problem::new(
                format!("{at}.at_ms"),
                format!("at_ms = {t} must be after the step before it (lesson.steps[{}].at_ms = {prev}): steps are in ascending time", i - 1),
            ));
        }
        before = Some(t);
        if step.prompt.trim().is_empty() {
            out.push(Problem::new(
                format!("{at}.prompt"),
                "a step needs a prompt: what the student is asked to watch or predict",
            ));
        }
        if step.reveal.as_deref().is_some_and(|r| r.trim().is_empty()) {
            out.push(Problem::new(format!("{at}.reveal"), "reveal, when given, must not be empty"));
        }
        match &step.highlight {
            Some(Highlight::Node(id)) if !s.nodes.iter().any(|n| &n.id == id) => {
                out.push(Problem::new(format!("{at}.highlight.node"), format!("no node has id '{id}'")));
            }
            Some(Highlight::Series(id)) if !targets.contains(id) => out.push(Problem::new(
                format!("{at}.highlight.series"),
                format!(
                    "'{id}' is no connection, virtual path or switch output port (such as '{}')",
                    targets.example()
                ),
            )),
            _ => {}
        }
    }
    out
}

/// What a series highlight may name.
struct SeriesTargets {
    ids: BTreeSet<String>,
}

impl SeriesTargets {
    fn of(s: &Scenario) -> Self {
        let mut ids: BTreeSet<String> = s.connections.iter().map(|c| c.id.clone()).collect();
        ids.extend(s.virtual_paths.iter().map(|v| v.id.clone()));
        let is_switch = |id: &str| s.nodes.iter().any(|n| n.id == id && n.kind == crate::scenario::NodeKind::Switch);
        for l in &s.links {
            for (a, b) in [(&l.from, &l.to), (&l.to, &l.from)] {
                if is_switch(a) {
                    ids.insert(format!("{a}->{b}"));
                }
            }
        }
        SeriesTargets { ids }
    }
    fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }
    fn example(&self) -> &str {
        self.ids.iter().find(|i| i.contains("->")).or(self.ids.iter().next()).map_or("C1", |s| s.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_reads_and_writes_as_a_string() {
        let l: Lesson = serde_json::from_str("\"watch S1\"").unwrap();
        assert_eq!(l, Lesson::Text("watch S1".into()));
        assert_eq!(serde_json::to_string(&l).unwrap(), "\"watch S1\"");
    }

    #[test]
    fn steps_read_and_write_as_an_object() {
        let json = r#"{"text":"t","steps":[{"at_ms":1.5,"prompt":"p","highlight":{"chart":"queue"}}]}"#;
        let l: Lesson = serde_json::from_str(json).unwrap();
        assert_eq!(l.steps()[0].highlight, Some(Highlight::Chart(LessonChart::Queue)));
        assert_eq!(serde_json::to_string(&l).unwrap(), json);
    }
}
