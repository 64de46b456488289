//! The registry is a list: every game in it resolves by its name, has what the tools need of
//! it, and nothing else has to be told about it (docs/architecture.md, "Add a game").

use super::*;
use crate::arena::player::Player;
use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::ga::config::EvolveConfig;

#[test]
fn every_game_is_listed_once_and_found_by_its_name() {
    let names = names();
    assert_eq!(GAMES[0].name(), DEFAULT_GAME, "the default game comes first");
    for (i, name) in names.iter().enumerate() {
        assert!(!names[..i].contains(name), "{name} is listed twice");
        assert_eq!(find(name).unwrap().name(), *name);
    }
    let e = find("chess").err().expect("no game chess").to_string();
    assert!(names.iter().all(|n| e.contains(n)), "{e}");
}

/// What a game's folder provides through its one registered value is enough for every tool:
/// its evaluations and their schemas, its quick config, its bench positions and openings.
#[test]
fn every_game_provides_what_the_tools_need() {
    for &game in GAMES {
        let name = game.name();
        let evaluations = game.evaluations();
        assert!(!evaluations.is_empty(), "{name}: no evaluation");
        for e in evaluations {
            assert_eq!(e.schema.game, name, "{name}: evaluation {} reads another game's table", e.name);
        }
        let config = EvolveConfig::quick_for(game).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert_eq!(config.game, name, "{name}: its quick config plays {}", config.game);
        assert!(game.quick_config().path.starts_with("configs/"), "{name}");
        let positions: Vec<Vec<String>> = game
            .bench_positions()
            .iter()
            .map(|p| crate::core::game::split_moves(p).into_iter().map(String::from).collect())
            .collect();
        assert!(!positions.is_empty(), "{name}: no bench positions");
        let schema = game.default_evaluation().schema;
        let player = Player::new("defaults", schema.defaults(), EngineSettings::default(), Limits::depth(1));
        for moves in &positions {
            game.evaluate_moves(&player, moves)
                .unwrap_or_else(|e| panic!("{name}: bench position `{}`: {e}", moves.join(" ")));
        }
        let suite = crate::arena::openings::OpeningSuite::generate(
            game.arena(),
            &crate::core::openings::OpeningConfig { count: 4, ..Default::default() },
            1,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(suite.len(), 4, "{name}");
    }
}
