//! `gomoku opening-report DIR...`: how each opening's two games of a match went (ours as
//! Black, ours as White), from the `games.sgf` that `../shared/anchors/match.sh` writes.
//!
//! A match plays every opening twice with the colours swapped. An opening is **decided by the
//! colour** when the same colour won both games: neither engine outplayed the other there, and
//! such a pair scores 50% whoever is stronger. The rest are won **both by ours**, **both by the
//! opponent**, or **split** (a draw in one game or both). Two engines of different strength
//! score further from 50% the fewer openings the colour decides, so the share the colour
//! decides tells whether a score nearer 50% at a longer time per move comes from a smaller
//! edge or from openings that a deeper search plays out to their colour's win.
//!
//! Games are paired by their opening stones (the stones whose comment is `opening move`);
//! an opening with other than one game of ours as Black and one as White is counted as
//! unpaired and left out of the classes.

use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::match_record::{parse_games, Game};

/// Arguments of `gomoku opening-report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Match folders (`match.sh --out DIR`), each with its `games.sgf`; with several, the
    /// report gives each folder's figures and their sum.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Our engine's name in the match (`match.sh` calls it `ours`).
    #[arg(long, default_value = "ours")]
    pub ours: String,
    /// Also list every opening's two games.
    #[arg(long)]
    pub list: bool,
    /// Print one JSON object instead of the tables.
    #[arg(long)]
    pub json: bool,
}

/// One game's result for our engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

impl Outcome {
    fn points(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    fn letter(self) -> char {
        match self {
            Outcome::Win => 'W',
            Outcome::Loss => 'L',
            Outcome::Draw => 'D',
        }
    }
}

/// What an opening's pair of games shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// The same colour won both games.
    Colour,
    /// Ours won both.
    OursBoth,
    /// The opponent won both.
    TheirsBoth,
    /// A draw in one game or both.
    Split,
}

impl Class {
    fn of(as_black: Outcome, as_white: Outcome) -> Class {
        match (as_black, as_white) {
            (Outcome::Win, Outcome::Win) => Class::OursBoth,
            (Outcome::Loss, Outcome::Loss) => Class::TheirsBoth,
            (Outcome::Win, Outcome::Loss) | (Outcome::Loss, Outcome::Win) => Class::Colour,
            _ => Class::Split,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Class::Colour => "the colour",
            Class::OursBoth => "ours both",
            Class::TheirsBoth => "theirs both",
            Class::Split => "split",
        }
    }
}

/// One opening's two games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pair {
    /// The game numbers with ours as Black and as White.
    pub games: (usize, usize),
    /// The opening's stones (SGF points).
    pub opening: String,
    pub as_black: Outcome,
    pub as_white: Outcome,
    pub class: Class,
}

/// The figures of one folder, or of several summed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    pub name: String,
    pub openings: usize,
    pub colour: usize,
    pub ours_both: usize,
    pub theirs_both: usize,
    pub split: usize,
    /// Openings without exactly one game of ours as Black and one as White, or with a game
    /// whose result is not a win, a loss or a draw.
    pub unpaired: usize,
    /// Our points over the paired openings' games.
    pub points: f64,
    /// Our score over the paired openings, and over those the colour did not decide.
    pub score: Option<f64>,
    pub score_undecided: Option<f64>,
}

impl Summary {
    fn add(&mut self, pair: &Pair) {
        self.openings += 1;
        match pair.class {
            Class::Colour => self.colour += 1,
            Class::OursBoth => self.ours_both += 1,
            Class::TheirsBoth => self.theirs_both += 1,
            Class::Split => self.split += 1,
        }
        self.points += pair.as_black.points() + pair.as_white.points();
        self.finish();
    }

    fn merge(&mut self, other: &Summary) {
        self.openings += other.openings;
        self.colour += other.colour;
        self.ours_both += other.ours_both;
        self.theirs_both += other.theirs_both;
        self.split += other.split;
        self.unpaired += other.unpaired;
        self.points += other.points;
        self.finish();
    }

    fn finish(&mut self) {
        let games = 2 * self.openings;
        self.score = (games > 0).then(|| self.points / games as f64);
        // a colour-decided pair scores exactly one point
        let open = self.openings - self.colour;
        self.score_undecided =
            (open > 0).then(|| (self.points - self.colour as f64) / (2 * open) as f64);
    }
}

/// One folder's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FolderReport {
    pub summary: Summary,
    pub pairs: Vec<Pair>,
}

/// Our result in `game`, `None` when ours did not play it or its result is unknown.
fn outcome(game: &Game, ours: &str) -> Option<Outcome> {
    let black = if game.black == ours {
        true
    } else if game.white == ours {
        false
    } else {
        return None;
    };
    let r = game.result.trim();
    if r == "0" || r.eq_ignore_ascii_case("draw") {
        return Some(Outcome::Draw);
    }
    let winner_black = match r.as_bytes().first() {
        Some(b'B') => true,
        Some(b'W') => false,
        _ => return None,
    };
    Some(if winner_black == black {
        Outcome::Win
    } else {
        Outcome::Loss
    })
}

/// The opening's stones of `game` as SGF points (`hh ig jf`).
fn opening_of(game: &Game) -> String {
    game.moves
        .iter()
        .take_while(|m| m.time_ms.is_none())
        .map(|m| {
            format!(
                "{}{}",
                (b'a' + m.point.0) as char,
                (b'a' + m.point.1) as char
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The pairs of `games` and their summary, named `name`.
#[must_use]
pub fn report(name: &str, games: &[Game], ours: &str) -> FolderReport {
    // opening -> its games in the record's order
    let mut by_opening: BTreeMap<String, Vec<&Game>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for g in games {
        let key = opening_of(g);
        if !by_opening.contains_key(&key) {
            order.push(key.clone());
        }
        by_opening.entry(key).or_default().push(g);
    }
    let mut summary = Summary {
        name: name.to_string(),
        ..Summary::default()
    };
    let mut pairs = Vec::new();
    for key in order {
        let gs = &by_opening[&key];
        let side = |black: bool| -> Option<(usize, Outcome)> {
            let mut it = gs.iter().filter(|g| (g.black == ours) == black);
            let g = it.next()?;
            if it.next().is_some() {
                return None;
            }
            Some((g.number, outcome(g, ours)?))
        };
        match (gs.len(), side(true), side(false)) {
            (2, Some((gb, ob)), Some((gw, ow))) => {
                let pair = Pair {
                    games: (gb, gw),
                    opening: key.clone(),
                    as_black: ob,
                    as_white: ow,
                    class: Class::of(ob, ow),
                };
                summary.add(&pair);
                pairs.push(pair);
            }
            _ => summary.unpaired += 1,
        }
    }
    summary.finish();
    FolderReport { summary, pairs }
}

/// The reports of several folders and their sum.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub folders: Vec<FolderReport>,
    pub total: Summary,
}

/// Runs the command.
///
/// # Errors
/// A missing, unreadable or malformed `games.sgf` (the file and line named), or a folder
/// without a game of our engine.
pub fn run(args: &Args) -> Result<()> {
    let mut folders = Vec::new();
    let mut total = Summary {
        name: "all".to_string(),
        ..Summary::default()
    };
    for dir in &args.dirs {
        let path = dir.join("games.sgf");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let games = parse_games(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        if !games
            .iter()
            .any(|g| g.black == args.ours || g.white == args.ours)
        {
            anyhow::bail!(
                "{}: no game of '{}' (name our engine with --ours)",
                path.display(),
                args.ours
            );
        }
        let r = report(&dir.display().to_string(), &games, &args.ours);
        total.merge(&r.summary);
        folders.push(r);
    }
    let r = Report { folders, total };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print!("{}", text(&r, args.list));
    }
    Ok(())
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{:.1}%", v * 100.0))
}

fn summary_row(s: &Summary) -> String {
    let share = |n: usize| {
        if s.openings == 0 {
            "-".to_string()
        } else {
            format!("{:.0}%", 100.0 * n as f64 / s.openings as f64)
        }
    };
    columns([
        &s.openings.to_string(),
        &format!("{} ({})", s.colour, share(s.colour)),
        &s.ours_both.to_string(),
        &s.theirs_both.to_string(),
        &s.split.to_string(),
        &s.unpaired.to_string(),
        &pct(s.score),
        &pct(s.score_undecided),
        &s.points.to_string(),
        &s.name,
    ])
}

/// A table row: nine right-aligned columns and the folder.
fn columns(c: [&str; 10]) -> String {
    format!(
        "{:>8} {:>10} {:>9} {:>11} {:>5} {:>8} {:>6} {:>9} {:>6}  {}\n",
        c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]
    )
}

fn header() -> String {
    columns([
        "openings",
        "the colour",
        "ours both",
        "theirs both",
        "split",
        "unpaired",
        "score",
        "undecided",
        "points",
        "folder",
    ])
}

/// The report as text: every opening's games (with `list`), then a row per folder and the sum.
#[must_use]
pub fn text(r: &Report, list: bool) -> String {
    let mut out = String::new();
    if list {
        for f in &r.folders {
            out += &format!("{}:\n", f.summary.name);
            for p in &f.pairs {
                out += &format!(
                    "  games {:>3} (black) {:>3} (white): {} {}  {:<11}  {}\n",
                    p.games.0,
                    p.games.1,
                    p.as_black.letter(),
                    p.as_white.letter(),
                    p.class.name(),
                    p.opening
                );
            }
        }
        out += "\n";
    }
    out += &header();
    for f in &r.folders {
        out += &summary_row(&f.summary);
    }
    if r.folders.len() > 1 {
        out += &summary_row(&r.total);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_record::Move;

    /// A game of `n` with `black` and `white`, result `re`, on the opening `open` (points).
    fn game(n: usize, black: &str, white: &str, re: &str, open: &[(u8, u8)]) -> Game {
        let mut moves: Vec<Move> = open
            .iter()
            .enumerate()
            .map(|(i, &point)| Move {
                stone: i + 1,
                black: i % 2 == 0,
                point,
                time_ms: None,
            })
            .collect();
        moves.push(Move {
            stone: open.len() + 1,
            black: open.len() % 2 == 0,
            point: (0, 0),
            time_ms: Some(100),
        });
        Game {
            number: n,
            black: black.into(),
            white: white.into(),
            result: re.into(),
            ending: String::new(),
            moves,
        }
    }

    #[test]
    fn each_pair_of_results_has_its_class() {
        use Outcome::{Draw as D, Loss as L, Win as W};
        for (b, w, want) in [
            (W, W, Class::OursBoth),
            (L, L, Class::TheirsBoth),
            (W, L, Class::Colour),
            (L, W, Class::Colour),
            (D, D, Class::Split),
            (W, D, Class::Split),
            (D, L, Class::Split),
        ] {
            assert_eq!(Class::of(b, w), want, "{b:?} {w:?}");
        }
    }

    #[test]
    fn results_read_from_either_side() {
        // (black, white, RE) -> ours' outcome
        for (black, white, re, want) in [
            ("ours", "anchor", "B+1", Some(Outcome::Win)),
            ("ours", "anchor", "W+1", Some(Outcome::Loss)),
            ("anchor", "ours", "B+1", Some(Outcome::Loss)),
            ("anchor", "ours", "W+1", Some(Outcome::Win)),
            ("anchor", "ours", "0", Some(Outcome::Draw)),
            ("ours", "anchor", "?", None),
            ("a", "b", "B+1", None),
        ] {
            let g = game(1, black, white, re, &[(7, 7)]);
            assert_eq!(outcome(&g, "ours"), want, "{black} {white} {re}");
        }
    }

    #[test]
    fn a_match_of_four_openings_and_a_stray_game() {
        let (a, b, c, d, e) = (
            [(7, 7), (8, 8)],
            [(7, 7), (8, 6)],
            [(3, 3), (4, 4)],
            [(5, 5), (6, 6)],
            [(9, 9), (1, 1)],
        );
        let games = [
            // the colour: Black won both
            game(1, "anchor", "ours", "B+1", &a),
            game(2, "ours", "anchor", "B+1", &a),
            // ours both
            game(3, "anchor", "ours", "W+1", &b),
            game(4, "ours", "anchor", "B+1", &b),
            // theirs both
            game(5, "anchor", "ours", "B+1", &c),
            game(6, "ours", "anchor", "W+1", &c),
            // split: a draw
            game(7, "anchor", "ours", "0", &d),
            game(8, "ours", "anchor", "B+1", &d),
            // an opening played once
            game(9, "anchor", "ours", "B+1", &e),
        ];
        let r = report("m", &games, "ours");
        let s = &r.summary;
        assert_eq!(
            (
                s.openings,
                s.colour,
                s.ours_both,
                s.theirs_both,
                s.split,
                s.unpaired
            ),
            (4, 1, 1, 1, 1, 1)
        );
        // 1 + 2 + 0 + 1.5 points over 8 games; 3.5 over the 6 games the colour did not decide
        assert!((s.points - 4.5).abs() < 1e-9);
        assert_eq!(s.score, Some(4.5 / 8.0));
        assert_eq!(s.score_undecided, Some(3.5 / 6.0));
        assert_eq!(r.pairs[1].games, (4, 3));
        assert_eq!(r.pairs[1].opening, "hh ig");
        let out = text(
            &Report {
                folders: vec![r.clone(), r.clone()],
                total: {
                    let mut t = Summary::default();
                    t.merge(&r.summary);
                    t.merge(&r.summary);
                    t
                },
            },
            true,
        );
        assert!(
            out.contains("games   4 (black)   3 (white): W W  ours both"),
            "{out}"
        );
        assert!(
            out.contains("       8    2 (25%)         2           2     2        2  56.2%     58.3%      9  \n"),
            "{out}"
        );
    }
}
