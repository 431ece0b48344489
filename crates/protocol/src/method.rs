//! The protocol's methods. As lsp-types' `Request` does, a [`Method`] ties
//! a method's name to what its request sends and what its reply's result
//! holds, so that a request names its method once, as a type, and its
//! reply is read as that method's result.

use serde::{Deserialize, Serialize};

use crate::wire::{
    AblateParams, AblateResult, DrawParams, DrawResult, FormatParams, FormatResult, HelloParams,
    HelloResult, LoadParams, LoadResult, ParseParams, ParseResult, StepParams, StepResult,
    SuccessorsParams, SuccessorsResult,
};

/// A method of the protocol (docs/protocol.md).
pub(crate) trait Method {
    /// Its name in a request's `method`.
    const METHOD: &'static str;
    /// A request's `params`, which may borrow what the caller holds.
    type Params<'a>: Serialize;
    /// A reply's `result`, which may borrow from the reply's line.
    type Result<'a>: Deserialize<'a>;
}

/// `hello`: the first request to a process, the versions and the game.
pub(crate) enum Hello {}

impl Method for Hello {
    const METHOD: &'static str = "hello";
    type Params<'a> = HelloParams<'a>;
    type Result<'a> = HelloResult;
}

/// `load`: a level file's text made a level.
pub(crate) enum Load {}

impl Method for Load {
    const METHOD: &'static str = "load";
    type Params<'a> = LoadParams<'a>;
    type Result<'a> = LoadResult;
}

/// `successors`: every legal move from each of some states.
pub(crate) enum Successors {}

impl Method for Successors {
    const METHOD: &'static str = "successors";
    type Params<'a> = SuccessorsParams<'a>;
    type Result<'a> = SuccessorsResult<'a>;
}

/// `step`: one move played, or refused.
pub(crate) enum Step {}

impl Method for Step {
    const METHOD: &'static str = "step";
    type Params<'a> = StepParams<'a>;
    type Result<'a> = StepResult;
}

/// `parse`: a solution's text read as moves.
pub(crate) enum Parse {}

impl Method for Parse {
    const METHOD: &'static str = "parse";
    type Params<'a> = ParseParams<'a>;
    type Result<'a> = ParseResult;
}

/// `format`: moves written as a solution's text.
pub(crate) enum Format {}

impl Method for Format {
    const METHOD: &'static str = "format";
    type Params<'a> = FormatParams<'a>;
    type Result<'a> = FormatResult;
}

/// `ablate`: a level with a mechanic (or one piece of one) taken out.
pub(crate) enum Ablate {}

impl Method for Ablate {
    const METHOD: &'static str = "ablate";
    type Params<'a> = AblateParams<'a>;
    type Result<'a> = AblateResult;
}

/// `draw`: a state's text picture.
pub(crate) enum Draw {}

impl Method for Draw {
    const METHOD: &'static str = "draw";
    type Params<'a> = DrawParams<'a>;
    type Result<'a> = DrawResult;
}
