//! One module per subcommand: each has clap `Args` and a `run` function.

pub mod bench;
pub mod bench_board;
pub mod pbrain;
pub mod position;
pub mod serve;
pub mod think;
