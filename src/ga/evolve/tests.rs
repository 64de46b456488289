//! The GA step against a deterministic mock referee: milliseconds per run.

use super::*;
use crate::arena::records::Reason;
use crate::core::weights::Weights;
use crate::report::progress::ProgressMode;

/// A deterministic mock: the player whose genes are closer to a hidden target wins, with
/// some seeded noise; equal distance draws. Lets the GA be tested in milliseconds.
pub struct TargetReferee {
    pub target: Vec<i32>,
}

impl TargetReferee {
    fn distance(&self, w: &Weights) -> f64 {
        w.values()
            .iter()
            .zip(&self.target)
            .zip(w.schema().specs)
            .map(|((&v, &t), s)| (f64::from(v - t) / f64::from(s.max - s.min)).abs())
            .sum()
    }
}

impl Referee for TargetReferee {
    fn play(&self, first: &Player, second: &Player, opening: &[String], seed: u64) -> GameRecord {
        let noise = (seed % 1000) as f64 / 1000.0 * 0.3 - 0.15;
        let d = self.distance(&second.weights) - self.distance(&first.weights) + noise;
        let result = if d.abs() < 1e-9 {
            Outcome::Draw
        } else if d > 0.0 {
            Outcome::First
        } else {
            Outcome::Second
        };
        GameRecord {
            result,
            reason: Reason::Adjudicated,
            ..GameRecord::start("connect6", &first.name, &second.name, opening, seed)
        }
    }
}

pub fn mock_setup() -> (EvolveConfig, OpeningSuite, TargetReferee) {
    let mut config = EvolveConfig::quick();
    config.population = 20;
    config.groups = 5;
    config.generations = 40;
    config.hall_of_fame.opponents = 0;
    config.hall_of_fame.anchors.clear();
    config.pairs = 1;
    config.hall_of_fame.pairs = 1;
    // The paper's scheme and operators; the tests of the other modes set their own.
    config.fitness.mode = FitnessMode::Li2007;
    config.crossover = crate::ga::config::CrossoverConfig::default();
    config.mutation.sigma = 1.0;
    config.init.noise = 0.1;
    config.diversity = crate::ga::config::DiversityConfig::default();
    let suite = OpeningSuite { game: crate::registry::CONNECT6, openings: vec![vec!["j10".into()]] };
    let target: Vec<i32> = config.schema().unwrap().specs.iter().map(|s| (s.min + s.max) / 3).collect();
    (config, suite, TargetReferee { target })
}

/// The players of a test's run, resolved as the commands resolve them.
pub fn lineup(config: &EvolveConfig) -> Lineup {
    crate::player::evolve_lineup(config, &[]).unwrap()
}

fn run(
    config: &EvolveConfig,
    suite: &OpeningSuite,
    referee: &TargetReferee,
    gens: u32,
) -> (RunState, Vec<GenerationResult>) {
    let lineup = lineup(config);
    let ev = Evolver::new(config, suite, referee, &lineup).unwrap();
    let mut state = ev.initial_state().unwrap();
    let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
    let results = (0..gens).map(|_| ev.play_generation(&mut state, &p).unwrap()).collect();
    (state, results)
}

#[test]
fn a_generation_follows_the_paper() {
    let (config, suite, referee) = mock_setup();
    let (state, results) = run(&config, &suite, &referee, 1);
    let r = &results[0];
    // 5 groups of 4: 30 pairings, one pair of games each.
    assert_eq!(r.records.len(), 60);
    assert_eq!(r.champions.len(), 5);
    // Zero-sum games inside the population: the mean fitness is 0.
    assert!(r.row.favg.abs() < 1e-12);
    // Each champion is the best of its group, and survives unchanged.
    for &c in &r.champions {
        assert!(state.population.iter().any(|i| i.id == r.played[c].id && i.genes == r.played[c].genes));
    }
    assert_eq!(state.population.len(), 20);
    let new: Vec<_> = state.population.iter().filter(|i| i.born == 2).collect();
    assert_eq!(new.len(), 15);
    assert!(new.iter().all(|i| i.parents.is_some()));
    assert_eq!(state.hall_of_fame.len(), 1);
    assert_eq!(r.row.fmax, r.fitness[r.best]);
}

#[test]
fn evolution_approaches_the_mock_target() {
    let (config, suite, referee) = mock_setup();
    let lineup = lineup(&config);
    let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
    let start = ev.initial_state().unwrap();
    let first_best = start.population.iter().map(|i| referee.distance(&i.weights(ev.schema))).fold(f64::MAX, f64::min);
    let (state, results) = run(&config, &suite, &referee, 40);
    let champ = results.last().unwrap().best_individual();
    let d = referee.distance(&champ.weights(ev.schema));
    assert!(d < first_best * 0.7, "champion distance {d} vs best initial {first_best}");
    assert_eq!(state.history.len(), 40);
}

#[test]
fn same_seed_same_run_and_other_seed_other_run() {
    let (config, suite, referee) = mock_setup();
    let (a, _) = run(&config, &suite, &referee, 5);
    let (b, _) = run(&config, &suite, &referee, 5);
    assert_eq!(a.population, b.population);
    assert_eq!(a.hall_of_fame, b.hall_of_fame);
    let mut other = config.clone();
    other.seed += 1;
    let (c, _) = run(&other, &suite, &referee, 5);
    assert_ne!(a.population, c.population);
}

#[test]
fn threads_do_not_change_the_run() {
    let (config, suite, referee) = mock_setup();
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let mut state = pool.install(|| run(&config, &suite, &referee, 6).0);
        state.history.iter_mut().for_each(|r| (r.wall_s, r.games_wall_s) = (0.0, 0.0));
        state
    };
    assert_eq!(on(1), on(3));
}

#[test]
fn anchors_play_everyone_every_generation() {
    let (mut config, suite, referee) = mock_setup();
    config.hall_of_fame.anchors = vec!["defaults".into(), "random:3".into()];
    let (_, results) = run(&config, &suite, &referee, 2);
    for r in &results {
        assert_eq!(r.records.len(), 60 + 2 * 2 * 20);
        let vs_defaults = r.records.iter().filter(|g| g.first == "anchor-defaults" || g.second == "anchor-defaults");
        assert_eq!(vs_defaults.count(), 40);
    }
    config.hall_of_fame.anchors = vec!["no/such/file.toml".into()];
    let e = format!("{:#}", crate::player::evolve_lineup(&config, &[]).err().unwrap());
    assert!(e.contains("[hall_of_fame] anchors") && e.contains("no/such/file.toml"), "{e}");
}

#[test]
fn hall_of_fame_opponents_join_the_schedule() {
    let (mut config, suite, referee) = mock_setup();
    config.hall_of_fame.opponents = 2;
    let lineup = lineup(&config);
    let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
    let mut state = ev.initial_state().unwrap();
    let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
    let mut results = Vec::new();
    for _ in 0..3 {
        let expected = ev.games_next(&state);
        let r = ev.play_generation(&mut state, &p).unwrap();
        assert_eq!(r.records.len(), expected, "games_next counts the schedule exactly");
        results.push(r);
    }
    assert_eq!(results[0].records.len(), 60);
    // The first generation's best survives and does not play its own hall-of-fame copy
    // (nor do children that copied it unchanged).
    assert!((60 + 2..=60 + 2 * 19).contains(&results[1].records.len()), "{}", results[1].records.len());
    assert!(results[2].records.iter().any(|r| r.second.starts_with("hof-") || r.first.starts_with("hof-")));
    for r in &results[2].records {
        let hof = [&r.first, &r.second].into_iter().find(|n| n.starts_with("hof-"));
        let member = [&r.first, &r.second].into_iter().find(|n| !n.starts_with("hof-"));
        if let (Some(h), Some(m)) = (hof, member) {
            assert_ne!(h.split("-i").nth(1), m.split("-i").nth(1), "{h} plays itself");
        }
    }
}

/// The quick config's kind of run on the mock: fitness against the anchors.
fn anchors_setup() -> (EvolveConfig, OpeningSuite, TargetReferee) {
    let (mut config, suite, referee) = mock_setup();
    config.fitness.mode = FitnessMode::Anchors;
    config.hall_of_fame.anchors = vec!["defaults".into()];
    config.hall_of_fame.pairs = 3;
    config.fitness.prior = 8.0;
    config.fitness.prior_center = crate::ga::config::PriorCenter::Parents;
    config.population = 12;
    config.groups = 3;
    (config, suite, referee)
}

#[test]
fn anchors_fitness_comes_from_the_anchor_games_and_survivors_keep_their_record() {
    let (config, suite, referee) = anchors_setup();
    let (state, results) = run(&config, &suite, &referee, 6);
    for r in &results {
        // Everyone's fitness is its rating against the anchor: the member that scored
        // best against `defaults` this generation, among those new to the ledger,
        // cannot have the lowest fitness.
        assert!(r.fitness.iter().all(|f| f.is_finite()));
        assert_eq!(r.row.anchors.len(), 1);
        assert_eq!(r.row.anchors[0].name, "defaults");
        assert!(r.row.best_se > 0.0);
    }
    // A champion that survives keeps its games: its record grows by 6 games a generation.
    let survivor = state.hall_of_fame.windows(2).find(|w| w[0].id == w[1].id);
    if let Some(w) = survivor {
        let g = w[1].generation as usize - 1;
        assert!(results[g].row.best_games > results[g - 1].row.best_games, "{:?}", results[g].row);
    }
    // Children start from their parents' mean fitness.
    let last = results.last().unwrap();
    for child in state.population.iter().filter(|i| i.born == last.generation + 1 && i.parents.is_some()) {
        let (a, b) = child.parents.unwrap();
        let f = |id: u64| last.played.iter().position(|p| p.id == id).map(|i| last.fitness[i]);
        if let (Some(fa), Some(fb)) = (f(a), f(b)) {
            assert!((child.prior_elo - (fa + fb) / 2.0).abs() < 1e-9);
        }
    }
    // Closer to the mock's target means stronger: the run's champion beats the anchor.
    let best = last.best_individual();
    assert!(last.fitness[last.best] > 0.0, "{:?}", best);
}

#[test]
fn everyone_meets_the_anchor_on_the_same_openings() {
    let (mut config, _, referee) = anchors_setup();
    let openings: Vec<Vec<String>> = (0..50).map(|i| vec![format!("{}10", (b'a' + (i % 19) as u8) as char)]).collect();
    let suite = OpeningSuite { game: crate::registry::CONNECT6, openings };
    let vs_anchor = |config: &EvolveConfig| {
        let (_, results) = run(config, &suite, &referee, 2);
        let mut by_member: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
        for r in results[1].records.iter().filter(|r| r.first == "anchor-defaults" || r.second == "anchor-defaults") {
            let member = if r.first == "anchor-defaults" { &r.second } else { &r.first };
            by_member.entry(member.clone()).or_default().push(r.opening.unwrap());
        }
        by_member.into_values().collect::<Vec<_>>()
    };
    let common = vs_anchor(&config);
    assert_eq!(common.len(), config.population);
    assert!(common.iter().all(|o| o == &common[0]), "{common:?}");
    config.hall_of_fame.common_openings = false;
    let own = vs_anchor(&config);
    assert!(own.iter().any(|o| o != &own[0]), "{own:?}");
}

#[test]
fn the_mutation_floor_keeps_children_varied() {
    let (mut config, suite, referee) = mock_setup();
    config.rates.mode = crate::ga::config::RatesMode::Fixed;
    config.rates.pc = 0.0;
    config.rates.pm = 0.0;
    let (state, _) = run(&config, &suite, &referee, 1);
    let champions: Vec<&Individual> = state.population.iter().filter(|i| i.born == 1).collect();
    let copies =
        state.population.iter().filter(|i| i.born == 2).filter(|c| champions.iter().any(|p| p.genes == c.genes));
    assert_eq!(copies.count(), 15, "without crossover or mutation every child is a copy");
    config.diversity.pm_min = 1.0;
    let (state, results) = run(&config, &suite, &referee, 1);
    let champions: Vec<&Individual> = state.population.iter().filter(|i| i.born == 1).collect();
    assert!(state.population.iter().filter(|i| i.born == 2).all(|c| champions.iter().all(|p| p.genes != c.genes)));
    assert_eq!(results[0].row.pm_mean, 1.0);
}

#[test]
fn newcomers_arrive_when_diversity_falls_and_stagnation_is_counted() {
    let (mut config, suite, referee) = mock_setup();
    config.diversity.min = 1.0;
    config.diversity.immigrants = 3;
    let (state, results) = run(&config, &suite, &referee, 2);
    for r in &results {
        assert_eq!((r.immigrants, r.row.immigrants), (3, 3));
        assert!(r.bred_diversity < 1.0);
    }
    let newcomers = state.population.iter().filter(|i| i.born == 3 && i.parents.is_none());
    assert_eq!(newcomers.count(), 3);
    let mut s = state.clone();
    let e = s.hall_of_fame.last().unwrap().clone();
    s.hall_of_fame = vec![HallEntry { id: 99, ..e.clone() }, e.clone(), e.clone(), e];
    assert_eq!(Evolver::stagnant_generations(&s), 3);
    s.hall_of_fame.clear();
    assert_eq!(Evolver::stagnant_generations(&s), 0);
}
