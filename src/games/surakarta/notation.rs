//! Surakarta's record notation (docs/notation.md): a point is a column letter `a`-`f` (left to
//! right) and a row number `1`-`6` (bottom to top; the first player starts on rows 1 and 2), as
//! the Chinese computer-games competitions label the board; a move is its start point and its
//! end point, `b2-b3` for a step and `b2xe5` for a capture (the end point is the captured
//! piece's). On reading, the separator may be `-`, `x`, `,`, `:` or nothing, in either case,
//! and the pair may stand in parentheses: `(B2,B3)`.

use crate::games::surakarta::geometry::{CELLS, SIDE};

/// The name of a point (`a1` is the bottom-left corner, cell 30).
pub fn point_name(cell: usize) -> String {
    let (row, col) = (cell / SIDE, cell % SIDE);
    format!("{}{}", (b'a' + col as u8) as char, SIDE - row)
}

/// The cell of a point name.
pub fn parse_point(text: &str) -> Result<usize, String> {
    let b = text.as_bytes();
    let bad = || format!("`{text}` is not a point: expected a column a-f and a row 1-6, like `b2`");
    if b.len() != 2 {
        return Err(bad());
    }
    let col = b[0].to_ascii_lowercase();
    let rank = b[1];
    if !(b'a'..=b'f').contains(&col) || !(b'1'..=b'6').contains(&rank) {
        return Err(bad());
    }
    let cell = (SIDE - (rank - b'0') as usize) * SIDE + (col - b'a') as usize;
    debug_assert!(cell < CELLS);
    Ok(cell)
}

/// A move's text.
pub fn move_text(from: usize, to: usize, capture: bool) -> String {
    format!("{}{}{}", point_name(from), if capture { 'x' } else { '-' }, point_name(to))
}

/// The start and end points of a move's text.
pub fn parse_points(text: &str) -> Result<(usize, usize), String> {
    let t = text.trim();
    let t = t.strip_prefix('(').and_then(|t| t.strip_suffix(')')).unwrap_or(t);
    let chars: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
    let shape = || format!("`{text}` is not a move: expected two points, like `b2-b3` or `b2xe5`");
    let (a, b): (String, String) = match chars.len() {
        4 => (chars[..2].iter().collect(), chars[2..].iter().collect()),
        5 if matches!(chars[2], '-' | 'x' | 'X' | ',' | ':') => {
            (chars[..2].iter().collect(), chars[3..].iter().collect())
        }
        _ => return Err(shape()),
    };
    let from = parse_point(&a).map_err(|e| format!("{}: {e}", shape()))?;
    let to = parse_point(&b).map_err(|e| format!("{}: {e}", shape()))?;
    if from == to {
        return Err(format!("`{text}` starts and ends on the same point"));
    }
    Ok((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_round_trip_and_name_the_corners() {
        for c in 0..CELLS {
            assert_eq!(parse_point(&point_name(c)), Ok(c));
        }
        assert_eq!(point_name(30), "a1");
        assert_eq!(point_name(35), "f1");
        assert_eq!(point_name(0), "a6");
        assert_eq!(point_name(5), "f6");
        assert_eq!(parse_point("C4"), Ok(14));
    }

    #[test]
    fn moves_read_in_every_written_form() {
        for text in ["b2-b3", "b2b3", "B2B3", "(b2,b3)", "b2:b3", "b2 - b3"] {
            assert_eq!(parse_points(text), Ok((25, 19)), "{text}");
        }
        assert_eq!(parse_points("a2xe5"), Ok((24, 10)));
        assert_eq!(move_text(24, 10, true), "a2xe5");
        assert_eq!(move_text(25, 19, false), "b2-b3");
    }

    #[test]
    fn bad_text_says_what_was_expected() {
        for text in ["", "b2", "b2-b", "g1-a1", "a0-a1", "a7a6", "b2-b2", "b2=b3", "日本"] {
            let e = parse_points(text).unwrap_err();
            assert!(e.contains(text.trim()), "{text}: {e}");
        }
        assert!(parse_points("g1-a1").unwrap_err().contains("column a-f"));
    }
}
