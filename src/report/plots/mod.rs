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
//!
//! One file per figure: [`fitness`] (a run's history), [`genes`] (its weights over the
//! generations), [`series`] (experiments' curves); [`draw`] holds what they share.

mod draw;
mod fitness;
mod genes;
mod series;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{ensure, Context, Result};
use plotters::backend::{BitMapBackend, SVGBackend};
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::fsutil::write_atomic;
#[cfg(test)]
use crate::report::history::HistoryRow;
use draw::*;
#[cfg(test)]
use fitness::*;
pub use fitness::{history_svg, plot_history};
pub use genes::{genes_svg, plot_genes};
pub use series::{plot_series, Series};

/// A figure that can be drawn on any plotters backend, so that the PNG and the SVG come from
/// one piece of drawing code.
pub(super) trait Figure {
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
pub(super) fn write_figure(out_dir: &Path, stem: &str, fig: &impl Figure) -> Result<Vec<PathBuf>> {
    let png_path = out_dir.join(format!("{stem}.png"));
    let svg_path = out_dir.join(format!("{stem}.svg"));
    let png = render_png(fig).with_context(|| format!("{}: cannot draw the plot", png_path.display()))?;
    let svg = render_svg(fig).with_context(|| format!("{}: cannot draw the plot", svg_path.display()))?;
    write_atomic(&png_path, &png).with_context(|| format!("{}: cannot write", png_path.display()))?;
    write_atomic(&svg_path, svg.as_bytes()).with_context(|| format!("{}: cannot write", svg_path.display()))?;
    Ok(vec![png_path, svg_path])
}

pub(super) fn render_png(fig: &impl Figure) -> Result<Vec<u8>> {
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

pub(super) fn render_svg(fig: &impl Figure) -> Result<String> {
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
pub(super) fn register_font() -> Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED
        .get_or_init(|| plotters::style::register_font(FONT, FontStyle::Normal, ttf_noto_sans::REGULAR).is_ok());
    ensure!(ok, "the embedded Noto Sans font could not be loaded");
    Ok(())
}

#[cfg(test)]
mod tests;
