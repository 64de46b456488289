//! The weight schemas of the pattern evaluation, Connect6's and Gomoku's.

use crate::core::weights::{concat_specs, Schema, WeightSpec};
use crate::games::connect::movegen::{CONNECT6_MOVE_ORDER, GOMOKU_MOVE_ORDER};

/// A pattern weight whose GA bounds are 0 and five times its default.
const fn live(name: &'static str, default: i32, doc: &'static str) -> WeightSpec {
    WeightSpec::new(name, default, 0, 5 * default, doc)
}

/// A dead-pattern weight: default 0, at most five times the side's sleep-two default (a dead
/// pattern is worth at most a few of the weakest pattern that can still win).
const fn dead(name: &'static str, sleep_two: i32, doc: &'static str) -> WeightSpec {
    WeightSpec::new(name, 0, 0, 5 * sleep_two, doc)
}

/// Connect6 pattern weights, own (side to move) and opponent alike, as the road table uses one
/// table for both sides.
///
/// Defaults: each class's default is what the road table `{0,17,78,141,788,1030,10000}` (see
/// `roads.rs`) gives the class's canonical shape on its own line, summed over the k-windows of
/// that line: live shapes alone on an open line (`XX`, `XXX`, `XXXX`, `XXXXX`, and `X_X_X` for
/// I3), sleep shapes with an enemy stone touching one end and open space at the other. E.g. A3
/// = 2x17 + 2x78 + 4x141 = 754 and S3 = 141 + 78 + 17 = 236. The pattern evaluation so starts
/// from the road evaluation's knowledge on isolated shapes and the GA can separate what the
/// road table lumps together. Dead patterns default to 0 (see the module doc).
pub static CONNECT6_PATTERNS: Schema = Schema {
    game: "connect6",
    eval: "patterns",
    source: "road table {0,17,78,141,788,1030,10000} summed over each class's canonical shape; dead 0",
    specs: &concat_specs::<26, 10, 36>(
        [
            live("own_a5", 4108, "side to move, live five (A5)"),
            live("own_s5", 2054, "side to move, sleep five (S5)"),
            dead("own_d5", 95, "side to move, dead five (D5)"),
            live("own_a4", 2836, "side to move, live four (A4)"),
            live("own_s4", 1024, "side to move, sleep four (S4)"),
            dead("own_d4", 95, "side to move, dead four (D4)"),
            live("own_a3", 754, "side to move, live three (A3)"),
            live("own_i3", 662, "side to move, indistinct three (I3)"),
            live("own_s3", 236, "side to move, sleep three (S3)"),
            dead("own_d3", 95, "side to move, dead three (D3)"),
            live("own_a2", 424, "side to move, live two (A2)"),
            live("own_s2", 95, "side to move, sleep two (S2)"),
            dead("own_d2", 95, "side to move, dead two (D2)"),
            live("opp_a5", 4108, "opponent, live five (A5)"),
            live("opp_s5", 2054, "opponent, sleep five (S5)"),
            dead("opp_d5", 95, "opponent, dead five (D5)"),
            live("opp_a4", 2836, "opponent, live four (A4)"),
            live("opp_s4", 1024, "opponent, sleep four (S4)"),
            dead("opp_d4", 95, "opponent, dead four (D4)"),
            live("opp_a3", 754, "opponent, live three (A3)"),
            live("opp_i3", 662, "opponent, indistinct three (I3)"),
            live("opp_s3", 236, "opponent, sleep three (S3)"),
            dead("opp_d3", 95, "opponent, dead three (D3)"),
            live("opp_a2", 424, "opponent, live two (A2)"),
            live("opp_s2", 95, "opponent, sleep two (S2)"),
            dead("opp_d2", 95, "opponent, dead two (D2)"),
        ],
        CONNECT6_MOVE_ORDER,
    ),
};

/// Freestyle Gomoku pattern weights.
///
/// Defaults: the Gomoku blog's final table (live = FLEX, sleep = BLOCK) with its perspective
/// translated. The blog scores the position after its own move, so its *opponent* is the side
/// to move, and its rule 1 ("the opponent's weight is 2-3x ours, because the opponent moves
/// next") favours the side to move. Here the score is for the side to move, so `own_*` takes the
/// the blog's opponent magnitudes (flex4 100000, block4 100000, flex3 8000, block3 50, flex2 50,
/// block2 3) and `opp_*` the blog's own (FLEX4 50000, BLOCK4 400, FLEX3 400, BLOCK3 20, FLEX2
/// 20, BLOCK2 1). A four of the side to move wins at once, hence own S4 = own A4. The blog
/// scores 6-cell windows where one pattern may be seen in one or two windows; here each
/// pattern counts once. Its one-stone classes have no counterpart. Dead patterns default to 0.
pub static GOMOKU_PATTERNS: Schema = Schema {
    game: "gomoku",
    eval: "patterns",
    source: "Gomoku blog's final table, side to move = its next mover; dead 0",
    specs: &concat_specs::<18, 8, 26>(
        [
            live("own_a4", 100000, "side to move, live four (A4)"),
            live("own_s4", 100000, "side to move, sleep four (S4)"),
            dead("own_d4", 3, "side to move, dead four (D4)"),
            live("own_a3", 8000, "side to move, live three (A3)"),
            live("own_s3", 50, "side to move, sleep three (S3)"),
            dead("own_d3", 3, "side to move, dead three (D3)"),
            live("own_a2", 50, "side to move, live two (A2)"),
            live("own_s2", 3, "side to move, sleep two (S2)"),
            dead("own_d2", 3, "side to move, dead two (D2)"),
            live("opp_a4", 50000, "opponent, live four (A4)"),
            live("opp_s4", 400, "opponent, sleep four (S4)"),
            dead("opp_d4", 1, "opponent, dead four (D4)"),
            live("opp_a3", 400, "opponent, live three (A3)"),
            live("opp_s3", 20, "opponent, sleep three (S3)"),
            dead("opp_d3", 1, "opponent, dead three (D3)"),
            live("opp_a2", 20, "opponent, live two (A2)"),
            live("opp_s2", 1, "opponent, sleep two (S2)"),
            dead("opp_d2", 1, "opponent, dead two (D2)"),
        ],
        GOMOKU_MOVE_ORDER,
    ),
};
