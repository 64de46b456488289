//! The JSON documents that `--json` prints in place of the text summaries, for scripts:
//! `match`, `tournament`, `bench` and `evolve` (the match's and the tournament's are made by
//! their reports in the arena, from the pieces here). docs/json.md is their schema; every
//! document names itself in `"kind"` and carries `"version"` (evotune's, with the commit).
//! Numbers that have no bound (the Elo of a perfect score) are `null`.

use serde_json::{json, Value};

use crate::stats::Wdl;

/// A finite number, or null.
pub fn number(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

/// Wins, draws, losses, games and score of one side.
pub fn wdl(w: &Wdl) -> Value {
    json!({
        "wins": w.wins,
        "draws": w.draws,
        "losses": w.losses,
        "games": w.games(),
        "score": number(w.score()),
    })
}

/// An Elo estimate with its 95% interval.
pub fn elo(value: f64, (low, high): (f64, f64)) -> Value {
    json!({ "elo": number(value), "low": number(low), "high": number(high) })
}

/// The header of every document: its kind and evotune's version.
pub fn document(kind: &str) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert("kind".into(), json!(kind));
    m.insert("version".into(), json!(crate::VERSION));
    m
}

/// One searched position of `bench`.
pub struct BenchLine<'a> {
    pub best: &'a str,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub ms: f64,
}

/// The document of `bench --json`.
pub fn bench_document(
    game: &str,
    search: &str,
    depth: u32,
    lines: &[BenchLine],
    nodes: u64,
    nps: u64,
    ms: u64,
) -> Value {
    let mut m = document("bench");
    m.insert("game".into(), json!(game));
    m.insert("search".into(), json!(search));
    m.insert("depth".into(), json!(depth));
    let positions: Vec<Value> = lines
        .iter()
        .map(|l| json!({ "best": l.best, "score": l.score, "depth": l.depth, "nodes": l.nodes, "ms": l.ms }))
        .collect();
    m.insert("positions".into(), Value::Array(positions));
    m.insert("nodes".into(), json!(nodes));
    m.insert("nps".into(), json!(nps));
    m.insert("ms".into(), json!(ms));
    Value::Object(m)
}

/// Pretty JSON text with a final newline.
pub fn to_text(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".into());
    s.push('\n');
    s
}
