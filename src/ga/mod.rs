//! The genetic algorithm. It never knows which game it tunes: it sees a weight schema (names,
//! bounds, defaults) and a [`Referee`](crate::arena::game::Referee) that plays two weight
//! tables against each other.

pub mod adaptive;
pub mod breed;
pub mod checkpoint;
pub mod config;
pub mod evolve;
pub mod finale;
pub mod fitness;
pub mod games;
pub mod observers;
pub mod operators;
pub mod population;
pub mod prepare;
pub mod run;
pub mod run_folder;
pub mod schedule;
pub mod selection;
pub mod state;
pub mod streams;
