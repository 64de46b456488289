//! The command line: the commands and their one-line `--help`; each command's arguments sit
//! beside it in `commands/`. Doc comments here are the `--help` text.

use anyhow::Result;
use clap::{CommandFactory, Parser, Subcommand};

use crate::commands;
use crate::commands::bench::BenchArgs;
use crate::commands::bestmove::BestmoveArgs;
use crate::commands::cluster::ClusterCommand;
use crate::commands::compare::CompareArgs;
use crate::commands::completions::{CompletionsArgs, ManArgs};
use crate::commands::evolve::EvolveArgs;
use crate::commands::export::ExportArgs;
use crate::commands::fit_eval::FitEvalArgs;
use crate::commands::fit_order::FitOrderArgs;
use crate::commands::matches::{MatchArgs, SelfplayArgs};
use crate::commands::openings::OpeningsArgs;
use crate::commands::play::PlayArgs;
use crate::commands::plot::PlotArgs;
use crate::commands::reproduce::ReproduceArgs;
use crate::commands::scaling::ScalingArgs;
use crate::commands::schema::SchemaArgs;
use crate::commands::serve::ServeArgs;
use crate::commands::spsa::SpsaArgs;
use crate::commands::tournament::TournamentArgs;

/// evotune: tune the evaluation weights of Connect6, Gomoku, Surakarta and EinStein würfelt
/// nicht engines by evolution, and play and measure with them.
///
/// Start with `evotune evolve` (a short run on the built-in quick config), then
/// `evotune match --a results/<run>/champion.toml --b defaults` to see whether it is better.
/// Wherever a weight file is expected, `defaults` names the hand-set table, `random` /
/// `random:SEED` a uniformly random one, and a run's folder (results/<run>) its champion.
/// Weight files are TOML, or JSON as `export --format json` writes them. The commands that
/// play, search, or read weights or openings take `--game connect6|gomoku|surakarta|einstein`
/// (default connect6, or for `evolve` and `spsa` their config's game).
#[derive(Parser, Debug)]
#[command(name = "evotune", version = crate::VERSION, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the genetic algorithm: grouped round-robin self-play, adaptive rates, a checkpoint
    /// every generation, the champion weight table at the end.
    ///
    /// Exit status: 0 when the run has all its generations, 130 when Ctrl-C stopped it (after
    /// saving the generation in flight; resume with --resume), 1 on an error.
    Evolve(EvolveArgs),
    /// Play on the game's protocol (stdin/stdout), e.g. under a tournament platform, a GUI or a
    /// Gomocup manager: the best shipped table, 1 s a move (Gomoku: the manager's times).
    ///
    /// Table: by default `best`, the best table shipped for the game: Connect6
    /// weights/connect6-versus-cloudict.toml, Gomoku weights/gomoku-cell-pairs-fitted.toml
    /// (the cell-pairs evaluation; both built into the binary; docs/strength.md,
    /// docs/matches.md), the other games their hand table; with --eval of another
    /// evaluation, that one's hand table. --weights takes a file, a run folder, `defaults` or
    /// `random:SEED`.
    ///
    /// Time: without --depth, --nodes or --time-ms a move takes 1 s (Connect6, Surakarta and
    /// EinStein: their protocols give no clock). Gomoku keeps to the manager's INFO times as a
    /// Gomocup brain does (timeout_turn, timeout_match, time_left, time_increment): never more
    /// than the turn's time or a tenth of the time left, aiming at a 25th of it; 1 s a move
    /// when the manager gives no time. --depth and --nodes play deterministically (in Gomoku
    /// still within the manager's time).
    Play(PlayArgs),
    /// Search one position given as record moves and print `bestmove <stones>`; by default
    /// with the table `play` plays (`--weights best`).
    Bestmove(BestmoveArgs),
    /// Search fixed positions at a fixed depth with the default weights; the last line is
    /// `bench nodes <N> nps <X> ms <T>`, N a deterministic signature of the search.
    Bench(BenchArgs),
    /// Play games between two players and write them as records (a match without the
    /// statistics fuss).
    Selfplay(SelfplayArgs),
    /// A match between two players: paired openings with colours swapped, Elo, LOS, SPRT.
    Match(MatchArgs),
    /// A round robin of many players with a score table and Elo ratings.
    Tournament(TournamentArgs),
    /// Compare players by their match records against one opponent on the same openings: the
    /// difference of their scores, paired by opening, with a 95% interval.
    ///
    /// Each file holds the games of one player against an opponent every file shares, e.g.
    /// `match --a weights/X.toml --b 'cloudict=cmd:...' --opening-seed 21 --records x.jsonl`
    /// and the same with `--a weights/Y.toml --records y.jsonl`: the same openings (the same
    /// --openings file or --opening-seed), each played twice with colours swapped. The
    /// opponent is the player found in every file, and each file's player the one who is not
    /// the opponent (--opponent and --player say otherwise, e.g. for a tournament's records).
    ///
    /// Games are paired by opening: an opening is its index in the suite together with its
    /// moves (the records' first `opening_moves` moves), or its moves alone in records without
    /// an index. Each NEW file is compared with BASE on the openings both played with the same
    /// number of games; the others are left out and counted under the table. Two files that
    /// give one opening index different moves were not played from the same suite: an error.
    ///
    /// Each file's row: its openings and games in common with BASE, W-D-L, score, and the score
    /// as first and as second player (openings often favour one side strongly). A NEW file's
    /// row adds diff, its score minus BASE's in percentage points (+15.0: 15 more points per
    /// 100 games), ± the half-width of its 95% interval and the interval itself, computed from
    /// the per-opening differences with Student's t (openings − 1 degrees of freedom; the
    /// standard error is s/√openings when every opening has the same number of games): an
    /// interval that leaves out 0 says the two players scored differently; z, diff in
    /// standard errors; and +/-/=, how many openings NEW scored more, less and the same on.
    /// Pairing by opening cancels the openings' bias, so this interval is narrower than that of
    /// two scores taken apart.
    Compare(CompareArgs),
    /// Fit a table's move-order weights to another player's moves: the generator then lists
    /// the moves that player made in recorded games (e.g. an outside engine's, from `match
    /// --records`) earlier, so that the search tries them.
    ///
    /// A search only tries the moves its generator lists (Connect6: 32 pairs of stones), so a
    /// strong player's move that the generator ranks low is one the search can neither play
    /// nor foresee as the opponent's answer. The fit tries each move-order weight in turn at
    /// a few multiples of its value and keeps the value that lists more of the player's moves
    /// (counting those among the first 8 a quarter more), round after round until nothing
    /// changes; the evaluation weights stay (the move-order weights are the `move_*` ones,
    /// and for Gomoku's `cells` and `cell-pairs` tables also the `order_*` rank of their quiet
    /// cells). Moves in positions decided before any search
    /// are left out. Prints the coverage before and after, on the training records and on
    /// --test records (hold some games out: a fit to few games can learn their positions),
    /// and writes the table to --out. Games decide whether the new table is better: measure
    /// it with `match` (docs/tuning.md, "Fitting the move order to a stronger player").
    FitOrder(FitOrderArgs),
    /// Fit a table's evaluation weights to a stronger engine's evaluation of positions
    /// (Texel's method): the positions of recorded games are labelled by an outside engine
    /// (e.g. Rapfi on a node budget) into a label file that grows as it labels, so an
    /// interrupted run goes on where it stopped; then the weights are set so that
    /// sigmoid(static score / K) predicts sigmoid(label / K') over the labels.
    ///
    /// K is fitted first for --weights and then kept, so the fitted table keeps its scale
    /// (search margins are written in it). The fit is a local search over the integer
    /// evaluation weights (each tried a step up and down, steps halving when nothing
    /// helps), deterministic on any number of threads; the move-order weights stay. Left
    /// out: forced results (`+M12`; `--mates result` teaches them as the result instead),
    /// positions where the judge printed no evaluation, and
    /// positions a static evaluation cannot judge (over, or tactics pending: a four on a
    /// Gomoku board). Prints the loss before and after on the fitted positions and on the
    /// held-out ones (--holdout), and writes the table to --out. Games decide whether the
    /// new table is better: measure it with `match` (docs/tuning.md, "Fitting the evaluation
    /// to a stronger engine").
    FitEval(FitEvalArgs),
    /// Reproduce a paper's experiment and print our numbers beside the paper's.
    Reproduce(ReproduceArgs),
    /// Convert a weight table for other engines: TOML, JSON, `NAME VALUE` lines or a C header.
    Export(ExportArgs),
    /// Print a built-in weight schema as a parameter schema file: the starting point for
    /// tuning an outside engine's own parameters (`[outside]` in a config).
    Schema(SchemaArgs),
    /// Tune by SPSA (the method of fishtest and OpenBench) on the same weights, engine and
    /// games as `evolve`, to compare the two at equal game budgets.
    Spsa(SpsaArgs),
    /// Predict a GA run on more threads from its trace.csv: each generation's games replayed
    /// on N threads as the executor hands them out (the next game to the first free thread),
    /// plus its sequential phases; prints games/s, speed-up and efficiency for each N and
    /// where the rest of the time goes (threads idle at the end of the games, the sequential
    /// phases). --against RUN compares with a run of the same config measured on other
    /// threads (docs/performance.md).
    Scaling(ScalingArgs),
    /// Redraw the plots of a run: fitness.png from its history.csv, genes.png from its
    /// champions/gen-NNNN.toml.
    Plot(PlotArgs),
    /// Write a generated opening suite to a file (to inspect it, edit it, or share it).
    Openings(OpeningsArgs),
    /// A GA run's generations as steps a batch system can drive on machines that share the
    /// run's folder: plan a generation, play its shards, reduce them (docs/cluster.md).
    /// `evolve --executor slurm|parallel` drives these steps itself.
    #[command(subcommand)]
    Cluster(ClusterCommand),
    /// Watch runs in a browser: a small read-only web server on the results folder
    /// (default results/) that lists the runs and shows each one live as its generations
    /// finish: fitness and the scores against the anchors with their intervals, diversity,
    /// each weight, the champion and its validation, the games in flight. It prints the URL;
    /// it listens on this machine only (127.0.0.1) unless --bind says otherwise. Each run also
    /// writes the same page as results/<run>/report.html, for when no server runs.
    Serve(ServeArgs),
    /// Print a shell's completion script for evotune, e.g. `evotune completions bash >
    /// ~/.local/share/bash-completion/completions/evotune` (zsh: into a folder of $fpath as
    /// `_evotune`; fish: ~/.config/fish/completions/evotune.fish).
    Completions(CompletionsArgs),
    /// Print the manual page (roff), e.g. `evotune man | man -l -`, or `evotune man --out
    /// DIR` for a page per command (evotune.1, evotune-match.1, ...) to install under a
    /// man/man1 folder.
    Man(ManArgs),
}

impl Command {
    /// Runs the command.
    pub fn run(&self) -> Result<()> {
        match self {
            Command::Bench(a) => commands::bench::run(a),
            Command::Bestmove(a) => commands::bestmove::run(a),
            Command::Selfplay(a) => commands::matches::run_selfplay(a),
            Command::Match(a) => commands::matches::run_match_command(a),
            Command::Export(a) => commands::export::run(a),
            Command::Schema(a) => commands::schema::run(a),
            Command::Plot(a) => commands::plot::run(a),
            Command::Scaling(a) => commands::scaling::run(a),
            Command::Openings(a) => commands::openings::run(a),
            Command::Cluster(c) => commands::cluster::run(c),
            Command::Play(a) => commands::play::run(a),
            Command::Evolve(a) => commands::evolve::run(a),
            Command::Spsa(a) => commands::spsa::run(a),
            Command::Tournament(a) => commands::tournament::run(a),
            Command::Compare(a) => commands::compare::run(a),
            Command::FitOrder(a) => commands::fit_order::run(a),
            Command::FitEval(a) => commands::fit_eval::run(a),
            Command::Reproduce(a) => commands::reproduce::run(a),
            Command::Serve(a) => commands::serve::run(a),
            Command::Completions(a) => commands::completions::run_completions(a, Cli::command()),
            Command::Man(a) => commands::completions::run_man(a, Cli::command()),
        }
    }
}
