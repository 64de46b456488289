//! What the tuners (the GA in `ga/`, SPSA in `spsa/`) share: the run's folders and their
//! lock ([`folder`]), checkpoints ([`checkpoint`]), the players of a run resolved before it
//! starts ([`lineup`]), and the executor that steps a run, stops it on Ctrl-C and ends it
//! with the champion, its validation and the report ([`executor`]).

pub mod checkpoint;
pub mod executor;
pub mod folder;
pub mod interrupted;
pub mod lineup;
pub mod outside;
