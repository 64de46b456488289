//! The Connect games' openings: a first stone near the centre and then the move generator's
//! best moves drawn at random (`played`), or stones uniformly near the centre (`random`, kept
//! when the default road evaluation finds them balanced). No opening leaves a threat road on
//! the board, and openings equal up to the board's symmetries count once.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::core::openings::{Attempt, OpeningConfig, OpeningMaker, OpeningMethod};
use crate::core::weights::Schema;
use crate::games::connect::board::{Board, Rules};
use crate::games::connect::eval::roads::RoadEval;
use crate::games::connect::movegen::{MoveGen, MoveGenConfig, Situation};
use crate::games::connect::notation::record_moves;

/// The opening maker of one rule set and one generator setting.
pub struct ConnectOpenings {
    rules: Rules,
    config: OpeningConfig,
    eval: RoadEval,
    area: Vec<(i32, i32)>,
    stones: usize,
    movegen: MoveGen,
}

impl ConnectOpenings {
    /// The maker of a rule set's openings, `roads` judging the balance of random ones.
    pub fn new(rules: Rules, roads: &'static Schema, config: &OpeningConfig) -> ConnectOpenings {
        let (cx, cy) = (rules.width as i32 / 2, rules.height as i32 / 2);
        let r = config.radius.max(1) as i32;
        let area: Vec<(i32, i32)> = (-r..=r).flat_map(|dy| (-r..=r).map(move |dx| (cx + dx, cy + dy))).collect();
        // Wide enough that `top` can reach past the search's usual width.
        let wide = MoveGenConfig { width: config.top.max(1), ..MoveGenConfig::default() };
        ConnectOpenings {
            rules,
            config: *config,
            eval: RoadEval::new(&roads.defaults()),
            area,
            stones: stones_in_turns(rules, config.turns),
            movegen: MoveGen::new(wide, &Board::new(rules)),
        }
    }
}

impl OpeningMaker for ConnectOpenings {
    fn attempt(&mut self, rng: &mut ChaCha8Rng) -> Attempt {
        let board = match self.config.method {
            OpeningMethod::Random => random_opening(self.rules, &self.area, self.stones, rng),
            OpeningMethod::Played => played_opening(self.rules, &self.config, &self.area, &mut self.movegen, rng),
        };
        if board.threat_count(board.to_move()) > 0 || board.threat_count(board.to_move().other()) > 0 {
            return Attempt::Threat;
        }
        if self.config.method == OpeningMethod::Random {
            let v = self.eval.evaluate(&board).abs();
            if v > self.config.balance {
                return Attempt::Unbalanced(v);
            }
        }
        Attempt::Made { key: canonical(&board), moves: record_moves(&board) }
    }
}

/// Stones an opening of `turns` turns places.
pub fn stones_in_turns(rules: Rules, turns: usize) -> usize {
    rules.q as usize + turns.saturating_sub(1) * rules.p as usize
}

/// Stones uniformly at random in `area`.
fn random_opening(rules: Rules, area: &[(i32, i32)], stones: usize, rng: &mut ChaCha8Rng) -> Board {
    let mut board = Board::new(rules);
    while board.stone_count() < stones.min(area.len()) {
        let (x, y) = area[rng.random_range(0..area.len())];
        let c = board.cell(x as usize, y as usize);
        if board.is_empty_cell(c) {
            board.play(c);
        }
    }
    board
}

/// A first stone within `radius` of the centre, then for each turn one of the generator's
/// `top` best moves at random. Stops early (and is then rejected by the caller's checks)
/// if a threat appears.
fn played_opening(
    rules: Rules,
    config: &OpeningConfig,
    area: &[(i32, i32)],
    movegen: &mut MoveGen,
    rng: &mut ChaCha8Rng,
) -> Board {
    let mut board = Board::new(rules);
    let (x, y) = area[rng.random_range(0..area.len())];
    board.play(board.cell(x as usize, y as usize));
    let mut moves = Vec::new();
    for _ in 1..config.turns {
        if movegen.generate(&board, &mut moves) != Situation::Quiet || moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len().min(config.top.max(1)))];
        m.stones().iter().for_each(|&c| board.play(c));
    }
    board
}

/// The smallest of the eight symmetric images of the position, as sorted (colour, cell) lists
/// (each pair packed into a `u32`).
pub fn canonical(board: &Board) -> Vec<u32> {
    let (w, h) = (board.width(), board.height());
    let mut best: Option<Vec<u32>> = None;
    for sym in 0..8 {
        if w != h && sym >= 4 {
            break;
        }
        let mut v: Vec<u32> = board
            .history()
            .iter()
            .map(|&c| {
                let (x, y) = board.xy(c);
                let (x, y) = match sym {
                    0 => (x, y),
                    1 => (w - 1 - x, y),
                    2 => (x, h - 1 - y),
                    3 => (w - 1 - x, h - 1 - y),
                    4 => (y, x),
                    5 => (h - 1 - y, x),
                    6 => (y, w - 1 - x),
                    _ => (h - 1 - y, w - 1 - x),
                };
                // (colour, cell) packed so that the order is the pairs' order.
                u32::from(board.stone(c).map_or(0, |s| s.index() as u8)) << 16 | (x + y * w) as u32
            })
            .collect();
        v.sort_unstable();
        if best.as_ref().is_none_or(|b| v < *b) {
            best = Some(v);
        }
    }
    best.unwrap_or_default()
}

#[cfg(test)]
mod exclusion_tests {
    use super::*;
    use crate::arena::openings::OpeningSuite;
    use crate::games::connect::notation::board_from_record_moves;
    use crate::registry::CONNECT6;

    #[test]
    fn removing_a_suite_removes_its_openings_and_their_mirror_images() {
        let config = OpeningConfig { count: 40, ..OpeningConfig::default() };
        let mut a = OpeningSuite::generate(CONNECT6, &config, 1).unwrap();
        let b = OpeningSuite::generate(CONNECT6, &OpeningConfig { count: 10, ..config }, 1).unwrap();
        let mirrored = OpeningSuite {
            game: CONNECT6,
            openings: b
                .openings
                .iter()
                .map(|o| {
                    let text: Vec<&str> = o.iter().map(String::as_str).collect();
                    let board = board_from_record_moves(Rules::CONNECT6, &text).unwrap();
                    let mut m = Board::new(Rules::CONNECT6);
                    for &c in board.history() {
                        let (x, y) = board.xy(c);
                        m.play(m.cell(18 - x, y));
                    }
                    record_moves(&m)
                })
                .collect(),
        };
        let before = a.len();
        assert_eq!(a.remove_all_of(&mirrored), 10);
        assert_eq!(a.len(), before - 10);
        assert!(a.openings.iter().all(|o| !b.openings.contains(o)));
        assert_eq!(a.remove_all_of(&b), 0);
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::arena::openings::{Keys, OpeningGenerator, OpeningSuite, Openings};
    use crate::games::connect::movegen::Move;
    use crate::games::connect::notation::board_from_record_moves;
    use crate::games::connect::Colour;
    use crate::registry::CONNECT6;

    fn check_suite(config: &OpeningConfig, stones: usize) -> OpeningSuite {
        let a = OpeningSuite::generate(CONNECT6, config, 7).unwrap();
        assert_eq!(a.len(), config.count);
        assert_eq!(a, OpeningSuite::generate(CONNECT6, config, 7).unwrap());
        assert_ne!(a, OpeningSuite::generate(CONNECT6, config, 8).unwrap());
        let mut keys = std::collections::HashSet::new();
        for o in &a.openings {
            assert_eq!(o.len(), config.turns);
            let b = board_from_record_moves(Rules::CONNECT6, o).unwrap();
            assert_eq!(b.stone_count(), stones);
            assert_eq!(b.threat_count(Colour::Black) + b.threat_count(Colour::White), 0);
            assert!(keys.insert(canonical(&b)), "duplicate up to symmetry: {o:?}");
        }
        a
    }

    #[test]
    fn played_suites_are_legal_distinct_and_reproducible() {
        let config = OpeningConfig { count: 40, ..OpeningConfig::default() };
        check_suite(&OpeningConfig { turns: 2, ..config }, 3);
        // Every white pair is among the generator's best moves after Black's stone.
        let a = check_suite(&OpeningConfig { count: 20, ..config }, 5);
        let mut g =
            MoveGen::new(MoveGenConfig { width: config.top, ..MoveGenConfig::default() }, &Board::new(Rules::CONNECT6));
        for o in &a.openings {
            let b = board_from_record_moves(Rules::CONNECT6, &o[..1]).unwrap();
            let mut moves = Vec::new();
            g.generate(&b, &mut moves);
            let white = crate::games::connect::notation::parse_record_move(Rules::CONNECT6, &o[1]).unwrap();
            assert!(moves.contains(&Move::from_stones(&white)), "{o:?}");
        }
    }

    #[test]
    fn random_suites_are_balanced() {
        let config = OpeningConfig { count: 30, turns: 3, method: OpeningMethod::Random, ..OpeningConfig::default() };
        let a = check_suite(&config, 5);
        let eval = RoadEval::new(&crate::games::connect::eval::CONNECT6_ROADS.defaults());
        for o in &a.openings {
            let b = board_from_record_moves(Rules::CONNECT6, o).unwrap();
            assert!(eval.evaluate(&b).abs() <= config.balance);
        }
    }

    #[test]
    fn text_round_trip_and_errors() {
        let a = OpeningSuite::generate(CONNECT6, &OpeningConfig { count: 5, ..Default::default() }, 1).unwrap();
        let b = OpeningSuite::parse(&a.to_text(), "x", CONNECT6).unwrap();
        assert_eq!(a, b);
        let e = OpeningSuite::parse("j10 k11k9\nj10 j10k9\n", "s.txt", CONNECT6).unwrap_err();
        assert!(format!("{e:#}").contains("s.txt:2"), "{e:#}");
        let e = OpeningSuite::parse("j10 k11\n", "s.txt", CONNECT6).unwrap_err();
        assert!(format!("{e:#}").contains("s.txt:1"), "{e:#}");
        assert!(OpeningSuite::parse("# nothing\n", "s.txt", CONNECT6).is_err());
    }

    #[test]
    fn symmetric_positions_share_a_canonical_form() {
        let a = board_from_record_moves(Rules::CONNECT6, &["j10", "k11k9"]).unwrap();
        let b = board_from_record_moves(Rules::CONNECT6, &["j10", "i11i9"]).unwrap();
        let c = board_from_record_moves(Rules::CONNECT6, &["j10", "k11k10"]).unwrap();
        assert_eq!(canonical(&a), canonical(&b));
        assert_ne!(canonical(&a), canonical(&c));
    }

    fn hash(suite: &OpeningSuite) -> u64 {
        crate::fsutil::fnv1a64(suite.to_text().as_bytes())
    }

    /// The suites of the shipped configs and of matches are what they were before the
    /// generator learnt to stop early: GA runs and matches of a given seed do not change.
    #[test]
    fn suites_are_unchanged_for_their_seeds() {
        for (file, len, h) in [
            // Training suites: generated, then the validation's held-out openings removed.
            ("configs/quick.toml", 1955, 0xa316_6059_ec7f_6964),
            ("configs/li2007.toml", 635, 0x90e7_0d1d_249d_a559),
            ("configs/overnight.toml", 4163, 0x8169_be37_cb75_57d5),
        ] {
            let c = crate::ga::config::EvolveConfig::load(Path::new(file)).unwrap();
            let s = crate::ga::prepare::opening_suite(&c).unwrap();
            assert_eq!((s.len(), hash(&s)), (len, h), "{file}");
        }
        for (count, h) in [(64, 0x6da6_dc0e_970a_61c4), (500, 0x3674_acb8_e04a_d852)] {
            let config = OpeningConfig { count, ..OpeningConfig::default() };
            let s = OpeningSuite::generate(CONNECT6, &config, 1).unwrap();
            assert_eq!((s.len(), hash(&s)), (count, h), "count {count}");
        }
    }

    /// More openings asked for than the settings hold: the generator stops once new ones
    /// stop coming (it used to try 1000 times per opening asked for, 220 s for this one),
    /// and the suite is a prefix-compatible, reproducible set.
    #[test]
    fn asking_for_more_openings_than_exist_stops_early() {
        let config = OpeningConfig { count: 3000, turns: 2, ..OpeningConfig::default() };
        let mut g = OpeningGenerator::new(CONNECT6, &config, 1);
        let mut n = 0;
        while g.next_opening().is_some() {
            n += 1;
        }
        assert!(n < 3000, "{n}");
        let short = g.shortfall(3000);
        assert!(short.attempts < 200_000, "{} attempts", short.attempts);
        let e = short.message(Keys::CommandLine);
        assert!(e.contains("--top") && e.contains("no more distinct openings"), "{e}");
    }

    #[test]
    fn lazy_openings_match_the_eager_suite() {
        let config = OpeningConfig { count: 200, ..OpeningConfig::default() };
        let eager = OpeningSuite::generate(CONNECT6, &config, 3).unwrap();
        let mut lazy = Openings::generated(CONNECT6, &config, 3);
        assert_eq!(lazy.describe(30).unwrap(), "30 openings");
        assert_eq!(lazy.describe(100).unwrap(), "up to 100 openings");
        assert_eq!(lazy.describe(1000).unwrap(), "up to 200 openings");
        assert_eq!(lazy.suite().len(), 64, "only what a header needs is made up front");
        assert_eq!(lazy.ensure(100), Ok(None));
        assert_eq!(lazy.suite().openings[..], eager.openings[..100]);
        assert_eq!(lazy.ensure(300), Ok(None), "200 asked for, 200 made: not a shortfall");
        assert_eq!(lazy.suite(), &eager);
        assert_eq!(lazy.describe(1000).unwrap(), "200 openings");
        // Settings with few openings: the lazy source runs out and says how many there are.
        let few = OpeningConfig { count: 100, turns: 1, ..OpeningConfig::default() };
        let mut lazy = Openings::generated(CONNECT6, &few, 3);
        let n = lazy.ensure(100).unwrap().expect("runs out");
        assert_eq!(n, OpeningSuite::generate(CONNECT6, &few, 3).unwrap().len());
        assert!(n < 20, "{n}");
    }

    /// The settings the issue found panicking: each is an error naming the setting, from the
    /// range check or from the generator, never an empty suite.
    #[test]
    fn bad_settings_are_errors_that_name_the_setting() {
        let rules = CONNECT6;
        let random = OpeningConfig { method: OpeningMethod::Random, ..OpeningConfig::default() };
        let check = |c: OpeningConfig| c.check(rules).unwrap_err();
        assert_eq!(check(OpeningConfig { radius: 10, ..random }).key, "radius");
        assert!(check(OpeningConfig { radius: 10, ..random }).message.contains("between 1 and 9"));
        assert_eq!(check(OpeningConfig { radius: usize::MAX, ..random }).key, "radius");
        assert_eq!(check(OpeningConfig { radius: 0, ..random }).key, "radius");
        assert_eq!(check(OpeningConfig { turns: 400, ..random }).key, "turns");
        assert_eq!(check(OpeningConfig { turns: 0, ..random }).key, "turns");
        assert_eq!(check(OpeningConfig { count: 0, ..random }).key, "count");
        assert_eq!(check(OpeningConfig { count: usize::MAX, ..random }).key, "count");
        assert_eq!(check(OpeningConfig { balance: -1, ..random }).key, "balance");
        assert_eq!(check(OpeningConfig { top: 0, ..random }).key, "top");
        assert_eq!(check(OpeningConfig { radius: 1, turns: 6, ..random }).key, "turns");
        // In range, but no opening passes: the error says which setting to change.
        for (c, want) in [
            (OpeningConfig { turns: 2, ..random }, "[openings] balance"),
            (OpeningConfig { balance: 0, ..random }, "[openings] balance"),
            (OpeningConfig { turns: 12, ..OpeningConfig::default() }, "[openings] turns"),
            (OpeningConfig { turns: 1, count: 64, ..OpeningConfig::default() }, "[openings] top"),
        ] {
            assert!(c.check(rules).is_ok(), "{c:?}");
            let e = OpeningSuite::generate_at_least(rules, &c, 1, 20, None).unwrap_err();
            let msg = e.message(Keys::Config);
            assert!(msg.contains(want), "{c:?}: {msg}");
        }
    }
}
