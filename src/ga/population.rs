//! Individuals and the first generation.

use std::path::Path;

use anyhow::{bail, Context, Result};
use rand::Rng;
use rand_distr::{Distribution, Normal};
use serde::{Deserialize, Serialize};

use crate::core::weights::{Schema, Weights};
use crate::ga::config::{InitConfig, InitMode};

/// One chromosome: the values of a weight table, with where it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Individual {
    /// Unique within a run, in order of birth.
    pub id: u64,
    /// Gene values in schema order, each within its weight's bounds.
    pub genes: Vec<i32>,
    /// The generation it was born for (1 for the first).
    pub born: u32,
    /// Its parents' ids (the same twice for a copy; none in the first generation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parents: Option<(u64, u64)>,
    /// Where its rating starts before it has played (`[fitness] mode = "rating"` or
    /// `"anchors"`): its parents' mean fitness at its birth, 0 (the first anchor's level) for
    /// the first generation and newcomers.
    #[serde(default)]
    pub prior_elo: f64,
}

impl Individual {
    pub fn weights(&self, schema: &'static Schema) -> Weights {
        Weights::clamped(schema, self.genes.clone())
    }
}

/// Sets the weights `[init] hold` names to their hand-set values (names the config's
/// validation has checked; an unknown one is skipped).
pub fn hold(schema: &'static Schema, init: &InitConfig, genes: &mut [i32]) {
    for name in &init.hold {
        if let Some(i) = schema.index_of(name) {
            genes[i] = schema.specs[i].default;
        }
    }
}

/// The first generation's chromosomes, with the held weights at their hand-set values.
pub fn initial_genes(
    schema: &'static Schema,
    init: &InitConfig,
    size: usize,
    rng: &mut impl Rng,
) -> Result<Vec<Vec<i32>>> {
    let mut out = drawn_genes(schema, init, size, rng)?;
    for genes in &mut out {
        hold(schema, init, genes);
    }
    Ok(out)
}

/// The first generation as `[init]` draws it, before any weight is held.
fn drawn_genes(schema: &'static Schema, init: &InitConfig, size: usize, rng: &mut impl Rng) -> Result<Vec<Vec<i32>>> {
    let seeds: Vec<Vec<i32>> = match init.mode {
        InitMode::Random => {
            return Ok((0..size)
                .map(|_| schema.specs.iter().map(|s| rng.random_range(s.min..=s.max)).collect())
                .collect())
        }
        InitMode::Defaults => vec![schema.defaults().values().to_vec()],
        InitMode::Files => load_tables(schema, &init.files)?,
    };
    // The given tables first, then noisy copies of them in turn.
    let mut out: Vec<Vec<i32>> = seeds.iter().take(size).cloned().collect();
    let mut i = 0;
    while out.len() < size {
        let base = &seeds[i % seeds.len()];
        out.push(noisy(schema, base, init.noise, rng));
        i += 1;
    }
    Ok(out)
}

/// Newcomers for a population that has converged: drawn as `[init]` draws the first
/// generation, but never exact copies of the given tables (those are noisy too, unless the
/// noise is 0); the held weights at their hand-set values.
pub fn immigrant_genes(
    schema: &'static Schema,
    init: &InitConfig,
    count: usize,
    rng: &mut impl Rng,
) -> Result<Vec<Vec<i32>>> {
    let seeds: Vec<Vec<i32>> = match init.mode {
        InitMode::Random => return initial_genes(schema, init, count, rng),
        InitMode::Defaults => vec![schema.defaults().values().to_vec()],
        InitMode::Files => load_tables(schema, &init.files)?,
    };
    Ok((0..count)
        .map(|i| {
            let mut genes = noisy(schema, &seeds[i % seeds.len()], init.noise, rng);
            hold(schema, init, &mut genes);
            genes
        })
        .collect())
}

/// `base` plus Gaussian noise of `noise` times each weight's range, clamped to its bounds.
fn noisy(schema: &Schema, base: &[i32], noise: f64, rng: &mut impl Rng) -> Vec<i32> {
    base.iter()
        .zip(schema.specs)
        .map(|(&v, s)| {
            let sd = noise * f64::from(s.max - s.min);
            let d = if sd > 0.0 { Normal::new(0.0, sd).map(|n| n.sample(rng)).unwrap_or(0.0) } else { 0.0 };
            (f64::from(v) + d).round().clamp(f64::from(s.min), f64::from(s.max)) as i32
        })
        .collect()
}

/// Reads weight tables from files and folders (every `.toml` in a folder, in name order).
fn load_tables(schema: &'static Schema, paths: &[std::path::PathBuf]) -> Result<Vec<Vec<i32>>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut inside: Vec<_> = std::fs::read_dir(p)
                .with_context(|| format!("{}: cannot list", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "toml"))
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(p.clone());
        }
    }
    if files.is_empty() {
        bail!("[init] files: no weight tables found in {paths:?}");
    }
    files.iter().map(|f| load_one(schema, f)).collect()
}

fn load_one(schema: &'static Schema, f: &Path) -> Result<Vec<i32>> {
    let (w, _) = Weights::load(f, &[schema]).with_context(|| "[init] files")?;
    Ok(w.values().to_vec())
}

/// Mean over genes of the population's standard deviation, as a share of each gene's range:
/// 0 when every individual is the same.
pub fn diversity(schema: &Schema, population: &[Individual]) -> f64 {
    if population.len() < 2 || schema.is_empty() {
        return 0.0;
    }
    let n = population.len() as f64;
    let total: f64 = schema
        .specs
        .iter()
        .enumerate()
        .map(|(g, s)| {
            let mean = population.iter().map(|i| f64::from(i.genes[g])).sum::<f64>() / n;
            let var = population.iter().map(|i| (f64::from(i.genes[g]) - mean).powi(2)).sum::<f64>() / n;
            var.sqrt() / f64::from((s.max - s.min).max(1))
        })
        .sum();
    total / schema.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect::eval::roads::CONNECT6_ROADS;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn in_bounds(g: &[i32]) -> bool {
        g.iter().zip(CONNECT6_ROADS.specs).all(|(&v, s)| s.min <= v && v <= s.max)
    }

    #[test]
    fn every_init_mode_fills_the_population_in_bounds() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let random = initial_genes(&CONNECT6_ROADS, &InitConfig::default(), 9, &mut rng).unwrap();
        assert_eq!(random.len(), 9);
        assert!(random.iter().all(|g| in_bounds(g)));
        let init = InitConfig { mode: InitMode::Defaults, noise: 0.05, ..InitConfig::default() };
        let d = initial_genes(&CONNECT6_ROADS, &init, 5, &mut rng).unwrap();
        assert_eq!(d[0], CONNECT6_ROADS.defaults().values());
        assert!(d[1..].iter().all(|g| in_bounds(g) && g != &d[0]));
        let dir = tempfile::tempdir().unwrap();
        CONNECT6_ROADS.defaults().save(&dir.path().join("a.toml"), &Default::default()).unwrap();
        let init = InitConfig {
            mode: InitMode::Files,
            noise: 0.1,
            files: vec![dir.path().to_path_buf()],
            ..InitConfig::default()
        };
        let f = initial_genes(&CONNECT6_ROADS, &init, 3, &mut rng).unwrap();
        assert_eq!(f[0], CONNECT6_ROADS.defaults().values());
        let init = InitConfig {
            mode: InitMode::Files,
            noise: 0.1,
            files: vec![dir.path().join("missing.toml")],
            ..InitConfig::default()
        };
        assert!(initial_genes(&CONNECT6_ROADS, &init, 3, &mut rng).is_err());
    }

    #[test]
    fn held_weights_keep_their_hand_set_values_in_every_drawn_table() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let held = ["own1".to_string(), "opp2".to_string()];
        let (own1, opp2) = (CONNECT6_ROADS.index_of("own1").unwrap(), CONNECT6_ROADS.index_of("opp2").unwrap());
        let defaults = CONNECT6_ROADS.defaults().values().to_vec();
        for mode in [InitMode::Random, InitMode::Defaults] {
            let init = InitConfig { mode, noise: 0.2, hold: held.to_vec(), ..InitConfig::default() };
            let tables = initial_genes(&CONNECT6_ROADS, &init, 6, &mut rng).unwrap();
            let tables = tables.into_iter().chain(immigrant_genes(&CONNECT6_ROADS, &init, 6, &mut rng).unwrap());
            for g in tables {
                assert_eq!((g[own1], g[opp2]), (defaults[own1], defaults[opp2]), "{mode:?}");
                assert!(in_bounds(&g));
            }
        }
    }

    #[test]
    fn diversity_is_zero_for_clones_and_grows_with_spread() {
        let g = CONNECT6_ROADS.defaults().values().to_vec();
        let clones: Vec<Individual> =
            (0..4).map(|id| Individual { id, genes: g.clone(), born: 1, parents: None, prior_elo: 0.0 }).collect();
        assert_eq!(diversity(&CONNECT6_ROADS, &clones), 0.0);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let spread: Vec<Individual> = initial_genes(&CONNECT6_ROADS, &InitConfig::default(), 20, &mut rng)
            .unwrap()
            .into_iter()
            .enumerate()
            .map(|(id, genes)| Individual { id: id as u64, genes, born: 1, parents: None, prior_elo: 0.0 })
            .collect();
        let d = diversity(&CONNECT6_ROADS, &spread);
        // Uniform in bounds: sd / range is about 1/sqrt(12) = 0.29.
        assert!((0.2..0.35).contains(&d), "{d}");
    }
}
