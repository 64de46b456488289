use super::*;
use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::games::connect::eval::CONNECT6_ROADS;
use crate::games::connect::notation::board_from_record_moves;
use crate::games::connect::{Colour, Connect6, Rules};

fn player(name: &str, depth: u32) -> Player {
    let w = CONNECT6_ROADS.defaults();
    Player::new(name, w, EngineSettings { tt_mib: 1, ..EngineSettings::default() }, Limits::depth(depth))
}

#[test]
fn a_player_out_of_time_loses_and_a_clock_with_time_left_changes_nothing() {
    let opening: Vec<String> = ["j10", "k11k9", "h8l12"].iter().map(|s| s.to_string()).collect();
    // No time at all: the first search that takes a millisecond (the search looks at the
    // clock only every 1024 nodes; a forced answer can take less) loses on time.
    let none = GameSettings { clock: Some(TimeControl { base_ms: 0, increment_ms: 0 }), ..GameSettings::default() };
    let r = play_game::<Connect6>(&player("a", 60), &player("b", 60), &opening, &none, 1);
    let played = r.moves.len() - 1;
    let loser_is_black = played.is_multiple_of(2);
    let winner = if loser_is_black { Outcome::Second } else { Outcome::First };
    assert_eq!((r.result, &r.reason), (winner, &Reason::Timeout), "{:?}", r.moves);
    assert!(r.moves.last().unwrap().starts_with("# out of time"), "{:?}", r.moves);
    assert_eq!(r.first_engine.as_deref(), Some("pvs roads depth 60, tc 0+0"));
    // An hour a side at fixed depth: the same game as without a clock.
    let hour = GameSettings { clock: "3600+0".parse().ok(), ..GameSettings::default() };
    let (a, b) = (player("a", 1), player("b", 2));
    let timed = play_game::<Connect6>(&a, &b, &opening, &hour, 1);
    let untimed = play_game::<Connect6>(&a, &b, &opening, &GameSettings::default(), 1);
    assert_eq!((timed.moves, timed.reason), (untimed.moves, untimed.reason));
}

#[test]
fn a_game_is_legal_finished_and_deterministic() {
    let (a, b) = (player("a", 1), player("b", 2));
    let opening: Vec<String> = ["j10", "k11k9", "h8l12"].iter().map(|s| s.to_string()).collect();
    let settings = GameSettings::default();
    let r1 = play_game::<Connect6>(&a, &b, &opening, &settings, 1);
    let r2 = play_game::<Connect6>(&a, &b, &opening, &settings, 1);
    assert_eq!(r1.moves, r2.moves);
    assert_eq!((r1.result, &r1.reason), (r2.result, &r2.reason));
    let board = board_from_record_moves(Rules::CONNECT6, &r1.moves).expect("the record replays");
    let side = |c: Colour| if c == Colour::Black { Side::First } else { Side::Second };
    match &r1.reason {
        Reason::Rule(w) if w == "six" => assert_eq!(Some(r1.result), board.winner().map(|c| Outcome::win_of(side(c)))),
        Reason::Movecap => assert!(r1.moves.len() >= settings.max_turns),
        other => panic!("unexpected end {other:?}"),
    }
    assert_eq!(r1.opening_moves, 3);
    assert_eq!(&r1.moves[..3], &opening[..]);
}

#[test]
fn resign_needs_both_searches_to_agree_turn_after_turn() {
    use Side::{First, Second};
    let mut w = ResignWatch::default();
    // The first player's search thinks it is lost, the second's agrees: one turn each.
    for (mover, score) in [(First, -500), (Second, 600), (First, -700)] {
        w.saw(mover, Some(score), 400);
    }
    assert_eq!((w.verdict(2), w.verdict(1)), (None, Some(First)));
    w.saw(Second, Some(450), 400);
    assert_eq!(w.verdict(2), Some(First));
    // A search that disagrees, or has no score (an outside engine), starts over.
    w.saw(First, Some(-100), 400);
    assert_eq!(w.verdict(1), None);
    for s in [Some(-500), None] {
        w.saw(Second, Some(500), 400);
        w.saw(First, s, 400);
    }
    assert_eq!(w.verdict(1), None);
    assert_eq!(ResignWatch { loser: Some(First), searches: 9 }.verdict(0), None, "0 turns: never");
}

#[test]
fn a_resigned_game_is_the_game_cut_short() {
    let (a, b) = (player("a", 2), player("b", 1));
    let opening: Vec<String> = ["j10", "k11k9", "h8l12"].iter().map(|s| s.to_string()).collect();
    let full = play_game::<Connect6>(&a, &b, &opening, &GameSettings::default(), 1);
    let quick = GameSettings { resign_turns: 1, resign_score: Some(1), ..GameSettings::default() };
    let r = play_game::<Connect6>(&a, &b, &opening, &quick, 1);
    assert_eq!(r.reason, Reason::Resign, "{:?}", r.moves);
    assert!(r.moves.last().unwrap().starts_with("# both searches judged"), "{:?}", r.moves);
    let played = &r.moves[..r.moves.len() - 1];
    assert!(played.len() < full.moves.len() && full.moves.starts_with(played));
    assert_ne!(r.result, Outcome::Draw);
}

#[test]
fn the_move_cap_draws() {
    let (a, b) = (player("a", 1), player("b", 1));
    let r = play_game::<Connect6>(
        &a,
        &b,
        &["j10".to_string()],
        &GameSettings { max_turns: 4, ..GameSettings::default() },
        0,
    );
    assert_eq!((r.result, r.reason, r.moves.len()), (Outcome::Draw, Reason::Movecap, 4));
}
