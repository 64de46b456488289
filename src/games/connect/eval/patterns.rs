//! Pattern (棋型) evaluation: each side's stones are read line by line as the stone patterns of
//! Li Guo 2007 §1.1 (seed 000), and the score is a weighted count of those patterns.
//!
//! # The classes
//!
//! Seed 000 (Li Guo 2007, J. Southwest Univ. 29(11):138-142, §1.1 "六子棋的棋型") defines, for
//! n stones of one colour on one line:
//! - 活五 A5 (live five): "the opponent must use two stones to stop it" from becoming six;
//!   眠五 S5 (sleep five): "one stone stops it"; 死五 D5 (dead five): it "can no longer become
//!   six". A4/S4/D4, A3/S3/D3, A2/S2/D2 "are defined alike".
//! - For the lower counts the seed's training slides spell "alike" out by what further stones
//!   make: 活二 A2 "two more stones make a live four", 眠二 S2 "two more stones can only make a
//!   sleep four"; so A3 is "one more stone makes a live four".
//! - 朦胧三 I3 (indistinct three): "one more stone can only make a sleep four, but two more make a
//!   live five".
//!
//! For freestyle Gomoku (seed 001) the same words give the usual classes: a live four has two
//! completion points, a sleep four one, a live three becomes a live four with one stone, and so
//! on. The code is written for Connect(m,n,k,p,q); A/S/D exist for 2..=k-1 stones, and I exists
//! only for the count one below the threat level when p >= 2 (I3 in Connect6, none in Gomoku).
//!
//! # How the definitions are made operational
//!
//! 1. **Lines and segments.** Every row, column, diagonal and anti-diagonal is a line. For one
//!    side, a line splits into *segments*: maximal runs of cells holding no enemy stone. The
//!    board edge ends a segment exactly like an enemy stone.
//! 2. **Windows.** A *window* is k consecutive cells inside a segment (a road with no enemy
//!    stone). A line of k can only ever be made inside a window.
//! 3. **Which stones form one pattern.** Two own stones of a segment belong to the same pattern
//!    when they are at most k-1 cells apart, i.e. when some window holds both, and patterns are
//!    closed under that relation (a chain). So every stone is in exactly one pattern per line,
//!    stones that share no window are separate patterns, and each pattern is classified as if
//!    the segment's other patterns were empty cells (no window can hold stones of two patterns).
//!    A chain longer than k (e.g. `XXX____XXX` in Connect6, gap 4 < k-1) is one pattern, read at
//!    its best; `XXX_____XXX` (gap 5) is two.
//! 4. **The count n** of a pattern is the largest number of its stones in one window; in a
//!    segment shorter than k (no window at all) it is the number of stones in the segment.
//!    Single stones (n = 1) are not a pattern; n >= k is a finished line (a win, scored by the
//!    search), not a pattern.
//! 5. **Dead** (D_n): the segment is shorter than k, so no stone of it can ever be part of k.
//! 6. **Threat level t = k - p** (4 in both games): a window with at least t own stones can be
//!    completed within one turn. For n >= t the pattern's *threat windows* are its windows with
//!    at least t own stones, and the opponent must fill cells so that every threat window holds
//!    an enemy stone. The fewest cells that do it is the minimum hitting set of the threat
//!    windows' empty cells; it is 1 exactly when one cell lies in all of them. So:
//!    **A_n** if no single empty cell is common to all threat windows (two or more stones needed),
//!    **S_n** if one is.
//! 7. **Below the threat level** (n < t) the class is read by looking ahead, as the seed does:
//!    **A_n** if t-n more own stones can make an A_t; else **I_n** (only for n = t-1 and
//!    t < k-1) if k-1-n more stones can make an A_{k-1} (I3: two more make a live five); else
//!    **S_n** (the segment has a window, so the stones can still become k, only not as a live
//!    pattern). Only additions that raise the count by one each are tried: every stone of a
//!    completion that raises n to t lies in a window that held n stones, so no completion is
//!    missed. (A test checks all of this against the definitions applied by brute force, every
//!    blocking cell and every set of added stones tried, on every line of 10 cells.)
//!
//! # Choices where the seed is silent or ambiguous
//! - The minimum hitting set is taken over all threat windows of the pattern, not only over the
//!   windows holding n stones. `XXXX_X` on an open line is therefore **A5**: one stone on the
//!   gap leaves `__XXXX`, so the opponent needs two stones, which is the seed's definition of
//!   live. With no space left of it (`OXXXX_X_`) it is S5.
//! - A pattern needing three or more blocking stones (e.g. `__XXXX_XXXX__` read as one chain)
//!   is still A: the seed has no class above "two stones".
//! - A two that cannot make a live four with two stones but could make a live five with three
//!   (`X___X` in the open) is S2: the seed defines the indistinct class for three stones only.
//! - Dead patterns have weights (so a GA can test whether they carry information) with default
//!   0: a dead pattern can never win that line, and what it blocks is already in the
//!   opponent's classes.
//! - Lines longer than 64 cells (only on boards larger than any game here) cut a chain whose
//!   cells of interest would exceed 64, so a pattern fits one 64-bit mask.
//!
//! # Score
//! For the side to move: the sum of `own_*` weights over its patterns minus the sum of `opp_*`
//! weights over the opponent's patterns, computed by scanning every line of the board. Nothing
//! is allocated per call: lines are read into a fixed buffer, a pattern is a 64-bit mask, and
//! the classes of recurring shapes are kept in a fixed-size per-thread memo (about 10 us for a
//! 60-stone Connect6 position in the test profile).
//!
//! ```
//! use evotune::games::connect::eval::patterns::{classify_line, parse_line, Pattern};
//! let counts = classify_line(&parse_line("______XXXX_X______").unwrap(), 6, 2);
//! assert_eq!(counts.get(Pattern::A5), 1);
//! let counts = classify_line(&parse_line("OXXXXX______").unwrap(), 6, 2);
//! assert_eq!(counts.get(Pattern::S5), 1);
//! ```

use std::fmt;

use crate::core::weights::{concat_specs, Schema, WeightGroup, WeightSpec, Weights};
use crate::games::connect::board::{Board, Colour, Rules, DIRECTIONS, MAX_K};
use crate::games::connect::movegen::{CONNECT6_MOVE_ORDER, GOMOKU_MOVE_ORDER};

/// The shape of a pattern: how hard it is for the opponent to stop it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shape {
    /// 活: the opponent needs two stones (or more) to stop it.
    Live = 0,
    /// 朦胧: one more stone makes only a sleep pattern, two more a live one (I3).
    Indistinct = 1,
    /// 眠: one stone stops it.
    Sleep = 2,
    /// 死: it can never become k.
    Dead = 3,
}

impl Shape {
    const ALL: [Shape; 4] = [Shape::Live, Shape::Indistinct, Shape::Sleep, Shape::Dead];

    /// The letter of the seed's symbols (A, I, S, D).
    pub fn letter(self) -> char {
        match self {
            Shape::Live => 'A',
            Shape::Indistinct => 'I',
            Shape::Sleep => 'S',
            Shape::Dead => 'D',
        }
    }
}

/// Fewest stones of a pattern.
const MIN_STONES: usize = 2;

/// Number of pattern classes an array indexed by [`Pattern::index`] must hold: every shape for
/// 2..MAX_K stones.
pub const CLASSES: usize = (MAX_K - MIN_STONES) * Shape::ALL.len();

/// A pattern class: a shape and a stone count (2..k-1), e.g. A5 or I3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    pub shape: Shape,
    pub stones: u8,
}

impl Pattern {
    pub const A5: Pattern = Pattern::new(Shape::Live, 5);
    pub const S5: Pattern = Pattern::new(Shape::Sleep, 5);
    pub const D5: Pattern = Pattern::new(Shape::Dead, 5);
    pub const A4: Pattern = Pattern::new(Shape::Live, 4);
    pub const S4: Pattern = Pattern::new(Shape::Sleep, 4);
    pub const D4: Pattern = Pattern::new(Shape::Dead, 4);
    pub const A3: Pattern = Pattern::new(Shape::Live, 3);
    pub const I3: Pattern = Pattern::new(Shape::Indistinct, 3);
    pub const S3: Pattern = Pattern::new(Shape::Sleep, 3);
    pub const D3: Pattern = Pattern::new(Shape::Dead, 3);
    pub const A2: Pattern = Pattern::new(Shape::Live, 2);
    pub const S2: Pattern = Pattern::new(Shape::Sleep, 2);
    pub const D2: Pattern = Pattern::new(Shape::Dead, 2);

    pub const fn new(shape: Shape, stones: u8) -> Pattern {
        assert!(stones as usize >= MIN_STONES && (stones as usize) < MAX_K, "pattern stone count out of range");
        Pattern { shape, stones }
    }

    /// The position of this class in an array of [`CLASSES`] entries.
    #[inline]
    pub const fn index(self) -> usize {
        (self.stones as usize - MIN_STONES) * Shape::ALL.len() + self.shape as usize
    }

    pub fn from_index(i: usize) -> Pattern {
        Pattern::new(Shape::ALL[i % Shape::ALL.len()], (i / Shape::ALL.len() + MIN_STONES) as u8)
    }

    /// Reads a symbol such as `A5`, `i3` or `d2`.
    pub fn parse(text: &str) -> Option<Pattern> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        let shape = Shape::ALL.into_iter().find(|s| s.letter() == letter)?;
        let stones: u8 = chars.as_str().parse().ok()?;
        ((MIN_STONES..MAX_K).contains(&(stones as usize))).then(|| Pattern::new(shape, stones))
    }

    /// The classes that can occur under the rules, strongest first (the order of the schemas).
    pub fn classes(rules: Rules) -> impl Iterator<Item = Pattern> {
        let (k, t) = (rules.k as usize, threat_level(rules.k as usize, rules.p as usize));
        (MIN_STONES..k).rev().flat_map(move |n| {
            Shape::ALL
                .into_iter()
                .filter(move |&s| s != Shape::Indistinct || has_indistinct(n, t, k))
                .map(move |s| Pattern::new(s, n as u8))
        })
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.shape.letter(), self.stones)
    }
}

/// Stones a window must hold for its owner to complete it within one turn. At least 2, so that
/// games where p >= k-1 still read twos by blocking counts.
fn threat_level(k: usize, p: usize) -> usize {
    k.saturating_sub(p).max(MIN_STONES)
}

/// Whether n stones have an indistinct class: one below the threat level, and only when the
/// threat level is below k-1 (p >= 2), as the seed defines I3 for Connect6 alone.
fn has_indistinct(n: usize, t: usize, k: usize) -> bool {
    n + 1 == t && t + 1 < k
}

/// How many patterns of each class one side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PatternCounts {
    counts: [u32; CLASSES],
}

impl PatternCounts {
    #[inline]
    pub fn get(&self, p: Pattern) -> u32 {
        self.counts[p.index()]
    }

    #[inline]
    fn add(&mut self, p: Pattern) {
        self.counts[p.index()] += 1;
    }

    /// The counts indexed by [`Pattern::index`].
    pub fn as_array(&self) -> &[u32; CLASSES] {
        &self.counts
    }

    pub fn total(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The classes present, with their counts: most stones first, then A, I, S, D.
    pub fn iter(&self) -> impl Iterator<Item = (Pattern, u32)> {
        let counts = *self;
        (MIN_STONES..MAX_K)
            .rev()
            .flat_map(|n| Shape::ALL.map(|s| Pattern::new(s, n as u8)))
            .map(move |p| (p, counts.get(p)))
            .filter(|&(_, n)| n > 0)
    }
}

impl fmt::Display for PatternCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (p, n) in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{p}:{n}")?;
        }
        if first {
            f.write_str("-")?;
        }
        Ok(())
    }
}

/// One cell of a line, seen by the side whose patterns are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    Empty,
    Own,
    /// An enemy stone (the line's ends act the same way).
    Block,
}

/// Reads a line written as text: `X` own stone, `O` (or `|`) enemy stone, `_` (or `.`) empty.
/// Returns the first character it does not know.
pub fn parse_line(text: &str) -> Result<Vec<Point>, char> {
    text.chars()
        .map(|c| match c {
            'X' | 'x' => Ok(Point::Own),
            'O' | 'o' | '|' => Ok(Point::Block),
            '_' | '.' => Ok(Point::Empty),
            other => Err(other),
        })
        .collect()
}

/// Longest line the scanner handles (the board's width and height are at most 255).
const MAX_LINE: usize = 256;

/// Cell codes of a line buffer, as in the board: 0 empty, 1 black, 2 white.
const EMPTY: u8 = 0;

/// The patterns of the `Own` side on one line, whose two ends act as enemy stones, in
/// Connect(.,.,k,p,.).
pub fn classify_line(line: &[Point], k: usize, p: usize) -> PatternCounts {
    assert!(line.len() <= MAX_LINE, "lines are at most {MAX_LINE} cells");
    assert!((MIN_STONES..=MAX_K).contains(&k), "k must be in {MIN_STONES}..={MAX_K}");
    let mut buf = [EMPTY; MAX_LINE];
    for (b, &pt) in buf.iter_mut().zip(line) {
        *b = match pt {
            Point::Empty => EMPTY,
            Point::Own => 1,
            Point::Block => 2,
        };
    }
    let mut out = PatternCounts::default();
    classify_cells(&buf[..line.len()], 1, k, p, &mut out);
    out
}

/// The patterns of both sides on a board, indexed by [`Colour::index`].
pub fn pattern_counts(board: &Board) -> [PatternCounts; 2] {
    scan(board.rules(), |x, y| board.stone(board.cell(x, y)))
}

/// The patterns of one side on a board.
pub fn patterns_of(board: &Board, colour: Colour) -> PatternCounts {
    pattern_counts(board)[colour.index()]
}

/// Reads every line of a board given by its stones.
fn scan(rules: Rules, stone_at: impl Fn(usize, usize) -> Option<Colour>) -> [PatternCounts; 2] {
    let (w, h) = (rules.width as i32, rules.height as i32);
    let (k, p) = (rules.k as usize, rules.p as usize);
    let on_board = |x: i32, y: i32| x >= 0 && x < w && y >= 0 && y < h;
    let mut out = [PatternCounts::default(); 2];
    let mut line = [EMPTY; MAX_LINE];
    for (dx, dy) in DIRECTIONS {
        for y in 0..h {
            for x in 0..w {
                // A line starts at a cell whose predecessor in this direction is off the board.
                if on_board(x - dx, y - dy) {
                    continue;
                }
                let (mut len, mut stones) = (0, [0usize; 2]);
                let (mut cx, mut cy) = (x, y);
                while on_board(cx, cy) {
                    line[len] = match stone_at(cx as usize, cy as usize) {
                        None => EMPTY,
                        Some(c) => {
                            stones[c.index()] += 1;
                            c.index() as u8 + 1
                        }
                    };
                    len += 1;
                    cx += dx;
                    cy += dy;
                }
                for c in Colour::BOTH {
                    if stones[c.index()] >= MIN_STONES {
                        classify_cells(&line[..len], c.index() as u8 + 1, k, p, &mut out[c.index()]);
                    }
                }
            }
        }
    }
    out
}

/// Adds the patterns of the side whose stones are `own` on one line (any other non-empty code is
/// an enemy stone).
fn classify_cells(line: &[u8], own: u8, k: usize, p: usize, out: &mut PatternCounts) {
    let mut i = 0;
    while i < line.len() {
        if line[i] != EMPTY && line[i] != own {
            i += 1;
            continue;
        }
        let start = i;
        while i < line.len() && (line[i] == EMPTY || line[i] == own) {
            i += 1;
        }
        classify_segment(&line[start..i], own, k, p, out);
    }
}

/// Adds the patterns of one segment (a run of cells free of enemy stones).
fn classify_segment(seg: &[u8], own: u8, k: usize, p: usize, out: &mut PatternCounts) {
    if seg.len() < k {
        // No window: all the segment's stones are one dead pattern (fewer than k of them).
        let n = seg.iter().filter(|&&c| c == own).count();
        if n >= MIN_STONES {
            out.add(Pattern::new(Shape::Dead, n as u8));
        }
        return;
    }
    // The cells a pattern's windows can touch: its stones +- (k-1), inside the segment.
    let hi_of = |stone: usize| (stone + k - 1).min(seg.len() - 1);
    let mut group: Option<Chain> = None;
    for (i, _) in seg.iter().enumerate().filter(|&(_, &c)| c == own) {
        match &mut group {
            Some(g) if i - g.last < k && hi_of(i) - g.lo < 64 => g.push(i),
            _ => {
                if let Some(g) = group.take() {
                    g.classify(hi_of(g.last), k, p, out);
                }
                group = Some(Chain::start(i, k));
            }
        }
    }
    if let Some(g) = group {
        g.classify(hi_of(g.last), k, p, out);
    }
}

/// The stones of one pattern being gathered along a segment.
struct Chain {
    /// First cell of the view (the first stone - (k-1), or the segment's start).
    lo: usize,
    last: usize,
    stones: usize,
    /// The stones, bit i for cell lo + i.
    mask: u64,
}

impl Chain {
    fn start(stone: usize, k: usize) -> Chain {
        let lo = stone.saturating_sub(k - 1);
        Chain { lo, last: stone, stones: 1, mask: 1 << (stone - lo) }
    }

    fn push(&mut self, stone: usize) {
        self.mask |= 1 << (stone - self.lo);
        self.last = stone;
        self.stones += 1;
    }

    fn classify(&self, hi: usize, k: usize, p: usize, out: &mut PatternCounts) {
        if self.stones >= MIN_STONES {
            if let Some(pat) = classify_group_memo(hi - self.lo + 1, self.mask, k, p) {
                out.add(pat);
            }
        }
    }
}

/// The windows of a view of `len` cells: masks of k consecutive bits.
#[derive(Clone, Copy)]
struct Windows {
    len: usize,
    k: usize,
}

impl Windows {
    #[inline]
    fn iter(self) -> impl Iterator<Item = u64> {
        let base = (1u64 << self.k) - 1;
        (0..=self.len - self.k).map(move |s| base << s)
    }

    /// The largest number of stones of `s` in one window.
    #[inline]
    fn level(self, s: u64) -> usize {
        self.iter().map(|w| (s & w).count_ones() as usize).max().unwrap_or(0)
    }

    /// Whether the pattern `s`, at or above the threat level t, needs two or more blocking
    /// stones: no empty cell lies in every window holding at least t stones.
    #[inline]
    fn needs_two_blocks(self, s: u64, t: usize) -> bool {
        let mut common = u64::MAX;
        let mut any = false;
        for w in self.iter() {
            if (s & w).count_ones() as usize >= t {
                common &= w & !s;
                any = true;
            }
        }
        any && common == 0
    }

    /// Whether adding stones one at a time, each raising the count from n by one, can reach a
    /// live pattern of `target` stones.
    fn reaches_live(self, s: u64, n: usize, target: usize, t: usize) -> bool {
        if n == target {
            return self.needs_two_blocks(s, t);
        }
        let mut cand = 0u64;
        for w in self.iter() {
            if (s & w).count_ones() as usize == n {
                cand |= w & !s;
            }
        }
        while cand != 0 {
            let c = cand & cand.wrapping_neg();
            cand &= cand - 1;
            if self.reaches_live(s | c, n + 1, target, t) {
                return true;
            }
        }
        false
    }
}

/// Memo slots per thread (a power of two).
const MEMO_BITS: u32 = 12;

thread_local! {
    /// A direct-mapped memo of [`classify_group`]: the class is a pure function of the view, and
    /// the few hundred shapes of real games recur at nearly every node, while the lookahead
    /// behind a sleep class tries every one- and two-stone completion. Each slot holds a key and
    /// the answer; the table is allocated once per thread, never per call.
    static MEMO: std::cell::RefCell<Vec<(u64, u8)>> = std::cell::RefCell::new(vec![(0, 0); 1 << MEMO_BITS]);
}

/// [`classify_group`] through the per-thread memo. Views longer than 40 cells (boards larger
/// than any game here) bypass it, so that a key packs into 64 bits.
fn classify_group_memo(len: usize, s: u64, k: usize, p: usize) -> Option<Pattern> {
    if len > 40 || p > 15 {
        return classify_group(len, s, k, p);
    }
    // mask: 40 bits, len: 6, k: 4, p: 4; the top bit marks a used slot.
    let key = 1 << 63 | (p as u64) << 50 | (k as u64) << 46 | (len as u64) << 40 | s;
    let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MEMO_BITS)) as usize;
    let encode = |c: Option<Pattern>| c.map_or(0, |p| p.index() as u8 + 1);
    let decode = |v: u8| (v > 0).then(|| Pattern::from_index(v as usize - 1));
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo[slot].0 == key {
            return decode(memo[slot].1);
        }
        let class = classify_group(len, s, k, p);
        memo[slot] = (key, encode(class));
        class
    })
}

/// The class of one pattern: `s` marks its stones in a view of `len` cells (the segment cells
/// within k-1 of its stones, so every window of the view holds at least one of them).
fn classify_group(len: usize, s: u64, k: usize, p: usize) -> Option<Pattern> {
    let win = Windows { len, k };
    let n = win.level(s);
    if !(MIN_STONES..k).contains(&n) {
        return None;
    }
    let t = threat_level(k, p);
    let shape = if n >= t {
        if win.needs_two_blocks(s, t) {
            Shape::Live
        } else {
            Shape::Sleep
        }
    } else if win.reaches_live(s, n, t, t) {
        Shape::Live
    } else if has_indistinct(n, t, k) && win.reaches_live(s, n, k - 1, t) {
        Shape::Indistinct
    } else {
        Shape::Sleep
    };
    Some(Pattern::new(shape, n as u8))
}

/// A pattern weight whose GA bounds are 0 and five times its default.
const fn live(name: &'static str, default: i32, doc: &'static str) -> WeightSpec {
    WeightSpec::new(name, default, 0, 5 * default, doc)
}

/// A dead-pattern weight: default 0, at most five times the side's sleep-two default (a dead
/// pattern is worth at most a few of the weakest pattern that can still win).
const fn dead(name: &'static str, sleep_two: i32, doc: &'static str) -> WeightSpec {
    WeightSpec::new(name, 0, 0, 5 * sleep_two, doc)
}

/// Connect6 pattern weights, own (side to move) and opponent alike, as the road table uses one
/// table for both sides.
///
/// Defaults: each class's default is what the road table `{0,17,78,141,788,1030,10000}` (see
/// `roads.rs`) gives the class's canonical shape on its own line, summed over the k-windows of
/// that line: live shapes alone on an open line (`XX`, `XXX`, `XXXX`, `XXXXX`, and `X_X_X` for
/// I3), sleep shapes with an enemy stone touching one end and open space at the other. E.g. A3
/// = 2x17 + 2x78 + 4x141 = 754 and S3 = 141 + 78 + 17 = 236. The pattern evaluation so starts
/// from the road evaluation's knowledge on isolated shapes and the GA can separate what the
/// road table lumps together. Dead patterns default to 0 (see the module doc).
pub static CONNECT6_PATTERNS: Schema = Schema {
    game: "connect6",
    eval: "patterns",
    source: "road table {0,17,78,141,788,1030,10000} summed over each class's canonical shape; dead 0",
    specs: &concat_specs::<26, 10, 36>(
        [
            live("own_a5", 4108, "side to move, live five (A5)"),
            live("own_s5", 2054, "side to move, sleep five (S5)"),
            dead("own_d5", 95, "side to move, dead five (D5)"),
            live("own_a4", 2836, "side to move, live four (A4)"),
            live("own_s4", 1024, "side to move, sleep four (S4)"),
            dead("own_d4", 95, "side to move, dead four (D4)"),
            live("own_a3", 754, "side to move, live three (A3)"),
            live("own_i3", 662, "side to move, indistinct three (I3)"),
            live("own_s3", 236, "side to move, sleep three (S3)"),
            dead("own_d3", 95, "side to move, dead three (D3)"),
            live("own_a2", 424, "side to move, live two (A2)"),
            live("own_s2", 95, "side to move, sleep two (S2)"),
            dead("own_d2", 95, "side to move, dead two (D2)"),
            live("opp_a5", 4108, "opponent, live five (A5)"),
            live("opp_s5", 2054, "opponent, sleep five (S5)"),
            dead("opp_d5", 95, "opponent, dead five (D5)"),
            live("opp_a4", 2836, "opponent, live four (A4)"),
            live("opp_s4", 1024, "opponent, sleep four (S4)"),
            dead("opp_d4", 95, "opponent, dead four (D4)"),
            live("opp_a3", 754, "opponent, live three (A3)"),
            live("opp_i3", 662, "opponent, indistinct three (I3)"),
            live("opp_s3", 236, "opponent, sleep three (S3)"),
            dead("opp_d3", 95, "opponent, dead three (D3)"),
            live("opp_a2", 424, "opponent, live two (A2)"),
            live("opp_s2", 95, "opponent, sleep two (S2)"),
            dead("opp_d2", 95, "opponent, dead two (D2)"),
        ],
        CONNECT6_MOVE_ORDER,
    ),
};

/// Freestyle Gomoku pattern weights.
///
/// Defaults: seed 001's final table (live = FLEX, sleep = BLOCK) with its perspective
/// translated. Seed 001 scores the position after its own move, so its *opponent* is the side
/// to move, and its rule 1 ("the opponent's weight is 2-3x ours, because the opponent moves
/// next") favours the side to move. Here the score is for the side to move, so `own_*` takes the
/// seed's opponent magnitudes (flex4 100000, block4 100000, flex3 8000, block3 50, flex2 50,
/// block2 3) and `opp_*` the seed's own (FLEX4 50000, BLOCK4 400, FLEX3 400, BLOCK3 20, FLEX2
/// 20, BLOCK2 1). A four of the side to move wins at once, hence own S4 = own A4. Seed 001
/// scores 6-cell windows where one pattern may be seen in one or two windows; here each
/// pattern counts once. Its one-stone classes have no counterpart. Dead patterns default to 0.
pub static GOMOKU_PATTERNS: Schema = Schema {
    game: "gomoku",
    eval: "patterns",
    source: "seed 001 final table, side to move = seed's next mover; dead 0",
    specs: &concat_specs::<18, 8, 26>(
        [
            live("own_a4", 100000, "side to move, live four (A4)"),
            live("own_s4", 100000, "side to move, sleep four (S4)"),
            dead("own_d4", 3, "side to move, dead four (D4)"),
            live("own_a3", 8000, "side to move, live three (A3)"),
            live("own_s3", 50, "side to move, sleep three (S3)"),
            dead("own_d3", 3, "side to move, dead three (D3)"),
            live("own_a2", 50, "side to move, live two (A2)"),
            live("own_s2", 3, "side to move, sleep two (S2)"),
            dead("own_d2", 3, "side to move, dead two (D2)"),
            live("opp_a4", 50000, "opponent, live four (A4)"),
            live("opp_s4", 400, "opponent, sleep four (S4)"),
            dead("opp_d4", 1, "opponent, dead four (D4)"),
            live("opp_a3", 400, "opponent, live three (A3)"),
            live("opp_s3", 20, "opponent, sleep three (S3)"),
            dead("opp_d3", 1, "opponent, dead three (D3)"),
            live("opp_a2", 20, "opponent, live two (A2)"),
            live("opp_s2", 1, "opponent, sleep two (S2)"),
            dead("opp_d2", 1, "opponent, dead two (D2)"),
        ],
        GOMOKU_MOVE_ORDER,
    ),
};

/// Scores are kept well inside the search's mate range whatever the table.
const SCORE_LIMIT: i64 = 100_000_000;

/// The pattern evaluation of one weight table, unpacked into arrays indexed by class.
#[derive(Clone, Debug)]
pub struct PatternEval {
    own: [i32; CLASSES],
    opp: [i32; CLASSES],
}

impl PatternEval {
    /// Unpacks a pattern table (`own_a5`, ..., `opp_d2`). Classes the table does not name
    /// weigh 0.
    pub fn new(weights: &Weights) -> PatternEval {
        let mut own = [0; CLASSES];
        let mut opp = [0; CLASSES];
        for (spec, &v) in weights.schema().specs.iter().zip(weights.values()) {
            if spec.group != WeightGroup::Eval {
                continue;
            }
            let (table, class) = if let Some(c) = spec.name.strip_prefix("own_") {
                (&mut own, c)
            } else if let Some(c) = spec.name.strip_prefix("opp_") {
                (&mut opp, c)
            } else {
                panic!("pattern schema has a weight `{}` that is neither own_ nor opp_", spec.name)
            };
            let class =
                Pattern::parse(class).unwrap_or_else(|| panic!("pattern weight `{}` does not name a class", spec.name));
            table[class.index()] = v;
        }
        PatternEval { own, opp }
    }

    /// The weight of a class for the side to move (`own = true`) or the opponent.
    pub fn weight(&self, class: Pattern, own: bool) -> i32 {
        if own {
            self.own[class.index()]
        } else {
            self.opp[class.index()]
        }
    }

    /// The score for the side to move, given both sides' pattern counts.
    pub fn score(&self, counts: &[PatternCounts; 2], to_move: Colour) -> i32 {
        let mine = counts[to_move.index()].as_array();
        let theirs = counts[to_move.other().index()].as_array();
        let mut s = 0i64;
        for i in 0..CLASSES {
            s += self.own[i] as i64 * mine[i] as i64 - self.opp[i] as i64 * theirs[i] as i64;
        }
        s.clamp(-SCORE_LIMIT, SCORE_LIMIT) as i32
    }

    /// The score for the side to move (a full-board scan).
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.score(&pattern_counts(board), board.to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect::notation::board_from_record_moves;

    /// (k, p) of the two games.
    const C6: (usize, usize) = (6, 2);
    const GO: (usize, usize) = (5, 1);

    fn read(text: &str, (k, p): (usize, usize)) -> PatternCounts {
        classify_line(&parse_line(text).unwrap(), k, p)
    }

    /// The one pattern of a line, or None; panics when the line holds several.
    fn single(text: &str, game: (usize, usize)) -> Option<Pattern> {
        let c = read(text, game);
        assert!(c.total() <= 1, "{text}: {c}");
        c.iter().next().map(|(p, _)| p)
    }

    fn mirror(text: &str) -> String {
        text.chars().rev().collect()
    }

    /// Checks a table of single-pattern lines, each also read backwards.
    fn check_table(game: (usize, usize), cases: &[(&str, Option<Pattern>)]) {
        for &(text, want) in cases {
            assert_eq!(single(text, game), want, "{text}");
            assert_eq!(single(&mirror(text), game), want, "{} (mirror of {text})", mirror(text));
        }
    }

    use Pattern as P;

    #[test]
    fn connect6_fives() {
        check_table(
            C6,
            &[
                // Both ends open: blocking needs a stone at each end.
                ("______XXXXX______", Some(P::A5)),
                ("OXXXXX______", Some(P::S5)),
                ("XXXXX______", Some(P::S5)), // the board edge acts as an enemy stone
                ("OXXXXX_O", Some(P::S5)),
                ("OXXXXXO", Some(P::D5)),
                ("XXXXX", Some(P::D5)),
                ("__XXXXX", Some(P::S5)),
                // The documented choice: one stone on the gap leaves `__XXXX`, so two are needed.
                ("______XXXX_X______", Some(P::A5)),
                ("______X_XXXX______", Some(P::A5)),
                ("OXXXX_X______", Some(P::S5)),
                ("______XX_XXX______", Some(P::S5)),
                ("______XXX_XX______", Some(P::S5)),
                ("OX_XXXX_O", Some(P::S5)),
                ("OXX_XXXO", Some(P::S5)),
                // One chain needing three blocking stones is still live: no class above A.
                ("__XXXX_XXXX__", Some(P::A5)),
            ],
        );
    }

    #[test]
    fn connect6_fours() {
        check_table(
            C6,
            &[
                ("______XXXX______", Some(P::A4)),
                ("O__XXXX__O", Some(P::A4)),
                ("O__XXXX_O", Some(P::S4)), // the cell right of the four is in every window
                ("O_XXXX_O", Some(P::S4)),
                ("OXXXX______", Some(P::S4)),
                ("XXXX__", Some(P::S4)),
                ("OXXXX_O", Some(P::D4)),
                ("OX_XXXO", Some(P::D4)),
                ("______XX_XX______", Some(P::S4)),
                ("______XXX_X______", Some(P::S4)),
                ("______X__XXX______", Some(P::S4)),
                ("______X_X_XX______", Some(P::S4)),
            ],
        );
    }

    #[test]
    fn connect6_threes() {
        check_table(
            C6,
            &[
                ("______XXX______", Some(P::A3)),
                ("______XX_X______", Some(P::A3)),
                ("O__XXX___O", Some(P::A3)),
                // No single stone makes a live four, but two make a live five.
                ("______X_X_X______", Some(P::I3)),
                ("______X__XX______", Some(P::I3)),
                ("______XX___X______", Some(P::I3)),
                ("O_XXX___O", Some(P::I3)), // too short for a live four, long enough for a live five
                ("OXXX______", Some(P::S3)),
                ("O_XXX__O", Some(P::S3)),
                ("OX_X_X_O", Some(P::S3)),
                ("OXXX_O", Some(P::D3)),
                ("OX_X_XO", Some(P::D3)),
            ],
        );
    }

    #[test]
    fn connect6_twos_singles_and_wins() {
        check_table(
            C6,
            &[
                ("______XX______", Some(P::A2)),
                ("______X_X______", Some(P::A2)),
                ("______X__X______", Some(P::A2)),
                ("______X___X______", Some(P::S2)), // only a live five (three more) is reachable
                ("______X____X______", Some(P::S2)),
                ("OXX______", Some(P::S2)),
                ("OXX____O", Some(P::S2)),
                ("OXX_O", Some(P::D2)),
                ("OX___XO", Some(P::D2)),
                ("XX", Some(P::D2)),
                ("______X______", None),
                ("______X_____X______", None), // six apart: no window holds both
                ("XXXXXX", None),              // six in a row is a win, not a pattern
                ("__XXXXXXX__", None),
                ("______________", None),
            ],
        );
    }

    #[test]
    fn stones_sharing_no_window_are_separate_patterns() {
        let c = read("___XXX_____XXX___", C6);
        assert_eq!((c.get(P::A3), c.total()), (2, 2), "{c}");
        // Gap of four: the stones chain into one pattern, read at its best.
        let c = read("___XXX____XXX___", C6);
        assert_eq!((c.get(P::A3), c.total()), (1, 1), "{c}");
        let c = read("XX______XX", C6);
        assert_eq!((c.get(P::S2), c.total()), (2, 2), "{c}");
        // An enemy stone splits a line into segments, each read on its own.
        let c = read("XXO__XX__", C6);
        assert_eq!((c.get(P::D2), c.get(P::S2), c.total()), (1, 1, 2), "{c}");
        let c = read("__XXXX__O__XX___O_XXX_O", C6);
        assert_eq!((c.get(P::A4), c.get(P::S2), c.get(P::D3), c.total()), (1, 1, 1, 3), "{c}");
    }

    #[test]
    fn gomoku_classes() {
        check_table(
            GO,
            &[
                ("_____XXXX_____", Some(P::A4)),
                ("OXXXX_____", Some(P::S4)),
                ("XXXX_", Some(P::S4)),
                ("OXXXXO", Some(P::D4)),
                ("_____XXX_X_____", Some(P::S4)),
                ("_____XX_XX_____", Some(P::S4)),
                ("__XXX__", Some(P::A3)),
                ("O__XXX_O", Some(P::A3)),
                ("_____X_XX_____", Some(P::A3)),
                ("O_XXX_O", Some(P::S3)),
                ("OXXX_____", Some(P::S3)),
                ("_____X_X_X_____", Some(P::S3)), // I3 in Connect6; Gomoku has no indistinct class
                ("OXXXO", Some(P::D3)),
                ("_____XX_____", Some(P::A2)),
                ("_____X__X_____", Some(P::A2)),
                ("OXX_____", Some(P::S2)),
                ("O_XX__O", Some(P::S2)),
                ("OXXO", Some(P::D2)),
                ("_____XXXXX_____", None),
            ],
        );
        assert_eq!(single("______X_X_X______", C6), Some(P::I3));
    }

    // ---- An independent oracle: the seed's definitions applied literally -------------------

    /// Own stones and enemy cells of a line as booleans, for the oracle.
    #[derive(Clone)]
    struct Line {
        own: Vec<bool>,
        blocked: Vec<bool>,
    }

    impl Line {
        /// Windows (start indices) with no blocked cell.
        fn windows(&self, k: usize) -> Vec<usize> {
            let n = self.own.len();
            (0..(n + 1).saturating_sub(k)).filter(|&s| !self.blocked[s..s + k].iter().any(|&b| b)).collect()
        }

        fn in_window(&self, s: usize, k: usize) -> usize {
            self.own[s..s + k].iter().filter(|&&o| o).count()
        }

        fn level(&self, k: usize) -> usize {
            self.windows(k).into_iter().map(|s| self.in_window(s, k)).max().unwrap_or(0)
        }

        /// Can the owner complete k within one turn (a window holding t own stones)?
        fn threatens(&self, k: usize, t: usize) -> bool {
            self.windows(k).into_iter().any(|s| self.in_window(s, k) >= t)
        }

        /// "The opponent needs two stones": no single enemy stone stops every threat.
        fn live(&self, k: usize, t: usize) -> bool {
            (0..self.own.len()).filter(|&c| !self.own[c] && !self.blocked[c]).all(|c| {
                let mut l = self.clone();
                l.blocked[c] = true;
                l.threatens(k, t)
            })
        }

        /// Does some set of exactly `m` more own stones give `target` in a window and live?
        fn can_make_live(&self, m: usize, target: usize, k: usize, t: usize) -> bool {
            let empty: Vec<usize> = (0..self.own.len()).filter(|&c| !self.own[c] && !self.blocked[c]).collect();
            fn rec(l: &mut Line, empty: &[usize], m: usize, target: usize, k: usize, t: usize) -> bool {
                if m == 0 {
                    return l.level(k) == target && l.live(k, t);
                }
                for (i, &c) in empty.iter().enumerate() {
                    l.own[c] = true;
                    let ok = rec(l, &empty[i + 1..], m - 1, target, k, t);
                    l.own[c] = false;
                    if ok {
                        return true;
                    }
                }
                false
            }
            rec(&mut self.clone(), &empty, m, target, k, t)
        }
    }

    /// The class of one pattern by the definitions, tried by brute force: `line` holds only
    /// that pattern's stones.
    fn oracle_class(line: &Line, seg_len: usize, k: usize, p: usize) -> Option<Pattern> {
        let stones = line.own.iter().filter(|&&o| o).count();
        if seg_len < k {
            return (stones >= 2).then(|| Pattern::new(Shape::Dead, stones as u8));
        }
        let n = line.level(k);
        let t = (k - p).max(2);
        if n < 2 || n >= k {
            return None;
        }
        let shape = if n >= t {
            if line.live(k, t) {
                Shape::Live
            } else {
                Shape::Sleep
            }
        } else if line.can_make_live(t - n, t, k, t) {
            Shape::Live
        } else if n + 1 == t && t + 1 < k && line.can_make_live(k - 1 - n, k - 1, k, t) {
            Shape::Indistinct
        } else {
            Shape::Sleep
        };
        Some(Pattern::new(shape, n as u8))
    }

    /// All patterns of a line by the oracle: segments, then chains of stones at most k-1 apart.
    fn oracle_line(cells: &[Point], k: usize, p: usize) -> PatternCounts {
        let mut out = PatternCounts::default();
        let mut i = 0;
        while i < cells.len() {
            if cells[i] == Point::Block {
                i += 1;
                continue;
            }
            let start = i;
            while i < cells.len() && cells[i] != Point::Block {
                i += 1;
            }
            let seg = &cells[start..i];
            let stones: Vec<usize> = (0..seg.len()).filter(|&j| seg[j] == Point::Own).collect();
            let mut groups: Vec<Vec<usize>> = Vec::new();
            for &s in &stones {
                match groups.last_mut() {
                    Some(g) if seg.len() < k || s - g.last().unwrap() < k => g.push(s),
                    _ => groups.push(vec![s]),
                }
            }
            for g in groups {
                // The pattern alone on its segment (other patterns share no window with it).
                let mut line = Line { own: vec![false; seg.len()], blocked: vec![false; seg.len()] };
                for &s in &g {
                    line.own[s] = true;
                }
                if let Some(pat) = oracle_class(&line, seg.len(), k, p) {
                    out.add(pat);
                }
            }
        }
        out
    }

    #[test]
    fn agrees_with_the_literal_definitions_on_every_short_line() {
        for (game, len) in [(C6, 10), (GO, 9)] {
            let points = [Point::Empty, Point::Own, Point::Block];
            let mut line = vec![Point::Empty; len];
            for code in 0..3usize.pow(len as u32) {
                let mut c = code;
                for cell in line.iter_mut() {
                    *cell = points[c % 3];
                    c /= 3;
                }
                let got = classify_line(&line, game.0, game.1);
                let want = oracle_line(&line, game.0, game.1);
                assert_eq!(got, want, "k={} line {:?}: got {got}, want {want}", game.0, line);
            }
        }
        // Full-length lines, mostly own stones and space, for long chains and several patterns.
        let mut state = 7;
        for (game, len) in [(C6, 19), (GO, 15)] {
            for _ in 0..3000 {
                let line: Vec<Point> = (0..len)
                    .map(|_| match splitmix(&mut state) % 8 {
                        0 => Point::Block,
                        1..=3 => Point::Own,
                        _ => Point::Empty,
                    })
                    .collect();
                let (got, want) = (classify_line(&line, game.0, game.1), oracle_line(&line, game.0, game.1));
                assert_eq!(got, want, "k={} line {:?}: got {got}, want {want}", game.0, line);
            }
        }
    }

    // ---- Boards: directions, colours, symmetries ---------------------------------------------

    /// Stones on a board without the turn order, for symmetry tests.
    #[derive(Clone)]
    struct Grid {
        rules: Rules,
        cells: Vec<Option<Colour>>,
    }

    impl Grid {
        fn new(rules: Rules) -> Grid {
            Grid { rules, cells: vec![None; rules.cells()] }
        }

        fn size(&self) -> usize {
            self.rules.width as usize
        }

        fn set(&mut self, x: usize, y: usize, c: Option<Colour>) {
            let n = self.size();
            self.cells[x + y * n] = c;
        }

        fn counts(&self) -> [PatternCounts; 2] {
            let n = self.size();
            scan(self.rules, |x, y| self.cells[x + y * n])
        }

        /// The grid under one of the 8 symmetries of the square (`sym` in 0..8).
        fn transformed(&self, sym: usize) -> Grid {
            let n = self.size();
            let mut g = Grid::new(self.rules);
            for y in 0..n {
                for x in 0..n {
                    let (mut a, mut b) = (x, y);
                    for _ in 0..sym % 4 {
                        (a, b) = (n - 1 - b, a); // a quarter turn
                    }
                    if sym >= 4 {
                        a = n - 1 - a;
                    }
                    g.set(a, b, self.cells[x + y * n]);
                }
            }
            g
        }

        fn colours_swapped(&self) -> Grid {
            Grid { rules: self.rules, cells: self.cells.iter().map(|c| c.map(Colour::other)).collect() }
        }
    }

    /// Writes a line text onto a 19x19 grid along a direction: `X` black, `O` white. Rows and
    /// columns are 19 long, so the text is followed by a white stone (an edge for Black);
    /// diagonals of exactly the text's length exist, so there the board edges end it.
    fn place(text: &str, dir: (i32, i32)) -> Grid {
        let rules = Rules::CONNECT6;
        let n = 19;
        let pts = parse_line(text).unwrap();
        let len = pts.len();
        assert!(len < n);
        let mut g = Grid::new(rules);
        let cell = |i: usize| -> (usize, usize) {
            match dir {
                (1, 0) => (i, 9),
                (0, 1) => (9, i),
                (1, 1) => (n - len + i, i),
                _ => (i, len - 1 - i),
            }
        };
        for (i, pt) in pts.iter().enumerate() {
            let (x, y) = cell(i);
            g.set(
                x,
                y,
                match pt {
                    Point::Own => Some(Colour::Black),
                    Point::Block => Some(Colour::White),
                    Point::Empty => None,
                },
            );
        }
        if dir.0 == 0 || dir.1 == 0 {
            let (x, y) = cell(len);
            g.set(x, y, Some(Colour::White));
        }
        g
    }

    #[test]
    fn every_direction_and_both_colours_read_alike() {
        let texts = [
            "______XXXXX______",
            "OXXXXX______",
            "XXXXX______",
            "OXXXXXO",
            "______XXXX_X______",
            "OXX_XXXO",
            "__XXXX_O",
            "XX_XX______",
            "______X_X_X______",
            "O_XXX___O",
            "XXX_______",
            "OX___XO",
            "XX______XX",
            "___XXX_____XXX___",
        ];
        for text in texts {
            let want = read(text, C6);
            for dir in DIRECTIONS {
                let g = place(text, dir);
                let got = g.counts()[Colour::Black.index()];
                assert_eq!(got, want, "{text} along {dir:?}: {got} vs {want}");
                let swapped = g.colours_swapped().counts()[Colour::White.index()];
                assert_eq!(swapped, want, "{text} along {dir:?} as White");
            }
        }
    }

    /// A small deterministic generator (SplitMix64) for random positions.
    fn splitmix(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A random position with stones crowded near one corner, so that lines run into edges.
    fn random_grid(rules: Rules, seed: u64) -> Grid {
        let mut state = seed;
        let mut g = Grid::new(rules);
        let n = g.size();
        let stones = 10 + splitmix(&mut state) as usize % 50;
        for _ in 0..stones {
            let x = (splitmix(&mut state) as usize % 11 + 3).min(n - 1);
            let y = splitmix(&mut state) as usize % 12;
            let c = if splitmix(&mut state).is_multiple_of(2) { Colour::Black } else { Colour::White };
            g.set(x, y, Some(c));
        }
        g
    }

    #[test]
    fn counts_are_invariant_under_board_symmetries() {
        let mut seen = PatternCounts::default();
        for rules in [Rules::CONNECT6, Rules::GOMOKU] {
            for seed in 0..40 {
                let g = random_grid(rules, seed);
                let base = g.counts();
                for sym in 1..8 {
                    assert_eq!(g.transformed(sym).counts(), base, "{rules:?} seed {seed} symmetry {sym}");
                }
                let swapped = g.colours_swapped().counts();
                assert_eq!((swapped[0], swapped[1]), (base[1], base[0]), "seed {seed} colours swapped");
                for i in 0..CLASSES {
                    seen.counts[i] += base[0].counts[i] + base[1].counts[i];
                }
            }
        }
        // The random positions exercised most classes, or the test would prove little.
        let present = seen.iter().count();
        assert!(present >= 10, "only {present} classes seen: {seen}");
    }

    // ---- Weights and the score ---------------------------------------------------------------

    #[test]
    fn schemas_name_exactly_the_classes_of_their_game() {
        for (schema, rules) in [(&CONNECT6_PATTERNS, Rules::CONNECT6), (&GOMOKU_PATTERNS, Rules::GOMOKU)] {
            let classes: Vec<String> = Pattern::classes(rules).map(|p| p.to_string().to_lowercase()).collect();
            let mut want: Vec<String> = classes.iter().map(|c| format!("own_{c}")).collect();
            want.extend(classes.iter().map(|c| format!("opp_{c}")));
            let eval = || schema.specs.iter().filter(|s| s.group == WeightGroup::Eval);
            let names: Vec<&str> = eval().map(|s| s.name).collect();
            assert_eq!(names, want, "{}", schema.game);
            for s in eval() {
                assert_eq!(s.min, 0, "{}", s.name);
                assert!(s.max >= 5 * s.default && s.max > 0, "{}", s.name);
            }
        }
        // Plus the move generator's 10 (Connect6) and 8 (Gomoku) move-order weights.
        assert_eq!(CONNECT6_PATTERNS.len(), 26 + 10);
        assert_eq!(GOMOKU_PATTERNS.len(), 18 + 8);
    }

    #[test]
    fn connect6_defaults_are_the_road_table_on_canonical_shapes() {
        // The road weights for 0..5 stones (roads.rs, CONNECT6_ROADS defaults).
        let road = [0, 17, 78, 141, 788, 1030];
        let road_sum = |text: &str| -> i32 {
            let pts = parse_line(text).unwrap();
            pts.windows(6)
                .filter(|w| !w.contains(&Point::Block))
                .map(|w| road[w.iter().filter(|&&p| p == Point::Own).count()])
                .sum()
        };
        let shapes = [
            ("A5", "_____XXXXX_____"),
            ("S5", "OXXXXX_____"),
            ("A4", "_____XXXX_____"),
            ("S4", "OXXXX_____"),
            ("A3", "_____XXX_____"),
            ("I3", "_____X_X_X_____"),
            ("S3", "OXXX_____"),
            ("A2", "_____XX_____"),
            ("S2", "OXX_____"),
        ];
        let defaults = CONNECT6_PATTERNS.defaults();
        for (class, text) in shapes {
            assert_eq!(single(text, C6), Pattern::parse(class), "{text} is the canonical {class}");
            let name = class.to_lowercase();
            assert_eq!(defaults.get(&format!("own_{name}")), Some(road_sum(text)), "{class}");
            assert_eq!(defaults.get(&format!("opp_{name}")), Some(road_sum(text)), "{class}");
        }
    }

    #[test]
    fn names_map_to_the_right_classes() {
        let mut values = CONNECT6_PATTERNS.defaults().values().to_vec();
        values[CONNECT6_PATTERNS.index_of("opp_i3").unwrap()] = 999;
        let e = PatternEval::new(&Weights::from_values(&CONNECT6_PATTERNS, values).unwrap());
        assert_eq!(e.weight(P::I3, false), 999);
        assert_eq!(e.weight(P::I3, true), 662);
        assert_eq!(e.weight(P::A5, true), 4108);
        assert_eq!(e.weight(P::D2, true), 0);
        let g = PatternEval::new(&GOMOKU_PATTERNS.defaults());
        assert_eq!((g.weight(P::A3, true), g.weight(P::A3, false)), (8000, 400));
        assert_eq!(g.weight(P::A5, true), 0, "a class the table does not name weighs 0");
    }

    #[test]
    fn pattern_names_round_trip() {
        for i in 0..CLASSES {
            let p = Pattern::from_index(i);
            assert_eq!(p.index(), i);
            assert_eq!(Pattern::parse(&p.to_string()), Some(p));
            assert_eq!(Pattern::parse(&p.to_string().to_lowercase()), Some(p));
        }
        assert_eq!(Pattern::parse("a1"), None);
        assert_eq!(Pattern::parse("x3"), None);
        assert_eq!(Pattern::parse("a"), None);
        let c = read("___XXX_____XXX___O_XXX_O", C6);
        assert_eq!(c.to_string(), "A3:2 D3:1");
        assert_eq!(PatternCounts::default().to_string(), "-");
    }

    #[test]
    fn connect6_board_scores_for_the_side_to_move() {
        let e = PatternEval::new(&CONNECT6_PATTERNS.defaults());
        // Black j10 k10 l10: a live three across the middle; White's stones stand alone.
        let mut b = board_from_record_moves(Rules::CONNECT6, &["j10", "b5r15", "k10l10"]).unwrap();
        assert_eq!(patterns_of(&b, Colour::Black).to_string(), "A3:1");
        assert_eq!(patterns_of(&b, Colour::White).total(), 0);
        assert_eq!(b.to_move(), Colour::White);
        assert_eq!(e.evaluate(&b), -754);
        // Two more lone white stones: Black is to move and the same three scores for it.
        for m in ["c17", "q3"] {
            b.play(crate::games::connect::notation::parse_record_move(Rules::CONNECT6, m).unwrap()[0]);
        }
        assert_eq!(b.to_move(), Colour::Black);
        assert_eq!(e.evaluate(&b), 754);
    }

    #[test]
    fn score_sign_flips_with_the_side_to_move() {
        let e = PatternEval::new(&CONNECT6_PATTERNS.defaults());
        let b = board_from_record_moves(Rules::CONNECT6, &["j10", "k11k9", "l10h10", "j12j8", "k10m10"]).unwrap();
        let counts = pattern_counts(&b);
        assert!(counts[0].total() > 0 && counts[1].total() > 0, "{} / {}", counts[0], counts[1]);
        // With own and opponent weights equal (the Connect6 defaults) the two views negate.
        let (black, white) = (e.score(&counts, Colour::Black), e.score(&counts, Colour::White));
        assert_eq!(black, -white);
        assert_ne!(black, 0);
        assert_eq!(e.evaluate(&b), e.score(&counts, b.to_move()));
        let by_hand: i64 =
            counts[b.to_move().index()].iter().map(|(p, n)| e.weight(p, true) as i64 * n as i64).sum::<i64>()
                - counts[b.to_move().other().index()]
                    .iter()
                    .map(|(p, n)| e.weight(p, false) as i64 * n as i64)
                    .sum::<i64>();
        assert_eq!(e.evaluate(&b) as i64, by_hand);
    }

    #[test]
    fn gomoku_board() {
        let e = PatternEval::new(&GOMOKU_PATTERNS.defaults());
        // Black h8 i8 j8, a live three; White a1 o15 far away.
        let mut b = board_from_record_moves(Rules::GOMOKU, &["h8", "a1", "i8", "o15", "j8"]).unwrap();
        assert_eq!(patterns_of(&b, Colour::Black).to_string(), "A3:1");
        assert_eq!(e.evaluate(&b), -400, "White to move faces Black's live three");
        b.play(crate::games::connect::notation::parse_record_move(Rules::GOMOKU, "o1").unwrap()[0]);
        assert_eq!(e.evaluate(&b), 8000, "Black to move owns a live three");
        // A white stone on one end makes it a sleep three.
        b.undo();
        b.play(crate::games::connect::notation::parse_record_move(Rules::GOMOKU, "k8").unwrap()[0]);
        assert_eq!(patterns_of(&b, Colour::Black).to_string(), "S3:1");
        assert_eq!(e.evaluate(&b), 50);
    }
}
