//! A rule's commands: the words that name them, read once when the rule
//! compiles, and what the engine queues for each.

/// The sound effects a rule can play and the SOUNDS section can define.
pub(crate) const SFX: [&str; 11] = [
    "sfx0", "sfx1", "sfx2", "sfx3", "sfx4", "sfx5", "sfx6", "sfx7", "sfx8", "sfx9", "sfx10",
];

/// A command a rule ends with. A `message`'s text is not kept: nothing in
/// puzzle-qa shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Command {
    /// The turn is undone.
    Cancel,
    /// The level is restarted.
    Restart,
    /// The level is won.
    Win,
    /// Another turn follows, with no input.
    Again,
    /// The level as it is becomes the restart target.
    Checkpoint,
    /// A message is shown.
    Message,
    /// Sound effect `sfxN`, by its `N`.
    Sfx(u8),
}

impl Command {
    /// The command a (lowercase) word names.
    pub(crate) fn named(word: &str) -> Option<Command> {
        Some(match word {
            "cancel" => Command::Cancel,
            "restart" => Command::Restart,
            "win" => Command::Win,
            "again" => Command::Again,
            "checkpoint" => Command::Checkpoint,
            "message" => Command::Message,
            _ => Command::Sfx(SFX.iter().position(|s| *s == word)? as u8),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sound_effect_is_named_by_its_number() {
        assert_eq!(Command::named("sfx0"), Some(Command::Sfx(0)));
        assert_eq!(Command::named("sfx10"), Some(Command::Sfx(10)));
        assert_eq!(Command::named("sfx11"), None);
        assert_eq!(Command::named("again"), Some(Command::Again));
    }
}
