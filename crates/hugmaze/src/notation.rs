//! Hug Maze move text: `B:R D:U …`, one token per move: the bear (`B` Bubu,
//! `D` Dudu), a colon, the direction (`U`, `D`, `L`, `R`). Tokens are
//! separated by spaces or commas.

use super::rules::{Bear, Dir, Move};
use puzzle_qa_core::game::NotationError;

/// Prints moves as `B:R D:U`.
pub(crate) fn format(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|mv| format!("{}:{}", mv.bear.letter(), mv.dir.letter()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads move text, one [`Move`] per token.
pub(crate) fn parse(text: &str) -> Result<Vec<Move>, NotationError> {
    let mut moves = Vec::new();
    let mut column = 0;
    let mut token = String::new();
    let mut token_column = 0;
    for ch in text.chars().chain(std::iter::once(' ')) {
        column += 1;
        if ch.is_whitespace() || ch == ',' {
            if !token.is_empty() {
                moves.push(read_token(&token, token_column)?);
                token.clear();
            }
            continue;
        }
        if token.is_empty() {
            token_column = column;
        }
        token.push(ch);
    }
    Ok(moves)
}

fn read_token(token: &str, column: usize) -> Result<Move, NotationError> {
    let malformed = || {
        NotationError::new(
            column,
            format!(
                "`{token}` is not a move: write the bear, a colon and a direction, as in `B:R` or `D:U`"
            ),
        )
    };
    let (bear, dir) = token.split_once(':').ok_or_else(malformed)?;
    let bear = match bear {
        "B" => Bear::Bubu,
        "D" => Bear::Dudu,
        _ => {
            return Err(NotationError::new(
                column,
                format!("unknown bear `{bear}` in `{token}`: B is Bubu, D is Dudu"),
            ));
        }
    };
    let dir = match dir {
        "U" => Dir::U,
        "D" => Dir::D,
        "L" => Dir::L,
        "R" => Dir::R,
        _ => {
            return Err(NotationError::new(
                column + 2,
                format!("unknown direction `{dir}` in `{token}`: directions are U D L R"),
            ));
        }
    };
    Ok(Move { bear, dir })
}
