//! A run as a web page: `report.html` in the results folder (self-contained, inline SVG, written
//! at the end of every generation) and the pages of `evotune serve`, which add a few lines of
//! script that poll the server and redraw when the run's files change. Everything shown comes
//! from the folder's files ([`RunFiles`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::{json, Value};

use crate::core::weights::Schema;
use crate::report::history::HistoryRow;
use crate::report::plots;
use crate::report::progress::{now_secs, InFlight};
use crate::report::table::elo;
use crate::watch::run_files::RunFiles;

/// Text for HTML element content and attribute values.
fn esc(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c => s.push(c),
        }
    }
    s
}

const STYLE: &str =
    "body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1400px;padding:0 1em;color:#222}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}table{border-collapse:collapse;margin:.5em 0}\
td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}th{background:#f4f4f4}td.l,th.l{text-align:left}\
.note{color:#555}.live{background:#eef6ff;border:1px solid #9cc3e6;padding:.5em .8em;display:inline-block}\
svg{max-width:100%;height:auto;display:block;margin:.5em 0}";

/// How long ago, in words.
fn ago(secs: u64) -> String {
    match secs {
        0..=1 => "just now".into(),
        2..=119 => format!("{secs} s ago"),
        120..=7199 => format!("{} min ago", secs / 60),
        _ => format!("{} h ago", secs / 3600),
    }
}

/// The work in flight in one line, with the age of the count (a run that was stopped leaves
/// its last count behind: its age says so).
pub fn in_flight_text(f: &InFlight) -> String {
    let age = now_secs().saturating_sub(f.updated);
    let pct = if f.total > 0 { 100.0 * f.done as f64 / f.total as f64 } else { 0.0 };
    format!("{}: {} of {} {} ({pct:.0}%), updated {}", f.task, f.done, f.total, f.unit, ago(age))
}

/// The status line: what the run has done and is doing.
fn status(files: &RunFiles) -> String {
    let mut s = match files.last_generation() {
        Some(g) => format!("{g} generation(s) done"),
        None => "no generation finished yet".into(),
    };
    if files.summary.is_some() {
        s += "; the run has finished (play-off, validation and report written)";
    }
    s
}

/// The champion's section: at the end the run's champion with its validation matches; before
/// that the latest generation's best and its weights.
fn champion_section(files: &RunFiles, out: &mut String) {
    let _ = writeln!(out, "<h2>Champion</h2>");
    if let Some(summary) = &files.summary {
        let note = summary["champion"]["note"].as_str().unwrap_or("");
        let _ = writeln!(out, "<p><code>champion.toml</code>: {}</p>", esc(note));
        let validation = summary["validation"].as_array().cloned().unwrap_or_default();
        if validation.is_empty() {
            let _ = writeln!(out, "<p class=\"note\">No validation match.</p>");
        } else {
            let _ = writeln!(
                out,
                "<p>Validation, on openings the champion never trained on:</p><table id=\"validation\">\
                 <tr><th class=\"l\">opponent</th><th>games</th><th>W-D-L</th><th>score</th>\
                 <th>Elo (95% interval)</th><th>pair Elo (95% interval)</th></tr>"
            );
            for v in &validation {
                let r = &v["result"];
                let num = |x: &Value| x.as_f64().map_or("±inf".to_string(), elo);
                let _ = writeln!(
                    out,
                    "<tr><td class=\"l\">{}</td><td>{}</td><td>{}-{}-{}</td><td>{:.1}%</td><td>{} ({} .. {})</td><td>{} ({} .. {})</td></tr>",
                    esc(v["opponent"].as_str().unwrap_or("?")),
                    v["games"],
                    r["wins"],
                    r["draws"],
                    r["losses"],
                    100.0 * r["score"].as_f64().unwrap_or(0.0),
                    num(&v["elo"]["elo"]),
                    num(&v["elo"]["low"]),
                    num(&v["elo"]["high"]),
                    num(&v["pair_elo"]["elo"]),
                    num(&v["pair_elo"]["low"]),
                    num(&v["pair_elo"]["high"]),
                );
            }
            let _ = writeln!(out, "</table>");
        }
    } else if let Some((_, points)) = &files.genes {
        if let Some((g, _)) = points.last() {
            let _ = writeln!(
                out,
                "<p>The run is not over: the best individual so far is generation {g}'s \
                 (<code>champions/gen-{g:04}.toml</code>); the play-off and the validation come at the end.</p>"
            );
        }
    } else {
        let _ = writeln!(out, "<p class=\"note\">No champion yet.</p>");
    }
    if let Some((schema, points)) = &files.genes {
        if let Some((_, genes)) = points.last() {
            weights_table(schema, genes, out);
        }
    }
}

fn weights_table(schema: &Schema, genes: &[i32], out: &mut String) {
    let _ = writeln!(
        out,
        "<table id=\"weights\"><tr><th class=\"l\">weight</th><th>hand-set</th><th>best so far</th><th>share of hand-set</th></tr>"
    );
    for (spec, &v) in schema.specs.iter().zip(genes) {
        let share =
            if spec.default != 0 { format!("{:.2}", f64::from(v) / f64::from(spec.default)) } else { "-".into() };
        let _ = writeln!(
            out,
            "<tr><td class=\"l\" title=\"{}\">{}</td><td>{}</td><td>{v}</td><td>{share}</td></tr>",
            esc(spec.doc),
            esc(spec.name),
            spec.default
        );
    }
    let _ = writeln!(out, "</table>");
}

/// The figures as inline SVG; a figure that cannot be drawn says why instead.
fn figures(files: &RunFiles, out: &mut String) {
    let _ = writeln!(out, "<h2>Fitness, scores against the anchors, rates and diversity</h2>");
    if files.history.is_empty() {
        let _ = writeln!(out, "<p class=\"note\">No generation has finished yet.</p>");
    } else {
        match plots::history_svg(&files.history, &format!("evotune run {}", files.name)) {
            Ok(svg) => {
                let _ = writeln!(out, "<div id=\"curves\">{svg}</div>");
            }
            Err(e) => {
                let _ = writeln!(out, "<p class=\"note\">No plot: {}</p>", esc(&format!("{e:#}")));
            }
        }
    }
    if let Some((schema, points)) = &files.genes {
        let _ = writeln!(out, "<h2>Weights of each generation's best</h2>");
        match plots::genes_svg(
            schema,
            points,
            &format!("evotune run {}: the weights of each generation's best", files.name),
        ) {
            Ok(svg) => {
                let _ = writeln!(out, "<div id=\"genes\">{svg}</div>");
            }
            Err(e) => {
                let _ = writeln!(out, "<p class=\"note\">No plot: {}</p>", esc(&format!("{e:#}")));
            }
        }
    }
}

/// The last rows of the history as a table, newest first.
fn history_table(rows: &[HistoryRow], out: &mut String) {
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(out, "<h2>Last generations</h2>");
    let _ = writeln!(
        out,
        "<table id=\"history\"><tr><th>generation</th><th>best fitness</th><th>mean</th><th>diversity</th><th>games</th><th>seconds</th></tr>"
    );
    for r in rows.iter().rev().take(10) {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{:.1}</td><td>{:.1}</td><td>{:.3}</td><td>{}</td><td>{:.1}</td></tr>",
            r.generation, r.fmax, r.favg, r.diversity, r.games, r.wall_s
        );
    }
    let _ = writeln!(out, "</table>");
}

/// The files beside the page that a reader may open.
fn links(files: &RunFiles, out: &mut String) {
    let present: Vec<&str> = LINKED_FILES.iter().copied().filter(|f| files.dir.join(f).exists()).collect();
    if !present.is_empty() {
        let items: Vec<String> = present.iter().map(|f| format!("<a href=\"{f}\">{f}</a>")).collect();
        let _ = writeln!(out, "<p>Files: {}</p>", items.join(" · "));
    }
}

/// The files of a results folder that the pages link to (and that `serve` serves).
pub const LINKED_FILES: &[&str] =
    &["report.md", "champion.toml", "history.csv", "summary.json", "fitness.png", "genes.png", "report.html"];

/// The page's body: everything but the script, which `serve` swaps in when the files change.
pub fn run_body(files: &RunFiles) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "<h1>evotune run <code>{}</code></h1>", esc(&files.name));
    let _ = writeln!(
        out,
        "<p id=\"status\" data-generation=\"{}\">{}</p>",
        files.last_generation().unwrap_or(0),
        esc(&status(files))
    );
    let progress = files.in_flight.as_ref().filter(|_| files.summary.is_none()).map(in_flight_text);
    let _ = writeln!(
        out,
        "<p id=\"progress\" class=\"live\">{}</p>",
        esc(&progress.unwrap_or_else(|| "nothing in flight".into()))
    );
    champion_section(files, &mut out);
    figures(files, &mut out);
    history_table(&files.history, &mut out);
    links(files, &mut out);
    out
}

/// The whole page. `live`: the served page, whose script polls `api` (the run's JSON) every
/// two seconds, updates the line of work in flight, and fetches `body` again when the files'
/// stamp changes.
pub fn run_page(files: &RunFiles, live: Option<(&str, &str)>) -> String {
    let script = match live {
        Some((api, body)) => format!(
            "<script>\nlet stamp = {stamp};\nasync function poll() {{\n  try {{\n    const r = await fetch({api}, {{cache: 'no-store'}});\n    const run = await r.json();\n    if (run.stamp !== stamp) {{\n      const b = await fetch({body}, {{cache: 'no-store'}});\n      if (b.ok) {{ document.getElementById('run').innerHTML = await b.text(); stamp = run.stamp; }}\n    }}\n    const p = document.getElementById('progress');\n    if (p) p.textContent = run.in_flight_text;\n  }} catch (e) {{\n    const p = document.getElementById('progress');\n    if (p) p.textContent = 'the server does not answer (' + e + ')';\n  }}\n  setTimeout(poll, 2000);\n}}\nsetTimeout(poll, 2000);\n</script>",
            stamp = json!(files.stamp),
            api = json!(api),
            body = json!(body),
        ),
        None => String::new(),
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>evotune run {name}</title>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>{STYLE}</style></head>\n\
         <body><div id=\"run\">\n{body}</div>\n<p class=\"note\">evotune {version}</p>\n{script}</body></html>\n",
        name = esc(&files.name),
        body = run_body(files),
        version = esc(crate::VERSION),
    )
}

/// The run as JSON for the served page's script: its stamp, history, work in flight and, at
/// the end, its summary.
pub fn run_json(files: &RunFiles) -> Value {
    json!({
        "name": files.name,
        "stamp": files.stamp,
        "generation": files.last_generation(),
        "history": files.history,
        "in_flight": files.in_flight,
        "in_flight_text": files.in_flight.as_ref().filter(|_| files.summary.is_none()).map_or("nothing in flight".to_string(), in_flight_text),
        "finished": files.summary.is_some(),
        "summary": files.summary,
    })
}

/// The list of runs, newest activity shown per run, polling `api` and reloading when a stamp
/// changes.
pub fn index_page(root: &Path, runs: &[RunFiles], api: &str) -> String {
    let mut rows = String::new();
    for r in runs {
        let best = r.history.last().map_or("-".to_string(), |h| format!("{:.1}", h.fmax));
        let state = if r.summary.is_some() {
            "finished".to_string()
        } else {
            r.in_flight.as_ref().map_or("-".to_string(), in_flight_text)
        };
        let _ = writeln!(
            rows,
            "<tr><td class=\"l\"><a href=\"run/{n}/\">{n}</a></td><td>{}</td><td>{best}</td><td class=\"l\">{}</td></tr>",
            r.last_generation().map_or("-".to_string(), |g| g.to_string()),
            esc(&state),
            n = esc(&r.name),
        );
    }
    let stamps: Vec<&str> = runs.iter().map(|r| r.stamp.as_str()).collect();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>evotune runs</title><style>{STYLE}</style></head>\n\
         <body><h1>evotune runs in <code>{root}</code></h1>\n\
         <table id=\"runs\"><tr><th class=\"l\">run</th><th>generations done</th><th>best fitness</th><th class=\"l\">now</th></tr>\n{rows}</table>\n\
         {empty}<p class=\"note\">evotune {version}; this page follows the runs as their files change.</p>\n\
         <script>\nconst stamps = {stamps};\nasync function poll() {{\n  try {{\n    const r = await fetch({api}, {{cache: 'no-store'}});\n    const runs = await r.json();\n    if (JSON.stringify(runs.map(x => x.stamp)) !== JSON.stringify(stamps)) location.reload();\n  }} catch (e) {{}}\n  setTimeout(poll, 3000);\n}}\nsetTimeout(poll, 3000);\n</script></body></html>\n",
        root = esc(&root.display().to_string()),
        empty = if runs.is_empty() { "<p>No runs here yet: a run's results folder appears once it has started.</p>\n" } else { "" },
        version = esc(crate::VERSION),
        stamps = json!(stamps),
        api = json!(api),
    )
}

/// Writes `report.html` into a results folder (replaced whole; not synced: it is derived from
/// the folder's files and written again), from the folder's files.
pub fn write_report(dir: &Path) -> Result<PathBuf> {
    let files = RunFiles::read(dir)?;
    let path = dir.join("report.html");
    crate::fsutil::replace(&path, run_page(&files, None).as_bytes())
        .with_context(|| format!("{}: cannot write", path.display()))?;
    Ok(path)
}
