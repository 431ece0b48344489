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
pub(crate) struct HelloResult {
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
pub(crate) struct LoadResult {
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
pub(crate) struct SuccessorsParams<'a> {
    pub(crate) level: &'a str,
    pub(crate) states: Vec<&'a str>,
}

#[derive(Deserialize)]
pub(crate) struct SuccessorsResult<'a> {
    #[serde(borrow)]
    pub(crate) successors: Vec<Vec<Edge<'a>>>,
}

/// One legal move from a state: `{"move", "state", "cost"?, "won"?}`, or
/// the same as an array, `[move, state, cost?, won?]`, which is shorter to
/// write and to read when a reply holds thousands.
pub(crate) struct Edge<'a> {
    pub(crate) mv: Cow<'a, str>,
    pub(crate) state: Cow<'a, str>,
    pub(crate) cost: Option<u32>,
    pub(crate) won: bool,
}

/// [`Edge`] as an object.
#[derive(Deserialize)]
struct EdgeObject<'a> {
    #[serde(borrow, rename = "move")]
    mv: Cow<'a, str>,
    #[serde(borrow)]
    state: Cow<'a, str>,
    cost: Option<u32>,
    #[serde(default)]
    won: bool,
}

impl<'de: 'a, 'a> Deserialize<'de> for Edge<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Either;
        impl<'de> serde::de::Visitor<'de> for Either {
            type Value = Edge<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an edge: {\"move\", \"state\"} or [move, state, cost?, won?]")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Edge<'de>, A::Error> {
                use serde::de::Error;
                let mv: Cow<'de, str> = seq
                    .next_element::<Borrowed<'de>>()?
                    .ok_or_else(|| A::Error::invalid_length(0, &self))?
                    .0;
                let state = seq
                    .next_element::<Borrowed<'de>>()?
                    .ok_or_else(|| A::Error::invalid_length(1, &self))?
                    .0;
                let cost = seq.next_element::<u32>()?;
                let won = seq.next_element::<bool>()?.unwrap_or(false);
                if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    return Err(A::Error::invalid_length(5, &self));
                }
                Ok(Edge {
                    mv,
                    state,
                    cost,
                    won,
                })
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Edge<'de>, A::Error> {
                let edge =
                    EdgeObject::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(Edge {
                    mv: edge.mv,
                    state: edge.state,
                    cost: edge.cost,
                    won: edge.won,
                })
            }
        }
        deserializer.deserialize_any(Either)
    }
}

/// A string borrowed from the reply where it has no escapes.
struct Borrowed<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Borrowed<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Text<'a>(#[serde(borrow)] Cow<'a, str>);
        Ok(Borrowed(Text::deserialize(deserializer)?.0))
    }
}

#[derive(Serialize)]
pub(crate) struct StepParams<'a> {
    pub(crate) level: &'a str,
    pub(crate) state: &'a str,
    #[serde(rename = "move")]
    pub(crate) mv: &'a str,
}

#[derive(Deserialize)]
pub(crate) struct StepResult {
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
pub(crate) struct ParseResult {
    pub(crate) moves: Vec<String>,
}

#[derive(Serialize)]
pub(crate) struct FormatParams<'a> {
    pub(crate) level: &'a str,
    pub(crate) moves: Vec<&'a str>,
}

#[derive(Deserialize)]
pub(crate) struct FormatResult {
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
pub(crate) struct AblateResult {
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
pub(crate) struct DrawResult {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edge_reads_as_an_object_or_an_array() {
        let text = r#"{"successors": [[{"move": "B:U", "state": "ab"}, ["D:L", "cd"], ["D:R", "e\"f", 2, true]], []]}"#;
        let got: SuccessorsResult = serde_json::from_str(text).unwrap();
        let edges = &got.successors[0];
        assert_eq!(
            (&*edges[0].mv, &*edges[0].state, edges[0].cost, edges[0].won),
            ("B:U", "ab", None, false)
        );
        assert_eq!((&*edges[1].mv, &*edges[1].state), ("D:L", "cd"));
        assert_eq!(
            (&*edges[2].state, edges[2].cost, edges[2].won),
            ("e\"f", Some(2), true)
        );
        // Without escapes, nothing is copied.
        assert!(matches!(edges[1].state, Cow::Borrowed(_)));
        assert!(got.successors[1].is_empty());
        for bad in [r#"[["B:U"]]"#, r#"[["B:U", "s", 1, true, 0]]"#, r#"[[3]]"#] {
            let text = format!(r#"{{"successors": [{bad}]}}"#);
            assert!(
                serde_json::from_str::<SuccessorsResult>(&text).is_err(),
                "{bad}"
            );
        }
    }
}
