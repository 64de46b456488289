//! Connect6 as the registry sees it: its openings, its bench positions, its built-in config
//! and best table, and its engine protocol.

use std::io::{BufRead, Write};

use crate::core::openings::{OpeningConfig, OpeningMaker};
use crate::games::connect::board::Board;
use crate::games::connect::game::{Connect6, ConnectGame};
use crate::games::connect::openings::{canonical, stones_in_turns, ConnectOpenings};
use crate::games::connect::protocol;
use crate::games::connect::sgf::SgfGame;
use crate::games::{BuiltIn, Descriptor, ProtocolOptions};
use crate::search::Engine;

/// Connect6's middle-game positions searched by `bench` (record notation from the empty
/// board), taken from self-play games of the default weights at depth 3 from generated
/// openings (turns 6 to 10): no threat road on the board and no forced win within a depth-4
/// search, so that the bench measures the main search rather than the threat-space search;
/// White and Black to move.
pub const CONNECT6_BENCH: &[&str] = &[
    "h10 m8l8 m12i13 k8n8 i8o8 l7l9",
    "k10 i8j8 j7l13 k8n8 l8l10 h8i9 g8l9",
    "h11 j11j12 k11m9 j9j14 j10l12 j13m13 l13j15 k14l14",
    "m7 j10k11 j13j8 h8m13 k7i9 h10l12 l6n14 n4l10 l7n7",
    "l11 g12h11 i12h10 l7i10 j9k10 f11f13",
    "i11 g13g12 l10k7 g8g11 g10i10 h13g14 k10g15",
    "h9 h10i11 m13l8 g9l14 k13l13 f8g11 e7j13 i13n13",
    "h10 i8i9 m7j9 i6i7 i5i10 j8k8 g10j10 f10l10 l8k9",
];

impl Descriptor for Connect6 {
    fn board_size(&self) -> (usize, usize) {
        let r = Self::RULES;
        (r.width as usize, r.height as usize)
    }

    fn stones_in_turns(&self, turns: usize) -> usize {
        stones_in_turns(Self::RULES, turns)
    }

    fn symmetric_key(&self, pos: &Board) -> Vec<u32> {
        canonical(pos)
    }

    fn opening_maker(&self, config: &OpeningConfig) -> Box<dyn OpeningMaker> {
        Box::new(ConnectOpenings::new(Self::RULES, Self::ROADS, config))
    }

    fn bench_positions(&self) -> &'static [&'static str] {
        CONNECT6_BENCH
    }

    fn quick_config(&self) -> BuiltIn {
        BuiltIn { path: "configs/quick.toml", text: include_str!("../../../configs/quick.toml") }
    }

    /// SGF has no number of Connect6: Go's (`GM[1]`), whose 19x19 board and two-letter points
    /// are Connect6's, with `RU[Connect6]`.
    fn sgf(&self) -> Option<SgfGame> {
        Some(SgfGame { number: 1, rules: Some("Connect6"), board: Self::RULES })
    }

    fn best_weights(&self) -> Option<BuiltIn> {
        Some(BuiltIn {
            path: "weights/connect6-versus-cloudict.toml",
            text: include_str!("../../../weights/connect6-versus-cloudict.toml"),
        })
    }

    fn play_protocol(
        &self,
        engine: &mut Engine<Self>,
        options: &ProtocolOptions,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> std::io::Result<()> {
        protocol::run(engine, options, input, out, err)
    }
}
