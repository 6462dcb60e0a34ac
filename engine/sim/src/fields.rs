//! The structural fields of a scenario (run settings, links, connections, TCP, behaviours,
//! background and Ethernet traffic, switch buffers, virtual paths), declared like algorithm
//! parameters: name, unit, default, range and meaning, once. Validation checks against these,
//! serde's defaults read them, and the catalogue exports them so that the UI builds its forms
//! from them instead of repeating the rules.

use crate::params::ParamSpec;
use serde::Serialize;
use ts_rs::TS;

const EXPORT_TO: &str = "../../../web/src/contract/generated/";

/// The longest simulated time anything in a scenario may name (ms): one hour. (Event times
/// have 53 bits of picoseconds, about 2.5 hours; the sample history is bounded whatever the
/// length, see `history`.)
const MAX_MS: f64 = 3_600_000.0;
/// The fastest rate anything in a scenario may name (Mbps).
const MAX_MBPS: f64 = 100_000.0;

/// A field whose default is derived from the network, not a fixed number.
const fn derived(
    name: &'static str,
    unit: &'static str,
    note: &'static str,
    min: f64,
    max: f64,
    meaning: &'static str,
) -> ParamSpec {
    ParamSpec { name, unit, default: None, default_note: note, min, max, integer: false, meaning }
}

// run
pub const DURATION_MS: ParamSpec = derived("duration_ms", "ms", "required", 0.001, MAX_MS, "Simulated time to run");
pub const SAMPLE_INTERVAL_US: ParamSpec = ParamSpec::num(
    "sample_interval_us",
    "µs",
    500.0,
    1.0,
    1_000_000.0,
    "Simulated time between samples of every series",
);
pub const STEADY_FROM_MS: ParamSpec = derived(
    "steady_from_ms",
    "ms",
    "the last third of the run",
    0.0,
    MAX_MS,
    "Start of the steady-state window over which summaries average (at most duration_ms)",
);
pub const TOLERANCE: ParamSpec = derived(
    "tolerance",
    "",
    "set per scenario by the tests",
    0.0,
    1.0,
    "Relative tolerance within which steady-state rates are expected to match their shares",
);
/// A published figure's tolerance (`reference[i].tolerance`).
pub const REFERENCE_TOLERANCE: ParamSpec = derived(
    "tolerance",
    "",
    "none: the difference is shown without a verdict",
    0.0,
    10.0,
    "Relative tolerance within which our value agrees with the published one (a fraction of it)",
);
/// The most nodes a connection's path may visit (a cell counts its hops in 16 bits; real
/// networks are far shorter).
pub const MAX_PATH_NODES: usize = 1024;
/// At most this many samples are taken in one run (one hour at 36 µs). What is kept of them
/// is bounded whatever their number (see `history`); this bounds the time spent sampling.
pub const MAX_SAMPLES: f64 = 100_000_000.0;

// ethernet
pub const FRAME_BYTES: ParamSpec =
    ParamSpec::int("frame_bytes", "bytes", 1500.0, 64.0, 9216.0, "Size of every data frame of an Ethernet network");

// switch
pub const BUFFER_CELLS: ParamSpec = ParamSpec::int(
    "buffer_cells",
    "cells",
    1000.0,
    1.0,
    10_000_000.0,
    "ATM: buffer of each output port; cells arriving at a full buffer are dropped",
);
pub const BUFFER_BYTES: ParamSpec = ParamSpec::int(
    "buffer_bytes",
    "bytes",
    600_000.0,
    64.0,
    1e10,
    "Ethernet: buffer of each output port; frames arriving at a full buffer are dropped",
);
pub const EPD_THRESHOLD_CELLS: ParamSpec = derived(
    "epd_threshold_cells",
    "cells",
    "90 % of the buffer",
    0.0,
    10_000_000.0,
    "EPD: once the queue reaches this, a new AAL5 frame is refused whole",
);
/// The EPD threshold as a share of the buffer when the scenario sets none.
pub const EPD_DEFAULT_SHARE: f64 = 0.9;

// link
pub const LINK_RATE_MBPS: ParamSpec =
    ParamSpec::num("rate_mbps", "Mbps", 155.52, 0.001, MAX_MBPS, "Capacity of each direction of the link");
pub const DELAY_US: ParamSpec =
    derived("delay_us", "µs", "give this or distance_km", 0.0, 1_000_000.0, "Propagation delay of the link");
pub const DISTANCE_KM: ParamSpec = derived(
    "distance_km",
    "km",
    "give this or delay_us",
    0.0,
    200_000.0,
    "Length of the link, at 5 µs of propagation delay per km",
);
/// Propagation delay of light in fibre, per kilometre.
pub const DELAY_US_PER_KM: f64 = 5.0;

// connection
pub const START_MS: ParamSpec = ParamSpec::num("start_ms", "ms", 0.0, 0.0, MAX_MS, "When the source starts sending");
pub const STOP_MS: ParamSpec =
    derived("stop_ms", "ms", "never", 0.0, MAX_MS, "When the source stops sending (after start_ms)");
pub const VOLUME_MB: ParamSpec = derived(
    "volume_mb",
    "Mb",
    "unlimited",
    0.000_001,
    1_000_000.0,
    "Data to send (Mb of cell payload, 48 bytes a cell), after which the source leaves",
);

// tcp
pub const MSS_BYTES: ParamSpec =
    ParamSpec::int("mss_bytes", "bytes", 1460.0, 64.0, 65_495.0, "TCP maximum segment size");
pub const WINDOW_BYTES: ParamSpec = ParamSpec::num(
    "window_bytes",
    "bytes",
    65_535.0,
    64.0,
    1.0737e9,
    "The receiver's window (at least mss_bytes; window scaling allows more than 65,535)",
);
pub const TIMER_GRANULARITY_MS: ParamSpec =
    ParamSpec::num("timer_granularity_ms", "ms", 100.0, 1.0, 10_000.0, "Granularity of TCP's retransmission timer");
pub const RANDOM_DELAY_US: ParamSpec = ParamSpec::num(
    "random_delay_us",
    "µs",
    0.0,
    0.0,
    1_000_000.0,
    "Largest random delay (uniform) before each segment's cells join the host queue, to break phase effects among connections; a segment never overtakes the one before",
);

// virtual path
pub const VP_BUFFER_CELLS: ParamSpec = ParamSpec::int(
    "buffer_cells",
    "cells",
    10_000.0,
    1.0,
    10_000_000.0,
    "The edge's buffer for the VPC's per-VC queues; above 90 % a member holding more than an equal share loses new frames whole",
);

const FROM_MS: ParamSpec = ParamSpec::num("from_ms", "ms", 0.0, 0.0, MAX_MS, "When the misbehaviour starts");
pub const FACTOR: ParamSpec =
    ParamSpec::num("factor", "", 2.0, 1.0, 100.0, "Sends this many times its ACR (at most PCR) while greedy");
const GREEDY_MS: ParamSpec = ParamSpec::num("greedy_ms", "ms", 10.0, 0.001, MAX_MS, "How long each greedy spell lasts");
const NORMAL_MS: ParamSpec =
    ParamSpec::num("normal_ms", "ms", 10.0, 0.0, MAX_MS, "How long it behaves between greedy spells");
const FIXED_RATE_MBPS: ParamSpec =
    ParamSpec::num("rate_mbps", "Mbps", 50.0, 0.001, MAX_MBPS, "The rate it sends at (at most PCR), ignoring feedback");
const ON_MS: ParamSpec = ParamSpec::num("on_ms", "ms", 10.0, 0.001, MAX_MS, "How long it has data");
const OFF_MS: ParamSpec = ParamSpec::num("off_ms", "ms", 10.0, 0.0, MAX_MS, "How long it then has none");
const CBR_RATE_MBPS: ParamSpec =
    ParamSpec::num("rate_mbps", "Mbps", 20.0, 0.001, MAX_MBPS, "Constant rate, served before ABR");
const PEAK_MBPS: ParamSpec = ParamSpec::num("peak_mbps", "Mbps", 50.0, 0.001, MAX_MBPS, "Rate while on");
const MEAN_ON_MS: ParamSpec =
    ParamSpec::num("mean_on_ms", "ms", 10.0, 0.001, MAX_MS, "Mean of the exponentially distributed on times");
const MEAN_OFF_MS: ParamSpec =
    ParamSpec::num("mean_off_ms", "ms", 10.0, 0.001, MAX_MS, "Mean of the exponentially distributed off times");
pub const LOAD_PERCENT: ParamSpec =
    ParamSpec::num("load_percent", "%", 100.0, 0.001, 100.0, "Offered load, in % of the source's link rate");

/// One kind of a tagged field (`behavior`, `background`, `traffic`): its `kind` value and the
/// fields it takes.
#[derive(Debug, Clone, Copy, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct KindFields {
    #[ts(type = "string")]
    pub kind: &'static str,
    #[ts(type = "string")]
    pub meaning: &'static str,
    #[ts(as = "Vec<ParamSpec>")]
    pub fields: &'static [ParamSpec],
}

pub const BEHAVIORS: [KindFields; 3] = [
    KindFields {
        kind: "dishonest",
        meaning: "From from_ms, alternately sends factor × ACR for greedy_ms while writing ACR in CCR, then behaves for normal_ms",
        fields: &[FROM_MS, FACTOR, GREEDY_MS, NORMAL_MS],
    },
    KindFields {
        kind: "fixed_rate",
        meaning: "From from_ms, ignores feedback and sends at rate_mbps, writing that true rate in CCR",
        fields: &[FROM_MS, FIXED_RATE_MBPS],
    },
    KindFields {
        kind: "on_off",
        meaning: "Has data for on_ms, then none for off_ms, repeating from its start",
        fields: &[ON_MS, OFF_MS],
    },
];

pub const BACKGROUNDS: [KindFields; 2] = [
    KindFields { kind: "cbr", meaning: "Constant bit rate, served before ABR at every port", fields: &[CBR_RATE_MBPS] },
    KindFields {
        kind: "on_off",
        meaning: "On at peak_mbps and off, for exponentially distributed times of the given means",
        fields: &[PEAK_MBPS, MEAN_ON_MS, MEAN_OFF_MS],
    },
];

pub const TRAFFICS: [KindFields; 2] = [
    KindFields {
        kind: "bernoulli",
        meaning: "In each frame slot of the link, a frame arrives with probability load_percent / 100",
        fields: &[LOAD_PERCENT],
    },
    KindFields {
        kind: "constant",
        meaning: "Frames arrive evenly spaced at load_percent of the link rate",
        fields: &[LOAD_PERCENT],
    },
];

/// Every structural field with a range, by the part of the scenario it belongs to.
#[derive(Debug, Clone, Copy, Serialize, TS)]
#[ts(export, export_to = EXPORT_TO)]
pub struct ScenarioFields {
    /// `run`.
    #[ts(as = "Vec<ParamSpec>")]
    pub run: &'static [ParamSpec],
    /// `ethernet`.
    #[ts(as = "Vec<ParamSpec>")]
    pub ethernet: &'static [ParamSpec],
    /// A switch's settings beside its algorithm (`nodes[]`).
    #[ts(as = "Vec<ParamSpec>")]
    pub switch: &'static [ParamSpec],
    /// `links[]`.
    #[ts(as = "Vec<ParamSpec>")]
    pub link: &'static [ParamSpec],
    /// `connections[]`.
    #[ts(as = "Vec<ParamSpec>")]
    pub connection: &'static [ParamSpec],
    /// `connections[].tcp`.
    #[ts(as = "Vec<ParamSpec>")]
    pub tcp: &'static [ParamSpec],
    /// `virtual_paths[]`.
    #[ts(as = "Vec<ParamSpec>")]
    pub virtual_path: &'static [ParamSpec],
    /// `reference[]` (published figures).
    #[ts(as = "Vec<ParamSpec>")]
    pub reference: &'static [ParamSpec],
    /// `connections[].behavior`, by kind.
    #[ts(as = "Vec<KindFields>")]
    pub behavior: &'static [KindFields],
    /// `connections[].background`, by kind.
    #[ts(as = "Vec<KindFields>")]
    pub background: &'static [KindFields],
    /// `connections[].traffic`, by kind.
    #[ts(as = "Vec<KindFields>")]
    pub traffic: &'static [KindFields],
}

pub const FIELDS: ScenarioFields = ScenarioFields {
    run: &[DURATION_MS, SAMPLE_INTERVAL_US, STEADY_FROM_MS, TOLERANCE],
    ethernet: &[FRAME_BYTES],
    switch: &[BUFFER_CELLS, BUFFER_BYTES, EPD_THRESHOLD_CELLS],
    link: &[LINK_RATE_MBPS, DELAY_US, DISTANCE_KM],
    connection: &[START_MS, STOP_MS, VOLUME_MB],
    tcp: &[MSS_BYTES, WINDOW_BYTES, TIMER_GRANULARITY_MS, RANDOM_DELAY_US],
    virtual_path: &[VP_BUFFER_CELLS],
    reference: &[REFERENCE_TOLERANCE],
    behavior: &BEHAVIORS,
    background: &BACKGROUNDS,
    traffic: &TRAFFICS,
};

/// The fields of one kind of a tagged field.
pub fn kind_fields(kinds: &'static [KindFields], kind: &str) -> &'static [ParamSpec] {
    kinds.iter().find(|k| k.kind == kind).map_or(&[], |k| k.fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_and_names_are_unique_per_section() {
        let kinds = FIELDS.behavior.iter().chain(FIELDS.background).chain(FIELDS.traffic).map(|k| k.fields);
        let sections = [
            FIELDS.run,
            FIELDS.ethernet,
            FIELDS.switch,
            FIELDS.link,
            FIELDS.connection,
            FIELDS.tcp,
            FIELDS.virtual_path,
            FIELDS.reference,
        ];
        for section in sections.into_iter().chain(kinds) {
            let mut names: Vec<_> = section.iter().map(|p| p.name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), section.len(), "duplicate name in {section:?}");
            for p in section {
                assert!(p.min <= p.max, "{}", p.name);
                match p.default {
                    Some(d) => assert!(p.check(d).is_ok(), "{}'s default {d} is outside its range", p.name),
                    None => assert!(!p.default_note.is_empty(), "{} needs a default or a note", p.name),
                }
            }
        }
    }
}
