//! evotune: a genetic-algorithm tuner for the evaluation weights of board-game engines,
//! Connect6 first. See README.md for a tour.

pub mod arena;
pub mod cli;
pub mod commands;
pub mod export;
pub mod fsutil;
pub mod ga;
pub mod game;
pub mod player;
pub mod report;
pub mod reproduce;
pub mod rng;
pub mod search;
pub mod spsa;
pub mod weights;
