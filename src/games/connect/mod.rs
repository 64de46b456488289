//! Connect(m,n,k,p,q): Connect6 (19,19,6,2,1) and freestyle Gomoku (15,15,5,1,1).

pub mod board;
pub mod descriptor;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod notation;
pub mod openings;
pub mod protocol;
pub mod search;
pub mod sgf;
pub mod vcdt;

pub use board::{Board, Cell, Colour, Rules};
pub use game::{make_move, unmake_move, Connect6};
