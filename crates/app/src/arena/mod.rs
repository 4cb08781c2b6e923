//! Matches between two players: openings, the game loop with its clock, running games in
//! parallel, and the records (results with reasons, .psq files, position lines).
//!
//! Each opening is played twice with the colours exchanged. A player that fails (an external
//! engine's time forfeit, illegal move, crash or protocol error) loses that game with the reason
//! recorded; the match goes on.

pub mod elo;
mod game;
pub mod pbrain;
pub mod player;

use anyhow::{bail, Context, Result};
use elo::Tally;
pub use game::play_game;
use gomoku_engine::notation::format_moves;
use gomoku_engine::record::Record;
use gomoku_engine::{Game, Pos, Rule};
use player::{PlayerSpec, TimeControl};
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Moves in order (passes allowed).
    pub moves: Vec<Pos>,
    /// A label: the line's `set=`/`idx=` keys, or its line number.
    pub label: String,
}

/// Reads the openings of a file in the common position format that fit the board size and
/// (unless `any_rule`) the rule, optionally only those whose `set=` contains `set`.
///
/// # Errors
/// The file cannot be read, a line is malformed (the message names it), or no opening fits.
pub fn load_openings(
    path: &std::path::Path,
    size: usize,
    rule: Rule,
    any_rule: bool,
    set: Option<&str>,
) -> Result<Vec<Opening>> {
    let mut out = Vec::new();
    for FileRecord { line, at, rec } in read_records(path, "openings", set)? {
        if rec.size != size || (!any_rule && rec.rule != rule) {
            continue;
        }
        let game = Game::setup(size, rule, &rec.moves).context(at)?;
        // an opening that is already won is no opening
        if is_decided(&game, &rec.moves) {
            continue;
        }
        let label = match (rec.get("set"), rec.get("idx")) {
            (Some(s), Some(i)) => format!("{s}#{i}"),
            (Some(s), None) => s.to_string(),
            _ => format!("line {line}"),
        };
        out.push(Opening {
            moves: rec.moves,
            label,
        });
    }
    if out.is_empty() {
        bail!(
            "{}: no opening for {} {size}x{size}{}",
            path.display(),
            rule,
            set.map_or(String::new(), |s| format!(" in set '{s}'"))
        );
    }
    Ok(out)
}

/// One position of a file in the common position format.
#[derive(Clone, Debug)]
pub struct FileRecord {
    /// Its line number, from 1.
    pub line: usize,
    /// Where it is, for error messages: the file, the line number and the line.
    pub at: String,
    /// The position.
    pub rec: Record,
}

/// The positions of a file in the common position format (its `what`, for the error when it
/// cannot be read), optionally only those whose `set=` contains `set`.
///
/// # Errors
/// The file cannot be read, or a line is malformed (the message names it).
pub fn read_records(
    path: &std::path::Path,
    what: &str,
    set: Option<&str>,
) -> Result<Vec<FileRecord>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading the {what} file {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if Record::is_blank(line) {
            continue;
        }
        let at = format!("{} line {}: '{}'", path.display(), i + 1, line.trim());
        let rec = Record::parse(line).with_context(|| at.clone())?;
        if set.is_some_and(|s| !rec.get("set").is_some_and(|v| v.contains(s))) {
            continue;
        }
        out.push(FileRecord {
            line: i + 1,
            at,
            rec,
        });
    }
    Ok(out)
}

/// Whether a position set up from `moves` is already decided: one of them made five, or the
/// board is full.
#[must_use]
pub fn is_decided(game: &Game, moves: &[Pos]) -> bool {
    let b = game.board();
    moves
        .iter()
        .any(|&p| p.is_point() && b.winning_line(p).is_some())
        || b.is_full()
}

/// Everything about a match except the players.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Board size.
    pub size: usize,
    /// Rule.
    pub rule: Rule,
    /// The clock.
    pub time: TimeControl,
    /// Start positions, used in order, each twice (colours exchanged).
    pub openings: Vec<Opening>,
    /// Open every game with Gomocup's swap2 (the players alternate as the first player, and
    /// the opening decides the colours); `openings` are then not used.
    pub swap2: bool,
    /// Open every game with a renju opening rule (Soosõrv-8, Taraguchi-10), as `swap2` does.
    pub renju: Option<gomoku_engine::renju::OpeningRule>,
    /// Number of games.
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
}

/// How a game ended, from the board's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Black won.
    Black,
    /// White won.
    White,
    /// Nobody won.
    Draw,
}

/// One finished game.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// Game number, from 1.
    pub number: usize,
    /// The opening's label.
    pub opening: String,
    /// Number of opening moves at the start of `moves`.
    #[serde(skip)]
    pub opening_len: usize,
    /// Which player (0 or 1) had Black.
    pub black_player: usize,
    /// Names of Black and White.
    pub black: String,
    /// See `black`.
    pub white: String,
    /// All moves, the opening included.
    #[serde(skip)]
    pub moves: Vec<Pos>,
    /// The moves as a position string.
    pub position: String,
    /// Milliseconds each played move took (opening moves excluded).
    #[serde(skip)]
    pub times_ms: Vec<u64>,
    /// The result.
    pub outcome: Outcome,
    /// Why: `five`, `foul (double-three)`, `board full`, or the loser's forfeit.
    pub reason: String,
}

impl GameRecord {
    /// The score of player 0 in this game: 1, 0.5 or 0.
    #[must_use]
    pub fn score_of_first(&self) -> f64 {
        match (self.outcome, self.black_player) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::Black, 0) | (Outcome::White, 1) => 1.0,
            _ => 0.0,
        }
    }

    /// The game as a .psq file (Piskvork): a header, one `x,y,ms` line per move with 1-based
    /// coordinates, then the players' names.
    #[must_use]
    pub fn to_psq(&self, size: usize) -> String {
        let mut s = format!("Piskvorky {size}x{size}, 11:11, 0\n");
        let mut t = vec![0; self.opening_len];
        t.extend_from_slice(&self.times_ms);
        for (i, p) in self.moves.iter().enumerate() {
            if p.is_point() {
                s.push_str(&format!(
                    "{},{},{}\n",
                    p.x() + 1,
                    p.y() + 1,
                    t.get(i).copied().unwrap_or(0)
                ));
            }
        }
        s.push_str(&format!("{}\n{}\n-1\n", self.black, self.white));
        s
    }

    /// The game as a line of the common position format with its result as keys.
    #[must_use]
    pub fn to_position_line(&self, size: usize, rule: Rule) -> String {
        let clean = |s: &str| s.replace(|c: char| c.is_whitespace() || c == '|', "_");
        format!(
            "{size} {} {} | game={} opening={} black={} white={} result={} reason={}",
            rule.name(),
            format_moves(&self.moves, size),
            self.number,
            clean(&self.opening),
            clean(&self.black),
            clean(&self.white),
            match self.outcome {
                Outcome::Black => "black",
                Outcome::White => "white",
                Outcome::Draw => "draw",
            },
            clean(&self.reason)
        )
    }
}

/// The tally of player 0 over `games`.
#[must_use]
pub fn tally(games: &[GameRecord]) -> Tally {
    let mut t = Tally::default();
    for g in games {
        t.add_score(g.score_of_first());
    }
    t
}

/// Average thinking time per move of each player over `games`, in ms (0 without moves).
#[must_use]
pub fn average_move_ms(games: &[GameRecord]) -> [f64; 2] {
    let mut total = [0u64; 2];
    let mut count = [0u64; 2];
    for g in games {
        for (i, &t) in g.times_ms.iter().enumerate() {
            // moves alternate from Black at index 0 of the whole list (passes included)
            let black_moved = (g.opening_len + i) % 2 == 0;
            let p = if black_moved {
                g.black_player
            } else {
                1 - g.black_player
            };
            total[p] += t;
            count[p] += 1;
        }
    }
    [0, 1].map(|p| {
        if count[p] == 0 {
            0.0
        } else {
            total[p] as f64 / count[p] as f64
        }
    })
}

/// Plays the whole match, `concurrency` games at a time; `on_game` is called as each game ends
/// (from the worker threads). Games come back in order.
pub fn run_match(
    cfg: &MatchConfig,
    players: &[PlayerSpec; 2],
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Vec<GameRecord> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameRecord>>> = Mutex::new(vec![None; cfg.games]);
    let threads = cfg.concurrency.clamp(1, cfg.games.max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= cfg.games {
                    break;
                }
                let opening = if cfg.openings.is_empty() {
                    None
                } else {
                    Some(&cfg.openings[(g / 2) % cfg.openings.len()])
                };
                let rec = play_game(cfg, players, g + 1, opening, g % 2);
                on_game(&rec);
                if let Ok(mut r) = results.lock() {
                    r[g] = Some(rec);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(games: usize) -> MatchConfig {
        MatchConfig {
            size: 9,
            rule: Rule::Freestyle,
            time: TimeControl {
                move_ms: 20,
                game_ms: None,
                margin_ms: 200,
                start_ms: 2000,
            },
            openings: vec![Opening {
                moves: gomoku_engine::notation::parse_moves("e5 e6", 9).expect("valid"),
                label: "test".to_string(),
            }],
            swap2: false,
            renju: None,
            games,
            concurrency: 2,
        }
    }

    #[test]
    fn renju_opening_games_open_with_five_stones_and_decide_the_colours() {
        use gomoku_engine::renju::OpeningRule;
        let players: [PlayerSpec; 2] = [
            "pvs nodes=2000".parse().expect("valid"),
            "pvs nodes=3000".parse().expect("valid"),
        ];
        for rule in OpeningRule::ALL {
            let mut c = cfg(2);
            c.openings.clear();
            c.renju = Some(rule);
            c.rule = Rule::Renju;
            c.size = 15;
            c.concurrency = 1;
            let games = run_match(&c, &players, &|_| {});
            assert_eq!(games.len(), 2);
            for g in &games {
                assert!(g.opening.starts_with(rule.name()), "{}", g.opening);
                assert_eq!(
                    g.opening_len, 5,
                    "the games go on from the 6th move: {}",
                    g.position
                );
                assert_eq!(g.times_ms.len() + 5, g.moves.len());
                assert_eq!(g.black, players[g.black_player].name);
                assert!(!g.reason.is_empty());
                assert!(!g.reason.contains(rule.name()), "{}", g.reason);
                let game = Game::from_moves(15, Rule::Renju, &g.moves[..3]).expect("legal");
                let named = gomoku_engine::renju::of_game(&game).expect("one of the 26");
                assert_eq!(g.opening, format!("{}:{}", rule.name(), named.id));
            }
        }
    }

    #[test]
    fn swap2_games_open_with_three_to_six_stones_and_decide_the_colours() {
        let players: [PlayerSpec; 2] = [
            "search=alphabeta,depth=2".parse().expect("valid"),
            "pvs depth=3".parse().expect("valid"),
        ];
        let mut c = cfg(4);
        c.openings.clear();
        c.swap2 = true;
        c.rule = Rule::Standard;
        let games = run_match(&c, &players, &|_| {});
        assert_eq!(games.len(), 4);
        for g in &games {
            assert_eq!(g.opening, "swap2");
            assert!((3..=6).contains(&g.opening_len), "{}", g.opening_len);
            let mut opening = g.moves[..g.opening_len].to_vec();
            opening.sort_unstable();
            opening.dedup();
            assert_eq!(opening.len(), g.opening_len, "{}", g.position);
            assert_eq!(g.times_ms.len() + g.opening_len, g.moves.len());
            assert_eq!(g.black, players[g.black_player].name);
            assert_eq!(g.white, players[1 - g.black_player].name);
            assert!(!g.reason.is_empty());
            assert!(!g.reason.contains("swap2"), "{}", g.reason);
        }
    }

    #[test]
    fn games_end_with_a_result_and_colours_alternate() {
        let players: [PlayerSpec; 2] = [
            "search=alphabeta,depth=2".parse().expect("valid"),
            "greedy eval=tuple".parse().expect("valid"),
        ];
        let seen = AtomicUsize::new(0);
        let games = run_match(&cfg(2), &players, &|_| {
            seen.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(seen.load(Ordering::Relaxed), 2);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].black_player, 0);
        assert_eq!(games[1].black_player, 1);
        for g in &games {
            assert!(g.position.starts_with("e5 e6"), "{}", g.position);
            assert!(!g.reason.is_empty());
            assert_eq!(g.times_ms.len() + 2, g.moves.len());
            if g.outcome != Outcome::Draw {
                assert_eq!(g.reason, "five");
                let line = g.to_position_line(9, Rule::Freestyle);
                let rec = Record::parse(&line).expect("parses back");
                assert_eq!(rec.moves, g.moves);
                assert!(rec.get("result").is_some());
            }
            let psq = g.to_psq(9);
            assert!(psq.starts_with("Piskvorky 9x9"));
            assert!(psq.contains("\n5,5,0\n"), "e5 is 5,5 (1-based): {psq}");
        }
        let t = tally(&games);
        assert_eq!(t.games(), 2);
        let avg = average_move_ms(&games);
        assert!(avg.iter().all(|a| (0.0..10_000.0).contains(a)), "{avg:?}");
    }

    #[test]
    fn black_with_only_forbidden_points_left_loses_by_a_foul() {
        // 7x7, Black to move, the one empty point d7 makes six in a row for Black
        let rows = [
            "BBB.BBB", "BBBWBWB", "BBBWWWB", "WWWBBBW", "WWBWWWW", "WBWWBWW", "WWBBWWB",
        ];
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                match c {
                    'B' => black.push(Pos::new(x, y)),
                    'W' => white.push(Pos::new(x, y)),
                    _ => {}
                }
            }
        }
        assert_eq!((black.len(), white.len()), (24, 24));
        let moves: Vec<Pos> = black
            .iter()
            .zip(&white)
            .flat_map(|(&b, &w)| [b, w])
            .collect();
        let players: [PlayerSpec; 2] = [
            "greedy".parse().expect("valid"),
            "greedy".parse().expect("valid"),
        ];
        let mut config = cfg(1);
        config.size = 7;
        let opening = Opening {
            moves: moves.clone(),
            label: "foul".to_string(),
        };
        config.rule = Rule::Renju;
        let g = play_game(&config, &players, 1, Some(&opening), 0);
        assert_eq!(g.outcome, Outcome::White, "{g:?}");
        assert!(g.reason.contains("only forbidden points"), "{}", g.reason);
        assert_eq!(g.moves, moves);
        // under freestyle the point is Black's to play, and it wins
        config.rule = Rule::Freestyle;
        let g = play_game(&config, &players, 1, Some(&opening), 0);
        assert_eq!(g.outcome, Outcome::Black, "{g:?}");
    }

    #[test]
    fn a_missing_engine_loses_with_the_reason() {
        let players: [PlayerSpec; 2] = [
            "greedy".parse().expect("valid"),
            "cmd:/nonexistent/engine-xyz".parse().expect("valid"),
        ];
        let games = run_match(&cfg(2), &players, &|_| {});
        for g in &games {
            assert_eq!(g.score_of_first(), 1.0, "{g:?}");
            assert!(g.reason.contains("could not start"), "{}", g.reason);
        }
    }
}
