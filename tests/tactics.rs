//! Tactical positions with rule-judged answers (`tests/fixtures/*.jsonl`, see
//! `tests/fixtures/README.md`): win now, block every threat, win in two turns.

mod common;

use common::{colour_of_letter, judge, load};
use evotune::core::limits::Limits;
use evotune::core::settings::{EngineSettings, SearchKind};
use evotune::games::connect::eval::CONNECT6_ROADS;
use evotune::games::connect::make_move;
use evotune::games::connect::notation::board_from_record_moves;
use evotune::games::connect::Connect6;
use evotune::games::connect::Rules;
use evotune::search::Engine;

fn check_file(path: &str, config: EngineSettings, limits: Limits) {
    let weights = CONNECT6_ROADS.defaults();
    let mut engine = Engine::<Connect6>::new(config, &weights);
    let mut failures = Vec::new();
    let positions = load(path);
    assert!(!positions.is_empty());
    for (i, p) in positions.iter().enumerate() {
        let mut board = board_from_record_moves(Rules::CONNECT6, &p.moves).expect("fixture is legal");
        let mover = colour_of_letter(&p.mover);
        assert_eq!(board.to_move(), mover, "{path}:{}: mover", i + 1);
        engine.new_game(0);
        let r = engine.search(&mut board, &limits);
        make_move(&mut board, r.best);
        if let Err(why) = judge(&p.kind, mover, &board) {
            failures.push(format!("{path}:{} {} {:?}: {why}", i + 1, p.kind, r.best));
        }
    }
    assert!(failures.is_empty(), "{} of {} failed:\n{}", failures.len(), positions.len(), failures.join("\n"));
}

#[test]
fn shared_sample_positions_pvs() {
    check_file("tests/fixtures/connect6-tactics.jsonl", EngineSettings::default(), Limits::depth(2));
}

#[test]
fn shared_sample_positions_alphabeta() {
    let config = EngineSettings { search: SearchKind::Alphabeta, ..EngineSettings::default() };
    check_file("tests/fixtures/connect6-tactics.jsonl", config, Limits::depth(2));
}

#[test]
fn shared_sample_positions_mcts() {
    let config = EngineSettings { search: SearchKind::Mcts, ..EngineSettings::default() };
    check_file("tests/fixtures/connect6-tactics.jsonl", config, Limits::nodes(2000));
}
