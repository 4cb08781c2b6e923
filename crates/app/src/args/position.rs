//! The position a command starts from: a board file (a diagram, a position line or a `.psq`
//! record) and the moves given on the command line ([`load_position`]), the points a search
//! leaves out, and a finished game's result in words.

use super::BoardArgs;
use anyhow::{anyhow, bail, Context, Result};
use gomoku_engine::notation::{format_pos, parse_diagram, parse_moves};
use gomoku_engine::record::Record;
use gomoku_engine::{Game, GameResult, Pos};
use std::path::PathBuf;

/// The `--board FILE` flag of the commands that take a position. Add it with
/// `#[command(flatten)]` beside [`crate::args::BoardArgs`].
#[derive(Clone, Debug, Default, clap::Args)]
pub struct BoardFile {
    /// Start from the board in FILE (`-` for standard input): a diagram as `gomoku position`
    /// prints it, a position line (`15 renju h8 i9`) or a Piskvork `.psq` record.
    ///
    /// A diagram is a row of points per line, X for Black, O for White and . for empty, with
    /// an optional line `to move: white` (else Black moves when the counts are equal); its
    /// stones are a set-up position, which cannot be undone. A position line is the datasets'
    /// common format, as `gomoku position` prints it after `line:`: a game when its moves
    /// play as one, else a set-up position; it gives the rule too. A `.psq` record is its
    /// game, under `--rule`. Each gives the board size; the moves given are played from its
    /// position.
    #[arg(long = "board", value_name = "FILE", conflicts_with = "size")]
    pub path: Option<PathBuf>,
}

/// The position a command starts from: the rule and board size, a board file, and the moves
/// played from it. Add it to a command with `#[command(flatten)]`.
#[derive(Clone, Debug, clap::Args)]
pub struct PositionArgs {
    /// Rule and board size.
    #[command(flatten)]
    pub board: BoardArgs,
    /// A board file to start from.
    #[command(flatten)]
    pub start: BoardFile,
    /// Moves in play order, Black first, `--` for a pass: `h8 i9 j10` or `h8i9j10`.
    #[arg(allow_hyphen_values = true)]
    pub moves: Vec<String>,
}

impl PositionArgs {
    /// The position these arguments give: see [`load_position`].
    ///
    /// # Errors
    /// See [`load_position`].
    pub fn load(&self, diagram: bool) -> Result<Game> {
        load_position(self.board, &self.start, &self.moves, diagram)
    }

    /// The position these arguments give, with something to search: see
    /// [`searchable_position`].
    ///
    /// # Errors
    /// See [`searchable_position`].
    pub fn searchable(&self, diagram: bool) -> Result<Game> {
        searchable_position(self.board, &self.start, &self.moves, diagram)
    }
}

/// The position a command starts from: the board file's position, if any (a diagram or a
/// position line: see [`BoardFile`]), then the moves given on the command line as a game (game rules apply: a
/// five ends it) or, with `diagram`, as stones placed without rules.
///
/// # Errors
/// An unreadable or malformed diagram file, or one with a five already on the board; a
/// malformed point, an occupied point, a move after the end of the game; `diagram` with a
/// file.
pub fn load_position(
    board: BoardArgs,
    file: &BoardFile,
    moves: &[String],
    diagram: bool,
) -> Result<Game> {
    let text = moves.join(" ");
    let Some(path) = &file.path else {
        let (size, rule) = (board.size, board.rule());
        let game = if diagram {
            let moves = gomoku_engine::notation::parse_moves(&text, size)
                .with_context(|| format!("reading the position '{text}'"))?;
            Game::setup(size, rule, &moves)
        } else {
            Game::from_position(size, rule, &text)
        };
        return game.with_context(|| format!("reading the position '{text}'"));
    };
    if diagram {
        bail!("--diagram reads the moves as a whole position: it cannot follow --board");
    }
    let (contents, from) = if path.as_os_str() == "-" {
        let text = std::io::read_to_string(std::io::stdin())
            .context("reading the board from standard input")?;
        (text, "the board on standard input".to_string())
    } else {
        let from = format!("the board file {}", path.display());
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {from}"))?;
        (text, from)
    };
    // a Piskvork record, a line of the common format (size, rule, moves), or else a diagram
    let first = contents
        .lines()
        .find(|l| !Record::is_blank(l))
        .unwrap_or("");
    let mut game = if first
        .trim_start()
        .to_ascii_lowercase()
        .starts_with("piskvorky")
    {
        let rec = crate::psq::parse(&contents).map_err(|e| anyhow!("{from}: {e}"))?;
        let list: Vec<Pos> = rec.moves.iter().map(|&(p, _)| p).collect();
        Game::from_moves(rec.size, board.rule(), &list).with_context(|| from.clone())?
    } else if let Ok(rec) = Record::parse(first) {
        if board.rule.is_some_and(|r| r != rec.rule) {
            bail!(
                "--rule {} differs from the rule of {from}'s position line ({})",
                board.rule(),
                rec.rule
            );
        }
        rec.start().with_context(|| from.clone())?
    } else {
        let d = parse_diagram(&contents).with_context(|| from.clone())?;
        Game::from_diagram(board.rule(), &d).with_context(|| from.clone())?
    };
    let list = parse_moves(&text, game.board().size())
        .with_context(|| format!("reading the moves '{text}' after {from}"))?;
    for (n, &p) in list.iter().enumerate() {
        game.play(p)
            .with_context(|| format!("move {} after {from}", n + 1))?;
    }
    Ok(game)
}

/// Like [`load_position`], and refuses positions with nothing to search (game over, full board).
///
/// # Errors
/// See [`load_position`]; a finished game; a full board.
pub fn searchable_position(
    board: BoardArgs,
    file: &BoardFile,
    moves: &[String],
    diagram: bool,
) -> Result<Game> {
    let game = load_position(board, file, moves, diagram)?;
    if game.is_over() {
        bail!("the game is already over: nothing to search");
    }
    if game.board().is_full() {
        bail!("the board is full");
    }
    Ok(game)
}

/// The points of `--exclude` (each value one point or several, separated by commas or blanks)
/// for a search of `game`: empty points, without repeats, that leave a legal move.
///
/// # Errors
/// A malformed or occupied point; a list that leaves no legal move.
pub fn excluded_points(game: &Game, values: &[String]) -> Result<Vec<Pos>> {
    let mut board = game.board().clone();
    let size = board.size();
    let mut out = Vec::new();
    for token in values
        .iter()
        .flat_map(|v| v.split(|c: char| c == ',' || c.is_whitespace()))
        .filter(|t| !t.is_empty())
    {
        let p = gomoku_engine::notation::parse_pos(token, size)
            .map_err(|e| anyhow!("--exclude: {e}"))?;
        if !board.is_empty(p) {
            bail!("--exclude: {token} is not an empty point");
        }
        if !out.contains(&p) {
            out.push(p);
        }
    }
    if !board.has_move_outside(&out) {
        bail!("--exclude leaves no legal move to search");
    }
    Ok(out)
}

/// A finished game's result in words (`none` while it goes on): the winner and the five, a
/// renju foul, or a draw.
#[must_use]
pub fn result_text(game: &Game) -> String {
    let size = game.board().size();
    match game.result() {
        None => "none".to_string(),
        Some(GameResult::Draw) => "draw (the board is full)".to_string(),
        Some(GameResult::Win {
            winner,
            foul: Some(k),
            ..
        }) => {
            let last = game
                .board()
                .last_move()
                .map_or(String::new(), |p| format_pos(p, size));
            format!("{winner} wins: black played the forbidden point {last} ({k})")
        }
        Some(GameResult::Win { winner, line, .. }) => {
            let line: Vec<String> = line.iter().map(|&p| format_pos(p, size)).collect();
            format!("{winner} wins with {}", line.join(" "))
        }
    }
}
