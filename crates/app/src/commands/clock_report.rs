//! `gomoku clock-report DIR`: how the engines of a match spent their clocks, from the folder
//! `../shared/anchors/match.sh` writes (c-gomoku-cli's `games.sgf` and `msg.txt`).
//!
//! The records are read by [`crate::match_record`].
//!
//! Per game and over the match, each engine's moves, total, mean and longest move, the share
//! of its game clock used, the moves over the time per move, the mean depth, and ours against
//! the opponent's. The game clock and the time per move come from the folder's name
//! (`RULE-SIZE-MATCH_S-TURN_MS`, match.sh's default) unless given.

use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::match_record::{parse_games, parse_messages, Game, Messages};

/// Arguments of `gomoku clock-report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A match folder (`match.sh --out DIR`): its `games.sgf` and `msg.txt`.
    pub dir: PathBuf,
    /// Our engine's name in the match (`match.sh` calls it `ours`).
    #[arg(long, default_value = "ours")]
    pub ours: String,
    /// Each engine's game clock in seconds (0: none); by default from the folder's name.
    #[arg(long)]
    pub match_s: Option<u64>,
    /// The time per move in milliseconds (0: none); by default from the folder's name.
    #[arg(long)]
    pub turn_ms: Option<u64>,
    /// Print one JSON object instead of the tables.
    #[arg(long)]
    pub json: bool,
}

/// How one engine spent its time (in one game or over the match).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Spent {
    /// The engine (for the opponents over a match, every name, joined by `/`).
    pub name: String,
    /// Games in which it made a move.
    pub games: usize,
    /// Moves made (opening stones aside).
    pub moves: usize,
    /// Their total time, in milliseconds.
    pub total_ms: u64,
    /// Mean time of a move.
    pub mean_ms: f64,
    /// The longest move, with its game and stone number.
    pub longest_ms: u64,
    /// The game of the longest move.
    pub longest_game: Option<usize>,
    /// The stone number of the longest move.
    pub longest_stone: Option<usize>,
    /// The share of the game clocks used: the total over the clocks of the games it moved in
    /// (`None` without a game clock).
    pub clock_share: Option<f64>,
    /// The highest share of one game's clock.
    pub clock_share_max: Option<f64>,
    /// Moves that took longer than the time per move (`None` without one).
    pub over_turn: Option<usize>,
    /// Mean of the last depth reported for each move, over the moves that reported one.
    pub mean_depth: Option<f64>,
    /// Moves with a depth in `msg.txt`.
    #[serde(skip)]
    depth_moves: usize,
    #[serde(skip)]
    depth_sum: i64,
}

/// The clocks of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Clocks {
    /// Each engine's game clock in milliseconds.
    pub match_ms: Option<u64>,
    /// The time per move in milliseconds.
    pub turn_ms: Option<u64>,
}

impl Spent {
    /// What `name` spent in `game` (`depths` from its messages).
    fn of(name: &str, game: &Game, msgs: Option<&Messages>, clocks: Clocks) -> Spent {
        let mut s = Spent {
            name: name.to_string(),
            ..Spent::default()
        };
        for m in &game.moves {
            let mover = if m.black { &game.black } else { &game.white };
            let (Some(t), true) = (m.time_ms, mover == name) else {
                continue;
            };
            s.moves += 1;
            s.total_ms += t;
            if t > s.longest_ms || s.longest_stone.is_none() {
                s.longest_ms = t;
                s.longest_game = Some(game.number);
                s.longest_stone = Some(m.stone);
            }
            if clocks.turn_ms.is_some_and(|turn| t > turn) {
                *s.over_turn.get_or_insert(0) += 1;
            }
            if let Some(d) = msgs.and_then(|g| g.depths.get(&(name.to_string(), m.stone))) {
                s.depth_moves += 1;
                s.depth_sum += i64::from(*d);
            }
        }
        s.games = usize::from(s.moves > 0);
        if clocks.turn_ms.is_some() {
            s.over_turn.get_or_insert(0);
        }
        if let Some(clock) = clocks.match_ms {
            let share = s.total_ms as f64 / clock as f64;
            s.clock_share = Some(share);
            s.clock_share_max = Some(share);
        }
        s.finish();
        s
    }

    /// Adds another game's figures.
    fn add(&mut self, o: &Spent, clocks: Clocks) {
        if o.moves > 0 && (self.longest_stone.is_none() || o.longest_ms > self.longest_ms) {
            self.longest_ms = o.longest_ms;
            self.longest_game = o.longest_game;
            self.longest_stone = o.longest_stone;
        }
        self.games += o.games;
        self.moves += o.moves;
        self.total_ms += o.total_ms;
        self.depth_moves += o.depth_moves;
        self.depth_sum += o.depth_sum;
        if let Some(n) = o.over_turn {
            *self.over_turn.get_or_insert(0) += n;
        }
        if let Some(clock) = clocks.match_ms {
            self.clock_share =
                Some(self.total_ms as f64 / (clock as f64 * self.games.max(1) as f64));
            let max = o.clock_share_max.unwrap_or(0.0);
            self.clock_share_max = Some(self.clock_share_max.map_or(max, |m| m.max(max)));
        }
        self.finish();
    }

    fn finish(&mut self) {
        self.mean_ms = self.total_ms as f64 / self.moves.max(1) as f64;
        self.mean_depth =
            (self.depth_moves > 0).then(|| self.depth_sum as f64 / self.depth_moves as f64);
    }
}

/// One game's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameReport {
    /// The game's number.
    pub number: usize,
    /// The engines playing Black and White.
    pub black: String,
    /// See `black`.
    pub white: String,
    /// The result and how the game ended.
    pub result: String,
    /// See `result`.
    pub ending: String,
    /// Stones on the board at the end, the opening's included.
    pub stones: usize,
    /// Our engine's time.
    pub ours: Spent,
    /// The opponent's.
    pub opponent: Spent,
}

/// The whole report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The folder read.
    pub dir: String,
    /// The clocks.
    pub clocks: Clocks,
    /// Every game in which our engine played.
    pub games: Vec<GameReport>,
    /// Over the match: ours.
    pub ours: Spent,
    /// Over the match: the opponents'.
    pub opponent: Spent,
    /// Our total time over the opponent's (`None` when the opponent spent none).
    pub time_ratio: Option<f64>,
    /// Our mean move over the opponent's.
    pub per_move_ratio: Option<f64>,
}

/// The report of `games` (with `messages`) for the engine `ours`.
///
/// # Errors
/// No game of `ours`.
pub fn report(
    dir: &str,
    games: &[Game],
    messages: &BTreeMap<usize, Messages>,
    ours: &str,
    clocks: Clocks,
) -> Result<Report, String> {
    let mut out = Vec::new();
    let mut total_ours = Spent {
        name: ours.to_string(),
        ..Spent::default()
    };
    let mut total_opp = Spent::default();
    let mut opponents: Vec<String> = Vec::new();
    for g in games {
        let opponent = if g.black == ours {
            &g.white
        } else if g.white == ours {
            &g.black
        } else {
            continue;
        };
        if !opponents.contains(opponent) {
            opponents.push(opponent.clone());
        }
        let msgs = messages.get(&g.number);
        let o = Spent::of(ours, g, msgs, clocks);
        let t = Spent::of(opponent, g, msgs, clocks);
        total_ours.add(&o, clocks);
        total_opp.add(&t, clocks);
        out.push(GameReport {
            number: g.number,
            black: g.black.clone(),
            white: g.white.clone(),
            result: g.result.clone(),
            ending: g.ending.clone(),
            stones: g.moves.len(),
            ours: o,
            opponent: t,
        });
    }
    if out.is_empty() {
        let mut names: Vec<&str> = games
            .iter()
            .flat_map(|g| [g.black.as_str(), g.white.as_str()])
            .collect();
        names.sort_unstable();
        names.dedup();
        return Err(format!(
            "no game of an engine named '{ours}' (the engines: {}); --ours names ours",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        ));
    }
    total_opp.name = opponents.join("/");
    let ratio = |a: f64, b: f64| (b > 0.0).then(|| a / b);
    Ok(Report {
        dir: dir.to_string(),
        clocks,
        games: out,
        time_ratio: ratio(total_ours.total_ms as f64, total_opp.total_ms as f64),
        per_move_ratio: ratio(total_ours.mean_ms, total_opp.mean_ms),
        ours: total_ours,
        opponent: total_opp,
    })
}

/// The clocks from a folder's name as `match.sh` writes it (`RULE-SIZE-MATCH_S-TURN_MS`), with
/// 0 as none.
fn clocks_from_name(dir: &Path) -> Clocks {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parts: Vec<&str> = name.split('-').collect();
    let num = |s: &str| s.parse::<u64>().ok();
    match parts.as_slice() {
        [_, size, m, t] if num(size).is_some() => Clocks {
            match_ms: num(m).filter(|&m| m > 0).map(|m| m * 1000),
            turn_ms: num(t).filter(|&t| t > 0),
        },
        _ => Clocks {
            match_ms: None,
            turn_ms: None,
        },
    }
}

/// Runs the command.
///
/// # Errors
/// A missing or unreadable `games.sgf` or `msg.txt`, or a malformed one (the file and line
/// named), or no game of our engine.
pub fn run(args: &Args) -> Result<()> {
    let read = |name: &str| -> Result<(PathBuf, String)> {
        let path = args.dir.join(name);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        Ok((path, text))
    };
    let (sgf_path, sgf) = read("games.sgf")?;
    let (msg_path, msg) = read("msg.txt")?;
    let games = parse_games(&sgf).map_err(|e| anyhow::anyhow!("{}: {e}", sgf_path.display()))?;
    let messages =
        parse_messages(&msg).map_err(|e| anyhow::anyhow!("{}: {e}", msg_path.display()))?;
    let named = clocks_from_name(&args.dir);
    let clocks = Clocks {
        match_ms: args
            .match_s
            .map_or(named.match_ms, |s| (s > 0).then(|| s.saturating_mul(1000))),
        turn_ms: args.turn_ms.map_or(named.turn_ms, |t| (t > 0).then_some(t)),
    };
    let dir = args.dir.display().to_string();
    let r = report(&dir, &games, &messages, &args.ours, clocks)
        .map_err(|e| anyhow::anyhow!("{}: {e}", sgf_path.display()))?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print!("{}", text(&r));
    }
    Ok(())
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{:.1}%", v * 100.0))
}

fn opt<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// One table row of an engine's figures.
fn row(s: &Spent, with_game: bool) -> String {
    let longest = match (s.longest_stone, s.longest_game) {
        (Some(stone), Some(game)) if with_game => {
            format!("{} (game {game}, #{stone})", s.longest_ms)
        }
        (Some(stone), _) => format!("{} (#{stone})", s.longest_ms),
        _ => "-".to_string(),
    };
    format!(
        "  {:<10} {:>5} {:>10} {:>8.0} {:<24} {:>7} {:>7} {:>6} {:>6}\n",
        s.name,
        s.moves,
        s.total_ms,
        s.mean_ms,
        longest,
        pct(s.clock_share),
        pct(s.clock_share_max),
        opt(s.over_turn),
        s.mean_depth
            .map_or_else(|| "-".to_string(), |d| format!("{d:.1}")),
    )
}

const HEADER: &str = "  engine     moves   total ms  mean ms longest ms (stone)        clock   worst   over  depth\n";

/// The report as text tables.
#[must_use]
pub fn text(r: &Report) -> String {
    let mut out = format!(
        "clock report of {}: {} games; game clock {}, time per move {}\n",
        r.dir,
        r.games.len(),
        r.clocks
            .match_ms
            .map_or_else(|| "none".to_string(), |m| format!("{m} ms")),
        r.clocks
            .turn_ms
            .map_or_else(|| "none".to_string(), |t| format!("{t} ms")),
    );
    for g in &r.games {
        out += &format!(
            "\ngame {}: {} (black) x {} (white), {} stones, {} ({})\n",
            g.number, g.black, g.white, g.stones, g.ending, g.result
        );
        out += HEADER;
        out += &row(&g.ours, false);
        out += &row(&g.opponent, false);
    }
    out += &format!("\nmatch ({} games):\n", r.games.len());
    out += HEADER;
    out += &row(&r.ours, true);
    out += &row(&r.opponent, true);
    let ratio = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |v| format!("{v:.2}x"));
    out += &format!(
        "  {} against {}: total time {}, mean move {}\n",
        r.ours.name,
        r.opponent.name,
        ratio(r.time_ratio),
        ratio(r.per_move_ratio)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_record::tests::fixture;

    #[test]
    fn the_figures_of_the_fixture_match() {
        let games = parse_games(&fixture("renju-15-120-5000/games.sgf")).unwrap();
        let msgs = parse_messages(&fixture("renju-15-120-5000/msg.txt")).unwrap();
        let clocks = clocks_from_name(Path::new("x/renju-15-120-5000"));
        assert_eq!(
            clocks,
            Clocks {
                match_ms: Some(120_000),
                turn_ms: Some(5_000)
            }
        );
        let r = report("dir", &games, &msgs, "ours", clocks).unwrap();
        let g1 = &r.games[0];
        assert_eq!(
            (g1.ours.moves, g1.ours.total_ms, g1.ours.longest_ms),
            (5, 12_040, 4_870)
        );
        assert_eq!(g1.ours.longest_stone, Some(7));
        assert_eq!((g1.opponent.moves, g1.opponent.total_ms), (5, 7_169));
        // ours reported depths 16, 18, 17, 15, 3 for its five moves
        assert_eq!(g1.ours.mean_depth, Some(13.8));
        assert!((g1.ours.clock_share.unwrap() - 12_040.0 / 120_000.0).abs() < 1e-12);
        let g2 = &r.games[1];
        assert_eq!(
            (g2.ours.moves, g2.ours.total_ms, g2.ours.longest_ms),
            (5, 13_755, 4_990)
        );
        // the last move reported no depth: the mean is over four
        assert_eq!(g2.ours.mean_depth, Some(17.5));
        assert_eq!((g2.opponent.moves, g2.opponent.mean_ms), (4, 1_500.0));
        assert_eq!(r.games[2].ours.moves, 0);
        // the match: two games with moves of ours, a third forfeited at the start
        assert_eq!(
            (r.ours.games, r.ours.moves, r.ours.total_ms),
            (2, 10, 25_795)
        );
        assert_eq!(
            (r.ours.longest_ms, r.ours.longest_game, r.ours.longest_stone),
            (4_990, Some(2), Some(8))
        );
        assert_eq!(
            (
                r.opponent.name.as_str(),
                r.opponent.moves,
                r.opponent.total_ms
            ),
            ("anchor", 9, 13_169)
        );
        assert_eq!(r.opponent.longest_game, Some(1));
        assert!((r.ours.clock_share.unwrap() - 25_795.0 / 240_000.0).abs() < 1e-12);
        assert!((r.ours.clock_share_max.unwrap() - 13_755.0 / 120_000.0).abs() < 1e-12);
        assert_eq!(r.ours.over_turn, Some(0));
        assert!((r.time_ratio.unwrap() - 25_795.0 / 13_169.0).abs() < 1e-12);
        assert!((r.per_move_ratio.unwrap() - 2_579.5 / (13_169.0 / 9.0)).abs() < 1e-12);
        // no game of that name
        let e = report("dir", &games, &msgs, "nobody", clocks).unwrap_err();
        assert!(e.contains("'nobody' (the engines: anchor, ours)"), "{e}");
    }

    #[test]
    fn clocks_from_folder_names() {
        for (name, match_ms, turn_ms) in [
            ("renju-15-120-5000", Some(120_000), Some(5_000)),
            ("freestyle-15-0-1000", None, Some(1_000)),
            ("freestyle-20-180-30000", Some(180_000), Some(30_000)),
            ("my-match", None, None),
            ("a-b-1-2", None, None),
        ] {
            assert_eq!(
                clocks_from_name(Path::new(name)),
                Clocks { match_ms, turn_ms },
                "{name}"
            );
        }
    }
}
