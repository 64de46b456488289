//! The searches as black boxes: determinism at a fixed depth and node budget (also after other
//! games on the same engine), legal answers in every kind of position, mate scores with the
//! right sign, and a transposition table of the size asked that never grows.

mod common;

use common::{for_each_turn_start, random_game, RandomStyle};
use evotune::arena::game::{play_game, GameSettings};
use evotune::arena::player::Player;
use evotune::arena::records::{Outcome, Reason};
use evotune::core::limits::Limits;
use evotune::core::settings::{EngineSettings, SearchKind};
use evotune::core::weights::Weights;
use evotune::games::connect::eval::{CONNECT6_ROADS, GOMOKU_ROADS};
use evotune::games::connect::make_move;
use evotune::games::connect::movegen::Move;
use evotune::games::connect::movegen::{MoveGen, MoveGenConfig, Situation};
use evotune::games::connect::notation::{board_from_record_moves, play_move, record_moves};
use evotune::games::connect::{Board, Colour, Connect6, Rules};
use evotune::games::gomoku::{Gomoku, GomokuBoard};
use evotune::player::random_weights;
use evotune::search::{Engine, SearchResult, MATE_BOUND};

fn weights(rules: Rules) -> Weights {
    if rules == Rules::GOMOKU {
        GOMOKU_ROADS.defaults()
    } else {
        CONNECT6_ROADS.defaults()
    }
}

fn engine(kind: SearchKind, tt_mib: usize) -> Engine<Connect6> {
    Engine::new(EngineSettings { search: kind, tt_mib, ..EngineSettings::default() }, &weights(Rules::CONNECT6))
}

fn board(moves: &[&str]) -> Board {
    board_from_record_moves(Rules::CONNECT6, moves).unwrap()
}

/// Positions at turn starts of seeded random games, up to `each` of every situation asked
/// for, spread over the games (every third turn start is looked at).
fn sample_positions(situations: &[Situation], each: usize) -> Vec<Board> {
    let styles = [
        RandomStyle { region: 9, near: 0.9 },
        RandomStyle { region: 19, near: 0.5 },
        RandomStyle { region: 11, near: 0.8 },
        RandomStyle { region: 7, near: 1.0 },
    ];
    let mut gen = MoveGen::new(MoveGenConfig::default(), &Board::new(Rules::CONNECT6));
    let mut found: Vec<Vec<Board>> = vec![Vec::new(); situations.len()];
    for seed in 0..400u64 {
        if found.iter().all(|f| f.len() >= each) {
            break;
        }
        let stones = random_game(Rules::CONNECT6, 7000 + seed, styles[seed as usize % 4], 361);
        let mut n = 0usize;
        for_each_turn_start(Rules::CONNECT6, &stones, |b| {
            n += 1;
            let s = gen.situation(b);
            if let Some(i) = situations.iter().position(|&x| x == s) {
                if n.is_multiple_of(3) && found[i].len() < each {
                    found[i].push(b.clone());
                }
            }
        });
    }
    for (s, f) in situations.iter().zip(&found) {
        assert_eq!(f.len(), each, "too few {s:?} positions");
    }
    found.into_iter().flatten().collect()
}

/// Positions where a search has something to search: quiet ones and defences.
fn searchable(each: usize) -> Vec<Board> {
    sample_positions(&[Situation::Quiet, Situation::Defend], each)
}

/// What a deterministic search must repeat: everything but the time.
fn key(r: &SearchResult<Move>) -> (String, i32, u32, u64, Vec<String>) {
    let text = |m: &evotune::games::connect::movegen::Move| format!("{:?}", m.stones());
    (text(&r.best), r.score, r.depth, r.nodes, r.pv.iter().map(text).collect())
}

fn check_determinism(kind: SearchKind, limits: Limits, positions: &[Board]) {
    // An engine that has played another game first, then was told a new game starts.
    let mut used = engine(kind, 4);
    let mut other = board(&["j10", "k11k9", "h8l12"]);
    for _ in 0..4 {
        if other.is_over() {
            break;
        }
        let r = used.search(&mut other, &Limits::depth(2));
        make_move(&mut other, r.best);
    }
    for (i, pos) in positions.iter().enumerate() {
        let mut b1 = pos.clone();
        let mut b2 = pos.clone();
        let mut b3 = pos.clone();
        let r1 = engine(kind, 4).search(&mut b1, &limits);
        let r2 = engine(kind, 4).search(&mut b2, &limits);
        used.new_game(0);
        let r3 = used.search(&mut b3, &limits);
        let what = format!("{kind:?} {} position {i} {:?}", limits.describe(), record_moves(pos));
        assert_eq!(key(&r1), key(&r2), "{what}: two fresh engines");
        assert_eq!(key(&r1), key(&r3), "{what}: an engine after another game and new_game");
        assert_eq!(b1.hash(), pos.hash(), "{what}: the search changed the board");
        assert_eq!(b1.history(), pos.history(), "{what}");
    }
}

#[test]
fn fixed_depth_searches_repeat_exactly() {
    let positions = searchable(4);
    check_determinism(SearchKind::Pvs, Limits::depth(2), &positions);
    check_determinism(SearchKind::Pvs, Limits::depth(3), &positions);
    check_determinism(SearchKind::Alphabeta, Limits::depth(2), &positions);
}

#[test]
fn node_budget_searches_repeat_exactly() {
    let positions = searchable(3);
    for nodes in [1, 50, 2000] {
        check_determinism(SearchKind::Pvs, Limits::nodes(nodes), &positions);
        check_determinism(SearchKind::Alphabeta, Limits::nodes(nodes), &positions);
    }
    // A budget is a budget: the search stops at it.
    let mut b = board(&["j10", "k11k9", "h8l12"]);
    let r = engine(SearchKind::Pvs, 4).search(&mut b, &Limits::nodes(500));
    assert!(r.nodes <= 500, "{} nodes", r.nodes);
}

/// The engine's answer as a game move: stones on empty cells, a whole turn unless a stone won,
/// and the engine's own `make_move` plays it. The referee's stricter check (no stone after a
/// winning stone) is `play_game_accepts_the_engines_winning_move`.
fn check_answer(board: &Board, r: &SearchResult<Move>, what: &str) {
    let stones = r.best.stones();
    assert!(!stones.is_empty(), "{what}: no move");
    let mut b = board.clone();
    for &c in stones {
        assert!(b.is_empty_cell(c), "{what}: {:?} on an occupied cell", r.best);
        assert!(b.winner().is_none(), "{what}: {:?} has a stone after the winning stone", r.best);
        b.play(c);
    }
    assert!(
        stones.len() == board.turn_size() || b.winner().is_some(),
        "{what}: {:?} has {} stones, the turn {}",
        r.best,
        stones.len(),
        board.turn_size()
    );
}

/// Wang 2021's baseline searches the same moves as the generator-ordered alpha-beta, in board
/// order: the same minimax score at a fixed depth, reached with fewer cut-offs.
#[test]
fn unordered_alphabeta_scores_as_alphabeta_with_more_nodes() {
    let positions = sample_positions(&[Situation::Quiet], 6);
    let settings = |search| EngineSettings { search, vcdt_depth: 0, tt_mib: 1, ..EngineSettings::default() };
    let mut ordered = Engine::<Connect6>::new(settings(SearchKind::Alphabeta), &weights(Rules::CONNECT6));
    let mut unordered = Engine::<Connect6>::new(settings(SearchKind::AlphabetaUnordered), &weights(Rules::CONNECT6));
    let (mut nodes_ordered, mut nodes_unordered) = (0, 0);
    for pos in &positions {
        let (mut b1, mut b2) = (pos.clone(), pos.clone());
        let r1 = ordered.search(&mut b1, &Limits::depth(2));
        let r2 = unordered.search(&mut b2, &Limits::depth(2));
        assert_eq!(r1.score, r2.score, "{:?}", record_moves(pos));
        nodes_ordered += r1.nodes;
        nodes_unordered += r2.nodes;
    }
    assert!(nodes_unordered > nodes_ordered, "{nodes_unordered} vs {nodes_ordered}");
}

#[test]
fn searched_moves_are_legal() {
    let all = [Situation::Quiet, Situation::Defend, Situation::Lost, Situation::Win];
    let positions = sample_positions(&all, 25);
    let mut pvs = engine(SearchKind::Pvs, 4);
    let mut ab = engine(SearchKind::Alphabeta, 1);
    for (i, pos) in positions.iter().enumerate() {
        for (name, e, limits) in
            [("pvs", &mut pvs, Limits::depth(1 + (i % 2) as u32)), ("alphabeta", &mut ab, Limits::depth(1))]
        {
            let mut b = pos.clone();
            e.new_game(0);
            let r = e.search(&mut b, &limits);
            let what = format!("{name} {} {:?}", limits.describe(), record_moves(pos));
            assert_eq!(b.hash(), pos.hash(), "{what}: the board changed");
            check_answer(pos, &r, &what);
        }
    }
}

#[test]
fn gomoku_engines_play_legal_single_stones() {
    let w = weights(Rules::GOMOKU);
    let mut e = Engine::<Gomoku>::new(EngineSettings { tt_mib: 2, ..EngineSettings::default() }, &w);
    for seed in 0..6 {
        let stones = random_game(Rules::GOMOKU, 7100 + seed, RandomStyle { region: 11, near: 0.8 }, 225);
        let mut n = 0;
        for_each_turn_start(Rules::GOMOKU, &stones, |b| {
            n += 1;
            if n % 3 != 0 {
                return;
            }
            e.new_game(0);
            let mut pos = GomokuBoard::from_board(b.clone());
            let r = e.search(&mut pos, &Limits::depth(2));
            let what = format!("gomoku {:?}", record_moves(b));
            assert_eq!(r.best.stones().len(), 1, "{what}");
            let mut after = b.clone();
            play_move(&mut after, r.best.stones()).unwrap_or_else(|e| panic!("{what}: {e}"));
        });
    }
}

/// Black to move with five in a row open at one end (j10-n10, i10 White): wins now.
const WIN_NOW: [&str; 6] = ["j10", "i10a1", "k10l10", "c1e1", "m10n10", "g1r19"];
/// White to move facing two open Black fours (c5-f5, c10-f10), four stones to block: lost.
const LOST: [&str; 11] =
    ["c5", "a19s19", "d5e5", "a17s17", "f5c10", "a15s15", "d10e10", "a13s13", "f10c15", "a11s11", "d15e15"];

#[test]
fn mate_scores_have_the_right_sign() {
    for kind in [SearchKind::Pvs, SearchKind::Alphabeta] {
        for depth in [1, 2, 3] {
            let limits = Limits::depth(depth);
            let mut e = engine(kind, 2);
            let mut b = board(&WIN_NOW);
            assert_eq!(b.to_move(), Colour::Black);
            let r = e.search(&mut b, &limits);
            assert!(r.score > MATE_BOUND, "{kind:?} depth {depth}: win now scores {}", r.score);
            assert_eq!(r.mate_in(), Some(1), "{kind:?} depth {depth}");
            make_move(&mut b, r.best);
            assert_eq!(b.winner(), Some(Colour::Black));

            let mut b = board(&LOST);
            assert_eq!(b.to_move(), Colour::White);
            let r = e.search(&mut b, &limits);
            assert!(r.score < -MATE_BOUND, "{kind:?} depth {depth}: a lost position scores {}", r.score);
            assert_eq!(r.mate_in(), Some(-1), "{kind:?} depth {depth}");

            let mut b = board(&["j10", "k11k9"]);
            let r = e.search(&mut b, &limits);
            assert_eq!(r.mate_in(), None, "{kind:?} depth {depth}: the opening is no mate");
        }
    }
}

/// On the fixture's vcdt positions, searches of depth 2 and more see the win in two turns.
#[test]
fn unstoppable_doubles_score_mate_in_two() {
    let positions = common::load("tests/fixtures/connect6-tactics-own.jsonl");
    let mut seen = 0;
    for p in positions.iter().filter(|p| p.kind == "vcdt").take(12) {
        let b0 = board_from_record_moves(Rules::CONNECT6, &p.moves).unwrap();
        for kind in [SearchKind::Pvs, SearchKind::Alphabeta] {
            let mut b = b0.clone();
            let r = engine(kind, 2).search(&mut b, &Limits::depth(2));
            assert_eq!(r.mate_in(), Some(2), "{kind:?} {:?}: score {}", p.moves, r.score);
        }
        seen += 1;
    }
    assert!(seen >= 10);
}

#[test]
fn table_has_the_size_asked_and_keeps_it() {
    for mib in [1usize, 2, 3, 5, 8, 16] {
        let mut e = engine(SearchKind::Pvs, mib);
        let bytes = e.table_bytes();
        // At most the size asked, and at least half of it (a power-of-two entry count).
        assert!(bytes <= mib << 20 && bytes * 2 > mib << 20, "{mib} MiB asked, {bytes} bytes");
        if mib.is_power_of_two() {
            assert_eq!(bytes, mib << 20, "{mib} MiB");
        }
        if mib <= 2 {
            for (i, pos) in searchable(4).iter().enumerate() {
                let mut b = pos.clone();
                if i.is_multiple_of(3) {
                    e.new_game(i as u64);
                }
                e.search(&mut b, &Limits::depth(2));
                assert_eq!(e.table_bytes(), bytes, "{mib} MiB: the table changed size");
            }
        }
    }
    // Alpha-beta uses no table and asks for the minimum whatever the option says.
    assert!(engine(SearchKind::Alphabeta, 64).table_bytes() <= 1 << 20);
}

fn player(name: &str, depth: u32) -> Player {
    let config = EngineSettings { tt_mib: 1, ..EngineSettings::default() };
    Player::new(name, weights(Rules::CONNECT6), config, Limits::depth(depth))
}

/// Games between random weight tables: every record replays and its result is the board's.
#[test]
fn games_of_random_players_replay_with_their_result() {
    let schema = &CONNECT6_ROADS;
    let config = EngineSettings { tt_mib: 1, ..EngineSettings::default() };
    let settings = GameSettings { max_turns: 60, ..GameSettings::default() };
    let mut refused = 0;
    for seed in 0..10u64 {
        let a = Player::new("a", random_weights(schema, seed), config.clone(), Limits::depth(1));
        let b = Player::new("b", random_weights(schema, seed + 100), config.clone(), Limits::depth(1));
        let r = play_game::<Connect6>(&a, &b, &["j10".to_string()], &settings, seed);
        if r.reason == Reason::Illegal {
            // See play_game_accepts_the_engines_winning_move.
            refused += 1;
            continue;
        }
        let board = board_from_record_moves(Rules::CONNECT6, &r.moves).expect("the record replays");
        match r.reason {
            Reason::Rule(ref w) if w == "six" => {
                let w = board.winner().expect("a six");
                assert_eq!(r.result, if w == Colour::Black { Outcome::First } else { Outcome::Second });
            }
            Reason::Movecap => assert_eq!((r.result, board.winner()), (Outcome::Draw, None)),
            other => panic!("seed {seed}: unexpected end {other:?}"),
        }
    }
    eprintln!("games ended by a refused winning move: {refused}");
}

/// Black to move has a five on the e column (e10 completes it) and a four on row 10 (e10 or
/// j10 with it make six). The engine answers e10j10 — its first stone already wins, so the
/// referee (`play_move`) refuses the second and scores the game a loss for Black by an
/// illegal move.
#[test]
fn play_game_accepts_the_engines_winning_move() {
    let opening: Vec<String> = ["f10", "d10k10", "g10h10", "e4a1", "i10e5", "c1e1", "e6e7", "g1q19", "e8e9", "o19m19"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let b = board_from_record_moves(Rules::CONNECT6, &opening).unwrap();
    let mut gen = MoveGen::new(MoveGenConfig::default(), &b);
    assert_eq!(gen.situation(&b), Situation::Win);
    let r = play_game::<Connect6>(&player("a", 2), &player("b", 2), &opening, &GameSettings::default(), 0);
    assert_eq!((r.result, r.reason), (Outcome::First, Reason::rule("six")), "{:?}", r.moves.last());
}

/// A root move after which the opponent has a quiet move that leaves every answer lost to
/// continuous double threats is set aside by `quiet_refutation_nodes`: from a game against
/// Cloudict, where the depth-4 search played `l9k10` and lost by threats after a quiet
/// answer. The check's choice is the same on every run (it counts positions, not time).
/// The shipped table the check for quiet moves was measured with.
fn versus_cloudict_table() -> Weights {
    let connect6 = evotune::registry::find("connect6").unwrap();
    evotune::player::load_weights("weights/connect6-versus-cloudict.toml", None, connect6).unwrap().0
}

#[test]
fn the_quiet_refutation_check_sets_aside_a_move_lost_to_a_building_move() {
    let table = versus_cloudict_table();
    let opening = ["m7", "k7k8", "l8j10", "j9k9"];
    let best = |quiet: u64| {
        let mut b = board(&opening);
        let settings = EngineSettings { quiet_refutation_nodes: quiet, ..EngineSettings::default() };
        let r = Engine::<Connect6>::new(settings, &table).search(&mut b, &Limits::depth(4));
        evotune::games::connect::notation::move_to_record(Rules::CONNECT6, r.best.stones())
    };
    assert_eq!(best(0), "l9k10");
    let chosen = best(3000);
    assert_ne!(chosen, "l9k10");
    assert_eq!(best(3000), chosen);
}

#[test]
fn the_quiet_refutation_check_stays_within_its_budget_without_a_clock() {
    // Without a clock the check has a budget of its own: 24 threat-space searches' worth of
    // positions in all (docs/strength.md). In this position the check would visit about
    // 70,000 at 300 positions a search if it went on to the end. At depth 5 the root checks'
    // shared fixed-depth budget (1,000 x 4^(depth - 1), the next test) is larger, so the
    // check's own one binds; at depth 1 the refutation check before it took all 1,000.
    let table = versus_cloudict_table();
    let nodes = |quiet: u64| {
        let mut b = board(&["m7", "k7k8", "l8j10", "j9k9"]);
        let settings = EngineSettings { quiet_refutation_nodes: quiet, ..EngineSettings::default() };
        Engine::<Connect6>::new(settings, &table).search(&mut b, &Limits::depth(5)).nodes
    };
    let check = nodes(300) - nodes(0);
    assert!(check > 0 && check <= 24 * 300, "the check visited {check} positions");
}

#[test]
fn the_root_checks_cost_at_most_a_budget_that_grows_with_the_depth_without_a_clock() {
    // At a fixed depth the root's two refutation checks (the quiet check's move lists counted)
    // share 1,000 positions at depth 1, four times as many a depth deeper, so that a
    // fixed-depth game is not slower than the same engine at 100 ms a move. Here they visited
    // 83,700 at depth 1 and 83,800 at depth 3 (84,581 positions against 843 without them at
    // depth 1) when each check had only its own budget. The search with them may differ in
    // more than the checks (other root moves, another move for the final safety check): at
    // most twice the budget.
    let table = versus_cloudict_table();
    let nodes = |depth: u32, settings: EngineSettings| {
        let mut b = board(&["m7", "k7k8", "l8j10", "j9k9"]);
        Engine::<Connect6>::new(settings, &table).search(&mut b, &Limits::depth(depth)).nodes
    };
    let off = EngineSettings { quiet_refutation_nodes: 0, refutation_nodes: 0, ..EngineSettings::default() };
    for (depth, budget) in [(1, 1_000), (3, 16_000)] {
        let checks = nodes(depth, EngineSettings::default()).saturating_sub(nodes(depth, off.clone()));
        assert!(checks > 0 && checks <= 2 * budget, "depth {depth}: the checks cost {checks} positions");
    }
}

/// A search on two threads (the helper filling the shared table) finds the forced wins one
/// thread finds: the fixture's wins in two at depths 2 and 3 (the root's threat-space search
/// off, so that the threaded search itself must see them), a win now and a lost position.
#[test]
fn a_search_on_two_threads_finds_the_forced_wins() {
    let positions = common::load("tests/fixtures/connect6-tactics-own.jsonl");
    let settings = EngineSettings { tt_mib: 2, vcdt_depth: 0, search_threads: 2, ..EngineSettings::default() };
    let mut e = Engine::<Connect6>::new(settings, &weights(Rules::CONNECT6));
    for p in positions.iter().filter(|p| p.kind == "vcdt").take(6) {
        for depth in [2, 3] {
            let mut b = board_from_record_moves(Rules::CONNECT6, &p.moves).unwrap();
            e.new_game(0);
            let r = e.search(&mut b, &Limits::depth(depth));
            assert_eq!(r.mate_in(), Some(2), "depth {depth} {:?}: score {}", p.moves, r.score);
            check_answer(&b, &r, "two threads");
        }
    }
    let r = e.search(&mut board(&WIN_NOW), &Limits::depth(3));
    assert_eq!(r.mate_in(), Some(1));
    let r = e.search(&mut board(&LOST), &Limits::depth(3));
    assert_eq!(r.mate_in(), Some(-1));
}

/// Two threads, sharing out each iteration's root moves (and from depth 3 the nodes of the
/// first root move's line), find what one thread finds at a
/// fixed depth (the root's threat-space search off, so that the iterations must see it): the
/// fixture's wins now and wins in two, mate scores of the same length; and where the side to
/// move faces threats, a move after which the opponent has no win in one turn (a block), as
/// one thread's move is, and the same verdict when no block saves the game.
#[test]
fn two_threads_find_the_forced_wins_and_blocks_one_thread_finds() {
    let positions = common::load("tests/fixtures/connect6-tactics-own.jsonl");
    let settings =
        |threads| EngineSettings { tt_mib: 2, vcdt_depth: 0, search_threads: threads, ..EngineSettings::default() };
    let mut one = Engine::<Connect6>::new(settings(1), &weights(Rules::CONNECT6));
    let mut two = Engine::<Connect6>::new(settings(2), &weights(Rules::CONNECT6));
    let mut opponent = Engine::<Connect6>::new(settings(1), &weights(Rules::CONNECT6));
    let mut blocks = 0;
    for p in positions
        .iter()
        .filter(|p| p.kind == "win")
        .take(6)
        .chain(positions.iter().filter(|p| p.kind == "vcdt").take(6))
    {
        let b = board_from_record_moves(Rules::CONNECT6, &p.moves).unwrap();
        for depth in [3, 4, 5] {
            let (r1, r2) =
                (one.search(&mut b.clone(), &Limits::depth(depth)), two.search(&mut b.clone(), &Limits::depth(depth)));
            assert!(
                r1.mate_in().is_some_and(|n| n > 0),
                "{} {:?} depth {depth}: one thread {}",
                p.kind,
                p.moves,
                r1.score
            );
            assert_eq!(r2.mate_in(), r1.mate_in(), "{} {:?} depth {depth}", p.kind, p.moves);
            check_answer(&b, &r2, "two threads");
        }
    }
    for p in positions.iter().filter(|p| p.kind == "defend").take(12) {
        let b = board_from_record_moves(Rules::CONNECT6, &p.moves).unwrap();
        // Whether the opponent wins at once after the move: a depth-1 search sees it.
        let mut wins_after = |m: Move| {
            let mut after = b.clone();
            make_move(&mut after, m);
            after.winner().is_none() && opponent.search(&mut after, &Limits::depth(1)).mate_in() == Some(1)
        };
        for depth in [3, 4, 5] {
            let (r1, r2) =
                (one.search(&mut b.clone(), &Limits::depth(depth)), two.search(&mut b.clone(), &Limits::depth(depth)));
            check_answer(&b, &r2, "two threads");
            let (lost1, lost2) = (wins_after(r1.best), wins_after(r2.best));
            assert_eq!(
                lost2, lost1,
                "{:?} depth {depth}: one thread {:?} {}, two {:?} {}",
                p.moves, r1.best, r1.score, r2.best, r2.score
            );
            if r1.mate_in().is_some_and(|n| n < 0) {
                assert_eq!(r2.mate_in(), r1.mate_in(), "{:?} depth {depth}: a lost position", p.moves);
            } else {
                assert!(!lost2, "{:?} depth {depth}: two threads' {:?} does not block", p.moves, r2.best);
                blocks += 1;
            }
        }
    }
    assert!(blocks >= 18, "only {blocks} searches had a block to find");
}

/// Under a time plan (`later_time_share`), a game's first search has the whole fixed time
/// and every later one only its share, until the next game. The clock counts positions
/// (`clock_nps`), so the times are exact: 1,024 positions (10 ms at 100,000 a second) are
/// the most a search runs past its deadline before it looks at the clock.
#[test]
fn a_time_plan_gives_a_games_first_move_the_whole_time() {
    let settings =
        |share| EngineSettings { clock_nps: 100_000, later_time_share: share, tt_mib: 4, ..EngineSettings::default() };
    let limits = Limits::time_ms(300);
    let position = board(&["l12", "k10j11", "m11m12"]);
    let ms = |e: &mut Engine<Connect6>| e.search(&mut position.clone(), &limits).elapsed.as_millis();
    let mut planned = Engine::<Connect6>::new(settings(0.25), &weights(Rules::CONNECT6));
    planned.new_game(1);
    let (first, later) = (ms(&mut planned), ms(&mut planned));
    planned.new_game(2);
    let next_game = ms(&mut planned);
    assert!(first > 200 && first <= 310, "the first move has the whole time: {first} ms");
    assert!(later > 40 && later <= 85, "a later move has a quarter of it: {later} ms");
    assert!(next_game > 200, "a new game's first move has the whole time again: {next_game} ms");
    let mut plain = Engine::<Connect6>::new(settings(1.0), &weights(Rules::CONNECT6));
    plain.new_game(1);
    let (first, later) = (ms(&mut plain), ms(&mut plain));
    assert!(first > 200 && later > 200, "without a plan every move has the whole time: {first}, {later} ms");
}
