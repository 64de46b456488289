//! The genes figure (`genes.png`, `genes.svg`): every weight's value over the generations,
//! one small chart per weight.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, ensure, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::*;
use crate::core::weights::Schema;

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
pub(super) fn gene_points<'a>(schema: &Schema, points: &'a [(u32, Vec<i32>)]) -> Result<Vec<&'a (u32, Vec<i32>)>> {
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
pub(super) fn value_range(values: impl Iterator<Item = i32>) -> (f64, f64) {
    let (lo, hi) =
        values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(f64::from(v)), hi.max(f64::from(v))));
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = if hi > lo { 0.08 * (hi - lo) } else { (0.05 * lo.abs()).max(1.0) };
    (lo - pad, hi + pad)
}

/// The small charts of the genes figure mark each point up to this many generations.
pub(super) const GENE_MARKERS_UP_TO: usize = 25;
/// Width and height of one small chart of the genes figure.
pub(super) const GENE_CELL: (u32, u32) = (230, 200);
/// Title and the legend line above the grid.
pub(super) const GENES_HEADER_H: u32 = 86;

pub(super) struct GenesFigure<'a> {
    pub(super) schema: &'a Schema,
    pub(super) points: Vec<&'a (u32, Vec<i32>)>,
    pub(super) title: &'a str,
    pub(super) cols: usize,
    /// The grid cell (row, column) of each weight.
    pub(super) cells: Vec<(usize, usize)>,
    pub(super) rows: usize,
}

impl<'a> GenesFigure<'a> {
    pub(super) fn new(schema: &'a Schema, points: Vec<&'a (u32, Vec<i32>)>, title: &'a str) -> Self {
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
