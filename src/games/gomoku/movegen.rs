//! Gomoku's moves: the Connect generator's (a five when there is one, the blocks of the
//! opponent's fours, else the best stones near the others by the cheap score), plus the
//! answers to threes.
//!
//! A three is a threat one move deeper than a four: the opponent's next stone would make a
//! live four (or two fours), which one stone cannot stop. In a quiet position where the
//! opponent has such a move, the side to move must either stop it or attack with a four of
//! its own, so only those moves are generated: the opponent's winning cells, the other empty
//! cells of the opponent's roads those cells would make fours in (the ends of an open three),
//! and the side to move's fours (and its own winning moves). Elsewhere the quiet moves stand.

use crate::core::weights::{WeightGroup, WeightSpec, Weights};
use crate::games::connect::board::{Board, Cell, Colour};
use crate::games::connect::game::ConnectPosition;
use crate::games::connect::movegen::{Move, Situation};
use crate::games::connect::search::{ConnectGen, THREAT_MOVES};
use crate::games::gomoku::cells::{self, CellPatterns, LEVELS};
use crate::games::gomoku::GomokuBoard;
use crate::search::{Root, MATE};

/// The moves of an interior node with `depth` turns left, best first.
pub fn generate(gen: &mut ConnectGen, board: &Board, depth: i32, out: &mut Vec<Move>) -> Situation {
    let situation = if depth >= 2 {
        gen.movegen.generate_with_threats(board, THREAT_MOVES, out)
    } else {
        gen.movegen.generate(board, out)
    };
    if situation == Situation::Quiet {
        answer_threes(gen, board, out);
    }
    situation
}

/// The moves of the root and what is known before searching.
pub fn root(gen: &mut ConnectGen, board: &Board, out: &mut Vec<Move>) -> Root {
    situation_root(generate(gen, board, i32::MAX, out))
}

/// What a root's situation decides before searching.
pub fn situation_root(situation: Situation) -> Root {
    match situation {
        Situation::Win => Root::Decided(MATE - 1),
        Situation::Lost => Root::Decided(-(MATE - 2)),
        Situation::Full => Root::Decided(0),
        Situation::Defend | Situation::Quiet => Root::Open,
    }
}

/// In a quiet position, keeps only the answers to the opponent's threes (see the module
/// documentation) when it has one; `out` holds the quiet moves, best first.
fn answer_threes(gen: &mut ConnectGen, board: &Board, out: &mut Vec<Move>) {
    let me = board.to_move();
    let them = me.other();
    let mut theirs = Vec::new();
    gen.movegen.threat_moves_for(board, them, 2, &mut theirs);
    if theirs.is_empty() {
        return;
    }
    let level = board.rules().threat_level();
    let mut answers: Vec<Cell> = Vec::new();
    let geo = board.geometry();
    for &(_, m) in &theirs {
        for &c in m.stones() {
            answers.push(c);
            // The roads c would lift to a four: a stone on any of their empty cells takes
            // that four away.
            for &r in geo.roads_through(c) {
                let n = board.road_counts(r as usize);
                if n[me.index()] == 0 && n[them.index()] as usize + 1 == level {
                    answers.extend(board.empty_cells_of_road(r as usize).filter(|&e| e != c));
                }
            }
        }
    }
    // The side to move's own fours (and wins by a live four) keep the initiative.
    let mut mine = Vec::new();
    gen.movegen.threat_moves(board, 1, &mut mine);
    answers.extend(mine.iter().flat_map(|(_, m)| m.stones().iter().copied()));
    answers.sort_unstable();
    answers.dedup();
    // The quiet moves' order first (double-threat moves, then by the cheap score), then the
    // answers they did not hold, by the cheap score.
    out.retain(|m| m.stones().iter().all(|c| answers.binary_search(c).is_ok()));
    let mut rest: Vec<(i32, Cell)> = answers
        .iter()
        .copied()
        .filter(|&c| !out.iter().any(|m| m.contains(c)))
        .map(|c| (gen.movegen.score_cell(board, me, c), c))
        .collect();
    rest.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    out.extend(rest.into_iter().map(|(_, c)| Move::single(c)));
}

/// Whether a node's late moves may be searched shallower (see
/// [`TreeGame::reducible_node`](crate::search::TreeGame::reducible_node)): neither side has a
/// four. Where the opponent has a three the generator lists only its answers (the three's
/// cells and ends, the side to move's fours); the fours are never quiet and stay at full
/// depth, and the later blocks are reduced like any late quiet move: letting these nodes
/// reduce took the search from 13.0 to 14.3 turns at 300 ms counted (docs/matches.md).
pub fn reducible_node(board: &Board) -> bool {
    let me = board.to_move();
    board.threat_count(me) == 0 && board.threat_count(me.other()) == 0
}

/// Whether the opponent of the side to move has no three (asked where neither side has a
/// four): fewer than two windows of five holding three of its stones and none of the side
/// to move's. A three is a cell where one more stone makes a live four or two fours, and
/// each of those fours' windows held three stones before it, so a three always shows as two
/// such windows; two closed threes show so too, and count as a three here. One look at the
/// board's road histogram, where the generator's answer to threes searches for the cells.
#[inline]
pub fn no_three_against(board: &Board) -> bool {
    let them = board.to_move().other();
    let three = board.rules().threat_level() - 1;
    board.live_roads(them)[three] < 2
}

/// Whether the stone just played (`board` is the position after it) makes nothing the
/// opponent must answer: no four, and no two windows of five through it holding three of
/// the mover's stones and none of the opponent's (an open three, or two threes that a fourth
/// stone could join into two fours).
pub fn quiet_move(board: &Board, m: Move) -> bool {
    let mover = board.to_move().other();
    if board.threat_count(mover) > 0 {
        return false;
    }
    let geo = board.geometry();
    m.stones().iter().all(|&c| {
        let threes = geo
            .roads_through(c)
            .iter()
            .filter(|&&r| {
                let n = board.road_counts(r as usize);
                n[mover.index()] >= 3 && n[mover.other().index()] == 0
            })
            .count();
        threes < 2
    })
}

/// A weight of the `cells` move order: hand-set default, bounds 0 to ten times it.
const fn order_spec(name: &'static str, default: i32, doc: &'static str) -> WeightSpec {
    WeightSpec::new(name, default, 0, 10 * default, doc).in_group(WeightGroup::CellOrder)
}

/// The `cells` move order's weights (part of the `cells` and `cell-pairs` schemas): what a
/// cell's line levels and class add to its rank, and how much of the opponent's rank at a
/// cell counts for blocking it. Tables written before them load with these defaults.
pub const CELL_ORDER: [WeightSpec; 15] = [
    order_spec("order_b1", 1, "quiet-move rank: each line where a stone makes a closed one"),
    order_spec("order_f1", 2, "... an open one"),
    order_spec("order_b2", 4, "... a closed two"),
    order_spec("order_f2", 12, "... an open two"),
    order_spec("order_b3", 14, "... a closed three"),
    order_spec("order_f3", 50, "... an open three"),
    order_spec("order_b4", 60, "... a four"),
    order_spec("order_f4", 600, "... an open four"),
    order_spec("order_f5", 50_000, "... a five"),
    order_spec("order_two_two", 10, "quiet-move rank: a cell where a stone makes two open twos"),
    order_spec("order_double_three", 2_500, "... two open threes"),
    order_spec("order_four_three", 6_000, "... a four and an open three"),
    order_spec("order_flex4", 20_000, "... an open four or two fours"),
    order_spec("order_five", 100_000, "... a five"),
    WeightSpec {
        max: 16,
        step: 1,
        ..order_spec(
            "order_block_eighths",
            7,
            "quiet-move rank: the opponent's rank at a cell counts this many eighths (a stone there blocks it)",
        )
    },
];

/// Which entry of [`CellRank`] each of [`CELL_ORDER`]'s weights sets.
enum RankSlot {
    Level(u8),
    Class(u8),
    BlockEighths,
}

const CELL_ORDER_SLOTS: [RankSlot; 15] = [
    RankSlot::Level(cells::B1),
    RankSlot::Level(cells::F1),
    RankSlot::Level(cells::B2),
    RankSlot::Level(cells::F2),
    RankSlot::Level(cells::B3),
    RankSlot::Level(cells::F3),
    RankSlot::Level(cells::B4),
    RankSlot::Level(cells::F4),
    RankSlot::Level(cells::F5),
    RankSlot::Class(cells::TWO_TWO),
    RankSlot::Class(cells::DOUBLE_THREE),
    RankSlot::Class(cells::FOUR_THREE),
    RankSlot::Class(cells::FLEX4),
    RankSlot::Class(cells::FIVE),
    RankSlot::BlockEighths,
];

/// The `cells` move order's weights unpacked once into the generator, so that a node reads
/// them from arrays as it read the constants they replace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellRank {
    /// What a cell's line level adds to its rank (one line).
    level: [i32; LEVELS],
    /// What a cell's class adds (the classes without a weight add nothing).
    class: [i32; cells::CLASSES],
    /// The opponent's rank at a cell counts this many eighths of the side to move's.
    block_eighths: i32,
}

impl Default for CellRank {
    /// The defaults of [`CELL_ORDER`].
    fn default() -> CellRank {
        let mut r = CellRank { level: [0; LEVELS], class: [0; cells::CLASSES], block_eighths: 0 };
        for (spec, slot) in CELL_ORDER.iter().zip(&CELL_ORDER_SLOTS) {
            r.set(slot, spec.default);
        }
        r
    }
}

impl CellRank {
    /// The rank of a table: its `order_*` weights, the defaults for any it lacks (tables of
    /// schemas without them, such as the 6-tuple table of `tuple6-cells`).
    pub fn from_weights(weights: &Weights) -> CellRank {
        let mut r = CellRank::default();
        for (spec, &v) in weights.schema().specs.iter().zip(weights.values()) {
            if spec.group != WeightGroup::CellOrder {
                continue;
            }
            if let Some(k) = CELL_ORDER.iter().position(|s| s.name == spec.name) {
                r.set(&CELL_ORDER_SLOTS[k], v);
            }
        }
        r
    }

    fn set(&mut self, slot: &RankSlot, v: i32) {
        match *slot {
            RankSlot::Level(l) => self.level[l as usize] = v,
            RankSlot::Class(c) => self.class[c as usize] = v,
            RankSlot::BlockEighths => self.block_eighths = v,
        }
    }

    /// The rank of an empty cell for the side to move in the `cells` move order: what a
    /// stone there makes for `me` plus (a little less) what it takes from the opponent.
    #[inline]
    pub fn of(&self, p: &CellPatterns, me: Colour, c: Cell) -> i32 {
        let side = |colour: Colour| {
            let l = p.levels(colour, c);
            l.iter().map(|&v| self.level[v as usize]).sum::<i32>() + self.class[p.class(colour, c) as usize]
        };
        side(me) + side(me.other()) * self.block_eighths / 8
    }
}

/// The moves of the `cells` evaluation's nodes: the Connect generator's wherever a side has a
/// four (a five to take, fours to block) and where the opponent has an open three or a cell
/// making two fours (the answers of [`generate`], reordered by [`CellRank`]); elsewhere the
/// best `gen.cell_order` empty cells by [`CellRank`] among those with a line where a five
/// can still be made (the centre on an empty board).
pub fn generate_by_cells(gen: &mut ConnectGen, pos: &GomokuBoard, depth: i32, out: &mut Vec<Move>) -> Situation {
    let board = pos.board();
    let cells = pos.cells();
    let p: &CellPatterns = &cells;
    let me = board.to_move();
    let situation = gen.movegen.situation(board);
    if situation != Situation::Quiet || p.class_count(me.other(), cells::FLEX4) > 0 {
        let situation = generate(gen, board, depth, out);
        if situation == Situation::Quiet || situation == Situation::Defend {
            let mut ranked = std::mem::take(&mut gen.ranked_moves);
            ranked.clear();
            let rank = &gen.cell_rank;
            ranked.extend(out.iter().map(|&m| (m.stones().iter().map(|&c| rank.of(p, me, c)).sum(), m)));
            // Stable: equal ranks keep the generator's order.
            ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
            out.clear();
            out.extend(ranked.iter().map(|&(_, m)| m));
            gen.ranked_moves = ranked;
        }
        return situation;
    }
    out.clear();
    if board.is_empty() {
        out.push(Move::single(board.cell(board.width() / 2, board.height() / 2)));
        return Situation::Quiet;
    }
    let mut ranked = std::mem::take(&mut gen.ranked_cells);
    ranked.clear();
    let rank = &gen.cell_rank;
    ranked.extend((0..p.cells() as Cell).filter(|&c| p.is_empty(c)).filter_map(|c| {
        let r = rank.of(p, me, c);
        (r > 0).then_some((r, c))
    }));
    if ranked.is_empty() {
        // No line anywhere can hold a five: any empty cell (the game ends drawn).
        ranked.extend((0..p.cells() as Cell).filter(|&c| p.is_empty(c)).map(|c| (0, c)));
    }
    let n = gen.cell_order.min(ranked.len());
    let by_rank = |a: &(i32, Cell), b: &(i32, Cell)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
    if n < ranked.len() {
        ranked.select_nth_unstable_by(n - 1, by_rank);
        ranked.truncate(n);
    }
    ranked.sort_unstable_by(by_rank);
    out.extend(ranked.iter().map(|&(_, c)| Move::single(c)));
    gen.ranked_cells = ranked;
    Situation::Quiet
}
