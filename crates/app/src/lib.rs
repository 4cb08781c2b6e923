//! The `gomoku` application: command-line tools, the pbrain protocol and the web board, all glue
//! around the `gomoku-engine` library.

pub mod arena;
pub mod args;
pub mod cli;
pub mod clock;
pub mod commands;
pub mod corpus;
pub mod eval_model;
pub mod library;
pub mod match_record;
pub mod opening;
pub mod pbrain;
#[cfg(test)]
#[path = "../../engine/tests/prop_support/mod.rs"]
mod prop_support;
pub mod psq;
pub mod renju_opening;
pub mod review_json;
pub mod seed;
pub mod sgf;
pub mod stats;
pub mod system;
pub mod web;
