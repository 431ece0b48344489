//! Bloxorz move text: `R2 D R3 D`, with `S` where control passes; the
//! bracketed form `[R2, D, R3, D]` is read too.

use super::level::Level;
use super::rules::{Dir, Move};
use puzzle_qa_core::game::{NotationError, NotationWidth};

/// The largest repeat count read after a letter; more is surely a typo, and
/// would only make a replay allocate.
const MAX_REPEAT: usize = 10_000;

/// A roll that passes control first prints as two tokens, `S` and the roll.
impl NotationWidth for Level {
    fn notation_width(&self, mv: &Move) -> usize {
        match mv {
            Move::Roll {
                pass_first: true, ..
            } => 2,
            _ => 1,
        }
    }
}

/// Prints moves, runs of one roll as a count (`R3`), `S` before a roll that
/// needs control passed.
pub(crate) fn format(moves: &[Move]) -> String {
    let mut tokens: Vec<(char, usize)> = Vec::new();
    for mv in moves {
        match *mv {
            Move::Pass => tokens.push(('S', 1)),
            Move::Roll { dir, pass_first } => {
                if pass_first {
                    tokens.push(('S', 1));
                }
                match tokens.last_mut() {
                    Some((letter, count)) if *letter == dir.letter() && !pass_first => *count += 1,
                    _ => tokens.push((dir.letter(), 1)),
                }
            }
        }
    }
    tokens
        .iter()
        .map(|&(letter, count)| match count {
            1 => letter.to_string(),
            _ => format!("{letter}{count}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads move text: one [`Move`] per single move (`R3` is three rolls; each
/// `S` is a [`Move::Pass`]).
pub(crate) fn parse(text: &str) -> Result<Vec<Move>, NotationError> {
    let chars: Vec<char> = text.chars().collect();
    let mut moves = Vec::new();
    let mut at = 0;
    // The bracketed form: `[` ... `]` around the list.
    let first = chars.iter().position(|c| !c.is_whitespace());
    let last = chars.iter().rposition(|c| !c.is_whitespace());
    let mut end = chars.len();
    if let (Some(first), Some(last)) = (first, last)
        && chars[first] == '['
    {
        if chars[last] != ']' || last == first {
            return Err(NotationError::new(first + 1, "`[` without a closing `]`"));
        }
        at = first + 1;
        end = last;
    }
    while at < end {
        let c = chars[at];
        if c.is_whitespace() || c == ',' {
            at += 1;
            continue;
        }
        let column = at + 1;
        let mv = match c {
            'U' => Move::roll(Dir::U),
            'D' => Move::roll(Dir::D),
            'L' => Move::roll(Dir::L),
            'R' => Move::roll(Dir::R),
            'S' => Move::Pass,
            _ => {
                return Err(NotationError::new(
                    column,
                    format!("unknown move `{c}`; moves are U D L R, and S to pass control"),
                ));
            }
        };
        at += 1;
        let digits_from = at;
        while at < end && chars[at].is_ascii_digit() {
            at += 1;
        }
        let count = if at == digits_from {
            1
        } else {
            let digits: String = chars[digits_from..at].iter().collect();
            match digits.parse::<usize>() {
                Ok(count @ 1..=MAX_REPEAT) => count,
                _ => {
                    return Err(NotationError::new(
                        digits_from + 1,
                        format!("repeat count `{digits}` must be between 1 and {MAX_REPEAT}"),
                    ));
                }
            }
        };
        if at < end && !(chars[at].is_whitespace() || chars[at] == ',') {
            return Err(NotationError::new(
                at + 1,
                format!(
                    "unexpected `{}`; separate moves with spaces or commas",
                    chars[at]
                ),
            ));
        }
        moves.extend(std::iter::repeat_n(mv, count));
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_passes_print_compactly() {
        let moves = [
            Move::roll(Dir::R),
            Move::roll(Dir::R),
            Move::Roll {
                dir: Dir::R,
                pass_first: true,
            },
            Move::roll(Dir::D),
            Move::Pass,
        ];
        assert_eq!(format(&moves), "R2 S R D S");
    }

    #[test]
    fn both_forms_read_the_same() {
        let plain = parse("R2 D R3 D").unwrap();
        let bracketed = parse("[R2, D, R3, D]").unwrap();
        assert_eq!(plain, bracketed);
        assert_eq!(plain.len(), 7);
        assert_eq!(format(&plain), "R2 D R3 D");
    }

    #[test]
    fn pass_is_a_move_of_its_own() {
        assert_eq!(parse("S R").unwrap(), vec![Move::Pass, Move::roll(Dir::R)]);
    }

    #[test]
    fn bad_text_names_its_column() {
        assert_eq!(parse("R2 X").unwrap_err().column, 4);
        assert_eq!(parse("R0").unwrap_err().column, 2);
        assert_eq!(parse("R2D").unwrap_err().column, 3);
        assert_eq!(parse("[R, D").unwrap_err().column, 1);
        assert_eq!(parse("R99999999999999999999").unwrap_err().column, 2);
    }

    #[test]
    fn empty_text_is_no_moves() {
        assert_eq!(parse("").unwrap(), vec![]);
        assert_eq!(parse(" [ ] ").unwrap(), vec![]);
    }
}
