//! The source text to [`Parsed`]. (Being written.)

use crate::ast::Parsed;
use crate::log::Log;

/// Reads a game's source into its sections, logging what the official
/// engine's parser would log.
pub fn parse(_source: &str, _log: &mut Log) -> Parsed {
    Parsed::default()
}
