use super::*;
use crate::arena::tests::{player, two_openings, FirstWeightWins};
use crate::report::progress::ProgressMode;

/// The larger first weight wins; ties go to the seed's parity.
const MOCK: FirstWeightWins = FirstWeightWins {
    ties: |seed| match seed % 3 {
        0 => Outcome::Draw,
        1 => Outcome::First,
        _ => Outcome::Second,
    },
};

fn suite() -> Openings {
    Openings::fixed(two_openings())
}

fn run(a: &Player, b: &Player, config: &MatchConfig) -> (MatchReport, Vec<GameRecord>) {
    run_from(a, b, config, &PlayedPairs::new())
}

/// A match from the pairs already `played`; the records of the games played here, in
/// schedule order.
fn run_from(a: &Player, b: &Player, config: &MatchConfig, played: &PlayedPairs) -> (MatchReport, Vec<GameRecord>) {
    let records = std::sync::Mutex::new(Vec::new());
    let p = Progress::new("m", 0, "games", ProgressMode::Hidden);
    let r = run_match(
        &MOCK,
        a,
        b,
        &mut suite(),
        config,
        played,
        &p,
        &|k, g| records.lock().unwrap().push((k, g.clone())),
        &mut |_| {},
    )
    .unwrap();
    let mut records = records.into_inner().unwrap();
    records.sort_by_key(|(k, _)| *k);
    assert!(records.iter().enumerate().all(|(i, (k, _))| i == *k), "indexes 0, 1, ... in schedule order");
    (r, records.into_iter().map(|(_, g)| g).collect())
}

/// The report's numbers, without the time it took.
fn numbers(r: &MatchReport) -> MatchReport {
    MatchReport { elapsed: Duration::ZERO, ..r.clone() }
}

/// A match continued from the records of its first games ends as the uninterrupted match:
/// same numbers, same SPRT stop; a lone game (its partner was in flight) is played again,
/// and records of another match are refused by line.
#[test]
fn a_resumed_match_ends_as_the_uninterrupted_one() {
    let (a, b) = (player("a", 12), player("b", 10));
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    for config in
        [MatchConfig { pairs: 21, seed: 4, sprt: None }, MatchConfig { pairs: 10_000, seed: 4, sprt: Some(sprt) }]
    {
        let (whole, records) = run(&a, &b, &config);
        // Stopped after 11 games: pairs 0-4 whole, pair 5's first game alone.
        let lines: Vec<(usize, GameRecord)> =
            records[..11].iter().cloned().enumerate().map(|(i, g)| (i + 1, g)).collect();
        let played = played_pairs(&lines, "connect6", "a", "b", &config).unwrap();
        assert_eq!(played.keys().copied().collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        assert_eq!(numbers(&standings("a", "b", &played, None)).wdl.games(), 10);
        let (resumed, rest) = run_from(&a, &b, &config, &played);
        assert_eq!(numbers(&resumed), numbers(&whole), "{config:?}");
        assert_eq!(rest, records[10..], "the rest played as before");
    }
    let config = MatchConfig { pairs: 3, seed: 4, sprt: None };
    let (_, records) = run(&a, &b, &config);
    let lines: Vec<(usize, GameRecord)> = records.into_iter().enumerate().map(|(i, g)| (i + 1, g)).collect();
    let other_seed = MatchConfig { seed: 5, ..config.clone() };
    let e = played_pairs(&lines, "connect6", "a", "b", &other_seed).unwrap_err();
    assert!(e.starts_with("line 1: not one of this match's 3 pairs"), "{e}");
    let e = played_pairs(&lines, "connect6", "a", "c", &config).unwrap_err();
    assert_eq!(e, "line 1: a game of a vs b, not of a vs c");
    let e = played_pairs(&lines, "gomoku", "a", "b", &config).unwrap_err();
    assert_eq!(e, "line 1: a game of connect6, not gomoku");
}

#[test]
fn colours_alternate_and_counts_add_up() {
    let (a, b) = (player("a", 20), player("b", 10));
    let (r, records) = run(&a, &b, &MatchConfig { pairs: 5, seed: 1, sprt: None });
    assert_eq!(records.len(), 10);
    for (i, g) in records.iter().enumerate() {
        assert_eq!(g.first, if i % 2 == 0 { "a" } else { "b" });
        assert_eq!(g.opening, Some((i / 2) % 2));
    }
    assert_eq!((r.wdl.wins, r.wdl.draws, r.wdl.losses), (10, 0, 0));
    assert_eq!(r.penta.0, [0, 0, 0, 0, 5]);
    assert_eq!((r.a_first.wins, r.a_second.wins), (5, 5));
    assert_eq!((r.first_wins, r.second_wins), (5, 5));
    assert_eq!(r.openings, 2, "5 pairs from a suite of 2");
}

#[test]
fn identical_players_score_half_and_sprt_stops_early() {
    let (a, b) = (player("a", 10), player("b", 10));
    let (r, _) = run(&a, &b, &MatchConfig { pairs: 50, seed: 3, sprt: None });
    assert_eq!(r.wdl.games(), 100);
    assert!((r.wdl.score() - 0.5).abs() < 0.15, "{}", r.wdl.score());
    let strong = player("s", 99);
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let (r, records) = run(&strong, &b, &MatchConfig { pairs: 10_000, seed: 3, sprt: Some(sprt) });
    assert_eq!(r.verdict, Some(Hypothesis::H1));
    assert!(records.len() < 200 && records.len() % (2 * BATCH_PAIRS) == 0, "{}", records.len());
    assert!(r.summary(Some(&sprt)).contains("H1 accepted"));
}
