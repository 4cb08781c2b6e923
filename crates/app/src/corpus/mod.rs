//! The binary self-play corpus (`gomoku selfplay --format bin`), read and written a game at a
//! time: the training data of a neural evaluation. Little-endian throughout:
//!
//! ```text
//! file     "GMKCORP1", then one record per game
//! record   u8 rule           Rule::index(): 0 freestyle, 1 standard, 2 renju
//!          u8 size           5..=22
//!          u8 result         0 draw, 1 black won, 2 white won
//!          u8 opening_plies  the random opening's moves, which have no value
//!          u16 n_moves
//!          n_moves x u16     y * size + x (Pos::x, Pos::y), 0xFFFF for a pass
//!          (n_moves - opening_plies) x i16
//!                            the search's value of the position before each move after the
//!                            opening, for the side to move there; proven results +-32000
//! ```
//!
//! A record takes 6 bytes, 2 per opening move and 4 per position after the opening. The
//! reader checks every record, replaying its moves by the rules, and names the record and
//! the byte offset of anything wrong. [`openings`] draws the corpora's openings, skipping
//! the [`measuring`] ones.

pub mod measuring;
pub mod openings;

use anyhow::{anyhow, bail, Context, Result};
use gomoku_engine::notation::format_pos;
use gomoku_engine::search::score::WIN_MIN;
use gomoku_engine::{Color, Game, Pos, Rule};
use std::io::{BufReader, ErrorKind, Read, Write};

/// The first 8 bytes of a corpus file.
pub const MAGIC: &[u8; 8] = b"GMKCORP1";
/// The stored value of a proven win for the side to move (a proven loss is its negation);
/// every other value lies strictly between the two.
pub const PROVEN: i16 = 32_000;
/// The stored move of a pass.
pub const PASS: u16 = 0xFFFF;
/// The rules a corpus holds, by their byte.
pub const RULES: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

/// Bytes of a record before its moves.
const RECORD_HEADER: usize = 6;

/// One game of a corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Freestyle, standard or renju.
    pub rule: Rule,
    /// Board size, 5 to 22.
    pub size: usize,
    /// The winner; `None` for a draw.
    pub result: Option<Color>,
    /// Moves of the opening, which have no value.
    pub opening_plies: usize,
    /// Every move from the empty board, Black first ([`Pos::PASS`] for a pass).
    pub moves: Vec<Pos>,
    /// The search's value of the position before each move after the opening, for the side
    /// to move there: `±`[`PROVEN`] for a proven result.
    pub values: Vec<i16>,
}

impl GameRecord {
    /// The stored value of a search score: `±`[`PROVEN`] for a proven result (a score at or
    /// beyond `±WIN_MIN`), else the score within the values between.
    #[must_use]
    pub fn value_of_score(score: i32) -> i16 {
        if score >= WIN_MIN {
            PROVEN
        } else if score <= -WIN_MIN {
            -PROVEN
        } else {
            score.clamp(-i32::from(PROVEN) + 1, i32::from(PROVEN) - 1) as i16
        }
    }

    /// Positions with a value: the moves after the opening.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.moves.len().saturating_sub(self.opening_plies)
    }

    /// Checks that the record can be stored and read back: a corpus rule and size, counts
    /// that fit their fields, a value for every move after the opening, and moves that play
    /// as a game on an empty board.
    ///
    /// # Errors
    /// The first thing wrong.
    pub fn check(&self) -> Result<()> {
        rule_byte(self.rule)?;
        if !(gomoku_engine::MIN_SIZE..=gomoku_engine::MAX_SIZE).contains(&self.size) {
            bail!("board size {} is not 5 to 22", self.size);
        }
        if self.moves.len() > usize::from(u16::MAX) {
            bail!("{} moves: at most {} fit", self.moves.len(), u16::MAX);
        }
        if self.opening_plies > self.moves.len() || self.opening_plies > usize::from(u8::MAX) {
            bail!(
                "an opening of {} plies in a game of {} moves (at most 255)",
                self.opening_plies,
                self.moves.len()
            );
        }
        if self.values.len() != self.positions() {
            bail!(
                "{} values for the {} moves after the opening",
                self.values.len(),
                self.positions()
            );
        }
        for &p in &self.moves {
            if !p.is_pass() && (!p.is_point() || p.x() >= self.size || p.y() >= self.size) {
                bail!("a move off the {0}x{0} board", self.size);
            }
        }
        Game::from_moves(self.size, self.rule, &self.moves)
            .map(|_| ())
            .map_err(|e| anyhow!("the moves do not play as a game: {e}"))
    }

    /// Appends the record's bytes to `out`. The caller has checked it ([`GameRecord::check`]).
    fn encode(&self, out: &mut Vec<u8>) -> Result<()> {
        out.push(rule_byte(self.rule)?);
        out.push(self.size as u8);
        out.push(match self.result {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        });
        out.push(self.opening_plies as u8);
        out.extend_from_slice(&(self.moves.len() as u16).to_le_bytes());
        for &p in &self.moves {
            let code = if p.is_pass() {
                PASS
            } else {
                (p.y() * self.size + p.x()) as u16
            };
            out.extend_from_slice(&code.to_le_bytes());
        }
        for &v in &self.values {
            out.extend_from_slice(&v.to_le_bytes());
        }
        Ok(())
    }

    /// The game as a line of the common position format: `SIZE RULE moves | opening_plies=N
    /// result=black|white|draw values=v,...`, proven values as `W` and `L` (as `gomoku
    /// selfplay --format text` writes them and `gomoku train` reads them).
    #[must_use]
    pub fn to_line(&self) -> String {
        let mut head = vec![self.size.to_string(), self.rule.name().to_string()];
        head.extend(self.moves.iter().map(|&p| format_pos(p, self.size)));
        let values: Vec<String> = self
            .values
            .iter()
            .map(|&v| match v {
                PROVEN => "W".to_string(),
                v if v == -PROVEN => "L".to_string(),
                v => v.to_string(),
            })
            .collect();
        format!(
            "{} | opening_plies={} result={} values={}",
            head.join(" "),
            self.opening_plies,
            result_name(self.result),
            values.join(",")
        )
    }
}

/// `black`, `white` or `draw`.
#[must_use]
pub fn result_name(result: Option<Color>) -> &'static str {
    match result {
        Some(Color::Black) => "black",
        Some(Color::White) => "white",
        None => "draw",
    }
}

fn rule_byte(rule: Rule) -> Result<u8> {
    RULES
        .iter()
        .position(|&r| r == rule)
        .map(|i| i as u8)
        .ok_or_else(|| anyhow!("rule {rule}: a corpus holds freestyle, standard or renju"))
}

/// Writes a corpus: the header, then a record per [`CorpusWriter::write`].
#[derive(Debug)]
pub struct CorpusWriter<W: Write> {
    out: W,
    buf: Vec<u8>,
}

impl<W: Write> CorpusWriter<W> {
    /// A writer that starts a corpus on `out` with the header.
    ///
    /// # Errors
    /// Writing the header.
    pub fn new(mut out: W) -> Result<Self> {
        out.write_all(MAGIC).context("writing the corpus header")?;
        Ok(CorpusWriter {
            out,
            buf: Vec::new(),
        })
    }

    /// A writer that goes on with a corpus whose header `out` already holds (a file opened
    /// for appending).
    pub fn appending(out: W) -> Self {
        CorpusWriter {
            out,
            buf: Vec::new(),
        }
    }

    /// Writes one game.
    ///
    /// # Errors
    /// A record that cannot be stored ([`GameRecord::check`]), or the write.
    pub fn write(&mut self, record: &GameRecord) -> Result<()> {
        record.check().context("a game that cannot be stored")?;
        self.buf.clear();
        record.encode(&mut self.buf)?;
        self.out
            .write_all(&self.buf)
            .context("writing the corpus")?;
        Ok(())
    }

    /// Flushes the output.
    ///
    /// # Errors
    /// The flush.
    pub fn flush(&mut self) -> Result<()> {
        self.out.flush().context("writing the corpus")
    }

    /// The output, flushed.
    ///
    /// # Errors
    /// The flush.
    pub fn into_inner(mut self) -> Result<W> {
        self.flush()?;
        Ok(self.out)
    }
}

/// Reads a corpus a record at a time: an iterator of games, each checked. After an error it
/// ends.
#[derive(Debug)]
pub struct CorpusReader<R: Read> {
    input: BufReader<R>,
    /// Byte offset of the next record.
    offset: u64,
    /// Number (from 1) of the next record.
    record: usize,
    done: bool,
}

impl<R: Read> CorpusReader<R> {
    /// A reader of the corpus on `input`, its header read and checked.
    ///
    /// # Errors
    /// A header that is missing, short or not `GMKCORP1`, or the read.
    pub fn new(input: R) -> Result<Self> {
        let mut input = BufReader::new(input);
        let mut magic = [0u8; 8];
        let got = read_full(&mut input, &mut magic).context("reading the corpus header")?;
        if got < magic.len() {
            bail!("not a corpus: {got} bytes, shorter than the 8-byte header GMKCORP1");
        }
        if &magic != MAGIC {
            bail!(
                "not a corpus: the header is {:?}, not GMKCORP1",
                String::from_utf8_lossy(&magic)
            );
        }
        Ok(CorpusReader {
            input,
            offset: MAGIC.len() as u64,
            record: 1,
            done: false,
        })
    }

    /// Byte offset of the next record.
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next record, `None` at the end of the input (between records).
    fn read_record(&mut self) -> Result<Option<GameRecord>> {
        let mut head = [0u8; RECORD_HEADER];
        let got = read_full(&mut self.input, &mut head)?;
        if got == 0 {
            return Ok(None);
        }
        if got < head.len() {
            bail!("the file ends inside the record's first {RECORD_HEADER} bytes");
        }
        let [rule, size, result, opening, n0, n1] = head;
        let rule = *RULES.get(usize::from(rule)).ok_or_else(|| {
            anyhow!("rule byte {rule}: not 0 (freestyle), 1 (standard) or 2 (renju)")
        })?;
        let size = usize::from(size);
        if !(gomoku_engine::MIN_SIZE..=gomoku_engine::MAX_SIZE).contains(&size) {
            bail!("board size {size}: not 5 to 22");
        }
        let result = match result {
            0 => None,
            1 => Some(Color::Black),
            2 => Some(Color::White),
            r => bail!("result byte {r}: not 0 (draw), 1 (black) or 2 (white)"),
        };
        let opening_plies = usize::from(opening);
        let n_moves = usize::from(u16::from_le_bytes([n0, n1]));
        if opening_plies > n_moves {
            bail!("an opening of {opening_plies} plies in a game of {n_moves} moves");
        }
        let mut body = vec![0u8; 2 * n_moves + 2 * (n_moves - opening_plies)];
        if read_full(&mut self.input, &mut body)? < body.len() {
            bail!(
                "the file ends inside the record ({} bytes of moves and values expected)",
                body.len()
            );
        }
        let words = body.chunks_exact(2).map(|w| [w[0], w[1]]);
        let mut moves = Vec::with_capacity(n_moves);
        for (i, w) in words.clone().take(n_moves).enumerate() {
            let code = usize::from(u16::from_le_bytes(w));
            moves.push(if code == usize::from(PASS) {
                Pos::PASS
            } else if code < size * size {
                Pos::new(code % size, code / size)
            } else {
                bail!("move {}: {code} is off the {size}x{size} board", i + 1);
            });
        }
        let values = words.skip(n_moves).map(i16::from_le_bytes).collect();
        let record = GameRecord {
            rule,
            size,
            result,
            opening_plies,
            moves,
            values,
        };
        record.check()?;
        self.offset += (RECORD_HEADER + body.len()) as u64;
        Ok(Some(record))
    }
}

impl<R: Read> Iterator for CorpusReader<R> {
    type Item = Result<GameRecord>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.read_record() {
            Ok(Some(r)) => {
                self.record += 1;
                Some(Ok(r))
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e.context(format!(
                    "record {} (at byte {})",
                    self.record, self.offset
                ))))
            }
        }
    }
}

/// Reads until `buf` is full or the input ends; the number of bytes read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests;
