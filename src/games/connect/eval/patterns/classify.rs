//! The pattern classes (棋型) of Li Guo 2007 and how a line is read into them (see the
//! module documentation of `patterns` for the definitions made operational).

use std::fmt;

use crate::games::connect::board::{Board, Colour, Rules, DIRECTIONS, MAX_K};

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

    /// The letter of the paper's symbols (A, I, S, D).
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
/// threat level is below k-1 (p >= 2), as Li Guo 2007 defines I3 for Connect6 alone.
fn has_indistinct(n: usize, t: usize, k: usize) -> bool {
    n + 1 == t && t + 1 < k
}

/// How many patterns of each class one side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PatternCounts {
    pub(super) counts: [u32; CLASSES],
}

impl PatternCounts {
    #[inline]
    pub fn get(&self, p: Pattern) -> u32 {
        self.counts[p.index()]
    }

    #[inline]
    pub(super) fn add(&mut self, p: Pattern) {
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
pub(super) fn scan(rules: Rules, stone_at: impl Fn(usize, usize) -> Option<Colour>) -> [PatternCounts; 2] {
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
