//! `gomoku corpus`: the binary self-play corpora (`gomoku selfplay --format bin`): their
//! figures (`stats`), their games as lines of the common position format (`dump`), and
//! several joined into one (`cat`). Every game read is checked ([`crate::corpus`]).

use crate::corpus::{CorpusReader, CorpusWriter, GameRecord};
use anyhow::{bail, Context, Result};
use gomoku_engine::Color;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Arguments of `gomoku corpus`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub command: CorpusCommand,
}

/// The subcommands of `gomoku corpus`.
#[derive(Debug, clap::Subcommand)]
pub enum CorpusCommand {
    /// Games, positions after the opening (per rule and board size), bytes per position and
    /// results of corpus files.
    Stats {
        /// Corpus files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Every game as a line of the common position format: `SIZE RULE moves |
    /// opening_plies=N result=black|white|draw values=...` (`gomoku train` reads them).
    Dump {
        /// A corpus file.
        file: PathBuf,
    },
    /// Joins corpus files into one, in the order given (one header).
    Cat {
        /// The corpus written (replaced).
        out: PathBuf,
        /// Corpus files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Opens a corpus file for reading.
fn open(path: &Path) -> Result<CorpusReader<File>> {
    let f = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    CorpusReader::new(f).with_context(|| path.display().to_string())
}

/// Calls `each` on every game of `path`, in order.
fn for_each_game(path: &Path, mut each: impl FnMut(GameRecord) -> Result<()>) -> Result<()> {
    for game in open(path)? {
        each(game.with_context(|| path.display().to_string())?)?;
    }
    Ok(())
}

#[derive(Default, Serialize)]
struct Count {
    games: u64,
    positions: u64,
}

#[derive(Serialize)]
struct Group {
    rule: &'static str,
    size: usize,
    games: u64,
    positions: u64,
}

#[derive(Default, Serialize)]
struct Stats {
    files: usize,
    bytes: u64,
    games: u64,
    positions: u64,
    bytes_per_position: f64,
    black: u64,
    white: u64,
    draw: u64,
    groups: Vec<Group>,
}

fn stats(files: &[PathBuf]) -> Result<Stats> {
    let mut s = Stats {
        files: files.len(),
        ..Stats::default()
    };
    let mut groups: BTreeMap<(usize, usize), (&'static str, Count)> = BTreeMap::new();
    for path in files {
        s.bytes += std::fs::metadata(path)
            .with_context(|| format!("reading {}", path.display()))?
            .len();
        for_each_game(path, |g| {
            let positions = g.positions() as u64;
            s.games += 1;
            s.positions += positions;
            match g.result {
                Some(Color::Black) => s.black += 1,
                Some(Color::White) => s.white += 1,
                None => s.draw += 1,
            }
            let (_, c) = groups
                .entry((g.rule.index(), g.size))
                .or_insert_with(|| (g.rule.name(), Count::default()));
            c.games += 1;
            c.positions += positions;
            Ok(())
        })?;
    }
    s.bytes_per_position = if s.positions == 0 {
        0.0
    } else {
        s.bytes as f64 / s.positions as f64
    };
    s.groups = groups
        .into_iter()
        .map(|((_, size), (rule, c))| Group {
            rule,
            size,
            games: c.games,
            positions: c.positions,
        })
        .collect();
    Ok(s)
}

fn print_stats(s: &Stats) {
    println!("files: {} ({} bytes)", s.files, s.bytes);
    println!("games: {}", s.games);
    println!("positions after the opening: {}", s.positions);
    println!("bytes per position: {:.2}", s.bytes_per_position);
    let pct = |n: u64| 100.0 * n as f64 / s.games.max(1) as f64;
    println!(
        "results: black {} ({:.1}%), white {} ({:.1}%), draw {} ({:.1}%)",
        s.black,
        pct(s.black),
        s.white,
        pct(s.white),
        s.draw,
        pct(s.draw)
    );
    for g in &s.groups {
        println!(
            "{} {}x{}: {} games, {} positions",
            g.rule, g.size, g.size, g.games, g.positions
        );
    }
}

fn dump(path: &Path) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for_each_game(path, |g| {
        writeln!(out, "{}", g.to_line()).context("writing standard output")
    })?;
    out.flush().context("writing standard output")
}

/// Writes the games of `files` to `out` through a file beside it, renamed over `out` once
/// every game is read, so that a bad input leaves no half corpus.
fn cat(out: &Path, files: &[PathBuf]) -> Result<()> {
    for f in files {
        if same_file(f, out) {
            bail!("{}: the output is one of the inputs", out.display());
        }
    }
    let name = out
        .file_name()
        .with_context(|| format!("{}: not a file name", out.display()))?;
    let tmp = out.with_file_name(format!(".{}.tmp", name.to_string_lossy()));
    let write = || -> Result<u64> {
        let f = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        let mut w = CorpusWriter::new(BufWriter::new(f))?;
        let mut games = 0;
        for path in files {
            for_each_game(path, |g| {
                games += 1;
                w.write(&g)
            })?;
        }
        w.into_inner()?
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all())
            .with_context(|| format!("writing {}", tmp.display()))?;
        Ok(games)
    };
    match write() {
        Ok(games) => {
            std::fs::rename(&tmp, out)
                .with_context(|| format!("renaming {} to {}", tmp.display(), out.display()))?;
            eprintln!(
                "{}: {games} games from {} files",
                out.display(),
                files.len()
            );
            Ok(())
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Runs `gomoku corpus`.
///
/// # Errors
/// A file that cannot be read or written, or a corpus that is not well formed (the message
/// names the file, the record and its byte offset).
pub fn run(args: &Args) -> Result<()> {
    match &args.command {
        CorpusCommand::Stats { files, json } => {
            let s = stats(files)?;
            if *json {
                println!("{}", serde_json::to_string_pretty(&s)?);
            } else {
                print_stats(&s);
            }
            Ok(())
        }
        CorpusCommand::Dump { file } => dump(file),
        CorpusCommand::Cat { out, files } => cat(out, files),
    }
}
