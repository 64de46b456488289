//! EinStein würfelt nicht's rules: move generation against a brute-force reading of the rules
//! on random positions, the die's fallback to the nearest cube, the two ways to win, and
//! OpenSpiel's `einstein_wurfelt_nicht` (an implementation no one here wrote) on 200 recorded
//! random games (tests/fixtures/einstein-openspiel.jsonl).

use evotune::core::game::{Game, Position, Side, Status};
use evotune::games::einstein::board::{Board, Move, Phase, GONE, SQUARES};
use evotune::games::einstein::notation::{move_text, square_name};
use evotune::games::einstein::Einstein;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn replay(moves: &[&str]) -> Board {
    Einstein.replay(moves).unwrap_or_else(|e| panic!("{moves:?}: {e}"))
}

fn steps(board: &Board) -> Vec<String> {
    let mut moves = Vec::new();
    Einstein.legal_moves(board, &mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| move_text(m)).collect();
    texts.sort();
    texts
}

/// The steps by the rules read plainly: for every cube of the mover, whether the die lets it
/// move (its own number, or no cube of the die's number is left and no cube left lies strictly
/// between it and the die's number), then each of its three directions that stays on the board.
fn brute_force_steps(board: &Board, die: u8) -> Vec<String> {
    let side = board.to_move();
    let alive = |k: u8| board.square_of(side, k) != GONE;
    let dirs: [(i32, i32); 3] =
        if side == Side::First { [(0, 1), (1, 0), (1, 1)] } else { [(0, -1), (-1, 0), (-1, -1)] };
    let mut out = Vec::new();
    for k in 1..=6u8 {
        if !alive(k) {
            continue;
        }
        let selected = k == die || (!alive(die) && (k.min(die) + 1..k.max(die)).all(|j| !alive(j)));
        if !selected {
            continue;
        }
        let sq = board.square_of(side, k) as i32;
        let (r, c) = (sq / 5, sq % 5);
        for (dr, dc) in dirs {
            let (nr, nc) = (r + dr, c + dc);
            if (0..5).contains(&nr) && (0..5).contains(&nc) {
                out.push(format!("{die}:{}{}", square_name(sq as u8), square_name((nr * 5 + nc) as u8)));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn move_generation_matches_the_rules_on_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut positions = 0;
    for _ in 0..300 {
        let mut b = Board::start();
        b.play(Move::setup(rng.random_range(0..720)));
        b.play(Move::setup(rng.random_range(0..720)));
        while !b.status().is_over() {
            assert_eq!(b.chance(), Some(6));
            let die = rng.random_range(1..=6);
            b.resolve_chance(die as u32 - 1);
            let legal = steps(&b);
            assert_eq!(legal, brute_force_steps(&b, die), "{b:?}");
            assert!(!legal.is_empty() && legal.len() <= 6);
            positions += 1;
            let mut moves = Vec::new();
            b.legal_moves(&mut moves);
            b.play(moves[rng.random_range(0..moves.len())]);
        }
        assert_eq!(b.chance(), None, "no roll once the game is over");
    }
    assert!(positions > 3000, "{positions}");
}

#[test]
fn the_die_falls_back_to_the_nearest_cubes_above_and_below() {
    // Setups 123456: red a5=1 b5=2 a4=3 c5=4 b4=5 a3=6, blue e1=1 d1=2 e2=3 c1=4 d2=5 e3=6.
    // Each side's cube 1 takes one of its own cubes (red's 3, blue's 2).
    let mut b = replay(&["123456", "123456", "1:a5a4", "1:e1d1"]);
    assert_eq!(b.alive(Side::First), 0b0111_0110);
    assert_eq!(b.movable(Side::First, 3), [2, 4], "either neighbour of a lost cube");
    assert_eq!(b.movable(Side::First, 5), [5, 0], "a cube left is the only choice");
    assert_eq!(b.movable(Side::Second, 2), [1, 3]);
    b.resolve_chance(2);
    assert_eq!(b.phase(), Phase::Move(3));
    assert_eq!(steps(&b), ["3:b5b4", "3:b5c4", "3:b5c5", "3:c5c4", "3:c5d4", "3:c5d5"], "own cubes can be taken");
    // Red loses cubes 3, 6 and 5 to its own moves and 4 to blue's cube 6: 1 and 2 are left,
    // and every roll above 2 moves cube 2.
    let b = replay(&["123456", "123456", "1:a5a4", "6:e3e4", "1:a4a3", "6:e4d5", "2:b5b4", "6:d5c5"]);
    assert_eq!(b.alive(Side::First), 0b0000_0110, "{b:?}");
    for die in 3..=6 {
        assert_eq!(b.movable(Side::First, die), [2, 0]);
    }
    assert_eq!(b.movable(Side::First, 1), [1, 0]);
}

#[test]
fn games_end_on_the_corner_or_when_a_side_has_no_cubes() {
    let b = replay(&["123456", "654321", "5:b4c3", "1:e3d3", "5:c3d2", "1:d3c3", "5:d2e1"]);
    assert_eq!(b.status(), Status::Won { winner: Side::First, reason: "corner" });
    assert!(Einstein.play_checked(&mut b.clone(), Move::roll(3)).unwrap_err().contains("over"));
    let mut reasons = [0; 2];
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..400 {
        let mut b = Board::start();
        b.play(Move::setup(rng.random_range(0..720)));
        b.play(Move::setup(rng.random_range(0..720)));
        loop {
            let corner = |side: Side| {
                let target = if side == Side::First { SQUARES - 1 } else { 0 };
                b.at(target).is_some_and(|(owner, _)| owner == side)
            };
            match b.status() {
                Status::Ongoing => {
                    assert!(!corner(Side::First) && !corner(Side::Second));
                    assert!(b.alive(Side::First) != 0 && b.alive(Side::Second) != 0);
                }
                Status::Won { winner, reason: "corner" } => {
                    assert!(corner(winner));
                    reasons[0] += 1;
                    break;
                }
                Status::Won { winner, reason: "captured" } => {
                    assert_eq!(b.alive(winner.other()), 0);
                    reasons[1] += 1;
                    break;
                }
                other => panic!("no draws in EinStein: {other:?}"),
            }
            b.resolve_chance(rng.random_range(0..6));
            let mut moves = Vec::new();
            b.legal_moves(&mut moves);
            b.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    assert!(reasons[0] > 0 && reasons[1] > 0, "both ways to win happen: {reasons:?}");
}

#[test]
fn bad_moves_are_refused_with_reasons_and_change_nothing() {
    let mut b = replay(&["123456", "123456"]);
    let before = b.clone();
    for (text, why) in [
        ("3:a5b5", "not a move of the first player on a roll of 3"),
        ("123456", "already placed"),
        ("4:c5d4", "the moves are 4:c5c4 4:c5d4 4:c5d5"),
    ] {
        let m = Einstein.parse_move(&b, text).unwrap();
        match Einstein.play_checked(&mut b, m) {
            Err(e) if text != "4:c5d4" => assert!(e.contains(why), "{text}: {e}"),
            Err(e) => panic!("{text}: {e}"),
            Ok(()) => {
                assert_eq!(text, "4:c5d4");
                b = before.clone();
                continue;
            }
        }
        assert_eq!(b, before, "{text} changed the position");
    }
    let mut setup = Board::start();
    assert!(Einstein.play_checked(&mut setup, Move::roll(2)).unwrap_err().contains("not to be rolled"));
    let step = Einstein.parse_move(&setup, "1:a5b5").unwrap();
    assert!(Einstein.play_checked(&mut setup, step).unwrap_err().contains("place its cubes"));
    assert!(Einstein.parse_move(&setup, "113456").unwrap_err().contains("each once"));
}

#[derive(serde::Deserialize)]
struct Turn {
    roll: u8,
    legal: Vec<String>,
    #[serde(rename = "move")]
    played: String,
    over: bool,
}

#[derive(serde::Deserialize)]
struct Recorded {
    game: usize,
    setups: [String; 2],
    turns: Vec<Turn>,
    winner: String,
}

#[test]
fn openspiel_agrees_on_200_random_games() {
    let text = std::fs::read_to_string("tests/fixtures/einstein-openspiel.jsonl").unwrap();
    let mut turns = 0;
    for line in text.lines() {
        let g: Recorded = serde_json::from_str(line).unwrap();
        let mut b = replay(&[&g.setups[0], &g.setups[1]]);
        for (i, t) in g.turns.iter().enumerate() {
            b.resolve_chance(t.roll as u32 - 1);
            assert_eq!(steps(&b), t.legal, "game {} turn {i}", g.game);
            let m = Einstein.parse_move(&b, &t.played).unwrap();
            Einstein.play_checked(&mut b, m).unwrap();
            assert_eq!(b.status().is_over(), t.over, "game {} turn {i}", g.game);
            turns += 1;
        }
        let Status::Won { winner, .. } = b.status() else { panic!("game {} did not end", g.game) };
        assert_eq!(winner.name(), g.winner, "game {}", g.game);
    }
    assert!(turns > 4000, "{turns}");
}
