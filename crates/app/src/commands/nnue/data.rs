//! The training data of the network: games read from corpora (binary `GMKCORP1` files, or
//! lines of the common position format as `gomoku selfplay --format text` writes them), the
//! held-out split, and the positions of a game as samples, in one of the eight orientations
//! and, under rules whose colours are alike, with the colours swapped.

use crate::corpus::{CorpusReader, GameRecord, PROVEN};
use anyhow::{anyhow, bail, Context, Result};
use gomoku_engine::nnue::float::{value_target, Sample};
use gomoku_engine::record::Record;
use gomoku_engine::{Board, Color, Pos, Rule};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The games of a corpus file, one at a time.
pub type Games = Box<dyn Iterator<Item = Result<GameRecord>>>;

/// Opens a corpus file: a binary corpus by its header, otherwise text lines.
///
/// # Errors
/// A file that cannot be opened.
pub fn open(path: &Path) -> Result<Games> {
    let shown = path.display().to_string();
    let mut file =
        std::fs::File::open(path).with_context(|| format!("opening the corpus {shown}"))?;
    let mut magic = [0u8; 8];
    let n = file.read(&mut magic).unwrap_or(0);
    let file = std::fs::File::open(path).with_context(|| format!("opening the corpus {shown}"))?;
    if n == 8 && &magic == crate::corpus::MAGIC {
        let reader = CorpusReader::new(file)?;
        return Ok(Box::new(
            reader.map(move |r| r.with_context(|| shown.clone())),
        ));
    }
    let lines = BufReader::new(file).lines().enumerate();
    Ok(Box::new(lines.filter_map(move |(i, line)| {
        let line = match line {
            Ok(l) => l,
            Err(e) => return Some(Err(anyhow!("{shown}:{}: {e}", i + 1))),
        };
        if Record::is_blank(&line) {
            return None;
        }
        Some(record_of_line(&line).with_context(|| format!("{shown}:{}", i + 1)))
    })))
}

/// A game from a line of the common position format with `result=`, `opening_plies=` and
/// `values=` keys.
///
/// # Errors
/// A key missing or unreadable, or moves that do not play.
pub fn record_of_line(line: &str) -> Result<GameRecord> {
    let rec = Record::parse(line).map_err(|e| anyhow!("{e}"))?;
    let result = match rec.get("result") {
        Some("black") => Some(Color::Black),
        Some("white") => Some(Color::White),
        Some("draw") => None,
        Some(r) => bail!("result={r} is not black, white or draw"),
        None => bail!("no result= key"),
    };
    let opening_plies: usize = rec
        .get("opening_plies")
        .ok_or_else(|| anyhow!("no opening_plies= key"))?
        .parse()
        .map_err(|_| anyhow!("opening_plies= is not a number"))?;
    let values = rec
        .get("values")
        .unwrap_or("")
        .split(',')
        .filter(|t| !t.is_empty())
        .map(|t| match t {
            "W" => Ok(PROVEN),
            "L" => Ok(-PROVEN),
            _ => t
                .parse::<i32>()
                .map(GameRecord::value_of_score)
                .map_err(|_| anyhow!("values: '{t}' is not a number, W or L")),
        })
        .collect::<Result<Vec<_>>>()?;
    let record = GameRecord {
        rule: rec.rule,
        size: rec.size,
        result,
        opening_plies,
        moves: rec.moves,
        values,
    };
    record.check()?;
    Ok(record)
}

/// Whether a game is held out: one in `every`, by a hash of its rule, size and moves (so the
/// split does not depend on the files' order).
#[must_use]
pub fn held_out(rec: &GameRecord, every: u64) -> bool {
    if every == 0 {
        return false;
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |v: u64| {
        h ^= v;
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    eat(rec.rule.index() as u64);
    eat(rec.size as u64);
    for &m in &rec.moves {
        eat(m.index() as u64);
    }
    h % every == 0
}

/// How positions become samples.
#[derive(Clone, Copy, Debug)]
pub struct SampleOptions {
    /// Share of the game's result in the value target; the rest is the search's value.
    pub result_weight: f32,
    /// Evaluation units per unit of logit of the search's values.
    pub value_scale: f32,
}

/// The outcome of a game for `c`: 1 a win, -1 a loss, 0 a draw.
#[must_use]
pub fn result_for(result: Option<Color>, c: Color) -> i8 {
    match result {
        Some(w) if w == c => 1,
        Some(_) => -1,
        None => 0,
    }
}

/// Whether a rule's colours are alike (a game with its colours swapped is a game of the rule).
#[must_use]
pub fn colours_alike(rule: Rule) -> bool {
    !rule.has_forbidden()
}

/// Calls `f` with each position after the opening of `rec` (the board before the move), seen
/// in orientation `sym` (0 to 7) and with the colours swapped when `swap`, and its sample.
///
/// # Errors
/// A game whose moves do not play (the readers check them first).
pub fn for_each_position(
    rec: &GameRecord,
    sym: usize,
    swap: bool,
    opts: SampleOptions,
    sample: &mut Sample,
    mut f: impl FnMut(&Board, &Sample),
) -> Result<()> {
    let mut board = Board::new(rec.size, rec.rule).map_err(|e| anyhow!("{e}"))?;
    if swap {
        // a pass first: every stone then has the other colour
        board.pass();
    }
    for (i, &m) in rec.moves.iter().enumerate() {
        let p = if m.is_pass() {
            m
        } else {
            board.transform(m, sym)
        };
        if i >= rec.opening_plies && p.is_point() {
            let original_mover = Color::BOTH[i % 2];
            let r = result_for(rec.result, original_mover);
            let v = rec.values[i - rec.opening_plies];
            let search = match v {
                PROVEN => Some(f32::INFINITY),
                v if v == -PROVEN => Some(f32::NEG_INFINITY),
                v => Some(f32::from(v)),
            };
            let t = value_target(r, search, opts.result_weight, opts.value_scale);
            let target = (p.y() * rec.size + p.x()) as u16;
            sample.fill(&board, Some(target), t);
            f(&board, sample);
        }
        if p.is_pass() {
            board.pass();
        } else if board.try_play(p).is_err() {
            bail!("move {} does not play", i + 1);
        }
    }
    Ok(())
}

/// The board point of a sample's point index.
#[must_use]
pub fn point_of(size: usize, index: u16) -> Pos {
    let i = usize::from(index);
    Pos::new(i % size, i / size)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> GameRecord {
        record_of_line(
            "15 freestyle h8 i9 j9 g7 h10 k8 h9 h7 | opening_plies=3 result=white values=10,-20,W,L,5",
        )
        .expect("line")
    }

    #[test]
    fn a_text_line_is_a_game() {
        let g = game();
        assert_eq!((g.size, g.opening_plies, g.moves.len()), (15, 3, 8));
        assert_eq!(g.values, vec![10, -20, PROVEN, -PROVEN, 5]);
        assert_eq!(g.result, Some(Color::White));
        for bad in [
            "15 freestyle h8 | opening_plies=0 values=1",
            "15 freestyle h8 | result=black values=1",
            "15 freestyle h8 h8 | result=black opening_plies=0 values=1,2",
            "15 freestyle h8 | result=black opening_plies=0 values=x",
        ] {
            assert!(record_of_line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn positions_keep_their_targets_in_every_orientation_and_colour() {
        let g = game();
        let opts = SampleOptions {
            result_weight: 1.0,
            value_scale: 100.0,
        };
        let mut s = Sample::default();
        for sym in 0..8 {
            for swap in [false, true] {
                let mut seen = Vec::new();
                for_each_position(&g, sym, swap, opts, &mut s, |b, s| {
                    let t = point_of(15, s.target.expect("target"));
                    assert!(b.is_empty(t));
                    // the side to move of the original game wins when it is White
                    let white_moves = b.to_move() == if swap { Color::Black } else { Color::White };
                    assert_eq!(s.value[0] == 1.0, white_moves);
                    seen.push(s.empty.len());
                })
                .expect("replay");
                assert_eq!(seen, vec![222, 221, 220, 219, 218]);
            }
        }
    }

    #[test]
    fn the_split_is_stable() {
        let g = game();
        assert!(held_out(&g, 1));
        assert!(!held_out(&g, 0));
        assert_eq!(held_out(&g, 7), held_out(&g.clone(), 7));
    }
}
