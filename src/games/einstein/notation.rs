//! EinStein würfelt nicht's record notation (docs/notation.md). A square is a column `a`-`e`
//! (left to right) and a row `1`-`5` (bottom to top): red starts around `a5`, blue around
//! `e1`. A setup is the six cube numbers in the order of the side's triangle from its corner
//! outwards (red: a5 b5 a4 c5 b4 a3; blue: e1 d1 e2 c1 d2 e3), e.g. `123456`. A step is the
//! roll, a colon, and the cube's start and end squares: `4:b4c3` (a `-` or `x` between the
//! squares is accepted on reading). A roll on its own is `r4`: a position given as moves ends
//! with it when the side to move has rolled but not moved.

use crate::games::einstein::board::{setup_cubes, setup_index, Move, SIDE};

/// The name of a square (`a5` is the top-left corner, square 0).
pub fn square_name(sq: u8) -> String {
    let (row, col) = (sq as usize / SIDE, sq as usize % SIDE);
    format!("{}{}", (b'a' + col as u8) as char, SIDE - row)
}

/// The square of a name.
pub fn parse_square(text: &str) -> Result<u8, String> {
    let b = text.as_bytes();
    let bad = || format!("`{text}` is not a square: expected a column a-e and a row 1-5, like `b4`");
    if b.len() != 2 {
        return Err(bad());
    }
    let (col, rank) = (b[0].to_ascii_lowercase(), b[1]);
    if !(b'a'..=b'e').contains(&col) || !(b'1'..=b'5').contains(&rank) {
        return Err(bad());
    }
    Ok(((SIDE - (rank - b'0') as usize) * SIDE + (col - b'a') as usize) as u8)
}

/// A move's text.
pub fn move_text(m: Move) -> String {
    if m.is_setup() {
        setup_cubes(m.setup_index()).iter().map(|k| char::from(b'0' + k)).collect()
    } else if m.is_roll() {
        format!("r{}", m.die())
    } else if m.is_step() {
        format!("{}:{}{}", m.die(), square_name(m.from()), square_name(m.to()))
    } else {
        "none".into()
    }
}

/// Reads a setup (`123456`) or a step (`4:b4c3`); whether it is legal is the board's business.
pub fn parse_move(text: &str) -> Result<Move, String> {
    let t = text.trim();
    if t.len() == 6 && t.bytes().all(|b| b.is_ascii_digit()) {
        let cubes: Vec<u8> = t.bytes().map(|b| b - b'0').collect();
        return setup_index(&cubes)
            .map(Move::setup)
            .ok_or_else(|| format!("`{t}` is not a setup: expected the cubes 1 to 6, each once, like `351624`"));
    }
    if let Some(die) = t.strip_prefix(['r', 'R']) {
        return match die.parse() {
            Ok(d) if (1..=6).contains(&d) => Ok(Move::roll(d)),
            _ => Err(format!("`{t}`: the roll `{die}` is not a die value 1-6")),
        };
    }
    let bad = || {
        format!(
            "`{t}` is not a move: expected a setup like `351624`, a roll like `r4` or a roll and a step like `4:b4c3`"
        )
    };
    let (die, squares) = t.split_once(':').ok_or_else(bad)?;
    let die: u8 = match die.trim().parse() {
        Ok(d) if (1..=6).contains(&d) => d,
        _ => return Err(format!("`{t}`: the roll `{die}` is not a die value 1-6")),
    };
    let squares: String = squares.chars().filter(|c| !matches!(c, '-' | 'x' | 'X' | ' ')).collect();
    if squares.len() != 4 {
        return Err(bad());
    }
    Ok(Move::step(die, parse_square(&squares[..2])?, parse_square(&squares[2..])?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(square_name(0), "a5");
        assert_eq!(square_name(24), "e1");
        for sq in 0..25 {
            assert_eq!(parse_square(&square_name(sq)), Ok(sq));
        }
        for m in [Move::step(4, 6, 12), Move::setup(0), Move::setup(537), Move::roll(6)] {
            assert_eq!(parse_move(&move_text(m)), Ok(m));
        }
        assert_eq!(parse_move("4:b4-c3"), Ok(Move::step(4, 6, 12)));
        assert!(parse_move("7:b4c3").unwrap_err().contains("die value"));
        assert!(parse_move("112345").unwrap_err().contains("each once"));
        assert!(parse_move("4:b4z9").unwrap_err().contains("not a square"));
    }
}
