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

/// Each class's finished games and their seconds: what a class's next game is expected to
/// take.
#[derive(Clone, Debug)]
struct ClassTimes {
    /// Per class: games finished here and their seconds.
    done: Vec<(u32, f64)>,
    /// Per class: games finished elsewhere (other shards) and their seconds, as last told.
    shared: Vec<(u32, f64)>,
    /// Every finished game, here and elsewhere: count and seconds.
    all: (u32, f64),
}

impl ClassTimes {
    fn new(classes: usize) -> ClassTimes {
        ClassTimes { done: vec![(0, 0.0); classes], shared: vec![(0, 0.0); classes], all: (0, 0.0) }
    }

    fn add(&mut self, class: usize, seconds: f64) {
        self.done[class].0 += 1;
        self.done[class].1 += seconds;
        self.all.0 += 1;
        self.all.1 += seconds;
    }

    fn share(&mut self, times: &[(u32, f64)]) {
        self.all = self.done.iter().fold((0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
        for (c, slot) in self.shared.iter_mut().enumerate() {
            *slot = times.get(c).copied().unwrap_or((0, 0.0));
            self.all.0 += slot.0;
            self.all.1 += slot.1;
        }
    }

    /// Whether a game of the class has finished, here or elsewhere.
    fn known(&self, class: usize) -> bool {
        self.done[class].0 + self.shared[class].0 > 0
    }

    /// A class's expected game time from its finished games, here and elsewhere (a class
    /// with none finished: the mean of every finished game).
    fn expected(&self, class: usize) -> f64 {
        let (n, s) = self.done[class];
        let (m, t) = self.shared[class];
        if n + m > 0 {
            (s + t) / f64::from(n + m)
        } else if self.all.0 > 0 {
            self.all.1 / f64::from(self.all.0)
        } else {
            0.0
        }
    }
}

/// Some games of a batch waiting to be handed out, by class: the first game of every class
/// nothing is known of, then a game of the class expected longest.
#[derive(Clone, Debug)]
struct ClassQueue {
    /// Each class's games not handed out yet, last first (so `pop` gives the next).
    waiting: Vec<Vec<usize>>,
    /// Classes whose first game is handed out: every one below this.
    opened: usize,
    /// Per class: games handed out from the front.
    handed: Vec<u32>,
}

impl ClassQueue {
    /// `games` (in index order) of a batch whose game k is of dense class `class_of[k]`.
    fn new(class_of: &[usize], classes: usize, games: impl DoubleEndedIterator<Item = usize>) -> ClassQueue {
        let mut waiting = vec![Vec::new(); classes];
        for game in games.rev() {
            waiting[class_of[game]].push(game);
        }
        ClassQueue { waiting, opened: 0, handed: vec![0; classes] }
    }

    /// The first game of every class in turn, then a game of the class expected longest;
    /// of classes expected alike, the one with the fewest games handed out, then the one
    /// seen first. Within a class, games in index order. A class whose games others have
    /// already timed (other shards') is not opened: it is ranked by what they took.
    fn front(&mut self, times: &ClassTimes) -> Option<usize> {
        while self.opened < self.waiting.len() {
            let class = self.opened;
            self.opened += 1;
            if times.known(class) {
                continue;
            }
            // A class whose games were all taken by others has nothing to open.
            if let Some(game) = self.waiting[class].pop() {
                self.handed[class] += 1;
                return Some(game);
            }
        }
        let mut best: Option<(usize, f64)> = None;
        for class in (0..self.waiting.len()).filter(|&c| !self.waiting[c].is_empty()) {
            let e = times.expected(class);
            let better = match best {
                None => true,
                Some((b, be)) => e > be || (e == be && self.handed[class] < self.handed[b]),
            };
            if better {
                best = Some((class, e));
            }
        }
        let class = best?.0;
        self.handed[class] += 1;
        self.waiting[class].pop()
    }
}

/// Dense class numbers (0.. in order of first appearance) of `classes` (any keys), and how
/// many there are.
fn dense_classes(classes: &[usize]) -> (Vec<usize>, usize) {
    let mut dense = std::collections::HashMap::new();
    let class_of = classes
        .iter()
        .map(|&key| {
            let n = dense.len();
            *dense.entry(key).or_insert(n)
        })
        .collect();
    (class_of, dense.len())
}

/// The first game of every class in turn (classes in the order of their first game), then a
/// game of the class whose games took longest on average so far (a class with none finished
/// yet counts as the mean of every finished game); of classes expected alike (before any game
/// has ended, all of them), the one with the fewest games handed out, then the one seen
/// first. Within a class, games in index order.
#[derive(Clone, Debug)]
pub struct LongestClassFirst {
    /// The class of each game (dense: 0.. in order of first appearance).
    class_of: Vec<usize>,
    queue: ClassQueue,
    times: ClassTimes,
}

impl LongestClassFirst {
    /// `classes[i]`: any key of game `i`'s class; games with equal keys are one class.
    pub fn new(classes: &[usize]) -> LongestClassFirst {
        let (class_of, n) = dense_classes(classes);
        LongestClassFirst {
            queue: ClassQueue::new(&class_of, n, 0..classes.len()),
            times: ClassTimes::new(n),
            class_of,
        }
    }
}

impl HandOut for LongestClassFirst {
    fn next(&mut self) -> Option<usize> {
        self.queue.front(&self.times)
    }

    fn finished(&mut self, game: usize, seconds: f64) {
        self.times.add(self.class_of[game], seconds);
    }
}

/// A shard's order when the batch is split into shards that steal from each other (the
/// shards of a cluster run, [`deal_by_class`]): its own games as [`LongestClassFirst`]
/// hands them out, the long classes first; once they are all handed out, the other shards'
/// games in one pool, handed out the same way: the pool's long classes first, whichever
/// shard they belong to, as one machine of all the shards' threads would play them. What a
/// class's games take is learned from the games this shard played and, when told
/// ([`ShardOrder::set_shared`]), from the other shards' (a shard of a few hundred games
/// learns too little on its own). The caller skips games that another shard has taken.
#[derive(Clone, Debug)]
pub struct ShardOrder {
    class_of: Vec<usize>,
    times: ClassTimes,
    own: ClassQueue,
    /// The other shards' games.
    others: ClassQueue,
}

impl ShardOrder {
    /// Shard `shard`'s (0-based) order; `games_of[s]` is shard s's games, `classes[k]` any key
    /// of game k's class.
    pub fn new(classes: &[usize], games_of: &[Vec<usize>], shard: usize) -> ShardOrder {
        let (class_of, n) = dense_classes(classes);
        let mut others: Vec<usize> =
            games_of.iter().enumerate().filter(|&(s, _)| s != shard).flat_map(|(_, g)| g.iter().copied()).collect();
        others.sort_unstable();
        ShardOrder {
            own: ClassQueue::new(&class_of, n, games_of.get(shard).into_iter().flatten().copied()),
            others: ClassQueue::new(&class_of, n, others.into_iter()),
            times: ClassTimes::new(n),
            class_of,
        }
    }

    /// Its next own game, long classes first.
    pub fn next_own(&mut self) -> Option<usize> {
        self.own.front(&self.times)
    }

    /// The next game of the other shards to take, long classes first.
    pub fn next_stolen(&mut self) -> Option<usize> {
        self.others.front(&self.times)
    }

    /// Game `game`'s class, dense (0.. in order of first appearance): the index of
    /// [`own_times`](Self::own_times) and [`set_shared`](Self::set_shared).
    pub fn class(&self, game: usize) -> usize {
        self.class_of[game]
    }

    /// A game it played ended after `seconds` (its thread's CPU time).
    pub fn finished(&mut self, game: usize, seconds: f64) {
        self.times.add(self.class_of[game], seconds);
    }

    /// The games it played, per class (dense, as [`ShardOrder::set_shared`] takes them):
    /// count and seconds.
    pub fn own_times(&self) -> &[(u32, f64)] {
        &self.times.done
    }

    /// What the other shards' games took, per class (the sums of their
    /// [`own_times`](Self::own_times)); classes beyond `times` count none.
    pub fn set_shared(&mut self, times: &[(u32, f64)]) {
        self.times.share(times);
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

    #[test]
    fn a_shard_hands_out_its_own_games_then_one_pool_of_the_others_long_classes_first() {
        // Classes by key: 5 -> {0, 2, 4, 6}, 8 -> {1, 3, 5, 7}; shard 0 holds 0, 1, 4, 5.
        let classes = [5, 8, 5, 8, 5, 8, 5, 8];
        let games_of = vec![vec![0, 1, 4, 5], vec![2, 3, 6, 7]];
        let mut order = ShardOrder::new(&classes, &games_of, 0);
        // Its own games: every class opened first, in the order the classes were seen.
        assert_eq!([order.next_own(), order.next_own()], [Some(0), Some(1)]);
        order.finished(0, 1.0);
        order.finished(1, 1.0);
        // The other shard says class 8 is long: class 8's own game goes first.
        order.set_shared(&[(2, 2.0), (2, 20.0)]);
        assert_eq!(order.next_own(), Some(5));
        assert_eq!(order.next_own(), Some(4));
        assert_eq!(order.next_own(), None);
        // Then the other shard's games, class 8 (long) before class 5, each exactly once.
        let stolen: Vec<usize> = std::iter::from_fn(|| order.next_stolen()).collect();
        let mut sorted = stolen.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [2, 3, 6, 7]);
        assert_eq!(classes[stolen[0]], 8);
        assert_eq!(order.class(stolen[0]), order.class(1));
    }
}
