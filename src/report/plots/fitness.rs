//! The fitness figure of a run (`fitness.png`, `fitness.svg`): its history, one panel per
//! kind of curve (fitness, scores against the anchors, rates, diversity) over a shared
//! generation axis.

use std::path::{Path, PathBuf};

use anyhow::{ensure, Result};
use plotters::coord::types::{RangedCoordf64, RangedCoordu32};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::*;
use crate::report::history::HistoryRow;
use crate::stats::{Wdl, Z95};

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
pub(super) fn sorted_rows(rows: &[HistoryRow]) -> Vec<&HistoryRow> {
    let mut sorted: Vec<&HistoryRow> = rows.iter().collect();
    sorted.sort_by_key(|r| r.generation);
    sorted
}

/// The finite `(generation, value)` points of one history column.
pub(super) fn column(rows: &[&HistoryRow], get: fn(&HistoryRow) -> f64) -> Vec<(u32, f64)> {
    rows.iter().map(|r| (r.generation, get(r))).filter(|(_, y)| y.is_finite()).collect()
}

/// A panel of the history figure, top to bottom in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Panel {
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
    pub(super) fn height(self) -> u32 {
        match self {
            Panel::Fitness => 320,
            Panel::Anchors => 250,
            Panel::Rates => 170,
            Panel::Diversity => 170,
        }
    }
}

pub(super) const HISTORY_W: u32 = 1000;
/// The title above the panels.
pub(super) const TITLE_H: u32 = 50;
/// Extra height of the last panel, which carries the "generation" axis name.
pub(super) const X_DESC_H: u32 = 26;
/// Width of a y-axis label area; every panel keeps one on the right too (the rates panel's Pm
/// axis, blank elsewhere), so that the generations of all panels line up.
pub(super) const AXIS_W: u32 = 80;

/// One point of a score curve, in percent: the score and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ScorePoint {
    pub(super) generation: u32,
    pub(super) score: f64,
    pub(super) lo: f64,
    pub(super) hi: f64,
}

/// The generation's best against one anchor, over the generations that recorded games with it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct AnchorSeries {
    pub(super) name: String,
    pub(super) points: Vec<ScorePoint>,
}

/// The score of `w` and its 95% Wilson score interval, or None without games. Draws count as
/// half a win, which can only widen the interval (the trinomial variance is at most the
/// binomial one of the same score). Unlike the normal interval, Wilson's stays informative at a
/// perfect or a zero score (there the Elo is infinite): 10 wins of 10 give [72%, 100%].
pub(super) fn score_interval95(w: &Wdl) -> Option<(f64, f64, f64)> {
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
pub(super) fn anchor_series(rows: &[&HistoryRow]) -> Vec<AnchorSeries> {
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

pub(super) struct HistoryFigure<'a> {
    pub(super) rows: Vec<&'a HistoryRow>,
    pub(super) title: &'a str,
    pub(super) anchors: Vec<AnchorSeries>,
    pub(super) panels: Vec<Panel>,
}

impl<'a> HistoryFigure<'a> {
    pub(super) fn new(rows: Vec<&'a HistoryRow>, title: &'a str) -> Self {
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

    /// A panel with a value axis on each side, the generations along the bottom: each side's
    /// range, label and colour (the label's; the right axis's tick labels too, as the curve
    /// that belongs to it is drawn in that colour).
    fn two_axis_chart<'b, DB: DrawingBackend>(
        &self,
        area: &'b DrawingArea<DB, Shift>,
        left: (std::ops::Range<f64>, &str, RGBColor),
        right: (std::ops::Range<f64>, &str, RGBColor),
        last: bool,
    ) -> Result<TwoAxisChart<'b, DB>>
    where
        DB::ErrorType: 'static,
    {
        let x = self.x_range();
        let mut chart = ChartBuilder::on(area)
            .margin_top(10)
            .margin_left(10)
            .margin_right(4)
            .x_label_area_size(if last { 30 + X_DESC_H } else { 30 })
            .y_label_area_size(AXIS_W)
            .right_y_label_area_size(AXIS_W)
            .build_cartesian_2d(x.clone(), left.0)
            .map_err(plot_err)?
            .set_secondary_coord(x, right.0);
        let (bold, light) = mesh_grid_styles();
        let mut mesh = chart.configure_mesh();
        mesh.bold_line_style(bold)
            .light_line_style(light)
            .y_desc(left.1)
            .axis_desc_style((FONT, DESC_PX).into_font().color(&left.2))
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
            .y_desc(right.1)
            .axis_desc_style((FONT, DESC_PX).into_font().color(&right.2))
            .label_style((FONT, TICK_PX).into_font().color(&right.2))
            .y_label_formatter(&|v| tick_label(*v))
            .y_labels(5)
            .draw()
            .map_err(plot_err)?;
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
        let mut chart = self.two_axis_chart(area, (0.0..l1, "Pc", PC.1), (0.0..r1, "Pm", PM.1), last)?;
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
        let mut chart = self.two_axis_chart(
            area,
            (y.0..y.1, "gene diversity", BLACK),
            (0.0..most * 1.15, "immigrants", IMMIGRANTS),
            last,
        )?;
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
pub(super) type GenerationChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordu32, RangedCoordf64>>;

/// A panel of [`HistoryFigure::two_axis_chart`]: generations against two value axes.
type TwoAxisChart<'a, DB> = plotters::chart::DualCoordChartContext<
    'a,
    DB,
    Cartesian2d<RangedCoordu32, RangedCoordf64>,
    Cartesian2d<RangedCoordu32, RangedCoordf64>,
>;

/// A history curve: legend name, colour, and the column it plots.
pub(super) type Curve = (&'static str, RGBColor, fn(&HistoryRow) -> f64);

pub(super) const FITNESS_CURVES: [Curve; 3] =
    [("fmax (best)", GREEN, |r| r.fmax), ("favg (mean)", BLUE, |r| r.favg), ("fmin (worst)", VERMILLION, |r| r.fmin)];
pub(super) const PC: Curve = ("mean Pc", BLUE, |r| r.pc_mean);
pub(super) const PM: Curve = ("mean Pm (right axis)", VERMILLION, |r| r.pm_mean);
pub(super) const DIVERSITY: Curve = ("gene diversity", PURPLE, |r| r.diversity);
pub(super) const IMMIGRANTS: RGBColor = ORANGE;

pub(super) fn anchor_color(i: usize) -> RGBColor {
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
