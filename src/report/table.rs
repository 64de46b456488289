//! Result tables, kept as strings so that one value prints, goes to CSV and goes to Markdown
//! identically: what a command prints is what it writes.
//!
//! ```
//! use evotune::report::table::Table;
//! let mut t = Table::new("Scores", &["player", "score"]);
//! t.row(vec!["a".into(), "+2".into()]);
//! assert!(t.to_text().contains("player  score"));
//! assert!(t.to_markdown().contains("| a | +2 |"));
//! assert_eq!(t.to_csv().unwrap(), "player,score\na,+2\n");
//! ```

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::fsutil::write_atomic;
use crate::stats::Wdl;

/// How a column's cells line up in text and Markdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A titled table with optional notes under it (the notes go to text and Markdown, not CSV,
/// so that the CSV stays one header line plus rows for spreadsheets and scripts).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub title: String,
    pub header: Vec<String>,
    pub align: Vec<Align>,
    pub rows: Vec<Vec<String>>,
    pub notes: Vec<String>,
}

impl Table {
    /// A table whose first column is left-aligned (names) and the rest right-aligned (numbers).
    pub fn new(title: impl Into<String>, header: &[&str]) -> Table {
        let align = (0..header.len()).map(|i| if i == 0 { Align::Left } else { Align::Right }).collect();
        Table {
            title: title.into(),
            header: header.iter().map(|h| h.to_string()).collect(),
            align,
            rows: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Sets the alignment of column `col` (ignored beyond the last column).
    pub fn set_align(&mut self, col: usize, align: Align) {
        if let Some(a) = self.align.get_mut(col) {
            *a = align;
        }
    }

    /// Adds a row; a short row is padded with empty cells, a long one keeps its extra cells
    /// (they are shown without a header rather than silently dropped).
    pub fn row(&mut self, mut cells: Vec<String>) {
        while cells.len() < self.header.len() {
            cells.push(String::new());
        }
        self.rows.push(cells);
    }

    /// A line printed under the table.
    pub fn note(&mut self, text: impl Into<String>) {
        self.notes.push(text.into());
    }

    fn columns(&self) -> usize {
        self.rows.iter().map(Vec::len).chain([self.header.len()]).max().unwrap_or(0)
    }

    fn align_of(&self, col: usize) -> Align {
        self.align.get(col).copied().unwrap_or(Align::Right)
    }

    /// Aligned plain text: the title, the header, a rule, the rows, then the notes.
    pub fn to_text(&self) -> String {
        let n = self.columns();
        let cell = |row: &[String], c: usize| row.get(c).cloned().unwrap_or_default();
        // Widths in chars, not bytes, so that names such as 棋型 do not push columns apart.
        let width =
            |c: usize| self.rows.iter().chain([&self.header]).map(|r| cell(r, c).chars().count()).max().unwrap_or(0);
        let widths: Vec<usize> = (0..n).map(width).collect();
        let line = |row: &[String]| {
            let cells: Vec<String> = (0..n)
                .map(|c| {
                    let text = cell(row, c);
                    let pad = " ".repeat(widths[c].saturating_sub(text.chars().count()));
                    match self.align_of(c) {
                        Align::Left => format!("{text}{pad}"),
                        Align::Right => format!("{pad}{text}"),
                    }
                })
                .collect();
            cells.join("  ").trim_end().to_string()
        };
        let mut s = String::new();
        if !self.title.is_empty() {
            s += &format!("{}\n", self.title);
        }
        s += &line(&self.header);
        s.push('\n');
        let rule_len = widths.iter().sum::<usize>() + 2 * n.saturating_sub(1);
        s += &"-".repeat(rule_len);
        s.push('\n');
        for r in &self.rows {
            s += &line(r);
            s.push('\n');
        }
        for note in &self.notes {
            s += &format!("{note}\n");
        }
        s
    }

    /// A GitHub-flavoured Markdown table under a `###` title, the notes as a paragraph.
    pub fn to_markdown(&self) -> String {
        let n = self.columns();
        let escape = |t: &str| t.replace('|', "\\|");
        let line = |row: &[String]| {
            let cells: Vec<String> = (0..n).map(|c| escape(row.get(c).map(String::as_str).unwrap_or(""))).collect();
            format!("| {} |\n", cells.join(" | "))
        };
        let mut s = String::new();
        if !self.title.is_empty() {
            s += &format!("### {}\n\n", self.title);
        }
        s += &line(&self.header);
        let rule: Vec<&str> = (0..n)
            .map(|c| match self.align_of(c) {
                Align::Left => ":---",
                Align::Right => "---:",
            })
            .collect();
        s += &format!("|{}|\n", rule.join("|"));
        for r in &self.rows {
            s += &line(r);
        }
        if !self.notes.is_empty() {
            s.push('\n');
            for note in &self.notes {
                s += &format!("{note}\n");
            }
        }
        s
    }

    /// The header and rows as CSV (RFC 4180 quoting by the `csv` crate).
    pub fn to_csv(&self) -> Result<String> {
        let mut w = csv::WriterBuilder::new().flexible(true).from_writer(Vec::new());
        w.write_record(&self.header)?;
        for r in &self.rows {
            w.write_record(r)?;
        }
        let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("cannot finish the CSV: {e}"))?;
        String::from_utf8(bytes).context("the CSV is not UTF-8")
    }

    /// Writes `<stem>.csv` and `<stem>.md` into `dir` (created if missing).
    pub fn write(&self, dir: &Path, stem: &str) -> Result<Vec<PathBuf>> {
        let csv_path = dir.join(format!("{stem}.csv"));
        let md_path = dir.join(format!("{stem}.md"));
        write_atomic(&csv_path, self.to_csv()?.as_bytes())
            .with_context(|| format!("{}: cannot write", csv_path.display()))?;
        write_atomic(&md_path, self.to_markdown().as_bytes())
            .with_context(|| format!("{}: cannot write", md_path.display()))?;
        Ok(vec![csv_path, md_path])
    }
}

/// Signed whole number as the papers print scores: `+3`, `0`, `-2`.
pub fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

/// An Elo value or error bar: one decimal, `inf` / `-inf` when unbounded.
pub fn elo(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.1}")
    } else if v > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

/// A percentage of `n` out of `of` with one decimal and a `%`, `-` when `of` is 0.
pub fn percent(n: f64, of: f64) -> String {
    if of > 0.0 {
        format!("{:.1}%", 100.0 * n / of)
    } else {
        "-".into()
    }
}

/// The columns of [`match_cells`].
pub const MATCH_COLUMNS: [&str; 8] = ["games", "W", "D", "L", "score", "Elo", "95% CI", "LOS"];

/// A match's result as table cells, from the first-named side's view: games, wins, draws,
/// losses, score, Elo, its 95% interval and the likelihood of superiority.
pub fn match_cells(w: &Wdl) -> Vec<String> {
    let (lo, hi) = w.elo_ci95();
    vec![
        w.games().to_string(),
        w.wins.to_string(),
        w.draws.to_string(),
        w.losses.to_string(),
        percent(w.points(), w.games() as f64),
        elo(w.elo()),
        format!("{} .. {}", elo(lo), elo(hi)),
        percent(w.los(), 1.0),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new("T", &["name", "n"]);
        t.row(vec!["alpha".into(), "1".into()]);
        t.row(vec!["b|c".into(), "-22".into()]);
        t.row(vec!["棋型".into()]);
        t.note("a note");
        t
    }

    #[test]
    fn text_aligns_names_left_and_numbers_right() {
        let text = sample().to_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "T");
        assert_eq!(lines[1], "name     n");
        assert_eq!(lines[2], "----------");
        assert_eq!(lines[3], "alpha    1");
        assert_eq!(lines[4], "b|c    -22");
        assert_eq!(lines[5], "棋型");
        assert_eq!(lines[6], "a note");
    }

    #[test]
    fn markdown_escapes_pipes_and_marks_alignment() {
        let md = sample().to_markdown();
        assert!(md.starts_with("### T\n\n| name | n |\n|:---|---:|\n"), "{md}");
        assert!(md.contains("| b\\|c | -22 |"), "{md}");
        assert!(md.contains("| 棋型 |  |"), "{md}");
        assert!(md.ends_with("\na note\n"), "{md}");
    }

    #[test]
    fn csv_quotes_and_round_trips() {
        let mut t = Table::new("", &["a", "b"]);
        t.row(vec!["x, y".into(), "say \"hi\"".into()]);
        let csv = t.to_csv().unwrap();
        assert_eq!(csv, "a,b\n\"x, y\",\"say \"\"hi\"\"\"\n");
        let mut r = csv::Reader::from_reader(csv.as_bytes());
        let row = r.records().next().unwrap().unwrap();
        assert_eq!((&row[0], &row[1]), ("x, y", "say \"hi\""));
    }

    #[test]
    fn writes_both_files() {
        let dir = tempfile::tempdir().unwrap();
        let files = sample().write(dir.path(), "t").unwrap();
        assert_eq!(files.len(), 2);
        assert!(std::fs::read_to_string(&files[0]).unwrap().starts_with("name,n\n"));
        assert!(std::fs::read_to_string(&files[1]).unwrap().starts_with("### T"));
    }

    #[test]
    fn numbers_read_like_the_papers() {
        assert_eq!((signed(3), signed(0), signed(-2)), ("+3".into(), "0".into(), "-2".into()));
        assert_eq!(
            (elo(12.34), elo(f64::INFINITY), elo(f64::NEG_INFINITY)),
            ("12.3".into(), "inf".into(), "-inf".into())
        );
        assert_eq!((percent(1.0, 3.0), percent(1.0, 0.0)), ("33.3%".into(), "-".into()));
    }
}
