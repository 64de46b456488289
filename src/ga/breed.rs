//! The next population from the one that played: the group champions survive, children of two
//! champions each fill the rest (crossover and mutation at the adaptive rates), and newcomers
//! replace children when the population has converged.

use anyhow::Result;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::core::weights::Schema;
use crate::ga::adaptive::{crossover_rate, mutation_rate};
use crate::ga::config::{CrossoverKind, EvolveConfig, PriorCenter};
use crate::ga::fitness::FitnessMode;
use crate::ga::operators::{blend_crossover, crossover_mask, mutate, uniform_crossover};
use crate::ga::population::{diversity, hold, immigrant_genes, Individual};

/// The population that played, its fitness, and its group champions (indices into it).
#[derive(Clone, Copy)]
pub struct Parents<'a> {
    pub population: &'a [Individual],
    pub fitness: &'a [f64],
    pub champions: &'a [usize],
}

/// A bred population and the mean rates its children were bred at (0 without children).
pub struct Brood {
    pub next: Vec<Individual>,
    pub pc_mean: f64,
    pub pm_mean: f64,
}

/// The champions survive; `population.len() - champions.len()` children of two champions
/// each, born in generation `generation + 1`, take the next ids from `next_id`. Every random
/// choice comes from `rng`, in order.
pub fn breed(
    config: &EvolveConfig,
    schema: &'static Schema,
    parents: &Parents,
    generation: u32,
    next_id: &mut u64,
    rng: &mut ChaCha8Rng,
) -> Brood {
    let Parents { population, fitness, champions } = *parents;
    let fmax = fitness.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let favg = fitness.iter().sum::<f64>() / fitness.len() as f64;
    let rates = &config.rates;
    let mut next: Vec<Individual> = champions.iter().map(|&c| population[c].clone()).collect();
    let (mut pc_sum, mut pm_sum) = (0.0, 0.0);
    let children = population.len() - champions.len();
    for _ in 0..children {
        let (p1, p2) = if champions.len() >= 2 {
            let i = rng.random_range(0..champions.len());
            let mut j = rng.random_range(0..champions.len() - 1);
            if j >= i {
                j += 1;
            }
            (champions[i], champions[j])
        } else {
            (champions[0], champions[0])
        };
        let f_prime = fitness[p1].max(fitness[p2]);
        let pc = crossover_rate(rates, f_prime, fmax, favg);
        let (a, b) = (&population[p1], &population[p2]);
        let mut genes = if p1 != p2 && rng.random_bool(pc) {
            match config.crossover.kind {
                CrossoverKind::Uniform => {
                    let mask = crossover_mask(rng, a.genes.len());
                    uniform_crossover(&a.genes, &b.genes, &mask)
                }
                CrossoverKind::Blend => blend_crossover(&a.genes, &b.genes, rng),
            }
        } else {
            a.genes.clone()
        };
        // The child has not played: it mutates at the rate of the parent whose genes it
        // copies where no crossover happens (the first).
        let pm = mutation_rate(rates, fitness[p1], fmax, favg).max(config.diversity.pm_min);
        mutate(&mut genes, schema, config.mutation.kind, config.mutation.sigma, pm, rng);
        hold(schema, &config.init, &mut genes);
        pc_sum += pc;
        pm_sum += pm;
        let prior_elo = match (config.fitness.mode, config.fitness.prior_center) {
            (FitnessMode::Li2007, _) | (_, PriorCenter::Anchor) => 0.0,
            (_, PriorCenter::Parents) => (fitness[p1] + fitness[p2]) / 2.0,
        };
        next.push(Individual { id: *next_id, genes, born: generation + 1, parents: Some((a.id, b.id)), prior_elo });
        *next_id += 1;
    }
    let mean = |sum: f64| if children > 0 { sum / children as f64 } else { 0.0 };
    Brood { next, pc_mean: mean(pc_sum), pm_mean: mean(pm_sum) }
}

/// Newcomers when the bred population has converged: if its diversity is below `[diversity]
/// min`, the last `[diversity] immigrants` children are replaced by fresh tables (the
/// champions stay). Returns how many came in and the bred diversity that decided it; `rng` is
/// drawn from only when they come. Fails when `[init]` files they need cannot be read.
pub fn bring_in_newcomers(
    config: &EvolveConfig,
    schema: &'static Schema,
    next: &mut [Individual],
    rng: impl FnOnce() -> ChaCha8Rng,
) -> Result<(usize, f64)> {
    let d = &config.diversity;
    let bred_diversity = diversity(schema, next);
    let converged = d.immigrants > 0 && bred_diversity < d.min;
    if !converged {
        return Ok((0, bred_diversity));
    }
    let fresh = immigrant_genes(schema, &config.init, d.immigrants, &mut rng())?;
    let first = next.len() - fresh.len();
    for (slot, genes) in next[first..].iter_mut().zip(fresh) {
        slot.genes = genes;
        slot.parents = None;
        slot.prior_elo = 0.0;
    }
    Ok((d.immigrants, bred_diversity))
}
