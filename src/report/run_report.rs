//! `results/<run>/report.md`: what a GA run found and how its champion measured, written at
//! the end of every run beside the plots.

use std::fmt::Write as _;

use crate::core::weights::Weights;
use crate::report::table::{elo, Align, Table};
use crate::stats::{Hypothesis, Pentanomial, Wdl};

/// One validation match as the report shows it.
#[derive(Clone, Debug)]
pub struct ValidationRow {
    pub opponent: String,
    pub wdl: Wdl,
    pub pairs: Pentanomial,
    pub verdict: Option<Hypothesis>,
    /// The command that replays the match.
    pub replay: String,
}

/// The GA's play-off as the report shows it.
#[derive(Clone, Debug)]
pub struct PlayOffTable {
    /// Games played in the play-off.
    pub games: usize,
    /// Best first: the first is the champion.
    pub finalists: Vec<FinalistRow>,
}

/// One finalist of the play-off.
#[derive(Clone, Debug)]
pub struct FinalistRow {
    pub id: u64,
    /// The generation it was best of, if it ever was.
    pub generation: Option<u32>,
    /// Rating before and after the play-off, and the standard error after.
    pub elo_before: f64,
    pub elo_after: f64,
    pub se_after: f64,
    pub games: u64,
    /// Its record against each anchor.
    pub vs_anchors: Vec<Wdl>,
}

/// Everything the report shows.
pub struct RunReport<'a> {
    pub name: &'a str,
    /// One paragraph on the run: config, seed, generations, budget, time.
    pub summary: String,
    /// Why the run ended, when not after its last generation.
    pub stopped_early: Option<String>,
    pub champion_path: String,
    pub champion: &'a Weights,
    /// Where the champion came from and how it rates, one sentence.
    pub champion_note: String,
    /// The GA's play-off (none for SPSA).
    pub play_off: Option<PlayOffTable>,
    pub anchor_names: &'a [String],
    /// One validation match per opponent.
    pub validation: Vec<ValidationRow>,
    /// Plot files beside the report.
    pub plots: Vec<String>,
}

fn wdl_cell(w: &Wdl) -> String {
    format!("{}-{}-{}", w.wins, w.draws, w.losses)
}

fn elo_interval(w: &Wdl) -> String {
    let (lo, hi) = w.elo_ci95();
    format!("{} ({} .. {})", elo(w.elo()), elo(lo), elo(hi))
}

impl RunReport<'_> {
    fn play_off_section(&self, s: &mut String, play_off: &PlayOffTable) {
        let _ = writeln!(s, "## Play-off\n");
        let f = &play_off.finalists;
        if play_off.games == 0 {
            let _ = writeln!(s, "No play-off: the last generation's best is the champion.\n");
        } else {
            let _ = writeln!(
                s,
                "The {} best distinct tables by rating played {} more games; ratings are relative to the first \
                 anchor over every remembered game.\n",
                f.len(),
                play_off.games
            );
        }
        let mut header = vec!["individual", "best of gen", "rating before", "rating after", "games"];
        let names: Vec<String> = self.anchor_names.iter().map(|a| format!("vs {a} (W-D-L)")).collect();
        header.extend(names.iter().map(String::as_str));
        let mut t = Table::new("", &header);
        for x in f {
            let mut row = vec![
                format!("#{}", x.id),
                x.generation.map_or("-".into(), |g| g.to_string()),
                elo(x.elo_before),
                format!("{} ± {:.0}", elo(x.elo_after), 1.96 * x.se_after),
                x.games.to_string(),
            ];
            row.extend(x.vs_anchors.iter().map(|w| format!("{} ({:.1}%)", wdl_cell(w), 100.0 * w.score())));
            t.row(row);
        }
        s.push_str(&t.to_markdown());
        s.push('\n');
    }

    /// The same as JSON (`summary.json`, and what `evolve --json` prints; docs/json.md).
    pub fn to_json(&self) -> serde_json::Value {
        use crate::report::json::{elo as elo_value, number, wdl};
        use serde_json::json;
        let schema = self.champion.schema();
        let weights: serde_json::Map<String, serde_json::Value> = schema
            .specs
            .iter()
            .zip(self.champion.values())
            .map(|(spec, &v)| (spec.name.to_string(), json!(v)))
            .collect();
        let validation: Vec<serde_json::Value> = self
            .validation
            .iter()
            .map(|v| {
                json!({
                    "opponent": v.opponent,
                    "games": v.wdl.games(),
                    "result": wdl(&v.wdl),
                    "elo": elo_value(v.wdl.elo(), v.wdl.elo_ci95()),
                    "los": number(v.wdl.los()),
                    "pentanomial": v.pairs.0,
                    "pair_elo": elo_value(v.pairs.elo(), v.pairs.elo_ci95()),
                    "verdict": v.verdict.map(|h| format!("{h:?}")),
                    "replay": v.replay,
                })
            })
            .collect();
        let finalists: Vec<serde_json::Value> = self.play_off.as_ref().map_or(Vec::new(), |p| {
            p.finalists
                .iter()
                .map(|f| {
                    json!({
                        "id": f.id,
                        "best_of_generation": f.generation,
                        "rating_before": number(f.elo_before),
                        "rating": number(f.elo_after),
                        "rating_error95": number(1.96 * f.se_after),
                        "games": f.games,
                    })
                })
                .collect()
        });
        json!({
            "kind": "evolve",
            "version": crate::VERSION,
            "run": self.name,
            "summary": self.summary,
            "stopped_early": self.stopped_early,
            "champion": {
                "path": self.champion_path,
                "note": self.champion_note,
                "weights": weights,
            },
            "validation": validation,
            "play_off": finalists,
            "anchors": self.anchor_names,
            "plots": self.plots,
        })
    }

    pub fn to_markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# evotune run `{}`\n", self.name);
        let _ = writeln!(s, "{}\n", self.summary);
        if let Some(why) = &self.stopped_early {
            let _ = writeln!(s, "Stopped early: {why}.\n");
        }

        let _ = writeln!(s, "## Champion\n");
        let _ = writeln!(s, "`{}`: {}\n", self.champion_path, self.champion_note);

        let _ = writeln!(s, "## Validation\n");
        if self.validation.is_empty() {
            let _ = writeln!(s, "No validation match (`[validation] pairs = 0`).\n");
        } else {
            let _ = writeln!(
                s,
                "The champion against each opponent on openings it never trained on, each opening played \
                 twice with colours swapped.\n"
            );
            let mut t = Table::new(
                "",
                &["opponent", "games", "W-D-L", "score", "Elo (95% CI)", "LOS", "pair Elo (95% CI)", "SPRT"],
            );
            for m in &self.validation {
                let (plo, phi) = m.pairs.elo_ci95();
                t.row(vec![
                    m.opponent.clone(),
                    m.wdl.games().to_string(),
                    wdl_cell(&m.wdl),
                    format!("{:.1}%", 100.0 * m.wdl.score()),
                    elo_interval(&m.wdl),
                    format!("{:.1}%", 100.0 * m.wdl.los()),
                    format!("{} ({} .. {})", elo(m.pairs.elo()), elo(plo), elo(phi)),
                    m.verdict.map_or("-".into(), |v| format!("{v:?}")),
                ]);
            }
            s.push_str(&t.to_markdown());
            let _ = writeln!(s, "\nTo replay:\n");
            for m in &self.validation {
                let _ = writeln!(s, "    {}", m.replay);
            }
            s.push('\n');
        }

        if let Some(play_off) = &self.play_off {
            self.play_off_section(&mut s, play_off);
        }

        let _ = writeln!(s, "## Weights\n");

        let schema = self.champion.schema();
        let mut t = Table::new("", &["weight", "hand-set", "champion", "bounds", "meaning"]);
        for (spec, &v) in schema.specs.iter().zip(self.champion.values()) {
            t.row(vec![
                format!("`{}`", spec.name),
                spec.default.to_string(),
                v.to_string(),
                format!("[{}, {}]", spec.min, spec.max),
                spec.doc.to_string(),
            ]);
        }
        t.set_align(3, Align::Left);
        t.set_align(4, Align::Left);
        s.push_str(&t.to_markdown());
        s.push('\n');

        if !self.plots.is_empty() {
            let _ = writeln!(s, "## Plots\n");
            for p in &self.plots {
                let _ = writeln!(s, "![{p}]({p})\n");
            }
        }
        s
    }
}
