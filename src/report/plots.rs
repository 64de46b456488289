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
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::history::HistoryRow;
use crate::fsutil::write_atomic;

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

/// Size of every figure in pixels (the SVG uses the same user units).
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

/// Writes `fitness.png` and `fitness.svg` into `out_dir`: fmax / favg / fmin against generation
/// on top; below, mean Pc and gene diversity (both shares in [0, 1], left axis) and mean Pm on a
/// right axis of its own, since Pm is often a hundred times smaller than Pc.
pub fn plot_history(rows: &[HistoryRow], out_dir: &Path, title: &str) -> Result<Vec<PathBuf>> {
    let png = out_dir.join("fitness.png");
    ensure!(!rows.is_empty(), "{}: cannot plot a history with no rows", png.display());
    let mut sorted: Vec<&HistoryRow> = rows.iter().collect();
    // A resumed run appends rows; sorting keeps the lines from doubling back if it ever
    // wrote them out of order.
    sorted.sort_by_key(|r| r.generation);
    write_figure(out_dir, "fitness", &HistoryFigure { rows: sorted, title })
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
    let (w, h) = SIZE;
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
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
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
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

/// The range spanned by the finite `values`, widened by `pad` of its width on each side; a
/// single value gets a unit-sized window around it so that the axis still has ticks.
fn padded_range(values: impl IntoIterator<Item = f64>, pad: f64) -> Option<(f64, f64)> {
    let (lo, hi) = values
        .into_iter()
        .filter(|v| v.is_finite())
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
    let max = values.into_iter().filter(|v| v.is_finite()).fold(0.0_f64, f64::max);
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
}

/// One entry of a legend: a short sample of the curve (line, dashes, marker) and its name,
/// already wrapped into lines that fit the legend column.
struct LegendEntry {
    lines: Vec<String>,
    color: RGBColor,
    dashed: bool,
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
        if e.dashed {
            for x in [6, 20, 34] {
                area.draw(&PathElement::new(vec![(x, y), (x + 8, y)], stroke)).map_err(plot_err)?;
            }
        } else {
            area.draw(&PathElement::new(vec![(6, y), (42, y)], stroke)).map_err(plot_err)?;
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
    }
}

/// The finite `(generation, value)` points of one history column.
fn column(rows: &[&HistoryRow], get: fn(&HistoryRow) -> f64) -> Vec<(u32, f64)> {
    rows.iter().map(|r| (r.generation, get(r))).filter(|(_, y)| y.is_finite()).collect()
}

fn mesh_grid_styles() -> (ShapeStyle, ShapeStyle) {
    (BLACK.mix(0.15).into(), BLACK.mix(0.05).into())
}

struct HistoryFigure<'a> {
    rows: Vec<&'a HistoryRow>,
    title: &'a str,
}

/// A history curve: legend name, colour, and the column it plots.
type Curve = (&'static str, RGBColor, fn(&HistoryRow) -> f64);

impl Figure for HistoryFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        let rows = &self.rows;
        root.fill(&WHITE).map_err(plot_err)?;
        let body = root.titled(self.title, (FONT, TITLE_PX)).map_err(plot_err)?;

        let fitness: [Curve; 3] = [
            ("fmax (best)", GREEN, |r| r.fmax),
            ("favg (mean)", BLUE, |r| r.favg),
            ("fmin (worst)", VERMILLION, |r| r.fmin),
        ];
        let left: [Curve; 2] = [("mean Pc", BLUE, |r| r.pc_mean), ("gene diversity", PURPLE, |r| r.diversity)];
        let right: Curve = ("mean Pm (right axis)", VERMILLION, |r| r.pm_mean);
        let markers = rows.len() <= MARKERS_UP_TO;
        let entry = |name: &str, color, dashed, marker| LegendEntry {
            lines: vec![name.to_string()],
            color,
            dashed,
            marker: if markers { marker } else { Marker::None },
        };
        // A curve with no finite value at all (say diversity never computed) is left out of
        // the legend too, rather than listed with nothing to show.
        let present = |c: &&Curve| rows.iter().any(|r| c.2(r).is_finite());
        let top_legend: Vec<LegendEntry> =
            fitness.iter().filter(present).map(|c| entry(c.0, c.1, false, Marker::Circle)).collect();
        let mut bottom_legend: Vec<LegendEntry> =
            left.iter().filter(present).map(|c| entry(c.0, c.1, false, Marker::Circle)).collect();
        if present(&&right) {
            bottom_legend.push(entry(right.0, right.1, true, Marker::Triangle));
        }

        let legend_w = legend_width(&body, &top_legend)?.max(legend_width(&body, &bottom_legend)?);
        let (charts, legend) = body.split_horizontally(body.dim_in_pixel().0 - legend_w);
        let split = charts.dim_in_pixel().1 * 57 / 100;
        let (top, bottom) = charts.split_vertically(split);

        let first = rows[0].generation;
        let last = rows[rows.len() - 1].generation;
        // plotters needs a non-empty axis; one generation gets a window of one either side.
        let x_range = if first == last { first.saturating_sub(1)..last + 1 } else { first..last };
        let (bold, light) = mesh_grid_styles();
        const AXIS_W: u32 = 80;

        // Top panel: fitness. Its right margin matches the bottom panel's Pm axis so that the
        // two panels' generations line up.
        let fit_values = rows.iter().flat_map(|r| [r.fmax, r.favg, r.fmin]);
        let (y0, y1) = padded_range(fit_values, 0.06).unwrap_or((-1.0, 1.0));
        let mut chart = ChartBuilder::on(&top)
            .margin_top(8)
            .margin_left(10)
            .margin_right(4 + AXIS_W)
            .x_label_area_size(36)
            .y_label_area_size(AXIS_W)
            .build_cartesian_2d(x_range.clone(), y0..y1)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .bold_line_style(bold)
            .light_line_style(light)
            .y_desc("fitness (wins − losses)")
            .axis_desc_style((FONT, DESC_PX))
            .label_style((FONT, TICK_PX))
            .x_label_formatter(&generation_label)
            .y_label_formatter(&|v| tick_label(*v))
            .draw()
            .map_err(plot_err)?;
        for (_, color, get) in fitness {
            let pts = column(rows, get);
            chart.draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2))).map_err(plot_err)?;
            if markers {
                chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled()))).map_err(plot_err)?;
            }
        }

        // Bottom panel: Pc and diversity share the left axis (both are shares in [0, 1]); Pm,
        // often a hundred times smaller, gets the right one, drawn dashed so that a reader
        // can tell which axis a curve belongs to without the legend.
        let (_, l1) = zero_based_range(rows.iter().flat_map(|r| [r.pc_mean, r.diversity]));
        let (_, r1) = zero_based_range(rows.iter().map(|r| r.pm_mean));
        // Different headroom on the two axes keeps a constant Pc and a constant Pm (as in a
        // one-generation history) from landing on the same pixel row.
        let r1 = r1 * 1.15;
        let mut chart = ChartBuilder::on(&bottom)
            .margin_top(8)
            .margin_left(10)
            .margin_right(4)
            .margin_bottom(6)
            .x_label_area_size(50)
            .y_label_area_size(AXIS_W)
            .right_y_label_area_size(AXIS_W)
            .build_cartesian_2d(x_range.clone(), 0.0..l1)
            .map_err(plot_err)?
            .set_secondary_coord(x_range, 0.0..r1);
        chart
            .configure_mesh()
            .bold_line_style(bold)
            .light_line_style(light)
            .x_desc("generation")
            .y_desc("Pc, diversity")
            .axis_desc_style((FONT, DESC_PX))
            .label_style((FONT, TICK_PX))
            .x_label_formatter(&generation_label)
            .y_label_formatter(&|v| tick_label(*v))
            .draw()
            .map_err(plot_err)?;
        chart
            .configure_secondary_axes()
            .y_desc("Pm")
            .axis_desc_style((FONT, DESC_PX).into_font().color(&right.1))
            .label_style((FONT, TICK_PX).into_font().color(&right.1))
            .y_label_formatter(&|v| tick_label(*v))
            .draw()
            .map_err(plot_err)?;
        for (_, color, get) in left {
            let pts = column(rows, get);
            chart.draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2))).map_err(plot_err)?;
            if markers {
                chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled()))).map_err(plot_err)?;
            }
        }
        let pm = column(rows, right.2);
        let color = right.1;
        chart
            .draw_secondary_series(DashedLineSeries::new(pm.iter().copied(), 8, 6, color.stroke_width(2)))
            .map_err(plot_err)?;
        if markers {
            chart
                .draw_secondary_series(pm.iter().map(|&p| TriangleMarker::new(p, 6, color.filled())))
                .map_err(plot_err)?;
        }

        draw_legend(&legend, &top_legend, 30)?;
        draw_legend(&legend, &bottom_legend, split as i32 + 30)?;
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
            entries.push(LegendEntry { lines, color, dashed: false, marker });
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
mod tests {
    use super::*;

    fn row(g: u32) -> HistoryRow {
        let t = f64::from(g);
        HistoryRow {
            generation: g,
            fmax: 10.0 + (t / 30.0).sin() * 3.0,
            favg: (t / 50.0).cos(),
            fmin: -10.0 - (t / 40.0).sin() * 2.0,
            champion: (g % 20) as usize,
            pc_mean: 0.6 + 0.2 * (t / 100.0).sin(),
            pm_mean: 0.01 + 0.005 * (t / 70.0).cos(),
            diversity: 0.3 * (-t / 300.0).exp(),
            games: 380,
            black_wins: 200,
            white_wins: 170,
            draws: 10,
            wall_s: 60.0,
            games_wall_s: 55.0,
            best_games: 100,
            best_se: 30.0,
            immigrants: 0,
            anchors: vec![crate::report::history::AnchorRecord::new(
                "defaults",
                crate::arena::stats::Wdl::new(50 + u64::from(g % 7), 0, 50),
            )],
        }
    }

    /// Decodes a PNG and returns (width, height, number of pixels that are not the white
    /// background).
    fn decode(path: &Path) -> (u32, u32, usize) {
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{} is not a PNG", path.display());
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        let inked = buf[..info.buffer_size()].chunks(3).filter(|p| p != &[255, 255, 255]).count();
        (info.width, info.height, inked)
    }

    fn check_pair(paths: &[PathBuf], stem: &str, texts: &[&str]) {
        assert_eq!(paths.len(), 2);
        assert!(paths[0].ends_with(format!("{stem}.png")));
        assert!(paths[1].ends_with(format!("{stem}.svg")));
        let (w, h, inked) = decode(&paths[0]);
        assert_eq!((w, h), SIZE);
        // Axes, grid, curves and text together cover far more than a few stray pixels.
        assert!(inked > 5_000, "only {inked} non-background pixels");
        let svg = std::fs::read_to_string(&paths[1]).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(100)]);
        for t in texts {
            assert!(svg.contains(t), "SVG lacks {t:?}");
        }
    }

    #[test]
    fn history_of_one_row() {
        let dir = tempfile::tempdir().unwrap();
        let paths = plot_history(&[row(1)], dir.path(), "one generation").unwrap();
        check_pair(&paths, "fitness", &["one generation", "fmax (best)", "mean Pm (right axis)", "generation"]);
    }

    #[test]
    fn history_of_many_rows() {
        let dir = tempfile::tempdir().unwrap();
        let rows: Vec<HistoryRow> = (1..=1000).map(row).collect();
        let paths = plot_history(&rows, &dir.path().join("results/run"), "Connect6 run <seed 7> & co").unwrap();
        // The title is escaped in the SVG and the whole file stays well-formed.
        check_pair(
            &paths,
            "fitness",
            &["Connect6 run &lt;seed 7&gt; &amp; co", "fmin (worst)", "gene diversity", "mean Pc"],
        );
    }

    #[test]
    fn history_with_missing_values_still_plots() {
        let dir = tempfile::tempdir().unwrap();
        let mut rows: Vec<HistoryRow> = (1..=5).map(row).collect();
        for r in &mut rows {
            r.diversity = f64::NAN;
        }
        rows[2].favg = f64::INFINITY;
        let paths = plot_history(&rows, dir.path(), "gaps").unwrap();
        let svg = std::fs::read_to_string(&paths[1]).unwrap();
        assert!(!svg.contains("gene diversity"), "a curve with no finite value gets no legend entry");
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }

    #[test]
    fn series_with_error_bars() {
        let dir = tempfile::tempdir().unwrap();
        let ours =
            Series::new("ours", (0..=10).map(|g| (f64::from(g * 10), 0.3 + 0.04 * f64::from(g), Some(0.05))).collect());
        let paper = Series::new("Li Guo 2007", vec![(0.0, 0.25, None), (50.0, 0.6, None), (100.0, 0.72, None)]);
        let even = Series::new("even score", vec![(0.0, 0.5, None), (100.0, 0.5, None)]);
        let paths =
            plot_series(dir.path(), "champions", "Generation champions", "generation", "score", &[ours, paper, even])
                .unwrap();
        check_pair(&paths, "champions", &["Generation champions", "ours", "Li Guo 2007", "even score", "score"]);
    }

    #[test]
    fn series_without_error_bars_and_single_points() {
        let dir = tempfile::tempdir().unwrap();
        let a = Series::new("a", vec![(3.0, 12.0, None)]);
        let b = Series::new("b", vec![(3.0, 12.0, Some(0.0))]);
        let paths = plot_series(dir.path(), "single", "one point", "x", "y", &[a, b]).unwrap();
        check_pair(&paths, "single", &["one point"]);
    }

    #[test]
    fn long_series_names_are_shortened() {
        let dir = tempfile::tempdir().unwrap();
        let long = "x".repeat(300);
        let s = Series::new(long.clone(), vec![(0.0, 0.0, None), (1.0, 1.0, None)]);
        let paths = plot_series(dir.path(), "long", "long name", "x", "y", &[s]).unwrap();
        let svg = std::fs::read_to_string(&paths[1]).unwrap();
        assert!(!svg.contains(&long) && svg.contains('…'));
    }

    #[test]
    fn empty_inputs_are_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let e = plot_history(&[], dir.path(), "t").unwrap_err().to_string();
        assert!(e.contains("fitness.png") && e.contains("no rows"), "{e}");

        let e = plot_series(dir.path(), "s", "t", "x", "y", &[]).unwrap_err().to_string();
        assert!(e.contains("s.png") && e.contains("no series"), "{e}");

        let empty = Series::new("empty", vec![]);
        let nan = Series::new("nan", vec![(f64::NAN, 1.0, None)]);
        let e = plot_series(dir.path(), "s", "t", "x", "y", &[empty, nan]).unwrap_err().to_string();
        assert!(e.contains("s.png") && e.contains("no finite points"), "{e}");

        let neg = Series::new("neg", vec![(1.0, 1.0, Some(-1.0))]);
        let e = plot_series(dir.path(), "s", "t", "x", "y", &[neg]).unwrap_err().to_string();
        assert!(e.contains("negative error bar"), "{e}");

        let e = plot_series(dir.path(), "a/b", "t", "x", "y", &[]).unwrap_err().to_string();
        assert!(e.contains("file stem"), "{e}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written on error");
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick_label(0.30000000000000004), "0.3");
        assert_eq!(tick_label(200.0), "200");
        assert_eq!(tick_label(-0.0), "0");
        assert_eq!(tick_label(0.0125), "0.0125");
        assert_eq!(tick_label(-150.0), "-150");
    }

    #[test]
    fn ranges_are_never_empty() {
        assert_eq!(padded_range([], 0.1), None);
        assert_eq!(padded_range([f64::NAN], 0.1), None);
        let (lo, hi) = padded_range([5.0], 0.1).unwrap();
        assert!(lo < 5.0 && hi > 5.0);
        let (lo, hi) = padded_range([0.0, 10.0], 0.1).unwrap();
        assert!((lo + 1.0).abs() < 1e-12 && (hi - 11.0).abs() < 1e-12);
        assert_eq!(zero_based_range([0.0, 0.0]), (0.0, 1.0));
    }
}
