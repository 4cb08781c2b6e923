//! `gomoku library`: the library on the command line: import collections, list and show
//! games, explore a position, export games as SGF, and the library's figures.

use crate::library::filter::{Filter, Summary};
use crate::library::symmetry::SymHash;
use crate::library::{default_path, Library};
use anyhow::{bail, Context, Result};
use gomoku_engine::notation::{format_pos, parse_moves};
use gomoku_engine::Rule;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `gomoku library`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The library file (made when it does not exist).
    #[arg(long, global = true, default_value_os_t = default_path())]
    pub library: PathBuf,
    /// What to do.
    #[command(subcommand)]
    pub command: Sub,
}

/// The subcommands of `gomoku library`.
#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Import files, folders and zip files of SGF (`.sgf`), Piskvork (`.psq`), RenLib
    /// (`.lib`) and position-line (`.txt`) records; a file with an error is named and adds
    /// nothing, a game already there is not added again.
    Import(ImportArgs),
    /// List games, the last changed first.
    List(ListArgs),
    /// Show a game: its tags and its main line (or its SGF).
    Show(ShowArgs),
    /// The opening explorer: the games through a position (any orientation, any move order)
    /// and the moves played there, with their results and stored engine values.
    Search(SearchArgs),
    /// Export games as one SGF collection, every line with its comments and labels.
    Export(ExportArgs),
    /// The library's file, figures and size per game.
    Info(InfoArgs),
    /// The benchmark: import many games into a new library (`--library`, a file that does not
    /// exist yet), explore positions of every depth, and print the times and the size per
    /// game.
    Bench(BenchArgs),
}

/// Arguments of `gomoku library bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// The games: a file of position lines (`gomoku selfplay --out`); without one, made-up
    /// games (`--games`, `--seed`).
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// How many made-up games.
    #[arg(long, default_value_t = 100_000)]
    pub games: usize,
    /// The seed of the made-up games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Keep the library file afterwards.
    #[arg(long)]
    pub keep: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `gomoku library import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The rule of records that name none (`.psq`, SGF without `RU`).
    #[arg(long, value_parser = crate::args::parse_rule, default_value = "freestyle")]
    pub rule: Rule,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Files, folders and zip files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// The filters of `list` and `export`.
#[derive(Debug, Clone, clap::Args)]
pub struct FilterArgs {
    /// Only this rule.
    #[arg(long)]
    pub rule: Option<String>,
    /// Only this board size.
    #[arg(long)]
    pub size: Option<usize>,
    /// A part of Black's or White's name.
    #[arg(long)]
    pub player: Option<String>,
    /// A part of the opening's name or opening rule.
    #[arg(long)]
    pub opening: Option<String>,
    /// Who won: black, white, draw or unknown.
    #[arg(long)]
    pub result: Option<String>,
    /// A part of the name, event, place, players or source file.
    #[arg(long)]
    pub text: Option<String>,
}

impl FilterArgs {
    fn filter(&self) -> Filter {
        Filter {
            rule: self.rule.clone(),
            size: self.size,
            player: self.player.clone(),
            opening: self.opening.clone(),
            result: self.result.clone(),
            text: self.text.clone(),
            ..Filter::default()
        }
    }
}

/// Arguments of `gomoku library list`.
#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Which games.
    #[command(flatten)]
    pub filter: FilterArgs,
    /// The deleted games (that can be restored) instead.
    #[arg(long)]
    pub deleted: bool,
    /// At most this many.
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    /// Skip this many first.
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `gomoku library show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The game's number.
    pub id: i64,
    /// Print the game as SGF instead.
    #[arg(long)]
    pub sgf: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `gomoku library search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// Rule and board size of the position.
    #[command(flatten)]
    pub board: crate::args::BoardArgs,
    /// List at most this many games.
    #[arg(long, default_value_t = 10)]
    pub limit: usize,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// The moves from the empty board, Black first, `--` for a pass.
    #[arg(allow_hyphen_values = true)]
    pub moves: Vec<String>,
}

/// Arguments of `gomoku library export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// Which games (without a filter or ids: all of them).
    #[command(flatten)]
    pub filter: FilterArgs,
    /// The file to write (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The games' numbers (instead of a filter).
    pub ids: Vec<i64>,
}

/// Arguments of `gomoku library info`.
#[derive(Debug, clap::Args)]
pub struct InfoArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `gomoku library`.
///
/// # Errors
/// The library cannot be opened (not a library, a newer one), bad arguments, a failed write.
pub fn run(args: &Args) -> Result<()> {
    if let Sub::Bench(a) = &args.command {
        return bench(&args.library, a);
    }
    let lib = Library::open(&args.library)?;
    match &args.command {
        Sub::Import(a) => import(&lib, a),
        Sub::List(a) => list(&lib, a),
        Sub::Show(a) => show(&lib, a),
        Sub::Search(a) => search(&lib, a),
        Sub::Export(a) => export(&lib, a),
        Sub::Info(a) => info(&lib, a),
        Sub::Bench(_) => Ok(()),
    }
}

fn import(lib: &Library, a: &ImportArgs) -> Result<()> {
    let started = std::time::Instant::now();
    // a crash loses nothing of a file already imported; a power cut may lose the last ones
    lib.set_bulk(true)?;
    let report = lib.import_paths(&a.paths, a.rule)?;
    lib.set_bulk(false)?;
    lib.checkpoint()?;
    let secs = started.elapsed().as_secs_f64();
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "{} games added, {} already in the library, from {} files in {secs:.1} s ({})",
            report.added,
            report.duplicates,
            report.files,
            lib.path().display()
        );
        if report.skipped > 0 {
            println!("{} files passed over (not game records)", report.skipped);
        }
        for f in &report.failed {
            println!("not imported: {}: {}", f.file, f.error);
        }
    }
    if !report.failed.is_empty() {
        bail!("{} files were not imported", report.failed.len());
    }
    Ok(())
}

/// A game's line in a list.
fn line(s: &Summary) -> String {
    let players = match (s.black.as_str(), s.white.as_str()) {
        ("", "") => String::new(),
        (b, w) => format!(
            "{} - {}",
            if b.is_empty() { "?" } else { b },
            if w.is_empty() { "?" } else { w }
        ),
    };
    let mut parts = vec![format!("{:>6}", s.id)];
    for part in [
        s.name.as_str(),
        players.as_str(),
        s.result.as_str(),
        s.event.as_str(),
        s.date.as_str(),
        s.opening.as_str(),
    ] {
        if !part.is_empty() {
            parts.push(part.to_string());
        }
    }
    parts.push(format!(
        "{} {}x{}, {} moves",
        s.rule, s.size, s.size, s.moves
    ));
    parts.join("  ")
}

fn list(lib: &Library, a: &ListArgs) -> Result<()> {
    let filter = Filter {
        deleted: a.deleted,
        limit: Some(a.limit),
        offset: Some(a.offset),
        ..a.filter.filter()
    };
    let (games, total) = lib.list(&filter)?;
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "total": total, "games": games }))?
        );
        return Ok(());
    }
    for g in &games {
        println!("{}", line(g));
    }
    println!("{} of {total} games", games.len());
    Ok(())
}

fn show(lib: &Library, a: &ShowArgs) -> Result<()> {
    let stored = lib
        .load(a.id)?
        .with_context(|| format!("no game {} in the library", a.id))?;
    if a.sgf {
        print!("{}", lib.export_game(a.id)?);
        return Ok(());
    }
    let g = &stored.game;
    let main: Vec<String> = g
        .tree
        .main_line()
        .iter()
        .filter_map(|&n| g.tree.get(n).map(|n| format_pos(n.point, g.size)))
        .collect();
    let comments = g
        .tree
        .nodes()
        .filter(|(_, n)| !n.note.comment.is_empty())
        .count();
    if a.json {
        let summary = lib.summary(a.id)?;
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "game": summary,
                "main_line": main,
                "moves": g.tree.moves(),
                "comments": comments,
            }))?
        );
        return Ok(());
    }
    if let Some(s) = lib.summary(a.id)? {
        println!("{}", line(&s));
        if s.deleted.is_some() {
            println!("(deleted: it can be restored)");
        }
    }
    let t = &g.tags;
    for (k, v) in [
        ("place", &t.place),
        ("round", &t.round),
        ("opening rule", &t.opening_rule),
        ("source", &t.source),
    ] {
        if !v.is_empty() {
            println!("{k}: {v}");
        }
    }
    println!("main line: {}", main.join(" "));
    println!(
        "{} moves in all lines, {} comments",
        g.tree.moves(),
        comments
    );
    Ok(())
}

fn search(lib: &Library, a: &SearchArgs) -> Result<()> {
    let size = a.board.size;
    let moves = parse_moves(&a.moves.join(" "), size)?;
    let mut at = SymHash::new(size, a.board.rule());
    let mut seen = std::collections::HashSet::new();
    for p in moves {
        if p.is_point() && !seen.insert(p) {
            bail!("{} is played twice", format_pos(p, size));
        }
        at.play(p);
    }
    let started = std::time::Instant::now();
    let found = lib.explore(&at, a.limit, 0)?;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    if a.json {
        let mut v = serde_json::to_value(&found)?;
        v["ms"] = serde_json::json!(ms);
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    let r = &found.results;
    println!(
        "{} games through the position (black {}, white {}, draw {}, unknown {}); {} lines end here",
        found.games, r.black, r.white, r.draw, r.unknown, found.ended
    );
    let mut out = std::io::stdout().lock();
    for m in &found.moves {
        let value = m.value.as_ref().map_or(String::new(), |v| {
            format!("  value {} (depth {})", v.eval, v.depth)
        });
        writeln!(
            out,
            "  {:>4}  {:>7} games  black {} white {} draw {}{value}",
            m.point, m.games, m.results.black, m.results.white, m.results.draw
        )?;
    }
    if let Some(an) = &found.analysis {
        writeln!(
            out,
            "stored analysis: {} at depth {}, best {}",
            an.eval,
            an.depth,
            an.best.first().map_or("-", |c| c.point.as_str())
        )?;
    }
    for g in &found.list {
        writeln!(out, "{}  (node {})", line(&g.game), g.node)?;
    }
    writeln!(out, "query: {ms:.2} ms")?;
    Ok(())
}

fn export(lib: &Library, a: &ExportArgs) -> Result<()> {
    let ids = if a.ids.is_empty() {
        lib.ids(&a.filter.filter())?
    } else {
        a.ids.clone()
    };
    let n = match &a.out {
        Some(path) => {
            let file = std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            let mut w = std::io::BufWriter::new(file);
            let n = lib.export_to(&ids, &mut w)?;
            w.flush()?;
            n
        }
        None => lib.export_to(&ids, &mut std::io::stdout().lock())?,
    };
    eprintln!("{n} games exported");
    Ok(())
}

fn info(lib: &Library, a: &InfoArgs) -> Result<()> {
    let s = lib.stats()?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
        return Ok(());
    }
    println!("library: {} (schema {})", s.path, s.schema);
    println!(
        "{} games ({} deleted), {} moves, {} positions indexed, {} analyses",
        s.games, s.deleted, s.moves, s.positions, s.analyses
    );
    let per_game = if s.games + s.deleted > 0 {
        s.bytes / (s.games + s.deleted) as u64
    } else {
        0
    };
    println!("{:.1} MB, {per_game} bytes per game", s.bytes as f64 / 1e6);
    Ok(())
}

fn bench(path: &std::path::Path, a: &BenchArgs) -> Result<()> {
    if path.exists() {
        bail!(
            "{} exists: the benchmark needs a new library file (give one with --library)",
            path.display()
        );
    }
    let started = std::time::Instant::now();
    let (lines, what) = match &a.from {
        Some(f) => (
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?,
            f.display().to_string(),
        ),
        None => (
            crate::library::bench::random_games(a.games, a.seed).join("\n"),
            format!("made-up games, seed {}", a.seed),
        ),
    };
    let games = lines
        .lines()
        .filter(|l| !gomoku_engine::record::Record::is_blank(l))
        .count();
    let made_s = started.elapsed().as_secs_f64();
    let lib = Library::open(path)?;
    let report = crate::library::bench::run(&lib, &lines, games);
    drop(lib);
    if !a.keep {
        for suffix in ["", "-wal", "-shm"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            let _ = std::fs::remove_file(PathBuf::from(p));
        }
    }
    let r = report?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(());
    }
    println!("{games} games ({what}), read or made in {made_s:.1} s");
    println!(
        "import: {} added in {:.1} s ({:.0} games/s)",
        r.added,
        r.import_s,
        r.added as f64 / r.import_s.max(1e-9)
    );
    println!(
        "explorer: {} queries, median {:.2} ms, 99% under {:.2} ms, slowest {:.2} ms, the empty \
         board {:.2} ms",
        r.queries, r.query_median_ms, r.query_p99_ms, r.query_max_ms, r.query_start_ms
    );
    println!(
        "file: {:.1} MB, {} bytes per game",
        r.bytes as f64 / 1e6,
        r.bytes_per_game
    );
    Ok(())
}
