//! Formats other programs read: SGF (checked with an independent SGF parser, sgf-parse),
//! Piskvork .psq, and the command line's own descriptions (--version, completions, man page,
//! grouped --help).

mod common;
use common::cli::{fails, ok};

use sgf_parse::{go, unknown_game, GameTree};

/// A record move (`j10k11`: column letter, row number from 1 at the bottom) as (column,
/// row from the top) on a board of `h` rows, read here independently of evotune's notation.
fn stones(text: &str, h: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let x = (b[i] - b'a') as usize;
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let row: usize = text[start..i].parse().unwrap();
        out.push((x, h - row));
    }
    out
}

fn records(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The moves of a record with the side that made each stone (`B` / `W`), from the record's
/// turn order: Connect6 gives Black one stone, then two a side; Gomoku one a side.
fn expected_nodes(record: &serde_json::Value, h: usize, stones_per_turn: usize) -> Vec<(char, (usize, usize))> {
    let mut out = Vec::new();
    let moves: Vec<&str> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .filter(|m| !m.starts_with('#'))
        .collect();
    for (turn, m) in moves.iter().enumerate() {
        let colour = if turn % 2 == 0 { 'B' } else { 'W' };
        let s = stones(m, h);
        assert!(turn == 0 || s.len() <= stones_per_turn);
        out.extend(s.into_iter().map(|p| (colour, p)));
    }
    out
}

fn result_prefix(record: &serde_json::Value) -> &'static str {
    match record["result"].as_str().unwrap() {
        "first" => "B+",
        "second" => "W+",
        _ => "0",
    }
}

#[test]
fn connect6_sgf_loads_in_an_sgf_parser_with_the_games_stones() {
    let dir = tempfile::tempdir().unwrap();
    let d = |f: &str| dir.path().join(f);
    ok(&[
        "match",
        "--a",
        "defaults",
        "--b",
        "random:2",
        "--pairs",
        "2",
        "--depth",
        "1",
        "--records",
        d("g.jsonl").to_str().unwrap(),
        "--sgf",
        d("g.sgf").to_str().unwrap(),
    ]);
    let records = records(&d("g.jsonl"));
    let text = std::fs::read_to_string(d("g.sgf")).unwrap();
    let trees = sgf_parse::parse(&text).unwrap();
    assert_eq!(trees.len(), records.len());
    for (tree, record) in trees.iter().zip(&records) {
        let GameTree::GoGame(root) = tree else { panic!("Connect6 is written with Go's GM[1]: {text}") };
        root.validate().unwrap();
        assert_eq!(root.get_property("GM"), Some(&go::Prop::GM(1)));
        assert_eq!(root.get_property("SZ"), Some(&go::Prop::SZ((19, 19))));
        let text_of = |id: &str| match root.get_property(id) {
            Some(go::Prop::PB(t) | go::Prop::PW(t) | go::Prop::RE(t) | go::Prop::RU(t)) => t.text.clone(),
            other => panic!("{id}: {other:?}"),
        };
        assert_eq!(text_of("RU"), "Connect6");
        assert_eq!(text_of("PB"), record["first"].as_str().unwrap());
        assert_eq!(text_of("PW"), record["second"].as_str().unwrap());
        assert!(text_of("RE").starts_with(result_prefix(record)), "{} for {record}", text_of("RE"));
        let nodes: Vec<(char, (usize, usize))> = root
            .main_variation()
            .filter_map(|n| match n.get_move() {
                Some(go::Prop::B(go::Move::Move(p))) => Some(('B', (p.x as usize, p.y as usize))),
                Some(go::Prop::W(go::Move::Move(p))) => Some(('W', (p.x as usize, p.y as usize))),
                None => None,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(nodes, expected_nodes(record, 19, 2));
    }
}

#[test]
fn gomoku_sgf_is_game_four_and_psq_files_hold_the_same_stones() {
    let dir = tempfile::tempdir().unwrap();
    let d = |f: &str| dir.path().join(f);
    ok(&[
        "match",
        "--game",
        "gomoku",
        "--a",
        "defaults",
        "--b",
        "random:2",
        "--pairs",
        "2",
        "--depth",
        "1",
        "--records",
        d("g.jsonl").to_str().unwrap(),
        "--sgf",
        d("g.sgf").to_str().unwrap(),
        "--psq",
        d("psq").to_str().unwrap(),
    ]);
    let records = records(&d("g.jsonl"));
    let trees = sgf_parse::parse(&std::fs::read_to_string(d("g.sgf")).unwrap()).unwrap();
    assert_eq!(trees.len(), records.len());
    for (k, (tree, record)) in trees.iter().zip(&records).enumerate() {
        let GameTree::Unknown(root) = tree else { panic!("Gomoku is GM[4], not Go") };
        root.validate().unwrap();
        assert_eq!(root.get_property("GM"), Some(&unknown_game::Prop::GM(4)));
        assert_eq!(root.get_property("SZ"), Some(&unknown_game::Prop::SZ((15, 15))));
        match root.get_property("RE") {
            Some(unknown_game::Prop::RE(t)) => assert!(t.text.starts_with(result_prefix(record))),
            other => panic!("{other:?}"),
        }
        let point = |p: &str| {
            let b = p.as_bytes();
            ((b[0] - b'a') as usize, (b[1] - b'a') as usize)
        };
        let nodes: Vec<(char, (usize, usize))> = root
            .main_variation()
            .filter_map(|n| match n.get_move() {
                Some(unknown_game::Prop::B(p)) => Some(('B', point(p))),
                Some(unknown_game::Prop::W(p)) => Some(('W', point(p))),
                _ => None,
            })
            .collect();
        let expected = expected_nodes(record, 15, 1);
        assert_eq!(nodes, expected);
        // The .psq file of the same game: header, x,y,ms from 1 at the top left, the names, -1.
        let psq = std::fs::read_to_string(d("psq").join(format!("{:06}.psq", k + 1))).unwrap();
        let lines: Vec<&str> = psq.lines().collect();
        assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
        let cells: Vec<(usize, usize)> = lines[1..=expected.len()]
            .iter()
            .map(|l| {
                let v: Vec<usize> = l.split(',').map(|x| x.parse().unwrap()).collect();
                (v[0] - 1, v[1] - 1)
            })
            .collect();
        assert_eq!(cells, expected.iter().map(|e| e.1).collect::<Vec<_>>());
        assert_eq!(
            &lines[expected.len() + 1..],
            [record["first"].as_str().unwrap(), record["second"].as_str().unwrap(), "-1"]
        );
    }
}

#[test]
fn tournament_writes_sgf_and_games_that_move_pieces_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let sgf = dir.path().join("t.sgf");
    ok(&[
        "tournament",
        "defaults",
        "random:1",
        "random:2",
        "--pairs",
        "1",
        "--depth",
        "1",
        "--sgf",
        sgf.to_str().unwrap(),
    ]);
    let trees = sgf_parse::parse(&std::fs::read_to_string(&sgf).unwrap()).unwrap();
    assert_eq!(trees.len(), 6);
    let e =
        fails(&["match", "--game", "surakarta", "--a", "defaults", "--b", "defaults", "--sgf", sgf.to_str().unwrap()]);
    assert!(e.contains("surakarta") && e.contains("SGF"), "{e}");
    let e = fails(&["match", "--a", "defaults", "--b", "defaults", "--psq", dir.path().to_str().unwrap()]);
    assert!(e.contains(".psq") && e.contains("Gomoku"), "{e}");
}

#[test]
fn version_names_the_commit_and_completions_and_man_page_cover_the_commands() {
    let (v, _) = ok(&["--version"]);
    let commit = v
        .trim()
        .strip_prefix(&format!("evotune {} (commit ", env!("CARGO_PKG_VERSION")))
        .unwrap_or_else(|| panic!("{v}"));
    let commit = commit.strip_suffix(')').unwrap();
    assert!(commit == "unknown" || (commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit())), "{v}");
    for shell in ["bash", "zsh", "fish"] {
        let (script, _) = ok(&["completions", shell]);
        assert!(
            script.contains("evotune") && script.contains("tournament") && script.contains("opening-seed"),
            "{shell}"
        );
    }
    let (man, _) = ok(&["man"]);
    assert!(man.contains(".TH evotune 1") && man.contains("tournament"), "{man}");
    let dir = tempfile::tempdir().unwrap();
    ok(&["man", "--out", dir.path().to_str().unwrap()]);
    assert!(std::fs::read_to_string(dir.path().join("evotune-match.1")).unwrap().contains("\\-\\-pairs"));
}

/// `match --help` is grouped, each group under its heading in this order.
#[test]
fn match_help_is_grouped() {
    let (help, _) = ok(&["match", "--help"]);
    let headings: Vec<&str> = help.lines().filter(|l| !l.starts_with(' ') && l.ends_with(':')).collect();
    assert_eq!(
        headings,
        [
            "Options:",
            "Players:",
            "Engine of both players:",
            "Limits:",
            "Player A or B alone (overrides the above):",
            "Outside engines:",
            "Openings:",
            "Adjudication:",
            "Run:",
            "Output:",
            "SPRT:"
        ],
        "{help}"
    );
    // The lines under a heading, up to the next heading.
    let section = |name: &str| {
        let lines: Vec<&str> = help.lines().collect();
        let start = lines.iter().position(|l| *l == format!("{name}:")).unwrap() + 1;
        let len =
            lines[start..].iter().position(|l| !l.starts_with(' ') && l.ends_with(':')).unwrap_or(lines.len() - start);
        lines[start..start + len].join("\n")
    };
    assert!(section("Limits").contains("--depth") && section("Limits").contains("--tc"));
    assert!(section("Players").contains("--a <A>"));
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not one JSON document ({e}): {text}"))
}

/// `--json` prints one document on stdout, the numbers the text gives.
#[test]
fn match_tournament_and_bench_print_json_for_scripts() {
    let (out, err) = ok(&[
        "match", "--a", "defaults", "--b", "random:2", "--pairs", "2", "--depth", "1", "--sprt", "0,10", "--json",
    ]);
    let m = json(&out);
    assert_eq!(m["kind"], "match");
    assert!(m["version"].as_str().unwrap().contains("commit"));
    assert_eq!(m["games"], 4);
    let r = &m["result"];
    assert_eq!(r["wins"].as_u64().unwrap() + r["draws"].as_u64().unwrap() + r["losses"].as_u64().unwrap(), 4);
    assert_eq!(m["pentanomial"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum::<u64>(), 2);
    assert!(m["sprt"]["llr"].is_number() && m["sprt"]["elo1"] == 10.0, "{m}");
    assert!(err.contains("4 games, W "), "the text goes to stderr: {err}");

    let (out, _) = ok(&["tournament", "defaults", "random:1", "random:2", "--pairs", "1", "--depth", "1", "--json"]);
    let t = json(&out);
    assert_eq!(t["kind"], "tournament");
    assert_eq!(t["games"], 6);
    assert_eq!(t["standings"].as_array().unwrap().len(), 3);
    assert_eq!(t["pairings"].as_array().unwrap().len(), 3);
    assert_eq!(t["standings"][0]["rank"], 1);

    let (text, _) = ok(&["bench", "--depth", "2"]);
    let (out, _) = ok(&["bench", "--depth", "2", "--json"]);
    let b = json(&out);
    assert_eq!(b["kind"], "bench");
    let signature = text.lines().last().unwrap().split_whitespace().nth(2).unwrap().parse::<u64>().unwrap();
    assert_eq!(b["nodes"].as_u64().unwrap(), signature);
    assert_eq!(b["positions"].as_array().unwrap().iter().map(|p| p["nodes"].as_u64().unwrap()).sum::<u64>(), signature);
}

#[test]
fn evolve_prints_its_summary_as_json_and_writes_it_beside_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let config = common::runs::tiny_config(dir.path(), 1);
    let out = common::runs::evotune(&[
        "evolve",
        "--config",
        common::cli::s(&config),
        "--out",
        common::cli::s(dir.path()),
        "--log",
        "--json",
    ]);
    let doc = json(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(doc["kind"], "evolve");
    assert_eq!(doc["run"], "tiny");
    assert!(doc["champion"]["path"].as_str().unwrap().ends_with("champion.toml"));
    assert!(doc["champion"]["weights"].as_object().unwrap().len() > 3);
    let v = &doc["validation"][0];
    assert_eq!(v["opponent"], "defaults");
    assert_eq!(v["games"], 8);
    // The tiny run's one-turn validation openings are written by `evotune openings` first.
    let replay = v["replay"].as_str().unwrap();
    assert!(replay.starts_with("evotune openings ") && replay.contains(" && evotune match "), "{replay}");
    let file = std::fs::read_to_string(dir.path().join("results/tiny/summary.json")).unwrap();
    assert_eq!(json(&file), doc);
}
