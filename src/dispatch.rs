//! Which game a free thread takes next: the hand-out policies of list scheduling; and which
//! shard of a cluster run plays it ([`deal_by_class`]).
//!
//! They are pure (no threads, no clocks), so that the executor
//! ([`crate::workers`]) plays a batch by them and the scaling model
//! ([`crate::report::scaling`]) replays them on any number of threads alike.
//!
//! Why the order matters: a batch ends when its last game ends, and threads that find no game
//! left wait for it (the barrier tail). Handing out the longest games first leaves a tail the
//! length of a short game, but a game's length is known only once it is played. The games of
//! a GA generation come in classes of alike games (one opening, the common player on one
//! side), and a class's games played so far predict its others: the first game of every class
//! is played first, then the classes whose games took longest so far. A game's result never
//! depends on when or where it is played, so the policy changes the time a batch takes, never
//! its results.

/// A hand-out policy: asked for the next game whenever a thread is free, and told how long
/// each game took.
pub trait HandOut {
    /// The next game to play (its index in the batch), or `None` when all are handed out.
    fn next(&mut self) -> Option<usize>;
    /// A game handed out earlier ended after `seconds` (of its thread's CPU time).
    fn finished(&mut self, _game: usize, _seconds: f64) {}
}

/// The games in a fixed order.
#[derive(Clone, Debug)]
pub struct InOrder {
    order: Vec<usize>,
    next: usize,
}

impl InOrder {
    /// `order`: a permutation of the batch's indices.
    pub fn new(order: Vec<usize>) -> InOrder {
        InOrder { order, next: 0 }
    }

    /// The games `0..count` in turn.
    pub fn in_turn(count: usize) -> InOrder {
        InOrder::new((0..count).collect())
    }
}

impl HandOut for InOrder {
    fn next(&mut self) -> Option<usize> {
        let game = self.order.get(self.next).copied();
        self.next += 1;
        game
    }
}

/// The first game of every class in turn (classes in the order of their first game), then a
/// game of the class whose games took longest on average so far (a class with none finished
/// yet counts as the mean of every finished game); of classes expected alike (before any game
/// has ended, all of them), the one with the fewest games handed out, then the one seen
/// first. Within a class, games in index order.
#[derive(Clone, Debug)]
pub struct LongestClassFirst {
    /// Each class's games not handed out yet, last first (so `pop` gives the next).
    waiting: Vec<Vec<usize>>,
    /// The class of each game (dense: 0.. in order of first appearance).
    class_of: Vec<usize>,
    /// Classes whose first game is handed out: every one below this.
    opened: usize,
    /// Per class: games handed out.
    handed: Vec<u32>,
    /// Per class: games finished and their seconds.
    done: Vec<(u32, f64)>,
    /// Every finished game: count and seconds.
    all: (u32, f64),
}

impl LongestClassFirst {
    /// `classes[i]`: any key of game `i`'s class; games with equal keys are one class.
    pub fn new(classes: &[usize]) -> LongestClassFirst {
        let mut dense = std::collections::HashMap::new();
        let class_of: Vec<usize> = classes
            .iter()
            .map(|&key| {
                let n = dense.len();
                *dense.entry(key).or_insert(n)
            })
            .collect();
        let mut waiting = vec![Vec::new(); dense.len()];
        for (game, &c) in class_of.iter().enumerate().rev() {
            waiting[c].push(game);
        }
        LongestClassFirst {
            done: vec![(0, 0.0); waiting.len()],
            handed: vec![0; waiting.len()],
            waiting,
            class_of,
            opened: 0,
            all: (0, 0.0),
        }
    }

    /// A class's expected game time from its finished games.
    fn expected(&self, class: usize) -> f64 {
        let (n, s) = self.done[class];
        if n > 0 {
            s / f64::from(n)
        } else if self.all.0 > 0 {
            self.all.1 / f64::from(self.all.0)
        } else {
            0.0
        }
    }
}

impl HandOut for LongestClassFirst {
    fn next(&mut self) -> Option<usize> {
        let class = if self.opened < self.waiting.len() {
            self.opened += 1;
            self.opened - 1
        } else {
            let mut best: Option<(usize, f64)> = None;
            for class in (0..self.waiting.len()).filter(|&c| !self.waiting[c].is_empty()) {
                let e = self.expected(class);
                let better = match best {
                    None => true,
                    Some((b, be)) => e > be || (e == be && self.handed[class] < self.handed[b]),
                };
                if better {
                    best = Some((class, e));
                }
            }
            best?.0
        };
        self.handed[class] += 1;
        self.waiting[class].pop()
    }

    fn finished(&mut self, game: usize, seconds: f64) {
        let c = self.class_of[game];
        self.done[c].0 += 1;
        self.done[c].1 += seconds;
        self.all.0 += 1;
        self.all.1 += seconds;
    }
}

/// The shard (0-based) of each game when a batch is split into `shards` shards that each
/// play their games on their own (the shards of a cluster run): the games of each class in
/// turn, class by class (classes in the order of their first game), dealt to the shards like
/// cards, so that every shard gets as many games of every class as any other, give or take
/// one. Dealing the batch in index order instead (game k to shard k mod `shards`) gives a
/// shard only the classes k mod `shards` meets when the classes come round in a fixed cycle,
/// as a GA generation's do: some shards then get the long classes only. Pure: a function of
/// the classes, never of any game's time.
pub fn deal_by_class(classes: &[usize], shards: usize) -> Vec<usize> {
    let mut first_seen = std::collections::HashMap::new();
    for &c in classes {
        let n = first_seen.len();
        first_seen.entry(c).or_insert(n);
    }
    let mut order: Vec<usize> = (0..classes.len()).collect();
    order.sort_by_key(|&game| (first_seen[&classes[game]], game));
    let mut shard_of = vec![0; classes.len()];
    for (dealt, game) in order.into_iter().enumerate() {
        shard_of[game] = dealt % shards.max(1);
    }
    shard_of
}

/// When the last of `durations` (by game index) ends on `threads` threads, each free thread
/// (the lowest-numbered of equals) taking the game `hand_out` gives next; a game's time is
/// reported to `hand_out` when it ends, before any game handed out after that instant.
pub fn makespan(durations: &[f64], threads: usize, hand_out: &mut dyn HandOut) -> f64 {
    let threads = threads.max(1);
    let mut free = vec![0.0f64; threads];
    let mut running: Vec<Option<usize>> = vec![None; threads];
    loop {
        let (i, now) = free.iter().enumerate().fold((0, f64::INFINITY), |b, (i, &t)| if t < b.1 { (i, t) } else { b });
        // Every game that has ended by now, in the order they ended.
        let mut ended: Vec<(f64, usize)> =
            (0..threads).filter(|&j| running[j].is_some() && free[j] <= now).map(|j| (free[j], j)).collect();
        ended.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (_, j) in ended {
            let game = running[j].take().expect("a running game");
            hand_out.finished(game, durations[game]);
        }
        let Some(game) = hand_out.next() else { break };
        running[i] = Some(game);
        free[i] = now + durations[game];
    }
    free.into_iter().fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(mut h: impl HandOut) -> Vec<usize> {
        std::iter::from_fn(|| h.next()).collect()
    }

    #[test]
    fn in_order_hands_out_its_permutation() {
        assert_eq!(all(InOrder::in_turn(3)), [0, 1, 2]);
        assert_eq!(all(InOrder::new(vec![2, 0, 1])), [2, 0, 1]);
    }

    #[test]
    fn every_class_is_opened_first_then_the_longest_class_so_far() {
        // Classes by key: 7 -> {0, 2, 4}, 3 -> {1, 5}, 9 -> {3}.
        let mut h = LongestClassFirst::new(&[7, 3, 7, 9, 7, 3]);
        assert_eq!([h.next(), h.next(), h.next()], [Some(0), Some(1), Some(3)]);
        h.finished(0, 1.0);
        h.finished(1, 5.0);
        // Class 3 took longest so far: its last game next, then class 7's.
        assert_eq!(h.next(), Some(5));
        assert_eq!(h.next(), Some(2));
        h.finished(3, 9.0);
        assert_eq!(h.next(), Some(4));
        assert_eq!(h.next(), None);
        // Nothing finished: classes in the order they were seen, in turn.
        assert_eq!(all(LongestClassFirst::new(&[1, 1, 1, 2, 2])), [0, 3, 1, 4, 2]);
        assert_eq!(all(LongestClassFirst::new(&[])), Vec::<usize>::new());
    }

    #[test]
    fn dealing_by_class_gives_every_shard_its_share_of_every_class() {
        // Two classes in turn: in index order shard 0 would get every game of class 7.
        let classes = [7, 3, 7, 3, 7, 3, 7, 3];
        assert_eq!(deal_by_class(&classes, 2), [0, 0, 1, 1, 0, 0, 1, 1]);
        // One class: index order, as before.
        assert_eq!(deal_by_class(&[1; 5], 2), [0, 1, 0, 1, 0]);
        // More shards than games, and none.
        assert_eq!(deal_by_class(&[0, 1], 4), [0, 1]);
        assert!(deal_by_class(&[], 3).is_empty());
    }

    #[test]
    fn list_scheduling_hands_each_game_to_the_first_free_thread() {
        let turn = InOrder::in_turn;
        assert_eq!(makespan(&[3.0, 1.0, 1.0, 1.0], 2, &mut turn(4)), 3.0);
        // In this order the long game starts last and holds the barrier.
        assert_eq!(makespan(&[1.0, 1.0, 1.0, 3.0], 2, &mut turn(4)), 4.0);
        assert_eq!(makespan(&[2.0, 2.0], 8, &mut turn(2)), 2.0);
        assert_eq!(makespan(&[], 4, &mut turn(0)), 0.0);
    }

    #[test]
    fn a_long_class_learned_from_its_first_game_goes_before_the_short_ones() {
        // Five short games (1 s) then three long ones (4 s), on 2 threads: in turn, the long
        // games come last and one thread waits 3 s for the last of them.
        let durations = [1.0, 1.0, 1.0, 1.0, 1.0, 4.0, 4.0, 4.0];
        let classes = [0, 0, 0, 0, 0, 1, 1, 1];
        assert_eq!(makespan(&durations, 2, &mut InOrder::in_turn(8)), 10.0);
        // By class: the first long game at once; once it has ended, the other two long games
        // go before the last short one.
        assert_eq!(makespan(&durations, 2, &mut LongestClassFirst::new(&classes)), 9.0);
    }
}
