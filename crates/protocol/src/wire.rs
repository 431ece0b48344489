//! The protocol's messages, as JSON (docs/protocol.md is the schema).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The protocol version this harness speaks.
pub const VERSION: u32 = 1;

/// A request: `{"id", "method", "params"}`.
#[derive(Serialize)]
pub(crate) struct Request<'a, P> {
    pub(crate) id: u64,
    pub(crate) method: &'a str,
    pub(crate) params: P,
}

/// A reply whose result is a `T`, read in one pass.
#[derive(Deserialize)]
pub(crate) struct Reply<T> {
    pub(crate) id: Option<u64>,
    pub(crate) result: Option<T>,
    pub(crate) error: Option<ErrorObject>,
}

/// An error reply, or a warning: a message and, when it is about a level
/// file's text, its place (1-based).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub(crate) struct ErrorObject {
    /// What went wrong, in words.
    pub(crate) message: String,
    /// The line of the level file, if any.
    pub(crate) line: Option<usize>,
    /// The column of that line, if any.
    pub(crate) column: Option<usize>,
}

#[derive(Serialize)]
pub(crate) struct HelloParams<'a> {
    pub(crate) protocol: u32,
    pub(crate) client: &'a str,
}

#[derive(Deserialize)]
pub(crate) struct Hello {
    pub(crate) protocol: u32,
    pub(crate) game: String,
    #[serde(default)]
    pub(crate) draw: bool,
}

#[derive(Serialize)]
pub(crate) struct LoadParams<'a> {
    pub(crate) text: &'a str,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
pub(crate) struct Loaded {
    pub(crate) level: String,
    pub(crate) start: String,
    #[serde(default)]
    pub(crate) won: bool,
    #[serde(default)]
    pub(crate) mechanics: Vec<Mechanic>,
    #[serde(default)]
    pub(crate) pieces: Vec<Mechanic>,
    #[serde(default)]
    pub(crate) warnings: Vec<ErrorObject>,
    #[serde(default = "yes")]
    pub(crate) unit_costs: bool,
}

/// A mechanic (or, with `at`, one piece of one) as `load` lists it.
#[derive(Deserialize)]
pub(crate) struct Mechanic {
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) replacement: String,
    pub(crate) at: Option<[usize; 2]>,
}

#[derive(Serialize)]
pub(crate) struct StatesParams<'a> {
    pub(crate) level: &'a str,
    pub(crate) states: Vec<&'a str>,
}

#[derive(Deserialize)]
pub(crate) struct Successors<'a> {
    #[serde(borrow)]
    pub(crate) successors: Vec<Vec<Edge<'a>>>,
}

/// One legal move from a state.
#[derive(Deserialize)]
pub(crate) struct Edge<'a> {
    #[serde(borrow, rename = "move")]
    pub(crate) mv: Cow<'a, str>,
    #[serde(borrow)]
    pub(crate) state: Cow<'a, str>,
    pub(crate) cost: Option<u32>,
    #[serde(default)]
    pub(crate) won: bool,
}

#[derive(Serialize)]
pub(crate) struct StepParams<'a> {
    pub(crate) level: &'a str,
    pub(crate) state: &'a str,
    #[serde(rename = "move")]
    pub(crate) mv: &'a str,
}

#[derive(Deserialize)]
pub(crate) struct Stepped {
    pub(crate) state: Option<String>,
    pub(crate) cost: Option<u32>,
    #[serde(default)]
    pub(crate) won: bool,
    pub(crate) refused: Option<String>,
}

#[derive(Serialize)]
pub(crate) struct ParseParams<'a> {
    pub(crate) level: &'a str,
    pub(crate) text: &'a str,
}

#[derive(Deserialize)]
pub(crate) struct Parsed {
    pub(crate) moves: Vec<String>,
}

#[derive(Serialize)]
pub(crate) struct FormatParams<'a> {
    pub(crate) level: &'a str,
    pub(crate) moves: Vec<&'a str>,
}

#[derive(Deserialize)]
pub(crate) struct Formatted {
    pub(crate) text: String,
}

#[derive(Serialize)]
pub(crate) struct AblateParams<'a> {
    pub(crate) level: &'a str,
    pub(crate) mechanic: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) at: Option<[usize; 2]>,
}

#[derive(Deserialize)]
pub(crate) struct Ablated {
    pub(crate) level: String,
    pub(crate) start: String,
    #[serde(default)]
    pub(crate) won: bool,
}

#[derive(Serialize)]
pub(crate) struct DrawParams<'a> {
    pub(crate) level: &'a str,
    pub(crate) state: &'a str,
}

#[derive(Deserialize)]
pub(crate) struct Drawn {
    pub(crate) rows: Vec<String>,
    #[serde(default)]
    pub(crate) legend: BTreeMap<String, Legend>,
}

/// What a picture's character stands for.
#[derive(Deserialize)]
pub(crate) struct Legend {
    pub(crate) name: String,
    pub(crate) fill: Option<String>,
}
