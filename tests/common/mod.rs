//! Helpers shared by the integration tests: tactical fixtures and the rule that judges answers,
//! seeded random games, and brute-force oracles (lines, threat roads, blocking sets) written
//! independently of the engine so that they can check it.

// Each test binary compiles this module on its own and uses only part of it.
#![allow(dead_code)]

pub mod cli;
pub mod runs;

use evotune::games::connect::movegen::ThreatSet;
use evotune::games::connect::{Board, Cell, Colour, Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One tactical position (`tests/fixtures/README.md`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Position {
    pub kind: String,
    pub mover: String,
    pub moves: Vec<String>,
}

pub fn load(path: &str) -> Vec<Position> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1)))
        .collect()
}

pub fn colour_of_letter(mover: &str) -> Colour {
    match mover {
        "B" => Colour::Black,
        "W" => Colour::White,
        other => panic!("mover must be B or W, got {other}"),
    }
}

pub fn letter_of_colour(c: Colour) -> &'static str {
    match c {
        Colour::Black => "B",
        Colour::White => "W",
    }
}

/// Whether the mover's answer (already played on `board`) satisfies the rule of `kind`.
pub fn judge(kind: &str, mover: Colour, board: &Board) -> Result<(), String> {
    if board.winner() == Some(mover) {
        return Ok(());
    }
    if kind == "win" {
        return Err("did not make six".into());
    }
    if board.threat_count(mover.other()) > 0 {
        return Err("the opponent still has a threat road".into());
    }
    if kind == "vcdt" {
        let mut t = ThreatSet::default();
        t.collect(board, mover);
        let need = t.blocks_needed(2);
        if need <= 2 {
            return Err(format!("the opponent can block with {need} stone(s)"));
        }
    }
    Ok(())
}

/// The four line directions, spelled out here rather than taken from the engine.
const LINES: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Every road (k consecutive cells on a line) of a rule set, enumerated independently of
/// `Geometry`, with the direction index of each.
pub fn roads_by_direction(rules: Rules) -> Vec<(usize, Vec<Cell>)> {
    let (w, h, k) = (rules.width as i64, rules.height as i64, rules.k as i64);
    let mut out = Vec::new();
    for (d, &(dx, dy)) in LINES.iter().enumerate() {
        for y in 0..h {
            for x in 0..w {
                let cells: Vec<(i64, i64)> = (0..k).map(|i| (x + dx * i, y + dy * i)).collect();
                if cells.iter().all(|&(cx, cy)| (0..w).contains(&cx) && (0..h).contains(&cy)) {
                    out.push((d, cells.iter().map(|&(cx, cy)| (cx + cy * w) as Cell).collect()));
                }
            }
        }
    }
    out
}

/// Brute-force facts about positions, from an independent list of roads.
pub struct Oracle {
    pub rules: Rules,
    pub roads: Vec<Vec<Cell>>,
}

impl Oracle {
    pub fn new(rules: Rules) -> Oracle {
        Oracle { rules, roads: roads_by_direction(rules).into_iter().map(|(_, r)| r).collect() }
    }

    fn count(&self, board: &Board, road: &[Cell]) -> [usize; 2] {
        let mut n = [0; 2];
        for &c in road {
            if let Some(s) = board.stone(c) {
                n[s.index()] += 1;
            }
        }
        n
    }

    /// The colour with k (or more) in a row.
    pub fn winner(&self, board: &Board) -> Option<Colour> {
        let k = self.rules.k as usize;
        Colour::BOTH.into_iter().find(|c| self.roads.iter().any(|r| self.count(board, r)[c.index()] == k))
    }

    /// `live[c][n]`: roads with exactly n stones of c and none of the other colour.
    pub fn live(&self, board: &Board) -> [[i32; evotune::games::connect::board::MAX_K + 1]; 2] {
        let mut live = [[0; evotune::games::connect::board::MAX_K + 1]; 2];
        for r in &self.roads {
            let n = self.count(board, r);
            for me in 0..2 {
                if n[me] > 0 && n[1 - me] == 0 {
                    live[me][n[me]] += 1;
                }
            }
        }
        live
    }

    /// The empty cells of each threat road of `c` (at least k - p stones of c, none of the
    /// other colour, not complete).
    pub fn threats(&self, board: &Board, c: Colour) -> Vec<Vec<Cell>> {
        let level = (self.rules.k - self.rules.p) as usize;
        self.roads
            .iter()
            .filter(|r| {
                let n = self.count(board, r);
                n[c.index()] >= level && n[c.other().index()] == 0
            })
            .map(|r| r.iter().copied().filter(|&x| board.is_empty_cell(x)).collect())
            .collect()
    }
}

/// The cells that appear in any of `threats`, sorted.
pub fn union(threats: &[Vec<Cell>]) -> Vec<Cell> {
    let mut u: Vec<Cell> = threats.iter().flatten().copied().collect();
    u.sort_unstable();
    u.dedup();
    u
}

fn hits_all(threats: &[Vec<Cell>], stones: &[Cell]) -> bool {
    threats.iter().all(|r| r.iter().any(|c| stones.contains(c)))
}

/// Single cells that touch every threat road, and pairs of cells (of the roads' empty cells,
/// a < b) that together touch every threat road, by trying them all.
pub fn blocks(threats: &[Vec<Cell>]) -> (Vec<Cell>, Vec<(Cell, Cell)>) {
    let u = union(threats);
    let singles = u.iter().copied().filter(|&a| hits_all(threats, &[a])).collect();
    let mut pairs = Vec::new();
    for (i, &a) in u.iter().enumerate() {
        for &b in &u[i + 1..] {
            if hits_all(threats, &[a, b]) {
                pairs.push((a, b));
            }
        }
    }
    (singles, pairs)
}

/// The fewest stones touching every threat road (0, 1 or 2), or 3 for "more than two".
pub fn blocks_needed_brute(threats: &[Vec<Cell>]) -> usize {
    if threats.is_empty() {
        return 0;
    }
    let (singles, pairs) = blocks(threats);
    if !singles.is_empty() {
        1
    } else if !pairs.is_empty() {
        2
    } else {
        3
    }
}

/// Whether `n` stones from the start of a game leave the board at the start of a turn.
pub fn is_turn_start(rules: Rules, n: usize) -> bool {
    let (p, q) = (rules.p as usize, rules.q as usize);
    n == 0 || (n >= q && (n - q).is_multiple_of(p))
}

/// How a random game chooses its stones.
#[derive(Clone, Copy, Debug)]
pub struct RandomStyle {
    /// Stones go into a centred square of this side (clamped to the board): small squares
    /// make crowded positions full of threats.
    pub region: usize,
    /// Chance that a stone goes next to an existing stone (distance 2) rather than anywhere
    /// in the region.
    pub near: f64,
}

/// Plays random stones from the empty board until someone has k in a row, the region is full
/// or `max_stones` are down. Returns the stones in order.
pub fn random_game(rules: Rules, seed: u64, style: RandomStyle, max_stones: usize) -> Vec<Cell> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut board = Board::new(rules);
    let (w, h) = (rules.width as usize, rules.height as usize);
    let (rw, rh) = (style.region.min(w), style.region.min(h));
    let (x0, y0) = ((w - rw) / 2, (h - rh) / 2);
    let region: Vec<Cell> = (y0..y0 + rh).flat_map(|y| (x0..x0 + rw).map(move |x| (x + y * w) as Cell)).collect();
    while board.winner().is_none() && board.stone_count() < max_stones {
        let empty: Vec<Cell> = region.iter().copied().filter(|&c| board.is_empty_cell(c)).collect();
        if empty.is_empty() {
            break;
        }
        let near: Vec<Cell> = empty.iter().copied().filter(|&c| board.has_stone_near(c)).collect();
        let pool = if !near.is_empty() && rng.random_bool(style.near) { &near } else { &empty };
        board.play(pool[rng.random_range(0..pool.len())]);
    }
    board.history().to_vec()
}

/// Calls `f` on every position of a game (its stones in order) that is at the start of a turn
/// with no line yet, the empty board excluded.
pub fn for_each_turn_start(rules: Rules, stones: &[Cell], mut f: impl FnMut(&mut Board)) {
    let mut board = Board::new(rules);
    for &c in stones {
        board.play(c);
        if board.winner().is_some() {
            break;
        }
        if is_turn_start(rules, board.stone_count()) {
            f(&mut board);
        }
    }
}

/// A board rebuilt from a stone list, stone by stone.
pub fn board_of(rules: Rules, stones: &[Cell]) -> Board {
    let mut b = Board::new(rules);
    for &c in stones {
        b.play(c);
    }
    b
}

/// The fewest stones that stop every threat road of `c` after `stones` are played for it
/// (the mover), capped at 3.
pub fn need_after(board: &mut Board, oracle: &Oracle, c: Colour, stones: &[Cell]) -> usize {
    for &s in stones {
        board.play(s);
    }
    let need = blocks_needed_brute(&oracle.threats(board, c));
    for _ in stones {
        board.undo();
    }
    need
}

/// Empty cells that can help make a threat road: those of roads holding at least k - p - 2 of
/// the mover's stones and none of the opponent's. A stone elsewhere lifts no road to a threat.
pub fn threat_cells(board: &Board, oracle: &Oracle, me: Colour) -> Vec<Cell> {
    let level = board.rules().threat_level();
    let mut cells: Vec<Cell> = oracle
        .roads
        .iter()
        .filter(|r| {
            let mine = r.iter().filter(|&&x| board.stone(x) == Some(me)).count();
            mine + 2 >= level && r.iter().all(|&x| board.stone(x) != Some(me.other()))
        })
        .flat_map(|r| r.iter().copied().filter(|&x| board.is_empty_cell(x)))
        .collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// A move (one stone or a pair) after which the mover's threat roads need three or more
/// stones, found by trying every cell and pair of [`threat_cells`]; `None` if there is none.
/// Call in positions where nobody has a threat road, at the start of a two-stone turn.
pub fn unstoppable_double(board: &mut Board, oracle: &Oracle) -> Option<Vec<Cell>> {
    let me = board.to_move();
    let cells = threat_cells(board, oracle, me);
    if let Some(&a) = cells.iter().find(|&&a| need_after(board, oracle, me, &[a]) >= 3) {
        return Some(vec![a]);
    }
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if need_after(board, oracle, me, &[a, b]) >= 3 {
                return Some(vec![a, b]);
            }
        }
    }
    None
}
