use super::genes::*;
use super::*;
use crate::core::weights::Schema;
use crate::report::history::AnchorRecord;
use crate::stats::{Wdl, Z95};

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
        first_wins: 200,
        second_wins: 170,
        draws: 10,
        wall_s: 60.0,
        games_wall_s: 55.0,
        best_games: 100,
        best_se: 30.0,
        immigrants: 0,
        anchors: vec![crate::report::history::AnchorRecord::new(
            "defaults",
            crate::stats::Wdl::new(50 + u64::from(g % 7), 0, 50),
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

/// Checks a PNG + SVG pair: names, a PNG of `size` that is not blank, an SVG holding every
/// text of `texts` and no NaN or infinity. Returns the SVG.
fn check_pair(paths: &[PathBuf], stem: &str, size: (u32, u32), texts: &[&str]) -> String {
    assert_eq!(paths.len(), 2);
    assert!(paths[0].ends_with(format!("{stem}.png")));
    assert!(paths[1].ends_with(format!("{stem}.svg")));
    keep_for_review(paths);
    let (w, h, inked) = decode(&paths[0]);
    assert_eq!((w, h), size);
    // Axes, grid, curves and text together cover far more than a few stray pixels.
    assert!(inked > 5_000, "only {inked} non-background pixels");
    let svg = std::fs::read_to_string(&paths[1]).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(100)]);
    assert!(!svg.contains("NaN") && !svg.contains("inf"), "a NaN or an infinity reached the SVG");
    for t in texts {
        assert!(svg.contains(t), "SVG lacks {t:?}");
    }
    svg
}

/// With `EVOTUNE_PLOT_REVIEW=<dir>` set, the tests' figures are copied there, named after
/// their test, for a person to look at.
fn keep_for_review(paths: &[PathBuf]) {
    let Some(dir) = std::env::var_os("EVOTUNE_PLOT_REVIEW") else { return };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let test = std::thread::current().name().unwrap_or("plot").rsplit("::").next().unwrap().to_string();
    // A test that draws the same file twice keeps both: `<test>-fitness.png`, `<test>-2-fitness.png`.
    let name = |n: usize, p: &PathBuf| {
        let file = p.file_name().unwrap().to_string_lossy();
        if n == 1 {
            format!("{test}-{file}")
        } else {
            format!("{test}-{n}-{file}")
        }
    };
    let n = (1..).find(|&n| !dir.join(name(n, &paths[0])).exists()).unwrap();
    for p in paths {
        std::fs::copy(p, dir.join(name(n, p))).unwrap();
    }
}

/// The history figure's size for these panels.
fn history_size(panels: &[Panel]) -> (u32, u32) {
    (HISTORY_W, TITLE_H + panels.iter().map(|p| p.height()).sum::<u32>() + X_DESC_H)
}

const ALL_PANELS: [Panel; 4] = [Panel::Fitness, Panel::Anchors, Panel::Rates, Panel::Diversity];

#[test]
fn history_of_one_row() {
    let dir = tempfile::tempdir().unwrap();
    let paths = plot_history(&[row(1)], dir.path(), "one generation").unwrap();
    let texts = ["one generation", "fmax (best)", "score vs defaults (%)", "mean Pm (right axis)", "generation"];
    check_pair(&paths, "fitness", history_size(&ALL_PANELS), &texts);
}

#[test]
fn a_history_of_huge_values_is_drawn_and_does_not_hang() {
    let dir = tempfile::tempdir().unwrap();
    let rows: Vec<HistoryRow> = (1..=3)
        .map(|g| {
            let mut r = row(g);
            let big = if g % 2 == 0 { 1e308 } else { -1e308 };
            (r.fmax, r.favg, r.fmin, r.diversity, r.pc_mean, r.pm_mean) = (big, big, -big, 1e308, 1e308, 1e308);
            r
        })
        .collect();
    let paths = plot_history(&rows, dir.path(), "huge").unwrap();
    check_pair(&paths, "fitness", history_size(&ALL_PANELS), &["huge"]);
    assert_eq!(padded_range([1e308, -1e308], 0.06).map(|(lo, hi)| lo.is_finite() && hi.is_finite()), Some(true));
}

#[test]
fn history_of_many_rows() {
    let dir = tempfile::tempdir().unwrap();
    let rows: Vec<HistoryRow> = (1..=1000).map(row).collect();
    let paths = plot_history(&rows, &dir.path().join("results/run"), "Connect6 run <seed 7> & co").unwrap();
    // The title is escaped in the SVG and the whole file stays well-formed.
    let texts = ["Connect6 run &lt;seed 7&gt; &amp; co", "fmin (worst)", "gene diversity", "mean Pc", "95% interval"];
    check_pair(&paths, "fitness", history_size(&ALL_PANELS), &texts);
}

#[test]
fn the_anchor_panel_is_there_only_with_anchor_games() {
    let with: Vec<HistoryRow> = (1..=30).map(row).collect();
    let figure = HistoryFigure::new(with.iter().collect(), "t");
    assert_eq!(figure.panels, ALL_PANELS);
    let dir = tempfile::tempdir().unwrap();
    let paths = plot_history(&with, dir.path(), "with an anchor").unwrap();
    check_pair(&paths, "fitness", history_size(&ALL_PANELS), &["score vs defaults (%)", "even (50%)", "vs defaults"]);

    let without: Vec<HistoryRow> = (1..=30).map(|g| HistoryRow { anchors: Vec::new(), ..row(g) }).collect();
    let panels = [Panel::Fitness, Panel::Rates, Panel::Diversity];
    assert_eq!(HistoryFigure::new(without.iter().collect(), "t").panels, panels);
    let paths = plot_history(&without, dir.path(), "without anchors").unwrap();
    let svg = check_pair(&paths, "fitness", history_size(&panels), &["fmax (best)", "gene diversity"]);
    assert!(!svg.contains("score vs") && !svg.contains("95% interval"));

    // An anchor row with no games has no score to show either.
    let empty: Vec<HistoryRow> = (1..=3)
        .map(|g| HistoryRow { anchors: vec![AnchorRecord::new("defaults", Wdl::default())], ..row(g) })
        .collect();
    assert_eq!(HistoryFigure::new(empty.iter().collect(), "t").panels, panels);
}

#[test]
fn several_anchors_and_immigrants() {
    let rows: Vec<HistoryRow> = (1..=25)
        .map(|g| {
            let mut r = row(g);
            r.anchors.push(AnchorRecord::new("random:3", Wdl::new(20 + u64::from(g % 5), 2, 2)));
            r.immigrants = u64::from(g % 6 == 0) * 3;
            r
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let paths = plot_history(&rows, dir.path(), "two anchors").unwrap();
    let texts = ["score vs anchors (%)", "vs defaults", "vs random_3", "immigrants (right axis)"];
    check_pair(&paths, "fitness", history_size(&ALL_PANELS), &texts);
}

#[test]
fn perfect_and_zero_scores_keep_the_axes_finite() {
    // Elo is +inf at 100% and -inf at 0%; the panel plots scores, whose intervals stay
    // inside [0, 100].
    let rows: Vec<HistoryRow> = (1..=8)
        .map(|g| HistoryRow {
            anchors: vec![
                AnchorRecord::new("defaults", Wdl::new(u64::from(g) * 4, 0, 0)),
                AnchorRecord::new("random:1", Wdl::new(0, 0, 12)),
            ],
            ..row(g)
        })
        .collect();
    assert_eq!(rows[0].anchors[0].wdl().elo(), f64::INFINITY);
    let dir = tempfile::tempdir().unwrap();
    let paths = plot_history(&rows, dir.path(), "perfect").unwrap();
    check_pair(&paths, "fitness", history_size(&ALL_PANELS), &["score vs anchors (%)"]);
    let one = [HistoryRow { anchors: vec![AnchorRecord::new("defaults", Wdl::new(1, 0, 0))], ..row(1) }];
    let paths = plot_history(&one, dir.path(), "one perfect game").unwrap();
    check_pair(&paths, "fitness", history_size(&ALL_PANELS), &["score vs defaults (%)"]);
}

#[test]
fn score_intervals() {
    assert_eq!(score_interval95(&Wdl::default()), None);
    let (s, lo, hi) = score_interval95(&Wdl::new(10, 0, 0)).unwrap();
    assert_eq!((s, hi), (1.0, 1.0));
    // Wilson at p = 1: n / (n + z²).
    assert!((lo - 10.0 / (10.0 + Z95 * Z95)).abs() < 1e-12, "{lo}");
    let (s, lo, hi) = score_interval95(&Wdl::new(0, 0, 10)).unwrap();
    assert_eq!((s, lo), (0.0, 0.0));
    assert!(hi > 0.2 && hi < 0.3, "{hi}");
    // Many games: close to the normal interval, 0.5 ± 1.96 · 0.5 / 20.
    let (s, lo, hi) = score_interval95(&Wdl::new(150, 100, 150)).unwrap();
    assert_eq!(s, 0.5);
    assert!((hi - lo - 2.0 * Z95 * 0.5 / 20.0).abs() < 1e-3, "{lo} {hi}");
    let (s, lo, hi) = score_interval95(&Wdl::new(30, 0, 10)).unwrap();
    assert!(lo < s && s < hi && lo > 0.5, "{lo} {s} {hi}");
}

/// A slow random walk of each gene inside its bounds.
fn walk(schema: &Schema, generations: u32) -> Vec<(u32, Vec<i32>)> {
    (1..=generations)
        .map(|g| {
            let t = f64::from(g);
            let genes = schema
                .specs
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let phase = (t / 15.0 + i as f64).sin() * 0.5 + 0.5;
                    let v = f64::from(s.min) + phase * f64::from(s.max - s.min);
                    v.round() as i32
                })
                .collect();
            (g, genes)
        })
        .collect()
}

#[test]
fn genes_of_the_connect6_road_schema() {
    use crate::games::connect::eval::roads::CONNECT6_ROADS;
    let schema = &CONNECT6_ROADS;
    assert_eq!(schema.len(), 20);
    let figure = GenesFigure::new(schema, Vec::new(), "t");
    // Five columns: own, opp, then the move-order genes on rows of their own.
    assert_eq!((figure.cols, figure.rows), (5, 4));
    assert_eq!(figure.cells[schema.index_of("opp1").unwrap()], (1, 0));
    assert_eq!(figure.cells[schema.index_of("move_own1").unwrap()], (2, 0));
    let size = figure.size();
    assert!(size.0 >= 1000 && size.1 >= 700, "{size:?}");

    let dir = tempfile::tempdir().unwrap();
    let paths = plot_genes(schema, &walk(schema, 40), dir.path(), "road weights").unwrap();
    let names: Vec<&str> = schema.specs.iter().map(|s| s.name).collect();
    let svg = check_pair(&paths, "genes", size, &names);
    assert!(svg.contains("road weights") && svg.contains("hand-set default"));
    // Each chart's y axis spans the values the weight took, not its bounds.
    assert!(svg.contains("the values the weight took"));
    assert_eq!(value_range([1000, 2300, 1500].into_iter()), (896.0, 2404.0));
    assert_eq!(value_range([40, 40].into_iter()), (38.0, 42.0));
}

#[test]
fn genes_of_one_generation_and_of_many() {
    use crate::games::connect::eval::patterns::CONNECT6_PATTERNS;
    use crate::games::connect::eval::roads::{CONNECT6_ROADS, GOMOKU_ROADS};
    let dir = tempfile::tempdir().unwrap();
    let one = [(7, CONNECT6_ROADS.specs.iter().map(|s| s.default).collect())];
    let paths = plot_genes(&CONNECT6_ROADS, &one, dir.path(), "one generation").unwrap();
    check_pair(&paths, "genes", GenesFigure::new(&CONNECT6_ROADS, Vec::new(), "").size(), &["own1"]);

    let paths = plot_genes(&CONNECT6_PATTERNS, &walk(&CONNECT6_PATTERNS, 500), dir.path(), "patterns").unwrap();
    let figure = GenesFigure::new(&CONNECT6_PATTERNS, Vec::new(), "");
    assert_eq!((figure.cols, figure.rows), (6, 7));
    check_pair(&paths, "genes", figure.size(), &["own_a5", "move_block5"]);

    let figure = GenesFigure::new(&GOMOKU_ROADS, Vec::new(), "");
    assert_eq!((figure.cols, figure.rows), (4, 4));
}

#[test]
fn genes_points_are_sorted_and_deduplicated() {
    use crate::games::connect::eval::roads::CONNECT6_ROADS;
    let mut points = walk(&CONNECT6_ROADS, 5);
    points.reverse();
    points.push((3, CONNECT6_ROADS.specs.iter().map(|s| s.max).collect()));
    let dir = tempfile::tempdir().unwrap();
    let paths = plot_genes(&CONNECT6_ROADS, &points, dir.path(), "unsorted").unwrap();
    check_pair(&paths, "genes", GenesFigure::new(&CONNECT6_ROADS, Vec::new(), "").size(), &["own1"]);
}

#[test]
fn genes_errors_are_clear() {
    use crate::games::connect::eval::roads::CONNECT6_ROADS;
    let dir = tempfile::tempdir().unwrap();
    let e = plot_genes(&CONNECT6_ROADS, &[], dir.path(), "t").unwrap_err().to_string();
    assert!(e.contains("genes.png") && e.contains("no generations"), "{e}");
    let e = plot_genes(&CONNECT6_ROADS, &[(4, vec![1, 2, 3])], dir.path(), "t").unwrap_err().to_string();
    assert!(e.contains("generation 4 has 3 genes") && e.contains("20 weights"), "{e}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written on error");
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
    let panels = [Panel::Fitness, Panel::Anchors, Panel::Rates];
    let svg = check_pair(&paths, "fitness", history_size(&panels), &["gaps"]);
    assert!(!svg.contains("gene diversity"), "a curve with no finite value gets no legend entry");
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
    check_pair(&paths, "champions", SIZE, &["Generation champions", "ours", "Li Guo 2007", "even score", "score"]);
}

#[test]
fn series_without_error_bars_and_single_points() {
    let dir = tempfile::tempdir().unwrap();
    let a = Series::new("a", vec![(3.0, 12.0, None)]);
    let b = Series::new("b", vec![(3.0, 12.0, Some(0.0))]);
    let paths = plot_series(dir.path(), "single", "one point", "x", "y", &[a, b]).unwrap();
    check_pair(&paths, "single", SIZE, &["one point"]);
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
