use super::*;
use crate::arena::openings::OpeningSuite;
use crate::arena::records::Reason;
use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::games::connect::eval::CONNECT6_ROADS;
use crate::report::progress::ProgressMode;

/// Black wins when its first weight is larger; ties go to the seed's parity.
struct Mock;
impl Referee for Mock {
    fn play(&self, first: &Player, second: &Player, opening: &[String], seed: u64) -> GameRecord {
        let (x, y) = (first.weights.values()[0], second.weights.values()[0]);
        let result = match x.cmp(&y) {
            std::cmp::Ordering::Greater => Outcome::First,
            std::cmp::Ordering::Less => Outcome::Second,
            _ if seed.is_multiple_of(3) => Outcome::Draw,
            _ if seed % 3 == 1 => Outcome::First,
            _ => Outcome::Second,
        };
        GameRecord {
            result,
            reason: Reason::Adjudicated,
            ..GameRecord::start("connect6", &first.name, &second.name, opening, seed)
        }
    }
}

fn player(name: &str, first: i32) -> Player {
    let schema = &CONNECT6_ROADS;
    let mut v = schema.defaults().values().to_vec();
    v[0] = first;
    let w = crate::core::weights::Weights::from_values(schema, v).unwrap();
    Player::new(name, w, EngineSettings::default(), Limits::depth(1))
}

fn suite() -> Openings {
    Openings::fixed(OpeningSuite {
        game: crate::registry::CONNECT6,
        openings: vec![vec!["j10".into()], vec!["k10".into()]],
    })
}

fn run(a: &Player, b: &Player, config: &MatchConfig) -> (MatchReport, Vec<GameRecord>) {
    let mut records = Vec::new();
    let p = Progress::new("m", 0, "games", ProgressMode::Hidden);
    let r = run_match(
        &Mock,
        a,
        b,
        &mut suite(),
        config,
        &p,
        &mut |g| {
            records.push(g.clone());
            Ok(())
        },
        &mut |_| {},
    )
    .unwrap();
    (r, records)
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
