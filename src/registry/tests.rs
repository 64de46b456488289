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

/// "A game is one folder and one line" (docs/architecture.md, "Add a game"): outside the game
/// folders, the registry and the papers' reproductions (each about one game), no production
/// code names a game, so a new game is added without an edit anywhere else. The one file left
/// is the referee's side of the protocols made for one game (Connect6's and Gomoku's own;
/// the line protocol serves any other game). Test code (`tests.rs`, a file's `mod tests`) is
/// not counted.
#[test]
fn no_code_outside_the_game_folders_names_a_game() {
    const OWN_ROOMS: [&str; 3] = ["src/games/", "src/registry/", "src/reproduce/"];
    const PROTOCOLS: &str = "src/arena/outside/protocol.rs";
    fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    let quoted: Vec<String> = names().iter().map(|n| format!("\"{n}\"")).collect();
    let mut found = Vec::new();
    let mut protocol_names = 0;
    for path in files {
        let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        if OWN_ROOMS.iter().any(|r| rel.starts_with(r)) || rel.ends_with("/tests.rs") || rel.contains("/tests/") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // A file's tests: `#[cfg(test)]` and `mod tests` after it, to the end.
        let tests = (0..lines.len())
            .find(|&i| {
                lines[i].trim() == "#[cfg(test)]" && lines.get(i + 1).is_some_and(|l| l.starts_with("mod tests"))
            })
            .unwrap_or(lines.len());
        for (i, line) in lines[..tests].iter().enumerate() {
            let code = line.split("//").next().unwrap();
            if quoted.iter().any(|q| code.contains(q.as_str())) {
                if rel == PROTOCOLS {
                    protocol_names += 1;
                } else {
                    found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "code outside the game folders names a game:\n{}", found.join("\n"));
    assert!(protocol_names > 0, "{PROTOCOLS} names the games of Connect6's and Gomoku's own protocols");
}

/// A record is replayed before it is trusted: its result must be what its moves make.
#[test]
fn a_record_whose_result_its_moves_do_not_make_is_refused() {
    use crate::arena::game::GameSettings;
    use crate::arena::records::{Outcome, Reason};
    let game = find("connect6").unwrap();
    let weights = game.default_evaluation().schema.defaults();
    let player = |name: &str| {
        Player::new(name, weights.clone(), EngineSettings { tt_mib: 1, ..Default::default() }, Limits::depth(1))
    };
    let opening: Vec<String> = ["j10", "k11k9", "h8l12"].iter().map(|s| s.to_string()).collect();
    let settings = GameSettings { max_turns: 0, ..GameSettings::default() };
    let real = game.play_game(&player("a"), &player("b"), &opening, &settings, 1);
    assert_eq!(real.reason.as_str(), "six", "{real:?}");
    let arena = game.arena();
    assert_eq!(arena.check_record(&real), Ok(()));
    let mut flipped = real.clone();
    flipped.result = if real.result == Outcome::First { Outcome::Second } else { Outcome::First };
    let e = arena.check_record(&flipped).unwrap_err();
    assert!(e.contains("its moves leave the game won by the") && e.contains("(six)"), "{e}");
    let mut short = real.clone();
    short.moves.truncate(4);
    let e = arena.check_record(&short).unwrap_err();
    assert!(e.contains("undecided, but the record says won by the"), "{e}");
    let mut after = real.clone();
    after.moves.push("a1a2".into());
    assert!(arena.check_record(&after).unwrap_err().contains("comes after the end of the game"));
    let mut illegal = real.clone();
    illegal.moves[3] = illegal.moves[2].clone();
    assert!(arena.check_record(&illegal).unwrap_err().starts_with("move 4 `"));
    // Cut short by the move cap: undecided, no winner. Lost on time: a winner.
    short.reason = Reason::Movecap;
    short.result = Outcome::Draw;
    assert_eq!(arena.check_record(&short), Ok(()));
    short.result = Outcome::First;
    assert!(arena.check_record(&short).is_err());
    short.reason = Reason::Timeout;
    assert_eq!(arena.check_record(&short), Ok(()));
    short.result = Outcome::Draw;
    assert!(arena.check_record(&short).is_err());
}
