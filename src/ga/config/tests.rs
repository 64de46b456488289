//! Configs load, and every bad value is an error that names its key.

use super::*;

/// Connect6's quick config, whose keys the tests edit.
const QUICK_TOML: &str = include_str!("../../../configs/quick.toml");

#[test]
fn shipped_configs_are_valid() {
    let quick = EvolveConfig::quick();
    assert_eq!(quick.name, "quick");
    for f in [
        "configs/quick.toml",
        "configs/quick-random.toml",
        "configs/li2007.toml",
        "configs/overnight.toml",
        "configs/gomoku-quick.toml",
        "configs/surakarta-quick.toml",
        "configs/einstein-quick.toml",
        "configs/einstein-mcts.toml",
    ] {
        EvolveConfig::load(Path::new(f)).unwrap_or_else(|e| panic!("{e:#}"));
    }
    for &game in crate::registry::GAMES {
        let c = EvolveConfig::quick_for(game).unwrap_or_else(|e| panic!("{}: {e:#}", game.name()));
        assert_eq!(c.game, game.name());
    }
    let li = EvolveConfig::load(Path::new("configs/li2007.toml")).unwrap();
    assert_eq!((li.population, li.groups, li.generations), (20, 5, 300));
    // The paper's chromosome: the transitions' stepValues, the move order held.
    assert_eq!(li.eval, "transitions");
    assert_eq!(li.init.hold.len(), 10);
    // The paper's Pm1 0.1 and Pm2 0.001 a gene, spread over a gene's bits.
    assert_eq!((li.rates.pc1, li.rates.pc2, li.rates.pm1, li.rates.pm2), (0.9, 0.6, 0.008, 0.0001));
    // The paper's count: 5 groups of 4 play 30 pairings.
    assert_eq!(li.games_per_generation(0), 2 * li.pairs * 30);
}

fn err(edit: &str) -> String {
    let text = format!("{QUICK_TOML}\n{edit}\n");
    format!("{:#}", EvolveConfig::parse(&text, "c.toml").unwrap_err())
}

#[test]
fn bad_configs_name_the_key() {
    let e = format!("{:#}", EvolveConfig::parse(&QUICK_TOML.replace("population", "populaton"), "c.toml").unwrap_err());
    assert!(e.contains("c.toml") && e.contains("populaton"), "{e}");
    let e = format!(
        "{:#}",
        EvolveConfig::parse(&QUICK_TOML.replace("eval = \"roads\"", "eval = \"magic\""), "c.toml").unwrap_err()
    );
    assert!(e.contains("magic") && e.contains("roads") && e.contains("patterns"), "{e}");
    let e =
        format!("{:#}", EvolveConfig::parse(&QUICK_TOML.replace("pairs = 6  ", "pairs = 0  "), "c.toml").unwrap_err());
    assert!(e.contains("[hall_of_fame] pairs = 0"), "{e}");
    let e = err("[extra]\nx = 1");
    assert!(e.contains("extra"), "{e}");
    let e = format!(
        "{:#}",
        EvolveConfig::parse(&QUICK_TOML.replace("generations = ", "generations = 0 #"), "c.toml").unwrap_err()
    );
    assert!(e.contains("generations = 0"), "{e}");
}

#[test]
fn games_per_generation_handles_uneven_groups() {
    let mut c = EvolveConfig::quick();
    c.population = 10;
    c.groups = 3; // groups of 4, 3, 3: 6 + 3 + 3 pairings
    c.pairs = 1;
    c.hall_of_fame.pairs = 1;
    c.hall_of_fame.opponents = 0;
    c.hall_of_fame.anchors.clear();
    assert_eq!(c.games_per_generation(0), 24);
    c.hall_of_fame.opponents = 2;
    assert_eq!(c.games_per_generation(5), 24 + 2 * 10 * 2);
    assert_eq!(c.games_per_generation(1), 24 + 2 * 10);
    c.hall_of_fame.anchors = vec!["defaults".into()];
    assert_eq!(c.games_per_generation(1), 24 + 2 * 10 * 2);
}

/// The settings the issue found accepted (and panicking or never ending later): each is an
/// error naming the key and its range, as the command line's options are.
#[test]
fn out_of_range_keys_are_refused_like_the_command_line() {
    for (edit, want) in [
        ("[engine]\ndepth = 61", "[engine] depth = 61: between 1 and 60"),
        ("[engine]\nnodes = 10000000000000", "[engine] nodes"),
        ("[engine]\ntime_ms = 999999999", "[engine] time_ms"),
        ("[engine]\ntt_mib = 100000", "[engine] tt_mib = 100000: between 1 and 4096"),
        ("[engine]\nwidth = 100000", "[engine] width"),
        ("[openings]\nradius = 10", "[openings] radius = 10: between 1 and 9"),
        ("[openings]\nradius = 1000000000000", "[openings] radius"),
        ("[openings]\nradius = 0", "[openings] radius = 0"),
        ("[openings]\nturns = 400", "[openings] turns = 400"),
        ("[openings]\ncount = 100000000", "[openings] count"),
        ("[openings]\nbalance = -5", "[openings] balance"),
        ("[hall_of_fame]\npairs = 1000000", "[hall_of_fame] pairs"),
        ("[output]\nkeep_last = 0", "[output] keep_last = 0"),
        ("[init]\nhold = [\"own1\", \"prune\"]", "[init] hold: no weight \"prune\" in connect6's roads table"),
    ] {
        let (section, line) = edit.split_once('\n').unwrap();
        let text = replace_key(QUICK_TOML, section, line);
        let e = format!("{:#}", EvolveConfig::parse(&text, "c.toml").unwrap_err());
        assert!(e.contains("c.toml") && e.contains(want), "{edit}: {e}");
        assert!(e.starts_with(&format!("c.toml:{}: ", line_of(&text, line))), "{edit}: {e}");
    }
    for (line, want) in [
        ("pairs = 100000", "pairs = 100000: between 1 and 1000"),
        ("population = 100000", "population = 100000"),
        ("seed = -1", "seed = -1"),
    ] {
        let text = replace_key(QUICK_TOML, "", line);
        let e = format!("{:#}", EvolveConfig::parse(&text, "c.toml").unwrap_err());
        assert!(e.contains(want), "{line}: {e}");
        assert!(e.starts_with(&format!("c.toml:{}: ", line_of(&text, line))), "{line}: {e}");
    }
    // A seed from the command line that TOML (and so a checkpoint) cannot hold.
    let mut c = EvolveConfig::quick();
    c.seed = u64::MAX;
    assert!(format!("{:#}", c.validate().unwrap_err()).contains("seed"));
    // Too many games a generation, from keys that are each in range.
    let mut c = EvolveConfig::quick();
    (c.population, c.groups, c.pairs) = (1000, 1, 10);
    let e = format!("{:#}", c.validate().unwrap_err());
    assert!(e.contains("population = 1000") && e.contains("groups = 1"), "{e}");
}

#[test]
fn type_errors_name_file_line_and_key() {
    let text = replace_key(QUICK_TOML, "[engine]", "depth = \"deep\"");
    let line = text.lines().position(|l| l.starts_with("depth = \"deep\"")).unwrap() + 1;
    let e = format!("{:#}", EvolveConfig::parse(&text, "c.toml").unwrap_err());
    assert!(e.starts_with(&format!("c.toml:{line}: [engine] depth = \"deep\": ")), "{e}");
    assert!(!e.contains('\n'), "one line: {e}");
}

/// `text` with the key of `line` (`key = value`) set in `section` ("" for the top level).
/// The line (from 1) of `text` that is `line`.
fn line_of(text: &str, line: &str) -> usize {
    text.lines().position(|l| l.trim() == line.trim()).unwrap_or_else(|| panic!("no `{line}` in {text}")) + 1
}

fn replace_key(text: &str, section: &str, line: &str) -> String {
    let mut table: toml::Table = text.parse().unwrap();
    let new: toml::Table = line.parse().unwrap();
    let target = if section.is_empty() {
        &mut table
    } else {
        let name = section.trim_matches(|c| c == '[' || c == ']');
        table.get_mut(name).and_then(toml::Value::as_table_mut).unwrap()
    };
    target.extend(new);
    toml::to_string(&table).unwrap()
}

/// Every (section, key) of the shipped quick config, top-level keys with section "".
fn known_keys() -> Vec<(String, String)> {
    let table: toml::Table = QUICK_TOML.parse().unwrap();
    let mut keys = Vec::new();
    for (k, v) in &table {
        keys.push((String::new(), k.clone()));
        if let toml::Value::Table(t) = v {
            keys.extend(t.keys().map(|inner| (k.clone(), inner.clone())));
        }
    }
    // Keys the quick config leaves at their defaults.
    keys.extend([("engine", "nodes"), ("engine", "time_ms"), ("openings", "file")].map(|(s, k)| (s.into(), k.into())));
    keys
}

fn any_value() -> impl proptest::strategy::Strategy<Value = toml::Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        any::<i64>().prop_map(toml::Value::Integer),
        (-3i64..1100).prop_map(toml::Value::Integer),
        any::<f64>().prop_map(toml::Value::Float),
        (-0.5f64..1.5).prop_map(toml::Value::Float),
        any::<bool>().prop_map(toml::Value::Boolean),
        "[a-z_.-]{0,12}".prop_map(toml::Value::String),
        prop::sample::select(vec![
            "roads",
            "patterns",
            "transitions",
            "roads-global",
            "random",
            "played",
            "files",
            "defaults",
            "gaussian",
            "bitflip",
            "fixed",
            "srinivas",
            "pvs",
            "mcts",
            "alphabeta",
            "random:3",
            "quick",
        ])
        .prop_map(|s| toml::Value::String(s.into())),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(toml::Value::Array),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..3)
                .prop_map(|m| toml::Value::Table(m.into_iter().collect())),
        ]
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

    /// Any value of any type under any key, known or not: never a panic, and an error
    /// names the key (a config that passes is one the run can use).
    #[test]
    fn any_key_and_value_is_valid_or_an_error_naming_the_key(
        pick in proptest::prelude::any::<proptest::sample::Index>(),
        unknown in "[a-z_]{1,10}",
        use_unknown in proptest::prelude::any::<bool>(),
        value in any_value(),
    ) {
        let keys = known_keys();
        let (section, key) = if use_unknown {
            let (section, _) = &keys[pick.index(keys.len())];
            (section.clone(), unknown)
        } else {
            keys[pick.index(keys.len())].clone()
        };
        let mut table: toml::Table = QUICK_TOML.parse().unwrap();
        let target = if section.is_empty() {
            &mut table
        } else {
            table.get_mut(&section).and_then(toml::Value::as_table_mut).unwrap()
        };
        target.insert(key.clone(), value);
        let text = toml::to_string(&table).unwrap();
        match EvolveConfig::parse(&text, "c.toml") {
            Ok(c) => {
                // What the run does with a config must not panic either.
                let _ = c.to_toml();
                let _ = c.games_per_generation(c.hall_of_fame.opponents);
                let _ = c.openings_needed();
                proptest::prop_assert!(c.openings.generator().check(crate::registry::CONNECT6).is_ok());
            }
            Err(e) => {
                let e = format!("{e:#}");
                proptest::prop_assert!(e.contains("c.toml"), "{}", e);
                proptest::prop_assert!(e.contains(&key), "key `{}` not named: {}", key, e);
            }
        }
    }
}

/// Connect6's quick config with its `[engine]` depth replaced by `limit` (none if empty).
fn quick_limited_by(limit: &str) -> EvolveConfig {
    let mut table: toml::Table = QUICK_TOML.parse().unwrap();
    let engine = table.get_mut("engine").and_then(toml::Value::as_table_mut).unwrap();
    engine.remove("depth");
    engine.extend(limit.parse::<toml::Table>().unwrap());
    EvolveConfig::parse(&toml::to_string(&table).unwrap(), "limited.toml").unwrap()
}

/// A config that names only a node budget (or a time) searches by it alone: the depth 2 a
/// config gets when it names no limit must not cap it (it stopped a 30,000-node Gomoku run
/// at depth 2); a config that names no limit keeps depth 2.
#[test]
fn a_node_budget_alone_is_not_capped_at_the_default_depth() {
    let c = quick_limited_by("nodes = 30000");
    assert_eq!((c.engine.depth, c.engine.nodes), (None, Some(30000)));
    assert_eq!(quick_limited_by("time_ms = 50").engine.depth, None);
    assert_eq!(quick_limited_by("").engine.limits(), crate::core::limits::Limits::depth(2));
    assert_eq!(quick_limited_by("depth = 5").engine.depth, Some(5));
    let rapfi = EvolveConfig::load(Path::new("configs/versus-rapfi.toml")).unwrap();
    assert_eq!((rapfi.engine.depth, rapfi.engine.nodes), (None, Some(30000)));
}
