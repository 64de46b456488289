//! The genes of the K function: one stepValue for each pattern transition Li Guo 2007 §1.2
//! lists that a single stone can cause, by whose pattern changes.

use super::line::State;
use crate::core::weights::{concat_specs, Schema, WeightSpec};
use crate::games::connect::movegen::CONNECT6_MOVE_ORDER;

/// What a pattern state is worth in the hand-set table: the pattern evaluation's defaults
/// (`CONNECT6_PATTERNS`, each class's canonical shape priced by the road table) and the road
/// table's 10000 for a finished six.
pub const fn value(s: State) -> i32 {
    match s {
        State::C6 => 10000,
        State::A5 => 4108,
        State::A4 => 2836,
        State::S5 => 2054,
        State::S4 => 1024,
        State::A3 => 754,
        State::I3 => 662,
        State::A2 => 424,
        State::S3 => 236,
        State::S2 => 95,
        State::None | State::D2 | State::D3 | State::D4 | State::D5 => 0,
    }
}

/// Upper bound of a gene: five times its hand-set value, and at least 500 (a live two and a
/// bit) so that genes set to 0 by hand can still be found useful.
const fn bound(d: i32) -> i32 {
    if 5 * d < 500 {
        500
    } else {
        5 * d
    }
}

/// A transition of the mover's own pattern: worth what the pattern gains.
const fn own(name: &'static str, from: State, to: State, doc: &'static str) -> WeightSpec {
    let d = value(to) - value(from);
    WeightSpec::new(name, d, -bound(d), bound(d), doc)
}

/// A transition of the opponent's pattern caused by the mover's stone: worth what the
/// opponent loses.
const fn opp(name: &'static str, from: State, to: State, doc: &'static str) -> WeightSpec {
    let d = value(from) - value(to);
    WeightSpec::new(name, d, -bound(d), bound(d), doc)
}

use State::*;

/// The K function's weights: 43 stepValues and the move generator's 10 move-order weights.
/// Gene names read `<side>_<from>_<to>`: `own_a3_a4` is the mover's live three becoming a live
/// four, `opp_a5_s5` the opponent's live five blocked to a sleep five. In the paper's order;
/// the transitions it lists that no stone can cause (see the module documentation) have no
/// gene.
pub static CONNECT6_TRANSITIONS: Schema = Schema {
    game: "connect6",
    eval: "transitions",
    source: "each transition worth the change in the pattern evaluation's defaults (six 10000); hand-set move order",
    specs: &concat_specs::<43, 10, 53>(
        [
            own("own_a5_c6", A5, C6, "own live five made six"),
            opp("opp_a5_s5", A5, S5, "opponent's live five blocked to a sleep five"),
            opp("opp_a5_a4", A5, A4, "opponent's live five cut to a live four"),
            opp("opp_a5_s4", A5, S4, "opponent's live five cut to a sleep four"),
            own("own_s5_c6", S5, C6, "own sleep five made six"),
            own("own_s5_a5", S5, A5, "own sleep five made a live five"),
            own("own_s5_s5", S5, S5, "own stone beside an own sleep five that stays one"),
            opp("opp_s5_s5", S5, S5, "stone beside the opponent's sleep five that stays one"),
            opp("opp_s5_a3", S5, A3, "opponent's sleep five cut to a live three"),
            opp("opp_s5_d5", S5, D5, "opponent's sleep five blocked dead"),
            opp("opp_s5_d4", S5, D4, "opponent's sleep five cut to a dead four"),
            opp("opp_s5_s3", S5, S3, "opponent's sleep five cut to a sleep three"),
            opp("opp_s5_i3", S5, I3, "opponent's sleep five cut to an indistinct three"),
            opp("opp_s5_d3", S5, D3, "opponent's sleep five cut to a dead three"),
            opp("opp_s5_s2", S5, S2, "opponent's sleep five cut to a sleep two"),
            own("own_a4_a5", A4, A5, "own live four made a live five"),
            opp("opp_a4_s4", A4, S4, "opponent's live four blocked to a sleep four"),
            own("own_s4_s5", S4, S5, "own sleep four made a sleep five"),
            own("own_s4_a5", S4, A5, "own sleep four made a live five"),
            opp("opp_s4_a3", S4, A3, "opponent's sleep four cut to a live three"),
            opp("opp_s4_i3", S4, I3, "opponent's sleep four cut to an indistinct three"),
            opp("opp_s4_a2", S4, A2, "opponent's sleep four cut to a live two"),
            own("own_d4_d5", D4, D5, "own dead four made a dead five"),
            opp("opp_d4_d3", D4, D3, "opponent's dead four cut to a dead three"),
            own("own_a3_a4", A3, A4, "own live three made a live four"),
            own("own_a3_s4", A3, S4, "own live three made a sleep four"),
            opp("opp_a3_s3", A3, S3, "opponent's live three blocked to a sleep three"),
            opp("opp_a3_d3", A3, D3, "opponent's live three blocked dead"),
            opp("opp_a3_s2", A3, S2, "opponent's live three cut to a sleep two"),
            own("own_i3_s4", I3, S4, "own indistinct three made a sleep four"),
            opp("opp_i3_s3", I3, S3, "opponent's indistinct three blocked to a sleep three"),
            opp("opp_i3_d3", I3, D3, "opponent's indistinct three blocked dead"),
            opp("opp_i3_s2", I3, S2, "opponent's indistinct three cut to a sleep two"),
            opp("opp_i3_d2", I3, D2, "opponent's indistinct three cut to a dead two"),
            own("own_s3_s4", S3, S4, "own sleep three made a sleep four"),
            opp("opp_s3_d3", S3, D3, "opponent's sleep three blocked dead"),
            opp("opp_s3_d2", S3, D2, "opponent's sleep three cut to a dead two"),
            own("own_d3_d4", D3, D4, "own dead three made a dead four"),
            own("own_a2_a3", A2, A3, "own live two made a live three"),
            opp("opp_a2_s2", A2, S2, "opponent's live two blocked to a sleep two"),
            own("own_s2_s3", S2, S3, "own sleep two made a sleep three"),
            opp("opp_s2_d2", S2, D2, "opponent's sleep two blocked dead"),
            own("own_d2_d3", D2, D3, "own dead two made a dead three"),
        ],
        CONNECT6_MOVE_ORDER,
    ),
};
