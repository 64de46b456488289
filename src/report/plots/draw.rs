//! What every plot shares: the figure's size, fonts and colours, axis ranges and tick labels,
//! legends, markers and interval bands.

use anyhow::{anyhow, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Size of a figure in pixels unless it says otherwise (the SVG uses the same user units).
pub(super) const SIZE: (u32, u32) = (1000, 700);
/// The family plotters asks for by default; registering our font under it means every label,
/// including the ones plotters draws on its own (tick labels), uses the embedded font.
pub(super) const FONT: &str = "sans-serif";
pub(super) const TITLE_PX: u32 = 26;
pub(super) const DESC_PX: u32 = 18;
pub(super) const TICK_PX: u32 = 15;
pub(super) const LEGEND_PX: u32 = 16;
/// Curves with at most this many points also get a marker at each point, so that a one-row
/// history or a sparse experiment still shows something; dense curves stay plain lines.
pub(super) const MARKERS_UP_TO: usize = 60;

// Okabe–Ito colours: distinguishable with the common colour-vision deficiencies and dark enough
// on white (the palette's yellow is left out for that reason).
pub(super) const BLUE: RGBColor = RGBColor(0, 114, 178);
pub(super) const VERMILLION: RGBColor = RGBColor(213, 94, 0);
pub(super) const GREEN: RGBColor = RGBColor(0, 158, 115);
pub(super) const PURPLE: RGBColor = RGBColor(204, 121, 167);
pub(super) const ORANGE: RGBColor = RGBColor(230, 159, 0);
pub(super) const SKY: RGBColor = RGBColor(86, 180, 233);
pub(super) const GREY: RGBColor = RGBColor(90, 90, 90);
pub(super) const PALETTE: [RGBColor; 7] = [BLUE, VERMILLION, GREEN, PURPLE, ORANGE, SKY, GREY];

/// The largest magnitude an axis spans: values beyond it (a history edited by hand, or
/// written by a broken run, may hold ±1e308) are drawn at the edge, so that the axis's width
/// and its ticks stay finite (past it, drawing never ends).
pub(super) const AXIS_LIMIT: f64 = 1e12;

/// The range spanned by the finite `values` (clamped to ±[`AXIS_LIMIT`]), widened by `pad` of
/// its width on each side; a single value gets a unit-sized window around it so that the axis
/// still has ticks.
pub(super) fn padded_range(values: impl IntoIterator<Item = f64>, pad: f64) -> Option<(f64, f64)> {
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
pub(super) fn zero_based_range(values: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let max = values.into_iter().filter(|v| v.is_finite()).fold(0.0_f64, f64::max).min(AXIS_LIMIT);
    (0.0, if max > 0.0 { max * 1.15 } else { 1.0 })
}

/// Tick labels without float noise ("0.30000000000000004") or pointless decimals ("200.0").
pub(super) fn tick_label(v: f64) -> String {
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

pub(super) fn generation_label(g: &u32) -> String {
    g.to_string()
}

/// plotters' errors are generic over the backend, so `?` cannot turn them into anyhow's
/// inside the generic drawing code without this.
pub(super) fn plot_err<E: std::error::Error + Send + Sync + 'static>(e: DrawingAreaErrorKind<E>) -> anyhow::Error {
    anyhow!(e)
}

/// How a curve's points are marked, in the plot and in its legend sample.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Marker {
    None,
    Circle,
    Triangle,
    /// A vertical error bar with caps.
    Bar,
}

/// How a curve is drawn between its points, in the plot and in its legend sample.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Stroke {
    Solid,
    Dashed,
    /// A pale filled band (an interval around a dense curve).
    Band,
    Nothing,
}

/// One entry of a legend: a short sample of the curve (line, dashes, marker) and its name,
/// already wrapped into lines that fit the legend column.
pub(super) struct LegendEntry {
    pub(super) lines: Vec<String>,
    pub(super) color: RGBColor,
    pub(super) stroke: Stroke,
    pub(super) marker: Marker,
}

pub(super) const LEGEND_SAMPLE_W: u32 = 48;
pub(super) const LEGEND_LINE_H: i32 = 20;
pub(super) const LEGEND_GAP: i32 = 10;
/// The longest a legend line may be before it wraps; keeps the plot the widest part.
pub(super) const LEGEND_TEXT_MAX: u32 = 230;

pub(super) fn legend_style() -> TextStyle<'static> {
    (FONT, LEGEND_PX).into_font().color(&BLACK)
}

pub(super) fn text_width<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, text: &str) -> Result<u32>
where
    DB::ErrorType: 'static,
{
    Ok(area.estimate_text_size(text, &legend_style()).map_err(plot_err)?.0)
}

/// Breaks `name` at spaces into lines of at most `max_px`; a word wider than a whole line is
/// cut, and past three lines the rest is elided, so one long series name can neither squeeze
/// the plot nor run off the image.
pub(super) fn wrap_name<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    name: &str,
    max_px: u32,
) -> Result<Vec<String>>
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
pub(super) fn legend_width<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, entries: &[LegendEntry]) -> Result<u32>
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
pub(super) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    top: i32,
) -> Result<()>
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

pub(super) fn draw_marker<DB: DrawingBackend>(
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
pub(super) fn band_style(color: RGBColor) -> ShapeStyle {
    color.mix(0.2).filled()
}

pub(super) fn mesh_grid_styles() -> (ShapeStyle, ShapeStyle) {
    (BLACK.mix(0.15).into(), BLACK.mix(0.05).into())
}

/// The generation axis: first to last, or one more either side when `pad` (so that markers and
/// error bars at the ends are not cut by the frame) or when there is a single generation
/// (plotters needs a non-empty axis).
pub(super) fn generation_range(first: u32, last: u32, pad: bool) -> std::ops::Range<u32> {
    if pad || first == last {
        first.saturating_sub(1)..last + 1
    } else {
        first..last
    }
}
