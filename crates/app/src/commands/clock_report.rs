//! `gomoku clock-report DIR`: how the engines of a match spent their clocks, from the folder
//! `../shared/anchors/match.sh` writes (c-gomoku-cli's `games.sgf` and `msg.txt`).
//!
//! `games.sgf` holds one game a record, as c-gomoku-cli writes it: the root node names the
//! engines (`PB`, `PW`), the game (`GN`), the result (`RE`) and how it ended (`TE`); every move
//! is a node whose comment is `opening move` for the opening's stones and the time the engine
//! took as the referee measured it (`C[1021ms]`) for every other. A move that timed out is not
//! in the record (the game ends before it). `msg.txt` holds, per game, a `Game ID: N` line, an
//! `Engines: BLACK x WHITE` line and both engines' `MESSAGE` lines as `STONE) NAME: TEXT`,
//! where STONE is the number of the stone being thought about; the depth each engine reported
//! last for a move is read from them (`depth 16-25` ours, `Depth 11-16` Rapfi's).
//!
//! Per game and over the match, each engine's moves, total, mean and longest move, the share
//! of its game clock used, the moves over the time per move, the mean depth, and ours against
//! the opponent's. The game clock and the time per move come from the folder's name
//! (`RULE-SIZE-MATCH_S-TURN_MS`, match.sh's default) unless given.

use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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

/// One move of a game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The stone's number in the game (1 for the first stone).
    pub stone: usize,
    /// Whether Black played it.
    pub black: bool,
    /// The time the engine took, as the referee measured it (`None` for an opening stone).
    pub time_ms: Option<u64>,
}

/// One game of `games.sgf`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `GN`: the game's number (the `Game ID` of `msg.txt`).
    pub number: usize,
    /// `PB`: the engine playing Black.
    pub black: String,
    /// `PW`: the engine playing White.
    pub white: String,
    /// `RE` (`B+1`, `W+1`, `0`).
    pub result: String,
    /// `TE`: how the game ended, in the referee's words.
    pub ending: String,
    /// Every stone, in order.
    pub moves: Vec<Move>,
}

/// What `msg.txt` says about one game: the last depth each engine reported for each stone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Messages {
    /// The `Engines: BLACK x WHITE` line.
    pub engines: Option<(String, String)>,
    /// (engine, stone) → the last depth reported.
    pub depths: BTreeMap<(String, usize), i32>,
}

/// A node's properties, `(ID, value)` in order.
type Props = Vec<(String, String)>;

/// An SGF reader for c-gomoku-cli's records: a sequence of games, each one variation of nodes,
/// each node properties `ID[value]...`.
struct Cursor<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        if c == b'\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.bump();
        }
    }

    /// A property value after its `[`, up to the `]` that closes it (`\` escapes a character).
    fn value(&mut self) -> Result<String, String> {
        let start = self.line;
        let mut out = Vec::new();
        loop {
            match self.bump() {
                None => return Err(format!("line {start}: a value that never ends (no ']')")),
                Some(b']') => return Ok(String::from_utf8_lossy(&out).into_owned()),
                Some(b'\\') => out.extend(self.bump()),
                Some(c) => out.push(c),
            }
        }
    }

    /// The properties of a node, after its `;`.
    fn node(&mut self) -> Result<Props, String> {
        let mut props = Vec::new();
        loop {
            self.skip_space();
            let start = self.at;
            while self.peek().is_some_and(|c| c.is_ascii_uppercase()) {
                self.bump();
            }
            if self.at == start {
                return Ok(props);
            }
            let id = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
            self.skip_space();
            if self.peek() != Some(b'[') {
                return Err(format!("line {}: property {id} has no value", self.line));
            }
            while self.peek() == Some(b'[') {
                self.bump();
                props.push((id.clone(), self.value()?));
                self.skip_space();
            }
        }
    }

    /// The nodes of the game after its `(`, up to its `)`.
    fn game(&mut self) -> Result<Vec<(usize, Props)>, String> {
        let start = self.line;
        let mut nodes = Vec::new();
        loop {
            self.skip_space();
            let line = self.line;
            match self.bump() {
                Some(b';') => nodes.push((line, self.node()?)),
                Some(b')') => return Ok(nodes),
                Some(b'(') => return Err(format!("line {line}: a variation (not expected)")),
                Some(c) => {
                    return Err(format!(
                        "line {line}: '{}' where a node was expected",
                        c as char
                    ))
                }
                None => {
                    return Err(format!(
                        "the game starting on line {start} has no closing ')'"
                    ))
                }
            }
        }
    }
}

/// The games of a `games.sgf` text.
///
/// # Errors
/// Text that is not such a record, with its line: no `(`, a value or a game that never ends,
/// a game without `GN`, `PB` or `PW`, a node without a move, a point that is not two letters,
/// a comment that is neither `opening move` nor a time like `1021ms`, an opening stone after a
/// played one.
pub fn parse_games(text: &str) -> Result<Vec<Game>, String> {
    let mut cur = Cursor {
        text: text.as_bytes(),
        at: 0,
        line: 1,
    };
    let mut games = Vec::new();
    loop {
        cur.skip_space();
        let line = cur.line;
        match cur.bump() {
            None => return Ok(games),
            Some(b'(') => games.push(game_of(line, &cur.game()?)?),
            Some(c) => {
                return Err(format!(
                    "line {line}: '{}' where a game's '(' was expected",
                    c as char
                ))
            }
        }
    }
}

fn game_of(line: usize, nodes: &[(usize, Props)]) -> Result<Game, String> {
    let Some(((_, root), rest)) = nodes.split_first() else {
        return Err(format!("line {line}: a game with no node"));
    };
    let prop = |id: &str| root.iter().find(|(k, _)| k == id).map(|(_, v)| v.clone());
    let need = |id: &str| prop(id).ok_or_else(|| format!("line {line}: the game has no {id}"));
    let number = need("GN")?
        .trim()
        .parse()
        .map_err(|_| format!("line {line}: GN is not a game number"))?;
    let mut moves = Vec::new();
    for (line, props) in rest {
        let (color, point) = props
            .iter()
            .find(|(k, _)| k == "B" || k == "W")
            .ok_or_else(|| format!("line {line}: a node without a move"))?;
        if point.len() != 2 || !point.bytes().all(|c| c.is_ascii_lowercase()) {
            return Err(format!("line {line}: {color}[{point}] is not a point"));
        }
        let comment = props.iter().find(|(k, _)| k == "C").map(|(_, v)| v.trim());
        let time_ms = match comment {
            Some("opening move") => None,
            Some(c) => Some(
                c.strip_suffix("ms")
                    .and_then(|n| n.parse::<u64>().ok())
                    .ok_or_else(|| {
                        format!("line {line}: comment '{c}' is neither 'opening move' nor a time like '1021ms'")
                    })?,
            ),
            None => return Err(format!("line {line}: {color}[{point}] has no time comment")),
        };
        if time_ms.is_none() && moves.iter().any(|m: &Move| m.time_ms.is_some()) {
            return Err(format!("line {line}: an opening stone after a played move"));
        }
        moves.push(Move {
            stone: moves.len() + 1,
            black: color == "B",
            time_ms,
        });
    }
    Ok(Game {
        number,
        black: need("PB")?,
        white: need("PW")?,
        result: prop("RE").unwrap_or_else(|| "?".into()),
        ending: prop("TE").unwrap_or_else(|| "?".into()),
        moves,
    })
}

/// The last depth in a message (`depth 16-25 ...`, `... | Depth 11-16 | ...`), if any.
fn depth_in(text: &str) -> Option<i32> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '|')
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .rev()
        .filter(|w| w[0].eq_ignore_ascii_case("depth"))
        .find_map(|w| {
            let digits: String = w[1].chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
}

/// The games of a `msg.txt` text, by `Game ID`.
///
/// # Errors
/// A line that is none of a separator (`----`), `Game ID: N`, `Engines: A x B` or
/// `STONE) NAME: TEXT`, or a message before the first `Game ID`, with its line.
pub fn parse_messages(text: &str) -> Result<BTreeMap<usize, Messages>, String> {
    let mut games: BTreeMap<usize, Messages> = BTreeMap::new();
    let mut current: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() || line.chars().all(|c| c == '-') {
            continue;
        }
        if let Some(id) = line.strip_prefix("Game ID: ") {
            let id = id
                .trim()
                .parse()
                .map_err(|_| format!("line {n}: '{line}' has no game number"))?;
            games.entry(id).or_default();
            current = Some(id);
            continue;
        }
        let game = current
            .and_then(|id| games.get_mut(&id))
            .ok_or_else(|| format!("line {n}: '{line}' comes before any 'Game ID:' line"))?;
        if let Some(names) = line.strip_prefix("Engines: ") {
            let (b, w) = names
                .split_once(" x ")
                .ok_or_else(|| format!("line {n}: '{line}' does not name two engines"))?;
            game.engines = Some((b.to_string(), w.to_string()));
            continue;
        }
        let message = line.split_once(") ").and_then(|(stone, rest)| {
            let stone: usize = stone.parse().ok()?;
            let (name, text) = rest
                .split_once(": ")
                .or_else(|| rest.strip_suffix(':').map(|name| (name, "")))?;
            Some((stone, name, text))
        });
        let Some((stone, name, text)) = message else {
            return Err(format!(
                "line {n}: '{line}' is not a 'STONE) NAME: MESSAGE' line"
            ));
        };
        if let Some(d) = depth_in(text) {
            game.depths.insert((name.to_string(), stone), d);
        }
    }
    Ok(games)
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

    fn fixture(path: &str) -> String {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/clock-report")
            .join(path);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// (file, games, played moves, first played move's time) or the error's words.
    #[test]
    fn games_sgf_fixtures() {
        #[allow(clippy::type_complexity)]
        let rows: &[(&str, Result<(usize, usize, Option<u64>), &str>)] = &[
            ("renju-15-120-5000/games.sgf", Ok((3, 19, Some(1_021)))),
            ("missing-msg/games.sgf", Ok((1, 2, Some(1_021)))),
            (
                "bad-time/games.sgf",
                Err("line 3: comment 'fast' is neither"),
            ),
            (
                "unclosed/games.sgf",
                Err("the game starting on line 1 has no closing ')'"),
            ),
        ];
        for (file, want) in rows {
            let got = parse_games(&fixture(file)).map(|games| {
                let played: Vec<&Move> = games
                    .iter()
                    .flat_map(|g| &g.moves)
                    .filter(|m| m.time_ms.is_some())
                    .collect();
                (
                    games.len(),
                    played.len(),
                    played.first().and_then(|m| m.time_ms),
                )
            });
            match (want, got) {
                (Ok(w), Ok(g)) => assert_eq!(*w, g, "{file}"),
                (Err(w), Err(g)) => assert!(g.contains(w), "{file}: {g}"),
                (w, g) => panic!("{file}: wanted {w:?}, got {g:?}"),
            }
        }
    }

    #[test]
    fn a_game_record_read_in_full() {
        let games = parse_games(&fixture("renju-15-120-5000/games.sgf")).unwrap();
        let g = &games[1];
        assert_eq!(
            (g.number, g.black.as_str(), g.white.as_str()),
            (2, "anchor", "ours")
        );
        assert_eq!(
            (g.result.as_str(), g.ending.as_str()),
            ("W+1", "White win by five connection")
        );
        assert_eq!(g.moves.len(), 12);
        assert_eq!(
            g.moves[3],
            Move {
                stone: 4,
                black: false,
                time_ms: Some(2_950)
            }
        );
        assert!(g.moves[..3].iter().all(|m| m.time_ms.is_none()));
        // a start-up forfeit: the opening and nothing else
        assert_eq!(games[2].moves.len(), 3);
        assert_eq!(games[2].ending, "Black win by time forfeit");
    }

    /// SGF texts that are not c-gomoku-cli records, and the error's words.
    #[test]
    fn malformed_records() {
        let head = "(;GN[1]PB[a]PW[b]";
        for (text, want) in [
            ("x", "line 1: 'x' where a game's '(' was expected"),
            (
                "(;GN[1]PB[a]\n;B[hh]C[opening move])",
                "line 1: the game has no PW",
            ),
            ("(;GN[x]PB[a]PW[b])", "GN is not a game number"),
            (
                &format!("{head}\n;C[12ms])"),
                "line 2: a node without a move",
            ),
            (&format!("{head};B[h]C[12ms])"), "B[h] is not a point"),
            (&format!("{head};B[hh])"), "B[hh] has no time comment"),
            (
                &format!("{head};B[hh]C[12ms];W[ii]C[opening move])"),
                "an opening stone after",
            ),
            (&format!("{head};B[hh]C[12ms)"), "no ']'"),
            (&format!("{head};B[hh]C[12ms](;W[ii]))"), "a variation"),
            (&format!("{head};B[hh]C[12ms]"), "no closing ')'"),
            ("(;GN[1]PB[a]PW[b]X)", "property X has no value"),
        ] {
            let e = parse_games(text).unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
        }
        // escapes and empty input
        let g = parse_games("(;GN[7]PB[a\\]b]PW[c];B[hh]C[5ms])").unwrap();
        assert_eq!((g[0].number, g[0].black.as_str()), (7, "a]b"));
        assert_eq!(parse_games("\n\n").unwrap(), Vec::new());
    }

    #[test]
    fn msg_txt_fixtures() {
        // (file, games, (game, engine, stone, depth) expected) or the error's words
        #[allow(clippy::type_complexity)]
        let rows: &[(&str, Result<(usize, &[(usize, &str, usize, i32)]), &str>)] = &[
            (
                "renju-15-120-5000/msg.txt",
                Ok((
                    3,
                    &[
                        (1, "anchor", 4, 11),
                        (1, "ours", 5, 16),
                        (1, "ours", 13, 3),
                        (2, "anchor", 11, 8),
                        (2, "ours", 10, 18),
                    ],
                )),
            ),
            ("bad-time/msg.txt", Ok((1, &[]))),
            (
                "bad-msg/msg.txt",
                Err("line 5: 'the engine crashed here' is not a"),
            ),
        ];
        for (file, want) in rows {
            match (want, parse_messages(&fixture(file))) {
                (Ok((n, depths)), Ok(got)) => {
                    assert_eq!(got.len(), *n, "{file}");
                    for &(game, name, stone, depth) in *depths {
                        assert_eq!(
                            got[&game].depths.get(&(name.to_string(), stone)),
                            Some(&depth),
                            "{file}: game {game} {name} #{stone}"
                        );
                    }
                }
                (Err(w), Err(g)) => assert!(g.contains(w), "{file}: {g}"),
                (w, g) => panic!("{file}: wanted {w:?}, got {g:?}"),
            }
        }
        let m = parse_messages(&fixture("renju-15-120-5000/msg.txt")).unwrap();
        assert_eq!(m[&2].engines, Some(("anchor".into(), "ours".into())));
        // a message with no depth (an empty one, Rapfi's time plan) counts for nothing
        assert!(!m[&2].depths.contains_key(&("ours".to_string(), 12)));
        assert_eq!(
            parse_messages("4) a: depth 3").unwrap_err(),
            "line 1: '4) a: depth 3' comes before any 'Game ID:' line"
        );
    }

    #[test]
    fn depths_in_both_engines_words() {
        for (text, want) in [
            ("depth 16-25 eval +41 nodes 5 pv 7,8", Some(16)),
            (
                "Speed 1.20M | Depth 11-16 | Eval 20 | Time 1001ms",
                Some(11),
            ),
            ("OptiTime 3.12s | MaxTime 5.00s", None),
            ("depth x depth 9", Some(9)),
            ("", None),
        ] {
            assert_eq!(depth_in(text), want, "{text}");
        }
    }

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
