//! Figures of experiments (`plot_series`): named curves of points with optional error bars,
//! on plain x and y axes.

use std::path::{Path, PathBuf};

use anyhow::{bail, ensure, Result};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::*;

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

pub(super) struct SeriesFigure<'a> {
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
