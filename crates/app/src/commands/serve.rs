//! `gomoku serve` (also what `gomoku` does with no subcommand): the board in the browser.

use crate::args::MAX_THREADS;
use crate::web::{serve, ServerConfig};
use anyhow::{bail, Result};
use std::time::Duration;

/// Arguments of `gomoku serve`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on (127.0.0.1 keeps the board to this machine).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Search threads per engine move.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table of each engine, in MB.
    #[arg(long, default_value_t = 32)]
    pub hash_mb: usize,
    /// Minutes after which a game nobody looks at is removed.
    #[arg(long, default_value_t = 30)]
    pub idle_minutes: u64,
    /// Most games at once.
    #[arg(long, default_value_t = 200)]
    pub max_games: usize,
    /// The library every game and analysis is written to as it happens, and read back from
    /// after a restart (made when it does not exist).
    #[arg(long, default_value_os_t = crate::library::default_path())]
    pub library: std::path::PathBuf,
    /// Keep the games in memory only: no library.
    #[arg(long, conflicts_with = "library")]
    pub no_library: bool,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            port: 8080,
            host: "127.0.0.1".to_string(),
            threads: 1,
            hash_mb: 32,
            idle_minutes: 30,
            max_games: 200,
            library: crate::library::default_path(),
            no_library: false,
        }
    }
}

/// The longest idle time before a game is removed: a year.
const MAX_IDLE_MINUTES: u64 = 366 * 24 * 60;

/// Runs the server until the process is stopped.
///
/// # Errors
/// Bad arguments, or the address cannot be bound (for example, the port is taken).
pub fn run(args: &Args) -> Result<()> {
    if !(1..=MAX_THREADS).contains(&args.threads) {
        bail!("--threads must be between 1 and {MAX_THREADS}");
    }
    crate::args::check_hash_mb(args.hash_mb)?;
    if args.max_games == 0 {
        bail!("--max-games must be at least 1");
    }
    if !(1..=MAX_IDLE_MINUTES).contains(&args.idle_minutes) {
        bail!("--idle-minutes must be between 1 and {MAX_IDLE_MINUTES}");
    }
    let library = if args.no_library {
        None
    } else {
        let lib = crate::library::Library::open(&args.library)?;
        // on standard error: the first line of standard output is the board's address
        eprintln!("gomoku: the library is {}", args.library.display());
        Some(std::sync::Arc::new(lib))
    };
    let config = ServerConfig {
        hash_mb: args.hash_mb.max(1),
        threads: args.threads,
        idle_timeout: Duration::from_secs(args.idle_minutes * 60),
        max_games: args.max_games,
        library,
        ..ServerConfig::default()
    };
    give_large_blocks_back();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(serve(&args.host, args.port, config))
}

/// Blocks of 1 MB and more are mapped apart, so that freeing them gives the memory back to the
/// system. Each engine game holds an engine (its transposition table, mapped apart anyway, and
/// some 24 MB of threat-search tables, allocated by malloc); glibc raises its threshold for
/// mapping apart to the size of the first such block freed, after which the next ones came from
/// its heaps, where freed memory stays: 30 engine games at once left the server at 970 MB once
/// they were over and deleted, against 130 MB (the two engines kept for reuse) with this.
fn give_large_blocks_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // Safety: mallopt only sets a parameter of the allocator; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}
