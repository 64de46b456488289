//! `evotune compare`: two hand-written record files with known results, the printed numbers
//! checked against a computation by hand, and clean errors for files that cannot be compared.

use std::path::Path;

mod common;
use common::cli::{fails, ok, s};

/// A game of `first` against `second` from opening `index` (its first move is the
/// opening), with `result` `first`, `second` or `draw`.
fn game(first: &str, second: &str, index: usize, opening: &str, result: &str) -> String {
    serde_json::json!({
        "game": "connect6", "first": first, "second": second, "moves": [opening, "a1b1", "c1d1"],
        "result": result, "reason": if result == "draw" { "movecap" } else { "six" },
        "opening_moves": 1, "opening": index, "first_ms": 5, "second_ms": 7,
    })
    .to_string()
}

/// `player`'s games against cloudict: per opening, its index, its move, and the result of the
/// game `player` starts and of the game cloudict starts, from `player`'s side (`W`, `D`, `L`,
/// or `-` for no game): `"WL"`.
fn write_games(path: &Path, player: &str, openings: &[(usize, &str, &str)]) {
    let mut lines = Vec::new();
    for &(index, opening, results) in openings {
        for (c, player_first) in results.chars().zip([true, false]) {
            let result = match (c, player_first) {
                ('-', _) => continue,
                ('D', _) => "draw",
                ('W', true) | ('L', false) => "first",
                _ => "second",
            };
            let (first, second) = if player_first { (player, "cloudict") } else { ("cloudict", player) };
            lines.push(game(first, second, index, opening, result));
        }
    }
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// The openings of BASE (`hand`) and NEW (`tuned`): 0-4 in common, 5 with one game in NEW, 6
/// only in NEW, 7 only in BASE.
///
/// hand on 0-4: 1, 0, 1.5, 1, 0.5 points (4 of 10: 40.0%); as first W L D L L (1.5 of 5:
/// 30.0%), as second L L W W D (2.5 of 5: 50.0%); W-D-L 3-2-5.
/// tuned on 0-4: 2, 2, 1.5, 0.5, 1.5 points (7.5 of 10: 75.0%); as first W W W D D (80.0%),
/// as second W W D L W (70.0%); W-D-L 6-3-1.
const OPENINGS: [(usize, &str, &str, &str); 8] = [
    // index, move, hand, tuned
    (0, "j10", "WL", "WW"),
    (1, "k10", "LL", "WW"),
    (2, "l10", "DW", "WD"),
    (3, "m10", "LW", "DL"),
    (4, "n10", "LD", "DW"),
    (5, "o10", "WL", "W-"),
    (6, "p10", "--", "LL"),
    (7, "q10", "WW", "--"),
];

fn write_files(dir: &Path) -> (String, String) {
    let (base, new) = (dir.join("base.jsonl"), dir.join("new.jsonl"));
    write_games(&base, "hand", &OPENINGS.map(|(i, m, hand, _)| (i, m, hand)));
    write_games(&new, "tuned", &OPENINGS.map(|(i, m, _, tuned)| (i, m, tuned)));
    (s(&base).to_string(), s(&new).to_string())
}

#[test]
fn compare_prints_the_paired_difference() {
    let dir = tempfile::tempdir().unwrap();
    let (base, new) = write_files(dir.path());
    let (out, _) = ok(&["compare", &base, &new]);
    // The differences a game, in points: (2-1)/2, (2-0)/2, 0, (0.5-1)/2, (1.5-0.5)/2 = 50,
    // 100, 0, -25, 50 percentage points. Mean 35.0; deviations 15, 65, -35, -60, 15, squares
    // summing to 9500; s² = 9500/4 = 2375, s = 48.734, se = s/√5 = 21.794; t(0.975, 4) =
    // 2.77645, so ± 60.511: the interval is -25.5 .. +95.5; z = 35 / 21.794 = 1.606.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Against cloudict, paired by opening", "{out}");
    let row = |file: &str| {
        let l = lines.iter().find(|l| l.starts_with(file)).unwrap_or_else(|| panic!("no row of {file}:\n{out}"));
        l.split("  ").map(str::trim).filter(|c| !c.is_empty()).map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        [
            "file", "player", "openings", "games", "W-D-L", "score", "as", "first", "as", "second", "diff", "95%",
            "interval", "z", "+/-/="
        ]
    );
    assert_eq!(row(&base)[1..], ["hand", "5", "10", "3-2-5", "40.0%", "30.0%", "50.0%"]);
    assert_eq!(
        row(&new)[1..],
        ["tuned", "5", "10", "6-3-1", "75.0%", "80.0%", "70.0%", "+35.0 ± 60.5", "-25.5 .. +95.5", "+1.61", "3/1/1"]
    );
    let left_out = format!(
        "{new} vs {base}: 5 openings paired, left out 1 only in {base}, 1 only in {new}, 1 with a different number \
         of games"
    );
    assert!(lines.contains(&left_out.as_str()), "{out}");
    assert!(out.contains("Student's t"), "{out}");

    // The same numbers for scripts.
    let (json, _) = ok(&["compare", &base, &new, "--format", "json"]);
    let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
    let n = &rows[1];
    assert_eq!((n["player"].as_str(), n["compared_with"].as_str()), (Some("tuned"), Some(base.as_str())));
    assert_eq!(
        (n["diff"].as_f64(), n["score"].as_f64(), rows[0]["score"].as_f64()),
        (Some(35.0), Some(75.0), Some(40.0))
    );
    let close = |v: &serde_json::Value, x: f64| (v.as_f64().unwrap() - x).abs() < 1e-3;
    assert!(close(&n["error95"], 60.511) && close(&n["low95"], -25.511) && close(&n["z"], 1.6059), "{json}");
    assert_eq!(
        (n["only_in_base"].as_u64(), n["only_in_new"].as_u64(), n["games_differ"].as_u64()),
        (Some(1), Some(1), Some(1))
    );
    let (csv, _) = ok(&["compare", &base, &new, "--format", "csv"]);
    assert!(csv.starts_with("file,player,opponent,compared_with,openings,games,wins,draws,losses,score,"), "{csv}");
    assert_eq!(csv.lines().count(), 3, "{csv}");

    // BASE against itself: no difference, every opening the same.
    let (same, _) = ok(&["compare", &base, &base, "--opponent", "cloudict"]);
    assert!(same.contains("+0.0 ± 0.0") && same.contains("0/0/7"), "{same}");

    // BASE alone: its scores on all its openings (0-5 and 7: 7 of 14 points; 3.5 of 7 as first
    // player, W L D L L W W, and as second, L L W W D L W), no difference.
    let (alone, _) = ok(&["compare", &base, "--opponent", "cloudict"]);
    let line = alone.lines().find(|l| l.starts_with(&base)).unwrap_or_else(|| panic!("no row:\n{alone}"));
    let cells: Vec<&str> = line.split("  ").map(str::trim).filter(|c| !c.is_empty()).collect();
    assert_eq!(cells[1..], ["hand", "7", "14", "6-2-6", "50.0%", "50.0%", "50.0%"], "{alone}");
    assert!(!alone.contains("Student's t"), "{alone}");
}

#[test]
fn compare_refuses_files_it_cannot_pair() {
    let dir = tempfile::tempdir().unwrap();
    let (base, new) = write_files(dir.path());
    // Opening 2 from another suite.
    let other = dir.path().join("other.jsonl");
    write_games(&other, "tuned", &[(0, "j10", "WW"), (2, "k12", "WW")]);
    let e = fails(&["compare", &base, s(&other)]);
    assert!(
        e.contains(&format!("{}:3: opening 2 starts `k12` here but `l10` in {base}:5", s(&other)))
            && e.contains("not played from the same openings"),
        "{e}"
    );
    let apart = dir.path().join("apart.jsonl");
    write_games(&apart, "tuned", &[(9, "r10", "WW")]);
    let e = fails(&["compare", &base, s(&apart)]);
    assert!(e.contains("no opening in common") && e.contains(&format!("7 only in {base}, 1 only in")), "{e}");
    // A broken line names the file and line.
    let broken = dir.path().join("broken.jsonl");
    let text = std::fs::read_to_string(&new).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = "{\"game\": \"connect6\", \"first\": ";
    std::fs::write(&broken, lines.join("\n")).unwrap();
    let e = fails(&["compare", &base, s(&broken)]);
    assert!(e.contains(&format!("{}:3: not a game record", s(&broken))), "{e}");
    let e = fails(&["compare", &base, s(&dir.path().join("missing.jsonl"))]);
    assert!(e.contains("missing.jsonl: cannot read"), "{e}");
    // The same two players in both files: which is the opponent?
    let e = fails(&["compare", &base, &base]);
    assert!(e.contains("cloudict, hand all play in every file") && e.contains("--opponent"), "{e}");
    let e = fails(&["compare", &base, &new, "--opponent", "hand"]);
    assert!(e.contains(&format!("--opponent hand: {new} has no game of hand (its players: cloudict, tuned)")), "{e}");
}
