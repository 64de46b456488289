//! Record files compared by opening: each file's games of one player against an opponent
//! they all played, and the paired difference of two files' scores on the openings both
//! played with the same number of games (`evotune compare`).
//!
//! An opening is its index in its suite together with its moves (the first `opening_moves` of
//! a record's moves), or its moves alone in records without an index. A file may join the
//! matches of several suites (`cat seed21.jsonl seed22.jsonl`); two files that give one index
//! different openings were not played from the same suite, and comparing them is an error.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{bail, Result};

use crate::arena::matches::score_for;
use crate::arena::records::GameRecord;
use crate::stats::{PairedDiff, Wdl};

/// One record file: the name its messages use, and its records with their line numbers.
#[derive(Clone, Debug)]
pub struct RecordFile {
    pub name: String,
    pub records: Vec<(usize, GameRecord)>,
}

impl RecordFile {
    /// The players of the file's games, sorted.
    pub fn players(&self) -> BTreeSet<&str> {
        self.records.iter().flat_map(|(_, r)| [r.first.as_str(), r.second.as_str()]).collect()
    }

    /// The players for a message: `a, b`.
    fn players_text(&self) -> String {
        self.players().into_iter().collect::<Vec<_>>().join(", ")
    }
}

/// An opening as the records give it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OpeningKey {
    /// The opening's index in its suite, when the records say.
    pub index: Option<usize>,
    pub moves: Vec<String>,
}

impl std::fmt::Display for OpeningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.index {
            Some(i) => write!(f, "opening {i} (`{}`)", self.moves.join(" ")),
            None => write!(f, "opening `{}`", self.moves.join(" ")),
        }
    }
}

/// A player's results as first player and as second player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColourWdl {
    pub first: Wdl,
    pub second: Wdl,
}

impl ColourWdl {
    /// Both colours together.
    pub fn total(&self) -> Wdl {
        self.first + self.second
    }

    fn add(&mut self, other: ColourWdl) {
        self.first += other.first;
        self.second += other.second;
    }
}

/// Every game of the files is of one game (Connect6, Gomoku, ...).
pub fn check_game(files: &[RecordFile]) -> Result<()> {
    let mut seen: Option<(&str, &str, usize)> = None;
    for f in files {
        for (line, r) in &f.records {
            match seen {
                None => seen = Some((&r.game, &f.name, *line)),
                Some((game, name, first)) if game != r.game => {
                    bail!("{}:{line}: a game of {} but {name}:{first} is of {game}", f.name, r.game)
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// One player's games against the opponent in one file, by opening.
#[derive(Clone, Debug)]
pub struct PlayerGames {
    pub file: String,
    pub player: String,
    pub openings: BTreeMap<OpeningKey, ColourWdl>,
    /// The line of each opening's first game (for messages).
    lines: BTreeMap<OpeningKey, usize>,
    /// Games of the file between other players, not counted.
    pub skipped: usize,
}

/// The opponent every file played and the compared player of each file.
///
/// `players`: none (each file's player who is not the opponent, which must be one), one (for
/// every file) or one per file in order. `opponent`: the player who plays in every file (and
/// is not a compared player) when not given.
pub fn sides(files: &[RecordFile], players: &[String], opponent: Option<&str>) -> Result<(String, Vec<String>)> {
    if files.is_empty() {
        bail!("no record files");
    }
    for f in files {
        if f.records.is_empty() {
            bail!("{}: no game records", f.name);
        }
    }
    let all = || files.iter().map(|f| format!("{}: {}", f.name, f.players_text())).collect::<Vec<_>>().join("; ");
    let opponent = match opponent {
        Some(o) => {
            if let Some(f) = files.iter().find(|f| !f.players().contains(o)) {
                bail!("--opponent {o}: {} has no game of {o} (its players: {})", f.name, f.players_text());
            }
            o.to_string()
        }
        None => {
            let mut common = files[0].players();
            for f in &files[1..] {
                common = common.intersection(&f.players()).copied().collect();
            }
            common.retain(|n| !players.iter().any(|p| p == n));
            match common.into_iter().collect::<Vec<_>>()[..] {
                [o] => o.to_string(),
                [] => bail!("no player plays in every file ({}); name the opponent with --opponent NAME", all()),
                ref many => bail!(
                    "{} all play in every file ({}); say which is the opponent with --opponent NAME",
                    many.join(", "),
                    all()
                ),
            }
        }
    };
    let given = |i: usize| match players.len() {
        0 => Ok(None),
        1 => Ok(Some(players[0].clone())),
        n if n == files.len() => Ok(Some(players[i].clone())),
        n => bail!("--player: give one name for all {} files or one per file, not {n}", files.len()),
    };
    let mut chosen = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let names = f.players();
        let player = match given(i)? {
            Some(p) if !names.contains(p.as_str()) => {
                bail!("--player {p}: {} has no game of {p} (its players: {})", f.name, f.players_text())
            }
            Some(p) if p == opponent => bail!("--player {p}: {p} is the opponent; compare another player"),
            Some(p) => p,
            None => match names.iter().filter(|n| **n != opponent).collect::<Vec<_>>()[..] {
                [p] => p.to_string(),
                [] => bail!("{}: only {opponent} plays in it; there is nobody to compare", f.name),
                ref many => bail!(
                    "{}: {} play against {opponent}; say which to compare with --player NAME",
                    f.name,
                    many.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ")
                ),
            },
        };
        chosen.push(player);
    }
    Ok((opponent, chosen))
}

/// `player`'s games against `opponent` in `file`, by opening.
pub fn games_of(file: &RecordFile, player: &str, opponent: &str) -> Result<PlayerGames> {
    let mut games = PlayerGames {
        file: file.name.clone(),
        player: player.to_string(),
        openings: BTreeMap::new(),
        lines: BTreeMap::new(),
        skipped: 0,
    };
    for (line, r) in &file.records {
        if !r.is_scored() {
            games.skipped += 1;
            continue;
        }
        let player_first = match (r.first.as_str(), r.second.as_str()) {
            (p, o) if p == player && o == opponent => true,
            (o, p) if p == player && o == opponent => false,
            _ => {
                games.skipped += 1;
                continue;
            }
        };
        if r.opening_moves > r.moves.len() {
            bail!(
                "{}:{line}: the record says its first {} moves are the opening, but it has {} moves",
                file.name,
                r.opening_moves,
                r.moves.len()
            );
        }
        let key = OpeningKey { index: r.opening, moves: r.moves[..r.opening_moves].to_vec() };
        let mut result = ColourWdl::default();
        let score = score_for(r.result, player_first);
        if player_first {
            result.first.add(score);
        } else {
            result.second.add(score);
        }
        games.lines.entry(key.clone()).or_insert(*line);
        games.openings.entry(key).or_default().add(result);
    }
    if games.openings.is_empty() {
        bail!("{}: no game between {player} and {opponent}", file.name);
    }
    Ok(games)
}

/// Openings of two files left out of their comparison, and why.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// Played in the base file only.
    pub only_base: usize,
    /// Played in the new file only.
    pub only_new: usize,
    /// Played in both, with a different number of games.
    pub games_differ: usize,
}

/// A new file against the base file on the openings both played with the same number of
/// games.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Each file's results on those openings.
    pub base: ColourWdl,
    pub new: ColourWdl,
    /// The per-opening differences, new − base.
    pub diff: PairedDiff,
    pub left_out: LeftOut,
}

/// Compares `new` with `base` opening by opening. An error when the files give an opening
/// index different openings (they were not played from the same suite).
pub fn compare(base: &PlayerGames, new: &PlayerGames) -> Result<Comparison> {
    check_same_suite(base, new)?;
    let mut c = Comparison {
        base: ColourWdl::default(),
        new: ColourWdl::default(),
        diff: PairedDiff::new(),
        left_out: LeftOut::default(),
    };
    for (key, b) in &base.openings {
        let Some(n) = new.openings.get(key) else {
            c.left_out.only_base += 1;
            continue;
        };
        let games = b.total().games();
        if n.total().games() != games {
            c.left_out.games_differ += 1;
            continue;
        }
        c.base.add(*b);
        c.new.add(*n);
        c.diff.add(b.total().points(), n.total().points(), games);
    }
    c.left_out.only_new = new.openings.keys().filter(|k| !base.openings.contains_key(k)).count();
    Ok(c)
}

/// Every opening index the two files share must start the same openings in both, or the
/// openings of one file must be among the other's (a file that joins several suites).
fn check_same_suite(base: &PlayerGames, new: &PlayerGames) -> Result<()> {
    fn by_index(g: &PlayerGames) -> BTreeMap<usize, BTreeSet<&OpeningKey>> {
        let mut m: BTreeMap<usize, BTreeSet<&OpeningKey>> = BTreeMap::new();
        for key in g.openings.keys() {
            if let Some(i) = key.index {
                m.entry(i).or_default().insert(key);
            }
        }
        m
    }
    let (b, n) = (by_index(base), by_index(new));
    for (i, in_base) in &b {
        let Some(in_new) = n.get(i) else { continue };
        if in_base.is_subset(in_new) || in_new.is_subset(in_base) {
            continue;
        }
        let (Some(kb), Some(kn)) = (in_base.difference(in_new).next(), in_new.difference(in_base).next()) else {
            continue;
        };
        bail!(
            "{}:{}: opening {i} starts `{}` here but `{}` in {}:{}: the files were not played from the same \
             openings (the same --openings file or --opening-seed)",
            new.file,
            new.lines[*kn],
            kn.moves.join(" "),
            kb.moves.join(" "),
            base.file,
            base.lines[*kb]
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::records::{Outcome, Reason};

    fn game(first: &str, second: &str, opening: Option<usize>, moves: &[&str], result: Outcome) -> GameRecord {
        let mut r = GameRecord::start("connect6", first, second, &[], 1);
        r.moves = moves.iter().map(|m| m.to_string()).collect();
        r.opening_moves = 1;
        r.opening = opening;
        r.result = result;
        r.reason = Reason::rule("six");
        r
    }

    fn file(name: &str, games: Vec<GameRecord>) -> RecordFile {
        RecordFile { name: name.into(), records: games.into_iter().enumerate().map(|(i, g)| (i + 1, g)).collect() }
    }

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_opponent_is_who_plays_in_every_file() {
        let a = file("a.jsonl", vec![game("x", "opp", Some(0), &["j10"], Outcome::First)]);
        let b = file("b.jsonl", vec![game("opp", "y", Some(0), &["j10"], Outcome::First)]);
        let (opp, players) = sides(&[a.clone(), b.clone()], &[], None).unwrap();
        assert_eq!((opp.as_str(), players), ("opp", names(&["x", "y"])));
        // The same two players in both files: which is the opponent?
        let e = sides(&[a.clone(), a.clone()], &[], None).unwrap_err().to_string();
        assert!(e.contains("opp, x all play in every file") && e.contains("--opponent"), "{e}");
        assert_eq!(sides(&[a.clone(), a.clone()], &names(&["x"]), None).unwrap().0, "opp");
        let (opp, players) = sides(&[a.clone(), a.clone()], &[], Some("x")).unwrap();
        assert_eq!((opp.as_str(), players), ("x", names(&["opp", "opp"])));
        // Nobody in common.
        let c = file("c.jsonl", vec![game("u", "v", None, &["j10"], Outcome::Draw)]);
        let e = sides(&[a.clone(), c.clone()], &[], None).unwrap_err().to_string();
        assert!(e.contains("a.jsonl: opp, x; c.jsonl: u, v"), "{e}");
        let e = sides(&[a.clone(), c], &[], Some("opp")).unwrap_err().to_string();
        assert!(e.contains("c.jsonl has no game of opp (its players: u, v)"), "{e}");
        // A file of three players needs --player.
        let t = file(
            "t.jsonl",
            vec![game("x", "opp", None, &["j10"], Outcome::Draw), game("z", "opp", None, &[], Outcome::Draw)],
        );
        let e = sides(&[t.clone(), b.clone()], &[], None).unwrap_err().to_string();
        assert!(e.contains("t.jsonl: x, z play against opp"), "{e}");
        assert_eq!(sides(&[t.clone(), b.clone()], &names(&["z", "y"]), None).unwrap().1, names(&["z", "y"]));
        let e = sides(&[t, b], &names(&["z", "y", "x"]), None).unwrap_err().to_string();
        assert!(e.contains("one per file, not 3"), "{e}");
        let empty = file("e.jsonl", vec![]);
        assert!(sides(&[empty, a], &[], None).unwrap_err().to_string().contains("e.jsonl: no game records"));
    }

    #[test]
    fn openings_pair_up_and_the_rest_is_left_out() {
        use Outcome::*;
        let base = file(
            "base",
            vec![
                game("b", "o", Some(0), &["j10", "k10k11"], First), // b wins as first
                game("o", "b", Some(0), &["j10", "k10k11"], First), // b loses as second
                game("b", "o", Some(1), &["k10"], Draw),
                game("o", "b", Some(1), &["k10"], Second),
                game("b", "o", Some(2), &["l10"], Second), // only in base
                game("b", "o", Some(3), &["m10"], First),  // one game here, two in new
                game("x", "o", Some(3), &["m10"], First),  // another player: skipped
            ],
        );
        let new = file(
            "new",
            vec![
                game("n", "o", Some(0), &["j10"], First),
                game("o", "n", Some(0), &["j10"], Second),
                game("n", "o", Some(1), &["k10"], Second),
                game("o", "n", Some(1), &["k10"], Second),
                game("n", "o", Some(3), &["m10"], First),
                game("o", "n", Some(3), &["m10"], First),
                game("n", "o", Some(4), &["n10"], First), // only in new
            ],
        );
        let b = games_of(&base, "b", "o").unwrap();
        let n = games_of(&new, "n", "o").unwrap();
        assert_eq!((b.skipped, n.skipped), (1, 0));
        let c = compare(&b, &n).unwrap();
        assert_eq!(c.left_out, LeftOut { only_base: 1, only_new: 1, games_differ: 1 });
        // Opening 0: 1 point against 2; opening 1: 1.5 against 1.
        assert_eq!(c.base.first, Wdl::new(1, 1, 0));
        assert_eq!(c.base.second, Wdl::new(1, 0, 1));
        assert_eq!(c.new.first, Wdl::new(1, 0, 1));
        assert_eq!(c.new.second, Wdl::new(2, 0, 0));
        assert_eq!((c.diff.openings(), c.diff.games()), (2, 4));
        assert_eq!(c.diff.mean(), 0.5 / 4.0);
        assert_eq!(c.diff.changes(), crate::stats::Changes { better: 1, worse: 1, same: 0 });
    }

    #[test]
    fn one_index_with_other_moves_is_another_suite() {
        let base = file("base", vec![game("b", "o", Some(0), &["j10"], Outcome::First)]);
        let new = file(
            "new",
            vec![game("n", "o", Some(1), &["j10"], Outcome::First), game("n", "o", Some(0), &["k9"], Outcome::First)],
        );
        let e = compare(&games_of(&base, "b", "o").unwrap(), &games_of(&new, "n", "o").unwrap()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "new:2: opening 0 starts `k9` here but `j10` in base:1: the files were not played from the same \
             openings (the same --openings file or --opening-seed)"
        );
        // A file that joins two suites against one of them: the other suite's openings are
        // left out.
        let joined = file(
            "joined",
            vec![game("n", "o", Some(0), &["j10"], Outcome::First), game("n", "o", Some(0), &["k9"], Outcome::Draw)],
        );
        let c = compare(&games_of(&base, "b", "o").unwrap(), &games_of(&joined, "n", "o").unwrap()).unwrap();
        assert_eq!((c.diff.openings(), c.left_out.only_new), (1, 1));
        // Without indexes the moves are the opening.
        let plain = file("plain", vec![game("n", "o", None, &["k9"], Outcome::First)]);
        let c = compare(&games_of(&plain, "n", "o").unwrap(), &games_of(&plain, "n", "o").unwrap()).unwrap();
        assert_eq!(c.diff.openings(), 1);
    }

    #[test]
    fn files_of_two_games_are_refused() {
        let a = file("a", vec![game("b", "o", None, &["j10"], Outcome::First)]);
        let mut g = game("b", "o", None, &["h8"], Outcome::First);
        g.game = "gomoku".into();
        let b = file("b", vec![game("b", "o", None, &["j10"], Outcome::First), g]);
        assert!(check_game(&[a.clone(), a.clone()]).is_ok());
        assert_eq!(check_game(&[a, b]).unwrap_err().to_string(), "b:2: a game of gomoku but a:1 is of connect6");
    }

    #[test]
    fn a_record_shorter_than_its_opening_is_refused() {
        let mut g = game("b", "o", Some(0), &["j10"], Outcome::First);
        g.opening_moves = 3;
        let e = games_of(&file("f.jsonl", vec![g]), "b", "o").unwrap_err().to_string();
        assert!(e.starts_with("f.jsonl:1: the record says its first 3 moves"), "{e}");
        let e = games_of(&file("f.jsonl", vec![game("b", "o", None, &[], Outcome::Draw)]), "x", "o").unwrap_err();
        assert_eq!(e.to_string(), "f.jsonl: no game between x and o");
    }
}
