use super::*;
use crate::arena::records::Outcome;
use crate::arena::tests::{player, two_openings, FirstWeightWins};
use crate::report::progress::ProgressMode;

/// The larger first weight wins; equal weights draw.
const MOCK: FirstWeightWins = FirstWeightWins { ties: |_| Outcome::Draw };

fn play(players: &[Player], pairs: usize) -> (TournamentReport, Vec<GameRecord>) {
    let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
    run_tournament(&MOCK, players, &two_openings(), &TournamentConfig { pairs, seed: 7 }, &p, &|_, _| ()).unwrap()
}

#[test]
fn the_stronger_weight_ranks_higher_and_scores_sum_to_zero() {
    let firsts = [5, 30, 10, 25, 0];
    let players: Vec<Player> = firsts.iter().enumerate().map(|(i, &f)| player(&format!("p{i}"), f)).collect();
    let (report, records) = play(&players, 2);
    assert_eq!(records.len(), 10 * 2 * 2);
    assert_eq!(report.games(), 40);
    let order: Vec<usize> = report.standings().iter().map(|s| s.player).collect();
    assert_eq!(order, vec![1, 3, 2, 0, 4]);
    let scores: Vec<i64> = order.iter().map(|&i| report.score(i)).collect();
    assert_eq!(scores, vec![16, 8, 0, -8, -16]);
    assert_eq!((0..5).map(|i| report.score(i)).sum::<i64>(), 0);
    let ratings = report.ratings();
    assert!(order.windows(2).all(|w| ratings[w[0]].elo > ratings[w[1]].elo));
    assert!(ratings.iter().map(|r| r.elo).sum::<f64>().abs() < 1e-6);
}

#[test]
fn every_pairing_plays_both_colours_of_its_own_openings() {
    let players: Vec<Player> = (0..4).map(|i| player(&format!("p{i}"), i)).collect();
    let (report, records) = play(&players, 3);
    for (p, &(i, j)) in pairings(4).iter().enumerate() {
        let games = &records[p * 6..(p + 1) * 6];
        for (k, two) in games.chunks(2).enumerate() {
            assert_eq!(
                (two[0].first.as_str(), two[0].second.as_str()),
                (players[i].name.as_str(), players[j].name.as_str())
            );
            assert_eq!(
                (two[1].first.as_str(), two[1].second.as_str()),
                (players[j].name.as_str(), players[i].name.as_str())
            );
            let opening = Some((p * 3 + k) % 2);
            assert_eq!((two[0].opening, two[1].opening), (opening, opening));
            assert_eq!(two[0].seed, two[1].seed);
        }
        let r = &report.results[p];
        assert_eq!((r.a_first.games(), r.a_second.games()), (3, 3));
    }
    let seeds: std::collections::HashSet<_> = records.iter().map(|r| r.seed).collect();
    assert_eq!(seeds.len(), 6 * 3, "one seed per pair");
}

#[test]
fn draws_score_zero_and_the_tables_show_them() {
    let players = vec![player("a", 10), player("b", 10), player("c", 20)];
    let (report, _) = play(&players, 1);
    assert_eq!(report.head_to_head(0, 1), Some(Wdl::new(0, 2, 0)));
    assert_eq!(report.head_to_head(2, 0), Some(Wdl::new(2, 0, 0)));
    assert_eq!(report.head_to_head(0, 2), Some(Wdl::new(0, 0, 2)));
    assert_eq!(report.head_to_head(1, 1), None);
    assert_eq!((report.score(0), report.score(1), report.score(2)), (-2, -2, 4));
    let t = report.score_table();
    assert_eq!(t.header, ["#", "player", "1", "2", "3", "score", "games"]);
    assert_eq!(t.rows[0], ["1", "c", "x", "+2", "+2", "+4", "4"]);
    assert_eq!(t.rows[1][2..5], ["-2", "x", "0"]);
    let r = report.rating_table();
    assert_eq!(r.rows[0][1], "c");
    assert_eq!(r.rows[0][4..9], ["4", "4", "0", "0", "100.0%"]);
    assert!(r.to_text().contains("Elo"));
    // c won both colours against a and b; a and b drew: 2 Black wins, 2 White wins, 2 draws.
    assert_eq!(report.colour_results(), (2, 2, 2));
}

#[test]
fn too_few_players_is_an_error() {
    let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
    let e = run_tournament(
        &MOCK,
        &[player("a", 1)],
        &two_openings(),
        &TournamentConfig { pairs: 1, seed: 1 },
        &p,
        &|_, _| (),
    );
    assert!(e.is_err());
}
