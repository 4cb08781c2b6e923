//! One module per subcommand: each has clap `Args` and a `run` function.

pub mod analyze;
pub mod bench;
pub mod bench_analysis;
pub mod bench_board;
pub mod clock_report;
pub mod corpus;
pub mod library;
pub mod match_cmd;
pub mod nnue;
pub mod opening_report;
pub mod pbrain;
pub mod play;
pub mod position;
pub mod review;
pub mod selfplay;
pub mod serve;
pub mod solve;
pub mod think;
pub mod train;
