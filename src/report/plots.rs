//! PNG and SVG plots of GA runs and experiments, drawn with `plotters`.
//!
//! Every figure is drawn twice from the same code, once into an in-memory RGB buffer (encoded
//! as PNG here) and once into an SVG string, and both files are then written with
//! [`write_atomic`], so an interrupted run never leaves a half-drawn plot beside its CSV.
//!
//! Text is rendered with Noto Sans compiled into the binary (the `ttf-noto-sans` crate,
//! Apache-2.0): plotters' `ttf` feature would look fonts up through fontconfig at run time, and
//! a fresh CI machine or a cluster node may have none, which would leave the PNGs without a
//! single label.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{anyhow, bail, ensure, Context, Result};
use plotters::backend::{BitMapBackend, SVGBackend};
use plotters::coord::types::{RangedCoordf64, RangedCoordu32};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::history::HistoryRow;
use crate::core::weights::Schema;
use crate::fsutil::write_atomic;
use crate::stats::{Wdl, Z95};

/// One named curve of [`plot_series`]: `(x, y, optional ± error)` points, drawn in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64, Option<f64>)>,
}

impl Series {
    /// A series from its legend name and its points.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64, Option<f64>)>) -> Self {
        Self { name: name.into(), points }
    }
}

/// Size of a figure in pixels unless it says otherwise (the SVG uses the same user units).
const SIZE: (u32, u32) = (1000, 700);
/// The family plotters asks for by default; registering our font under it means every label,
/// including the ones plotters draws on its own (tick labels), uses the embedded font.
const FONT: &str = "sans-serif";
const TITLE_PX: u32 = 26;
const DESC_PX: u32 = 18;
const TICK_PX: u32 = 15;
const LEGEND_PX: u32 = 16;
/// Curves with at most this many points also get a marker at each point, so that a one-row
/// history or a sparse experiment still shows something; dense curves stay plain lines.
const MARKERS_UP_TO: usize = 60;

// Okabe–Ito colours: distinguishable with the common colour-vision deficiencies and dark enough
// on white (the palette's yellow is left out for that reason).
const BLUE: RGBColor = RGBColor(0, 114, 178);
const VERMILLION: RGBColor = RGBColor(213, 94, 0);
const GREEN: RGBColor = RGBColor(0, 158, 115);
const PURPLE: RGBColor = RGBColor(204, 121, 167);
const ORANGE: RGBColor = RGBColor(230, 159, 0);
const SKY: RGBColor = RGBColor(86, 180, 233);
const GREY: RGBColor = RGBColor(90, 90, 90);
const PALETTE: [RGBColor; 7] = [BLUE, VERMILLION, GREEN, PURPLE, ORANGE, SKY, GREY];

/// Writes `fitness.png` and `fitness.svg` into `out_dir`, panels sharing the generation axis:
/// - fmax / favg / fmin;
/// - when the rows record games against anchors, the generation's best individual's score
///   against each, in percent with its 95% interval (Wilson), and the even score dashed;
/// - mean Pc (left axis) and mean Pm (right axis, dashed), since Pm is often a hundred times
///   smaller than Pc;
/// - gene diversity on an axis of its own, and the immigrants of each generation on the right.
///
/// A panel with nothing to show (no anchors, no diversity) is left out and the figure is
/// shorter by its height.
pub fn plot_history(rows: &[HistoryRow], out_dir: &Path, title: &str) -> Result<Vec<PathBuf>> {
    let png = out_dir.join("fitness.png");
    ensure!(!rows.is_empty(), "{}: cannot plot a history with no rows", png.display());
    write_figure(out_dir, "fitness", &HistoryFigure::new(sorted_rows(rows), title))
}

/// The history figure of [`plot_history`] as SVG text (for a web page).
pub fn history_svg(rows: &[HistoryRow], title: &str) -> Result<String> {
    ensure!(!rows.is_empty(), "cannot plot a history with no rows");
    render_svg(&HistoryFigure::new(sorted_rows(rows), title))
}

/// Rows by generation: a resumed run appends rows; sorting keeps the lines from doubling back
/// if it ever wrote them out of order.
fn sorted_rows(rows: &[HistoryRow]) -> Vec<&HistoryRow> {
    let mut sorted: Vec<&HistoryRow> = rows.iter().collect();
    sorted.sort_by_key(|r| r.generation);
    sorted
}

/// Writes `<stem>.png` and `<stem>.svg` into `out_dir`: each series as a line through its points,
/// with markers when sparse and vertical error bars where a point has an error. A horizontal
/// reference line is a series of two points with the same y.
pub fn plot_series(
    out_dir: &Path,
    stem: &str,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<Vec<PathBuf>> {
    ensure!(
        !stem.is_empty() && !stem.contains(['/', '\\']),
        "plot file name {stem:?} must be a plain, non-empty file stem"
    );
    let png = out_dir.join(format!("{stem}.png"));
    ensure!(!series.is_empty(), "{}: no series to plot", png.display());
    if let Some(s) = series.iter().find(|s| s.points.iter().any(|&(_, _, e)| e.is_some_and(|e| e < 0.0))) {
        bail!("{}: series {:?} has a negative error bar", png.display(), s.name);
    }
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys = series.iter().flat_map(|s| {
        s.points.iter().flat_map(|&(_, y, e)| {
            let e = e.filter(|e| e.is_finite()).unwrap_or(0.0);
            [y - e, y + e]
        })
    });
    let (Some(x_range), Some(y_range)) = (padded_range(xs, 0.03), padded_range(ys, 0.06)) else {
        bail!("{}: the series have no finite points to plot", png.display());
    };
    let fig = SeriesFigure { title, x_label, y_label, series, x_range, y_range };
    write_figure(out_dir, stem, &fig)
}

/// A figure that can be drawn on any plotters backend, so that the PNG and the SVG come from
/// one piece of drawing code.
trait Figure {
    /// Width and height in pixels (the SVG uses the same user units).
    fn size(&self) -> (u32, u32) {
        SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static;
}

/// Renders both formats first and only then writes, so a drawing error leaves the old pair of
/// files untouched rather than a new PNG beside an old SVG.
fn write_figure(out_dir: &Path, stem: &str, fig: &impl Figure) -> Result<Vec<PathBuf>> {
    let png_path = out_dir.join(format!("{stem}.png"));
    let svg_path = out_dir.join(format!("{stem}.svg"));
    let png = render_png(fig).with_context(|| format!("{}: cannot draw the plot", png_path.display()))?;
    let svg = render_svg(fig).with_context(|| format!("{}: cannot draw the plot", svg_path.display()))?;
    write_atomic(&png_path, &png).with_context(|| format!("{}: cannot write", png_path.display()))?;
    write_atomic(&svg_path, svg.as_bytes()).with_context(|| format!("{}: cannot write", svg_path.display()))?;
    Ok(vec![png_path, svg_path])
}

fn render_png(fig: &impl Figure) -> Result<Vec<u8>> {
    register_font()?;
    let (w, h) = fig.size();
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        fig.draw(&root)?;
        root.present()?;
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgb)?;
    writer.finish()?;
    Ok(out)
}

fn render_svg(fig: &impl Figure) -> Result<String> {
    // The SVG leaves glyphs to the viewer, but plotters still measures text with the
    // registered font to lay out labels and legends.
    register_font()?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, fig.size()).into_drawing_area();
        fig.draw(&root)?;
        root.present()?;
    }
    Ok(svg)
}

/// plotters keeps registered fonts in a process-wide table; registering once is enough and
/// keeps concurrent plotting threads from racing on it.
fn register_font() -> Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED
        .get_or_init(|| plotters::style::register_font(FONT, FontStyle::Normal, ttf_noto_sans::REGULAR).is_ok());
    ensure!(ok, "the embedded Noto Sans font could not be loaded");
    Ok(())
}

/// The largest magnitude an axis spans: values beyond it (a history edited by hand, or
/// written by a broken run, may hold ±1e308) are drawn at the edge, so that the axis's width
/// and its ticks stay finite (past it, drawing never ends).
const AXIS_LIMIT: f64 = 1e12;

/// The range spanned by the finite `values` (clamped to ±[`AXIS_LIMIT`]), widened by `pad` of
/// its width on each side; a single value gets a unit-sized window around it so that the axis
/// still has ticks.
fn padded_range(values: impl IntoIterator<Item = f64>, pad: f64) -> Option<(f64, f64)> {
    let (lo, hi) = values
        .into_iter()
        .filter(|v| v.is_finite())
        .map(|v| v.clamp(-AXIS_LIMIT, AXIS_LIMIT))
        .fold(None, |acc: Option<(f64, f64)>, v| Some(acc.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v)))))?;
    if hi - lo <= f64::EPSILON * hi.abs().max(1.0) {
        let half = (lo.abs() * 0.1).max(1.0);
        return Some((lo - half, hi + half));
    }
    let d = (hi - lo) * pad;
    Some((lo - d, hi + d))
}

/// `0..top` for quantities that are never negative (probabilities, diversity), with headroom
/// above the largest finite value.
fn zero_based_range(values: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let max = values.into_iter().filter(|v| v.is_finite()).fold(0.0_f64, f64::max).min(AXIS_LIMIT);
    (0.0, if max > 0.0 { max * 1.15 } else { 1.0 })
}

/// Tick labels without float noise ("0.30000000000000004") or pointless decimals ("200.0").
fn tick_label(v: f64) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    if v.abs() >= 1e6 || v.abs() < 1e-4 {
        return format!("{v:.2e}");
    }
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

fn generation_label(g: &u32) -> String {
    g.to_string()
}

/// plotters' errors are generic over the backend, so `?` cannot turn them into anyhow's
/// inside the generic drawing code without this.
fn plot_err<E: std::error::Error + Send + Sync + 'static>(e: DrawingAreaErrorKind<E>) -> anyhow::Error {
    anyhow!(e)
}

/// How a curve's points are marked, in the plot and in its legend sample.
#[derive(Clone, Copy, PartialEq)]
enum Marker {
    None,
    Circle,
    Triangle,
    /// A vertical error bar with caps.
    Bar,
}

/// How a curve is drawn between its points, in the plot and in its legend sample.
#[derive(Clone, Copy, PartialEq)]
enum Stroke {
    Solid,
    Dashed,
    /// A pale filled band (an interval around a dense curve).
    Band,
    Nothing,
}

/// One entry of a legend: a short sample of the curve (line, dashes, marker) and its name,
/// already wrapped into lines that fit the legend column.
struct LegendEntry {
    lines: Vec<String>,
    color: RGBColor,
    stroke: Stroke,
    marker: Marker,
}

const LEGEND_SAMPLE_W: u32 = 48;
const LEGEND_LINE_H: i32 = 20;
const LEGEND_GAP: i32 = 10;
/// The longest a legend line may be before it wraps; keeps the plot the widest part.
const LEGEND_TEXT_MAX: u32 = 230;

fn legend_style() -> TextStyle<'static> {
    (FONT, LEGEND_PX).into_font().color(&BLACK)
}

fn text_width<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, text: &str) -> Result<u32>
where
    DB::ErrorType: 'static,
{
    Ok(area.estimate_text_size(text, &legend_style()).map_err(plot_err)?.0)
}

/// Breaks `name` at spaces into lines of at most `max_px`; a word wider than a whole line is
/// cut, and past three lines the rest is elided, so one long series name can neither squeeze
/// the plot nor run off the image.
fn wrap_name<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, name: &str, max_px: u32) -> Result<Vec<String>>
where
    DB::ErrorType: 'static,
{
    const MAX_LINES: usize = 3;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in name.split_whitespace() {
        let joined = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if text_width(area, &joined)? <= max_px {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        let mut rest: Vec<char> = word.chars().collect();
        while text_width(area, &rest.iter().collect::<String>())? > max_px {
            // Take the longest prefix that fits (at least one character, to make progress).
            let mut n = rest.len() - 1;
            while n > 1 && text_width(area, &rest[..n].iter().collect::<String>())? > max_px {
                n -= 1;
            }
            lines.push(rest.drain(..n).collect());
        }
        line = rest.into_iter().collect();
    }
    if !line.is_empty() {
        lines.push(line);
    }
    if lines.len() > MAX_LINES {
        lines.truncate(MAX_LINES);
        let last = &mut lines[MAX_LINES - 1];
        while !last.is_empty() && text_width(area, &format!("{last}…"))? > max_px {
            last.pop();
        }
        last.push('…');
    }
    if lines.is_empty() {
        lines.push(String::new());
    }
    Ok(lines)
}

/// Width of the legend column that holds `entries` without clipping.
fn legend_width<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, entries: &[LegendEntry]) -> Result<u32>
where
    DB::ErrorType: 'static,
{
    let mut widest = 0;
    for line in entries.iter().flat_map(|e| &e.lines) {
        widest = widest.max(text_width(area, line)?);
    }
    Ok(LEGEND_SAMPLE_W + widest + 16)
}

/// plotters' own legend sits inside the plot and covers data; ours is a column beside it.
fn draw_legend<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, entries: &[LegendEntry], top: i32) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let style = legend_style().pos(Pos::new(HPos::Left, VPos::Center));
    let mut y = top;
    for e in entries {
        let stroke = e.color.stroke_width(3);
        match e.stroke {
            Stroke::Solid => area.draw(&PathElement::new(vec![(6, y), (42, y)], stroke)).map_err(plot_err)?,
            Stroke::Dashed => {
                for x in [6, 20, 34] {
                    area.draw(&PathElement::new(vec![(x, y), (x + 8, y)], stroke)).map_err(plot_err)?;
                }
            }
            Stroke::Band => {
                area.draw(&Rectangle::new([(6, y - 8), (42, y + 8)], band_style(e.color))).map_err(plot_err)?
            }
            Stroke::Nothing => {}
        }
        draw_marker(area, e.marker, (24, y), e.color)?;
        for (i, line) in e.lines.iter().enumerate() {
            area.draw_text(line, &style, (LEGEND_SAMPLE_W as i32, y + i as i32 * LEGEND_LINE_H)).map_err(plot_err)?;
        }
        y += e.lines.len() as i32 * LEGEND_LINE_H + LEGEND_GAP;
    }
    Ok(())
}

fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    marker: Marker,
    at: (i32, i32),
    color: RGBColor,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    match marker {
        Marker::None => Ok(()),
        Marker::Circle => area.draw(&Circle::new(at, 4, color.filled())).map_err(plot_err),
        Marker::Triangle => area.draw(&TriangleMarker::new(at, 6, color.filled())).map_err(plot_err),
        Marker::Bar => {
            let (x, y) = at;
            let style = color.stroke_width(2);
            for path in [
                vec![(x, y - 9), (x, y + 9)],
                vec![(x - 6, y - 9), (x + 6, y - 9)],
                vec![(x - 6, y + 9), (x + 6, y + 9)],
            ] {
                area.draw(&PathElement::new(path, style)).map_err(plot_err)?;
            }
            Ok(())
        }
    }
}

/// The fill of an interval band: the curve's colour, pale enough for the curve to show on it.
fn band_style(color: RGBColor) -> ShapeStyle {
    color.mix(0.2).filled()
}

/// The finite `(generation, value)` points of one history column.
fn column(rows: &[&HistoryRow], get: fn(&HistoryRow) -> f64) -> Vec<(u32, f64)> {
    rows.iter().map(|r| (r.generation, get(r))).filter(|(_, y)| y.is_finite()).collect()
}

fn mesh_grid_styles() -> (ShapeStyle, ShapeStyle) {
    (BLACK.mix(0.15).into(), BLACK.mix(0.05).into())
}

/// A panel of the history figure, top to bottom in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Panel {
    /// fmax, favg, fmin.
    Fitness,
    /// The generation's best against each anchor: score with its 95% interval.
    Anchors,
    /// Mean Pc (left axis) and mean Pm (right axis).
    Rates,
    /// Gene diversity, and the immigrants of each generation on the right axis.
    Diversity,
}

impl Panel {
    /// Height in pixels; the figure is as tall as the panels it shows.
    fn height(self) -> u32 {
        match self {
            Panel::Fitness => 320,
            Panel::Anchors => 250,
            Panel::Rates => 170,
            Panel::Diversity => 170,
        }
    }
}

const HISTORY_W: u32 = 1000;
/// The title above the panels.
const TITLE_H: u32 = 50;
/// Extra height of the last panel, which carries the "generation" axis name.
const X_DESC_H: u32 = 26;
/// Width of a y-axis label area; every panel keeps one on the right too (the rates panel's Pm
/// axis, blank elsewhere), so that the generations of all panels line up.
const AXIS_W: u32 = 80;

/// One point of a score curve, in percent: the score and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ScorePoint {
    generation: u32,
    score: f64,
    lo: f64,
    hi: f64,
}

/// The generation's best against one anchor, over the generations that recorded games with it.
#[derive(Clone, Debug, PartialEq)]
struct AnchorSeries {
    name: String,
    points: Vec<ScorePoint>,
}

/// The score of `w` and its 95% Wilson score interval, or None without games. Draws count as
/// half a win, which can only widen the interval (the trinomial variance is at most the
/// binomial one of the same score). Unlike the normal interval, Wilson's stays informative at a
/// perfect or a zero score (there the Elo is infinite): 10 wins of 10 give [72%, 100%].
fn score_interval95(w: &Wdl) -> Option<(f64, f64, f64)> {
    let n = w.games() as f64;
    if n == 0.0 {
        return None;
    }
    let p = w.score();
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    // Exact ends where the formula gives them only up to rounding.
    let lo = if p <= 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let hi = if p >= 1.0 { 1.0 } else { (centre + half).min(1.0) };
    Some((p, lo, hi))
}

/// Every anchor's score curve, anchors in order of first appearance.
fn anchor_series(rows: &[&HistoryRow]) -> Vec<AnchorSeries> {
    let mut out: Vec<AnchorSeries> = Vec::new();
    for r in rows {
        for a in &r.anchors {
            let Some((score, lo, hi)) = score_interval95(&a.wdl()) else { continue };
            let point = ScorePoint { generation: r.generation, score: 100.0 * score, lo: 100.0 * lo, hi: 100.0 * hi };
            match out.iter_mut().find(|s| s.name == a.name) {
                Some(s) => s.points.push(point),
                None => out.push(AnchorSeries { name: a.name.clone(), points: vec![point] }),
            }
        }
    }
    out
}

/// The generation axis: first to last, or one more either side when `pad` (so that markers and
/// error bars at the ends are not cut by the frame) or when there is a single generation
/// (plotters needs a non-empty axis).
fn generation_range(first: u32, last: u32, pad: bool) -> std::ops::Range<u32> {
    if pad || first == last {
        first.saturating_sub(1)..last + 1
    } else {
        first..last
    }
}

struct HistoryFigure<'a> {
    rows: Vec<&'a HistoryRow>,
    title: &'a str,
    anchors: Vec<AnchorSeries>,
    panels: Vec<Panel>,
}

impl<'a> HistoryFigure<'a> {
    fn new(rows: Vec<&'a HistoryRow>, title: &'a str) -> Self {
        let anchors = anchor_series(&rows);
        let any = |get: fn(&HistoryRow) -> f64| rows.iter().any(|r| get(r).is_finite());
        let mut panels = vec![Panel::Fitness];
        if !anchors.is_empty() {
            panels.push(Panel::Anchors);
        }
        if any(|r| r.pc_mean) || any(|r| r.pm_mean) {
            panels.push(Panel::Rates);
        }
        if any(|r| r.diversity) || rows.iter().any(|r| r.immigrants > 0) {
            panels.push(Panel::Diversity);
        }
        HistoryFigure { rows, title, anchors, panels }
    }

    fn markers(&self) -> bool {
        self.rows.len() <= MARKERS_UP_TO
    }

    /// The fitness axis with its unit. history.csv does not name the fitness mode, so it is
    /// read from the numbers: `li2007` fitness is whole points (wins minus losses of the
    /// generation) with no rating error; the ratings are Elo relative to the first anchor (the
    /// first `vs_` columns), or to the prior's level without anchors.
    fn fitness_desc(&self) -> String {
        let points = self.rows.iter().all(|r| r.best_se == 0.0 && r.fmax.fract() == 0.0 && r.fmin.fract() == 0.0);
        match (points, self.anchors.first()) {
            (true, _) => "fitness (wins - losses)".into(),
            (false, Some(a)) => format!("fitness (Elo vs {})", a.name),
            (false, None) => "fitness (Elo)".into(),
        }
    }

    fn x_range(&self) -> std::ops::Range<u32> {
        generation_range(self.rows[0].generation, self.rows[self.rows.len() - 1].generation, self.markers())
    }

    /// Whether some row has a finite value in this column.
    fn present(&self, get: fn(&HistoryRow) -> f64) -> bool {
        self.rows.iter().any(|r| get(r).is_finite())
    }

    /// The legend entries of one panel, beside its top.
    fn legend<DB: DrawingBackend>(&self, panel: Panel, area: &DrawingArea<DB, Shift>) -> Result<Vec<LegendEntry>>
    where
        DB::ErrorType: 'static,
    {
        let markers = self.markers();
        let entry = |name: &str, color, stroke, marker| LegendEntry {
            lines: vec![name.to_string()],
            color,
            stroke,
            marker: if markers || matches!(marker, Marker::Bar) { marker } else { Marker::None },
        };
        // A curve with no finite value at all (say diversity never computed) is left out of
        // the legend too, rather than listed with nothing to show.
        let mut out = Vec::new();
        match panel {
            Panel::Fitness => {
                for (name, color, get) in FITNESS_CURVES {
                    if self.present(get) {
                        out.push(entry(name, color, Stroke::Solid, Marker::Circle));
                    }
                }
            }
            Panel::Anchors => {
                for (i, s) in self.anchors.iter().enumerate() {
                    let sparse = s.points.len() <= MARKERS_UP_TO;
                    out.push(LegendEntry {
                        lines: wrap_name(area, &format!("vs {}", s.name), LEGEND_TEXT_MAX)?,
                        color: anchor_color(i),
                        stroke: Stroke::Solid,
                        marker: if sparse { Marker::Circle } else { Marker::None },
                    });
                }
                let dense = self.anchors.iter().any(|s| s.points.len() > MARKERS_UP_TO);
                let (stroke, marker) =
                    if dense { (Stroke::Band, Marker::None) } else { (Stroke::Nothing, Marker::Bar) };
                let color = if self.anchors.len() == 1 { anchor_color(0) } else { GREY };
                out.push(entry("95% interval", color, stroke, marker));
                out.push(entry("even (50%)", GREY, Stroke::Dashed, Marker::None));
            }
            Panel::Rates => {
                if self.present(PC.2) {
                    out.push(entry(PC.0, PC.1, Stroke::Solid, Marker::Circle));
                }
                if self.present(PM.2) {
                    out.push(entry(PM.0, PM.1, Stroke::Dashed, Marker::Triangle));
                }
            }
            Panel::Diversity => {
                if self.present(DIVERSITY.2) {
                    out.push(entry(DIVERSITY.0, DIVERSITY.1, Stroke::Solid, Marker::Circle));
                }
                if self.rows.iter().any(|r| r.immigrants > 0) {
                    out.push(entry("immigrants (right axis)", IMMIGRANTS, Stroke::Solid, Marker::Triangle));
                }
            }
        }
        Ok(out)
    }

    /// A panel's chart on one y axis, with its mesh drawn; `last` adds the generation axis
    /// name below it.
    fn chart<'b, DB: DrawingBackend>(
        &self,
        area: &'b DrawingArea<DB, Shift>,
        y: (f64, f64),
        y_desc: &str,
        last: bool,
    ) -> Result<GenerationChart<'b, DB>>
    where
        DB::ErrorType: 'static,
    {
        let mut chart = ChartBuilder::on(area)
            .margin_top(10)
            .margin_left(10)
            .margin_right(4 + AXIS_W)
            .x_label_area_size(if last { 30 + X_DESC_H } else { 30 })
            .y_label_area_size(AXIS_W)
            .build_cartesian_2d(self.x_range(), y.0..y.1)
            .map_err(plot_err)?;
        let (bold, light) = mesh_grid_styles();
        let mut mesh = chart.configure_mesh();
        mesh.bold_line_style(bold)
            .light_line_style(light)
            .y_desc(y_desc)
            .axis_desc_style((FONT, DESC_PX))
            .label_style((FONT, TICK_PX))
            .x_label_formatter(&generation_label)
            .y_label_formatter(&|v| tick_label(*v))
            .y_labels(if area.dim_in_pixel().1 < 200 { 5 } else { 10 });
        if last {
            mesh.x_desc("generation");
        }
        mesh.draw().map_err(plot_err)?;
        Ok(chart)
    }

    /// A line through a column's finite values, with markers when the history is short.
    fn draw_curve<DB: DrawingBackend>(
        &self,
        chart: &mut GenerationChart<'_, DB>,
        get: fn(&HistoryRow) -> f64,
        color: RGBColor,
    ) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let pts = column(&self.rows, get);
        chart.draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2))).map_err(plot_err)?;
        if self.markers() {
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled()))).map_err(plot_err)?;
        }
        Ok(())
    }

    fn draw_fitness<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>, last: bool) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let values = self.rows.iter().flat_map(|r| [r.fmax, r.favg, r.fmin]);
        let y = padded_range(values, 0.06).unwrap_or((-1.0, 1.0));
        let mut chart = self.chart(area, y, &self.fitness_desc(), last)?;
        for (_, color, get) in FITNESS_CURVES {
            self.draw_curve(&mut chart, get, color)?;
        }
        Ok(())
    }

    /// Scores in percent against each anchor: a line with error bars (or, when dense, a pale
    /// band) of the 95% interval, and the even score dashed. With several anchors their bars
    /// are spread a few pixels apart so that they do not hide one another.
    fn draw_anchors<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>, last: bool) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let values = self.anchors.iter().flat_map(|s| s.points.iter().flat_map(|p| [p.lo, p.hi])).chain([50.0]);
        let (y0, y1) = padded_range(values, 0.08).unwrap_or((0.0, 100.0));
        let y = (y0.max(-2.0), y1.min(102.0));
        let y_desc = match &self.anchors[..] {
            [only] => format!("score vs {} (%)", only.name),
            _ => "score vs anchors (%)".to_string(),
        };
        let mut chart = self.chart(area, y, &y_desc, last)?;
        // Dense curves get their intervals as pale bands, under everything else.
        for (i, s) in self.anchors.iter().enumerate().filter(|(_, s)| s.points.len() > MARKERS_UP_TO) {
            let band: Vec<(u32, f64)> = s
                .points
                .iter()
                .map(|p| (p.generation, p.hi))
                .chain(s.points.iter().rev().map(|p| (p.generation, p.lo)))
                .collect();
            chart.draw_series([Polygon::new(band, band_style(anchor_color(i)))]).map_err(plot_err)?;
        }
        let x = self.x_range();
        chart
            .draw_series(DashedLineSeries::new([(x.start, 50.0), (x.end, 50.0)], 8, 6, GREY.stroke_width(2)))
            .map_err(plot_err)?;
        let k = self.anchors.len() as i32;
        for (i, s) in self.anchors.iter().enumerate() {
            let color = anchor_color(i);
            let line = color.stroke_width(2);
            chart
                .draw_series(LineSeries::new(s.points.iter().map(|p| (p.generation, p.score)), line))
                .map_err(plot_err)?;
            if s.points.len() > MARKERS_UP_TO {
                continue;
            }
            let dx = (2 * i as i32 - (k - 1)) * 3;
            for p in &s.points {
                // Bars in pixels relative to the point, so that they can be shifted sideways.
                let (_, py) = chart.backend_coord(&(p.generation, p.score));
                let (_, lo) = chart.backend_coord(&(p.generation, p.lo));
                let (_, hi) = chart.backend_coord(&(p.generation, p.hi));
                let (lo, hi) = (lo - py, hi - py);
                let bar = EmptyElement::at((p.generation, p.score))
                    + PathElement::new(vec![(dx, lo), (dx, hi)], line)
                    + PathElement::new(vec![(dx - 5, lo), (dx + 5, lo)], line);
                let top = EmptyElement::at((p.generation, p.score))
                    + PathElement::new(vec![(dx - 5, hi), (dx + 5, hi)], line)
                    + Circle::new((dx, 0), 4, color.filled());
                chart.draw_series([bar]).map_err(plot_err)?;
                chart.draw_series([top]).map_err(plot_err)?;
            }
        }
        Ok(())
    }

    /// Pc on the left axis and Pm, often a hundred times smaller, dashed on the right one, each
    /// axis in its curve's colour so that a reader can tell which belongs where.
    fn draw_rates<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>, last: bool) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let (_, l1) = zero_based_range(self.rows.iter().map(|r| r.pc_mean));
        // Different headroom on the two axes keeps a constant Pc and a constant Pm (as in a
        // one-generation history) from landing on the same pixel row.
        let (_, r1) = zero_based_range(self.rows.iter().map(|r| r.pm_mean));
        let r1 = r1 * 1.15;
        let x = self.x_range();
        let mut chart = ChartBuilder::on(area)
            .margin_top(10)
            .margin_left(10)
            .margin_right(4)
            .x_label_area_size(if last { 30 + X_DESC_H } else { 30 })
            .y_label_area_size(AXIS_W)
            .right_y_label_area_size(AXIS_W)
            .build_cartesian_2d(x.clone(), 0.0..l1)
            .map_err(plot_err)?
            .set_secondary_coord(x, 0.0..r1);
        let (bold, light) = mesh_grid_styles();
        let mut mesh = chart.configure_mesh();
        mesh.bold_line_style(bold)
            .light_line_style(light)
            .y_desc("Pc")
            .axis_desc_style((FONT, DESC_PX).into_font().color(&PC.1))
            .label_style((FONT, TICK_PX))
            .x_label_formatter(&generation_label)
            .y_label_formatter(&|v| tick_label(*v))
            .y_labels(5);
        if last {
            mesh.x_desc("generation");
        }
        mesh.draw().map_err(plot_err)?;
        chart
            .configure_secondary_axes()
            .y_desc("Pm")
            .axis_desc_style((FONT, DESC_PX).into_font().color(&PM.1))
            .label_style((FONT, TICK_PX).into_font().color(&PM.1))
            .y_label_formatter(&|v| tick_label(*v))
            .y_labels(5)
            .draw()
            .map_err(plot_err)?;
        let pc = column(&self.rows, PC.2);
        chart.draw_series(LineSeries::new(pc.iter().copied(), PC.1.stroke_width(2))).map_err(plot_err)?;
        let pm = column(&self.rows, PM.2);
        chart
            .draw_secondary_series(DashedLineSeries::new(pm.iter().copied(), 8, 6, PM.1.stroke_width(2)))
            .map_err(plot_err)?;
        if self.markers() {
            chart.draw_series(pc.iter().map(|&p| Circle::new(p, 4, PC.1.filled()))).map_err(plot_err)?;
            chart
                .draw_secondary_series(pm.iter().map(|&p| TriangleMarker::new(p, 6, PM.1.filled())))
                .map_err(plot_err)?;
        }
        Ok(())
    }

    /// Diversity on the left axis and, on the right, how many newcomers replaced children in
    /// each generation (diversity had fallen below `[diversity] min`): a count per generation
    /// reads at any density, where a tick per such generation merged into a bar.
    fn draw_diversity<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>, last: bool) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let y = zero_based_range(self.rows.iter().map(|r| r.diversity));
        if !self.rows.iter().any(|r| r.immigrants > 0) {
            let mut chart = self.chart(area, y, "gene diversity", last)?;
            return self.draw_curve(&mut chart, DIVERSITY.2, DIVERSITY.1);
        }
        let most = self.rows.iter().map(|r| r.immigrants).max().unwrap_or(1).max(1) as f64;
        let x = self.x_range();
        let mut chart = ChartBuilder::on(area)
            .margin_top(10)
            .margin_left(10)
            .margin_right(4)
            .x_label_area_size(if last { 30 + X_DESC_H } else { 30 })
            .y_label_area_size(AXIS_W)
            .right_y_label_area_size(AXIS_W)
            .build_cartesian_2d(x.clone(), y.0..y.1)
            .map_err(plot_err)?
            .set_secondary_coord(x, 0.0..most * 1.15);
        let (bold, light) = mesh_grid_styles();
        let mut mesh = chart.configure_mesh();
        mesh.bold_line_style(bold)
            .light_line_style(light)
            .y_desc("gene diversity")
            .axis_desc_style((FONT, DESC_PX))
            .label_style((FONT, TICK_PX))
            .x_label_formatter(&generation_label)
            .y_label_formatter(&|v| tick_label(*v))
            .y_labels(5);
        if last {
            mesh.x_desc("generation");
        }
        mesh.draw().map_err(plot_err)?;
        chart
            .configure_secondary_axes()
            .y_desc("immigrants")
            .axis_desc_style((FONT, DESC_PX).into_font().color(&IMMIGRANTS))
            .label_style((FONT, TICK_PX).into_font().color(&IMMIGRANTS))
            .y_label_formatter(&|v| tick_label(*v))
            .y_labels(5)
            .draw()
            .map_err(plot_err)?;
        let counts: Vec<(u32, f64)> = self.rows.iter().map(|r| (r.generation, r.immigrants as f64)).collect();
        chart
            .draw_secondary_series(LineSeries::new(counts.iter().copied(), IMMIGRANTS.stroke_width(1)))
            .map_err(plot_err)?;
        if self.markers() {
            chart
                .draw_secondary_series(
                    counts.iter().filter(|p| p.1 > 0.0).map(|&p| TriangleMarker::new(p, 5, IMMIGRANTS.filled())),
                )
                .map_err(plot_err)?;
        }
        let pts = column(&self.rows, DIVERSITY.2);
        chart.draw_series(LineSeries::new(pts.iter().copied(), DIVERSITY.1.stroke_width(2))).map_err(plot_err)?;
        if self.markers() {
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, DIVERSITY.1.filled()))).map_err(plot_err)?;
        }
        Ok(())
    }
}

/// A chart with generations across and one value axis.
type GenerationChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordu32, RangedCoordf64>>;

/// A history curve: legend name, colour, and the column it plots.
type Curve = (&'static str, RGBColor, fn(&HistoryRow) -> f64);

const FITNESS_CURVES: [Curve; 3] =
    [("fmax (best)", GREEN, |r| r.fmax), ("favg (mean)", BLUE, |r| r.favg), ("fmin (worst)", VERMILLION, |r| r.fmin)];
const PC: Curve = ("mean Pc", BLUE, |r| r.pc_mean);
const PM: Curve = ("mean Pm (right axis)", VERMILLION, |r| r.pm_mean);
const DIVERSITY: Curve = ("gene diversity", PURPLE, |r| r.diversity);
const IMMIGRANTS: RGBColor = ORANGE;

fn anchor_color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

impl Figure for HistoryFigure<'_> {
    fn size(&self) -> (u32, u32) {
        (HISTORY_W, TITLE_H + self.panels.iter().map(|p| p.height()).sum::<u32>() + X_DESC_H)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(plot_err)?;
        let body = root.titled(self.title, (FONT, TITLE_PX)).map_err(plot_err)?;
        let legends = self.panels.iter().map(|&p| self.legend(p, &body)).collect::<Result<Vec<_>>>()?;
        let mut legend_w = 0;
        for l in &legends {
            legend_w = legend_w.max(legend_width(&body, l)?);
        }
        let (charts, legend) = body.split_horizontally(body.dim_in_pixel().0 - legend_w);

        // Panel heights scaled to the space the title left, the last one with the axis name.
        let total: u32 = self.panels.iter().map(|p| p.height()).sum::<u32>() + X_DESC_H;
        let height = charts.dim_in_pixel().1;
        let mut rest = charts;
        let mut top = 0;
        for (i, (&panel, entries)) in self.panels.iter().zip(&legends).enumerate() {
            let last = i + 1 == self.panels.len();
            let area = if last {
                rest.clone()
            } else {
                let (area, below) = rest.split_vertically(panel.height() * height / total);
                rest = below;
                area
            };
            match panel {
                Panel::Fitness => self.draw_fitness(&area, last)?,
                Panel::Anchors => self.draw_anchors(&area, last)?,
                Panel::Rates => self.draw_rates(&area, last)?,
                Panel::Diversity => self.draw_diversity(&area, last)?,
            }
            draw_legend(&legend, entries, top as i32 + 24)?;
            top += area.dim_in_pixel().1;
        }
        Ok(())
    }
}

/// Writes `genes.png` and `genes.svg` into `out_dir`: one small chart per weight of `schema`,
/// titled with its name, showing its value in each generation's best individual (`points`:
/// generation and genes in schema order). Each chart's y axis spans the values the weight took
/// (a little more), so that a weight that moved between 1,000 and 2,300 shows its moves even
/// when its bounds are 0 to 20,000; the hand-set default is a dashed line, or when it lies
/// outside the values a note at the chart's top or bottom edge says where. Weights of another
/// group (the move-order genes) start a new row of the grid.
///
/// Several points of one generation keep the last; the points need not be sorted.
pub fn plot_genes(schema: &Schema, points: &[(u32, Vec<i32>)], out_dir: &Path, title: &str) -> Result<Vec<PathBuf>> {
    let png = out_dir.join("genes.png");
    let deduped = gene_points(schema, points).map_err(|e| anyhow!("{}: {e}", png.display()))?;
    write_figure(out_dir, "genes", &GenesFigure::new(schema, deduped, title))
}

/// The genes figure of [`plot_genes`] as SVG text (for a web page).
pub fn genes_svg(schema: &Schema, points: &[(u32, Vec<i32>)], title: &str) -> Result<String> {
    render_svg(&GenesFigure::new(schema, gene_points(schema, points)?, title))
}

/// The points checked against the schema, by generation, the last of several of one generation.
fn gene_points<'a>(schema: &Schema, points: &'a [(u32, Vec<i32>)]) -> Result<Vec<&'a (u32, Vec<i32>)>> {
    ensure!(!schema.is_empty(), "the schema {}/{} has no weights", schema.game, schema.eval);
    ensure!(!points.is_empty(), "no generations to plot");
    if let Some((g, genes)) = points.iter().find(|(_, genes)| genes.len() != schema.len()) {
        bail!(
            "generation {g} has {} genes but {}/{} has {} weights",
            genes.len(),
            schema.game,
            schema.eval,
            schema.len()
        );
    }
    let mut sorted: Vec<&(u32, Vec<i32>)> = points.iter().collect();
    // Stable, so that of several points of one generation the last given stays last.
    sorted.sort_by_key(|(g, _)| *g);
    let mut deduped: Vec<&(u32, Vec<i32>)> = Vec::with_capacity(sorted.len());
    for p in sorted {
        match deduped.last_mut() {
            Some(last) if last.0 == p.0 => *last = p,
            _ => deduped.push(p),
        }
    }
    Ok(deduped)
}

/// The y range of a gene's chart: its values with a margin of 8% of their spread either side,
/// or, for a value that never changed, 5% of it (at least 1) either side.
fn value_range(values: impl Iterator<Item = i32>) -> (f64, f64) {
    let (lo, hi) =
        values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(f64::from(v)), hi.max(f64::from(v))));
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = if hi > lo { 0.08 * (hi - lo) } else { (0.05 * lo.abs()).max(1.0) };
    (lo - pad, hi + pad)
}

/// The small charts of the genes figure mark each point up to this many generations.
const GENE_MARKERS_UP_TO: usize = 25;
/// Width and height of one small chart of the genes figure.
const GENE_CELL: (u32, u32) = (230, 200);
/// Title and the legend line above the grid.
const GENES_HEADER_H: u32 = 86;

struct GenesFigure<'a> {
    schema: &'a Schema,
    points: Vec<&'a (u32, Vec<i32>)>,
    title: &'a str,
    cols: usize,
    /// The grid cell (row, column) of each weight.
    cells: Vec<(usize, usize)>,
    rows: usize,
}

impl<'a> GenesFigure<'a> {
    fn new(schema: &'a Schema, points: Vec<&'a (u32, Vec<i32>)>, title: &'a str) -> Self {
        let n = schema.len();
        // Four to six columns: 16, 20 and 36 weights fill 4x4, 5x4 and 6x6 grids.
        let cols = ((n as f64).sqrt().ceil() as usize).clamp(4, 6).min(n);
        let mut cells = Vec::with_capacity(n);
        let (mut row, mut col) = (0, 0);
        for (i, spec) in schema.specs.iter().enumerate() {
            if col == cols || (i > 0 && spec.group != schema.specs[i - 1].group && col > 0) {
                row += 1;
                col = 0;
            }
            cells.push((row, col));
            col += 1;
        }
        GenesFigure { schema, points, title, cols, cells, rows: row + 1 }
    }
}

impl Figure for GenesFigure<'_> {
    fn size(&self) -> (u32, u32) {
        let w = (self.cols as u32 * GENE_CELL.0 + 20).max(1000);
        (w, GENES_HEADER_H + self.rows as u32 * GENE_CELL.1 + 10)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(plot_err)?;
        let body = root.titled(self.title, (FONT, TITLE_PX)).map_err(plot_err)?;
        let header_h = GENES_HEADER_H - (root.dim_in_pixel().1 - body.dim_in_pixel().1);
        let (header, grid) = body.split_vertically(header_h);
        let grid = grid.margin(0, 10, 10, 10);

        // The legend, in one line: what the line and the dashes are, and how to read the axes.
        let y = header_h as i32 / 2;
        let style = legend_style().pos(Pos::new(HPos::Left, VPos::Center));
        let best = "the generation's best individual";
        let default = "hand-set default";
        let axes = "x: generation; y: the values the weight took";
        let mut x = 20;
        header.draw(&PathElement::new(vec![(x, y), (x + 36, y)], BLUE.stroke_width(3))).map_err(plot_err)?;
        header.draw_text(best, &style, (x + 42, y)).map_err(plot_err)?;
        x += 42 + text_width(&header, best)? as i32 + 40;
        for dx in [0, 14, 28] {
            header
                .draw(&PathElement::new(vec![(x + dx, y), (x + dx + 8, y)], GREY.stroke_width(3)))
                .map_err(plot_err)?;
        }
        header.draw_text(default, &style, (x + 42, y)).map_err(plot_err)?;
        x += 42 + text_width(&header, default)? as i32 + 40;
        header.draw_text(axes, &style, (x, y)).map_err(plot_err)?;

        let areas = grid.split_evenly((self.rows, self.cols));
        let first = self.points[0].0;
        let last = self.points[self.points.len() - 1].0;
        let markers = self.points.len() <= GENE_MARKERS_UP_TO;
        let x_range = generation_range(first, last, markers);
        for (i, (spec, &(row, col))) in self.schema.specs.iter().zip(&self.cells).enumerate() {
            let area = &areas[row * self.cols + col];
            let (y0, y1) = value_range(self.points.iter().map(|(_, genes)| genes[i]));
            let mut chart = ChartBuilder::on(area)
                .caption(spec.name, (FONT, 17))
                .margin(6)
                .margin_right(12)
                .x_label_area_size(24)
                .y_label_area_size(52)
                .build_cartesian_2d(x_range.clone(), y0..y1)
                .map_err(plot_err)?;
            chart
                .configure_mesh()
                .bold_line_style(BLACK.mix(0.12))
                .light_line_style(WHITE.mix(0.0))
                .label_style((FONT, TICK_PX))
                .x_labels(4)
                .y_labels(3)
                .x_label_formatter(&generation_label)
                .y_label_formatter(&|t| tick_label(*t))
                .draw()
                .map_err(plot_err)?;
            let pts: Vec<(u32, f64)> = self.points.iter().map(|(g, genes)| (*g, f64::from(genes[i]))).collect();
            chart.draw_series(LineSeries::new(pts.iter().copied(), BLUE.stroke_width(2))).map_err(plot_err)?;
            if markers {
                chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, BLUE.filled()))).map_err(plot_err)?;
            }
            // The default over the curve: where a gene stays at its default, both still show.
            // Outside the values, a note at the edge on its side instead of a squashed axis.
            let d = f64::from(spec.default);
            if (y0..=y1).contains(&d) {
                chart
                    .draw_series(DashedLineSeries::new(
                        [(x_range.start, d), (x_range.end, d)],
                        6,
                        5,
                        GREY.stroke_width(2),
                    ))
                    .map_err(plot_err)?;
            } else {
                let (y, v, arrow) = if d > y1 { (y1, VPos::Top, "above") } else { (y0, VPos::Bottom, "below") };
                let style = (FONT, TICK_PX).into_font().color(&GREY).pos(Pos::new(HPos::Left, v));
                let label = format!("hand-set {} ({arrow})", spec.default);
                let dy = if d > y1 { 2 } else { -2 };
                chart
                    .draw_series(std::iter::once(
                        EmptyElement::at((x_range.start, y)) + Text::new(label, (4, dy), style),
                    ))
                    .map_err(plot_err)?;
            }
        }
        Ok(())
    }
}

struct SeriesFigure<'a> {
    title: &'a str,
    x_label: &'a str,
    y_label: &'a str,
    series: &'a [Series],
    x_range: (f64, f64),
    y_range: (f64, f64),
}

impl Figure for SeriesFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(plot_err)?;
        let body = root.titled(self.title, (FONT, TITLE_PX)).map_err(plot_err)?;

        let mut entries = Vec::with_capacity(self.series.len());
        let mut curves = Vec::with_capacity(self.series.len());
        for (i, s) in self.series.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let pts: Vec<(f64, f64, Option<f64>)> =
                s.points.iter().copied().filter(|&(x, y, _)| x.is_finite() && y.is_finite()).collect();
            let marker = if pts.len() <= MARKERS_UP_TO { Marker::Circle } else { Marker::None };
            let lines = wrap_name(&body, &s.name, LEGEND_TEXT_MAX)?;
            entries.push(LegendEntry { lines, color, stroke: Stroke::Solid, marker });
            curves.push((pts, color, marker));
        }
        let legend_w = legend_width(&body, &entries)?;
        let (plot, legend) = body.split_horizontally(body.dim_in_pixel().0 - legend_w);

        let (x0, x1) = self.x_range;
        let (y0, y1) = self.y_range;
        let (bold, light) = mesh_grid_styles();
        let mut chart = ChartBuilder::on(&plot)
            .margin_top(8)
            .margin_left(10)
            .margin_right(16)
            .margin_bottom(6)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .bold_line_style(bold)
            .light_line_style(light)
            .x_desc(self.x_label)
            .y_desc(self.y_label)
            .axis_desc_style((FONT, DESC_PX))
            .label_style((FONT, TICK_PX))
            .x_label_formatter(&|v| tick_label(*v))
            .y_label_formatter(&|v| tick_label(*v))
            .draw()
            .map_err(plot_err)?;

        for (pts, color, marker) in curves {
            let line = color.stroke_width(2);
            chart.draw_series(LineSeries::new(pts.iter().map(|&(x, y, _)| (x, y)), line)).map_err(plot_err)?;
            // Error bars as a vertical stroke with caps a fixed number of pixels wide;
            // plotters' ErrorBar also draws its own circle, which would double our markers.
            for (x, y, e) in pts.iter().copied() {
                let Some(e) = e.filter(|e| e.is_finite() && *e > 0.0) else { continue };
                chart.draw_series([PathElement::new(vec![(x, y - e), (x, y + e)], line)]).map_err(plot_err)?;
                let cap = |y| EmptyElement::at((x, y)) + PathElement::new(vec![(-6, 0), (6, 0)], line);
                chart.draw_series([cap(y - e), cap(y + e)]).map_err(plot_err)?;
            }
            if marker == Marker::Circle {
                chart
                    .draw_series(pts.iter().map(|&(x, y, _)| Circle::new((x, y), 4, color.filled())))
                    .map_err(plot_err)?;
            }
        }
        draw_legend(&legend, &entries, 30)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
