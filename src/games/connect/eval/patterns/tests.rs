//! Tests of the pattern evaluation: classes of shapes, the brute-force reading of the
//! paper's definitions, and the evaluation's incremental agreement.

use super::classify::scan;
use super::*;
use crate::games::connect::board::{Rules, DIRECTIONS};
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

// ---- An independent oracle: the paper's definitions applied literally ------------------

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
    let (s, z) = crate::core::rng::splitmix(*state);
    *state = s;
    z
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
    let by_hand: i64 = counts[b.to_move().index()]
        .iter()
        .map(|(p, n)| e.weight(p, true) as i64 * n as i64)
        .sum::<i64>()
        - counts[b.to_move().other().index()].iter().map(|(p, n)| e.weight(p, false) as i64 * n as i64).sum::<i64>();
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
