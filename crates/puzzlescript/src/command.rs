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

/// A set of commands, as a rule issues them or a turn queues them: a
/// command issued twice counts once, and the order they come in does not
/// change what a turn does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Commands(u32);

impl Command {
    /// The command's bit in a [`Commands`].
    fn bit(self) -> u32 {
        match self {
            Command::Cancel => 1 << 0,
            Command::Restart => 1 << 1,
            Command::Win => 1 << 2,
            Command::Again => 1 << 3,
            Command::Checkpoint => 1 << 4,
            Command::Message => 1 << 5,
            Command::Sfx(n) => 1 << (6 + n),
        }
    }
}

impl Commands {
    /// Whether `command` is in the set.
    #[inline]
    pub(crate) fn contains(self, command: Command) -> bool {
        self.0 & command.bit() != 0
    }

    /// How many commands the set holds.
    pub(crate) fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Adds every command of `other`.
    pub(crate) fn add(&mut self, other: Commands) {
        self.0 |= other.0;
    }

    /// Empties the set.
    pub(crate) fn clear(&mut self) {
        self.0 = 0;
    }
}

impl FromIterator<Command> for Commands {
    fn from_iter<I: IntoIterator<Item = Command>>(commands: I) -> Commands {
        Commands(commands.into_iter().fold(0, |set, c| set | c.bit()))
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

    #[test]
    fn a_set_counts_each_command_once() {
        let set: Commands = [Command::Again, Command::Sfx(10), Command::Again]
            .into_iter()
            .collect();
        assert_eq!(set.len(), 2);
        assert!(set.contains(Command::Sfx(10)) && !set.contains(Command::Sfx(1)));
    }
}
