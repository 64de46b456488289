use super::*;
use crate::core::game::{split_moves, Game};
use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::games::connect::board::{Board, Cell};
use crate::games::connect::game::ConnectPosition;
use crate::games::gomoku::cells::CellPatterns;
use crate::games::gomoku::pair_eval::GOMOKU_CELL_PAIRS;
use crate::games::gomoku::GomokuThreats;
use crate::games::gomoku::{Gomoku, GomokuBoard};
use crate::search::{Engine, Searcher, TreeSearch};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Black to move: `i8` makes a four on row 8 (closed by White's `e8`, completed only at `j8`)
/// and an open three on column i (`i6 i7`); White's stones are in the corners and make nothing.
const FOUR_THREE_AT_I8: &str = "f8 e8 g8 a1 h8 a15 i6 o1 i7 o15";

fn position(moves: &str) -> GomokuBoard {
    let mut pos = Gomoku.replay(&split_moves(moves)).unwrap();
    pos.keep_cells(false);
    pos
}

fn claim(pos: &GomokuBoard) -> Option<i32> {
    proven_win(pos.kept_cells().unwrap(), pos.board().to_move())
}

/// The empty cells where the side `colour` would complete a five now.
fn five_cells(b: &Board, colour: Colour) -> Vec<Cell> {
    let mut cells: Vec<Cell> =
        b.threat_roads(colour).flat_map(|r| b.empty_cells_of_road(r).collect::<Vec<_>>()).collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

fn empty_cells(b: &Board) -> Vec<Cell> {
    (0..b.rules().cells() as Cell).filter(|&c| b.is_empty_cell(c)).collect()
}

/// Whether the side to move, after playing `a`, wins on its next turn whatever the opponent
/// does: it has won, or the opponent cannot make five and faces two cells that do.
fn wins_after(b: &mut Board, a: Cell) -> bool {
    let me = b.to_move();
    b.play(a);
    let won = b.winner() == Some(me) || (b.threat_count(me.other()) == 0 && five_cells(b, me).len() >= 2);
    b.undo();
    won
}

/// Whether the side to move wins within 3 plies (its five on its second stone at the latest).
fn wins_in_3(b: &mut Board) -> bool {
    b.threat_count(b.to_move()) > 0 || empty_cells(b).into_iter().any(|a| wins_after(b, a))
}

/// Whether the side to move, after playing `a`, wins within 5 plies: every reply of the
/// opponent, anywhere, leaves a win within 3.
fn wins_in_5_after(b: &mut Board, a: Cell) -> bool {
    let me = b.to_move();
    b.play(a);
    let won = b.winner() == Some(me)
        || (b.threat_count(me.other()) == 0
            && empty_cells(b).into_iter().all(|reply| {
                b.play(reply);
                let w = b.winner().is_none() && wins_in_3(b);
                b.undo();
                w
            }));
    b.undo();
    won
}

/// The cells of the side to move in one of `classes`.
fn cells_of(p: &CellPatterns, b: &Board, classes: &[u8]) -> Vec<Cell> {
    empty_cells(b).into_iter().filter(|&c| classes.contains(&p.class(b.to_move(), c))).collect()
}

#[test]
fn a_four_three_wins_in_five_plies_when_the_opponent_has_no_four_to_make() {
    let pos = position(FOUR_THREE_AT_I8);
    assert_eq!(claim(&pos), Some(5));
    let mut b = pos.board().clone();
    let i8 = b.cell(8, 7);
    assert_eq!(pos.kept_cells().unwrap().class(Colour::Black, i8), FOUR_THREE);
    assert!(wins_in_5_after(&mut b, i8));
    // White with a closed three at the edge (a1 a2 a3: a4 makes a four) may answer the four
    // with fours of its own: no claim.
    let pos = position("f8 e8 g8 a1 h8 a2 i6 a3 i7 o15");
    assert!(pos.kept_cells().unwrap().class_count(Colour::White, FOUR) > 0);
    assert_eq!(claim(&pos), None);
    // White to move instead: the claims are the side to move's.
    let pos = position(&format!("{FOUR_THREE_AT_I8} a8"));
    assert_eq!(claim(&pos), None);
}

#[test]
fn an_open_four_to_make_wins_in_three_and_a_four_to_block_comes_first() {
    // Black's open three h8 i8 j8: g8 or k8 makes an open four.
    assert_eq!(claim(&position("h8 a1 i8 a15 j8 o1")), Some(3));
    // Black to move with a four (f8-i8, j8 completes): five at once.
    assert_eq!(claim(&position("f8 e8 g8 a1 h8 a15 i8 o1")), Some(1));
    // White to move facing that four, with its own open three: it must block first.
    assert_eq!(claim(&position("f8 h10 g8 i10 h8 j10 i8")), None);
}

/// Every claim on random positions, checked by trying every reply: a claim of 3 plies needs a
/// cell whose stone leaves two fives to make (and the opponent none), a claim of 5 a four-three
/// or double-three cell whose stone wins within 3 plies against every reply.
#[test]
fn every_claim_on_random_positions_is_a_win() {
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    let (mut checked3, mut checked5) = (0, 0);
    for _ in 0..3000 {
        if checked5 >= 12 && checked3 >= 12 {
            break;
        }
        let mut b = Board::new(crate::games::connect::board::Rules::GOMOKU);
        let stones = rng.random_range(8..26);
        while b.stone_count() < stones && b.winner().is_none() {
            let (x, y) = (7 + rng.random_range(-4i32..=4), 7 + rng.random_range(-4i32..=4));
            let c = b.cell(x as usize, y as usize);
            if b.is_empty_cell(c) {
                b.play(c);
            }
        }
        if b.winner().is_some() || b.threat_count(b.to_move()) > 0 || b.threat_count(b.to_move().other()) > 0 {
            continue;
        }
        let mut pos = GomokuBoard::from_board(b.clone());
        pos.keep_cells(false);
        let p = pos.kept_cells().unwrap();
        match proven_win(p, b.to_move()) {
            Some(3) => {
                checked3 += 1;
                let cells = cells_of(p, &b, &[FLEX4]);
                assert!(cells.into_iter().any(|a| wins_after(&mut b, a)), "{}", b.diagram());
            }
            Some(5) => {
                checked5 += 1;
                let cells = cells_of(p, &b, &[FOUR_THREE, DOUBLE_THREE]);
                assert!(cells.into_iter().any(|a| wins_in_5_after(&mut b, a)), "{}", b.diagram());
            }
            Some(plies) => panic!("claim of {plies} plies without a four on the board"),
            None => {}
        }
    }
    assert!(checked3 >= 12 && checked5 >= 12, "{checked3} / {checked5} claims checked");
}

/// The search with the `cell-pairs` evaluation plays the four-three and reports its mate
/// (three stones of Black's), and one turn from the horizon it sees two four-threes White
/// cannot both stop: without the classes' claims a search of one turn scores it statically.
#[test]
fn the_search_knows_the_four_three_one_turn_from_the_horizon() {
    let weights = GOMOKU_CELL_PAIRS.defaults();
    let mut e = Engine::<Gomoku>::new(EngineSettings::default(), &weights);
    let mut pos = Gomoku.replay(&split_moves(FOUR_THREE_AT_I8)).unwrap();
    let r = e.search(&mut pos, &Limits::depth(2));
    assert_eq!(r.mate_in(), Some(3), "score {}", r.score);
    // White to move, Black with two four-threes: i8 as above, and i13 (a four on row 13
    // closed by White's e13, an open three on column i with i11 i12). One stone stops one of
    // them, and White's scattered stones make no four: lost one turn from the horizon.
    let two = "f8 e8 g8 a1 h8 a15 i6 o1 i7 o15 f13 e13 g13 h1 h13 a8 i11 o8 i12";
    // Without the threat searches at the root, which would find the same by searching.
    let bare =
        EngineSettings { vcdt_depth: 0, refutation_nodes: 0, quiet_refutation_nodes: 0, ..EngineSettings::default() };
    let mut e = Engine::<Gomoku>::new(bare.clone(), &weights);
    let mut pos = Gomoku.replay(&split_moves(two)).unwrap();
    let r = e.search(&mut pos, &Limits::depth(1));
    assert!(r.score < -crate::search::MATE_BOUND, "score {}", r.score);
    // Without the claims the quiescence search past the horizon finds the same loss by
    // playing Black's fours; without both, a search of one turn scores it statically.
    let off = EngineSettings { horizon_wins: false, ..bare };
    let mut searching = TreeSearch::<Gomoku, GomokuThreats>::new(off.clone(), &weights);
    let r = searching.search(&mut pos, &Limits::depth(1));
    assert!(r.score < -crate::search::MATE_BOUND, "score {}", r.score);
    let mut plain = TreeSearch::<Gomoku, GomokuThreats>::new(off, &weights);
    plain.generator_mut().quiescence_plies = 0;
    let r = plain.search(&mut pos, &Limits::depth(1));
    assert!(r.score > -crate::search::MATE_BOUND, "score {}", r.score);
}
