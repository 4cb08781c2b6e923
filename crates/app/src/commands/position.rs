//! `gomoku position`: prints a position with its facts (board, side to move, result, the renju
//! opening its first three moves form, renju forbidden points), as text or JSON.

use anyhow::Result;
use gomoku_engine::notation::format_pos;
use gomoku_engine::{Color, ForbiddenKind, Game, GameResult, Pos, Rule};
use serde::Serialize;

/// Arguments of `gomoku position`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position to print.
    #[command(flatten)]
    pub position: crate::args::PositionArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Read the moves as a diagram: place the stones in order without game rules (fives and
    /// fouls do not end the game), as the puzzle files do.
    #[arg(long)]
    pub diagram: bool,
}

/// The facts `position --json` prints.
#[derive(Debug, Serialize)]
pub struct PositionJson {
    /// Board size.
    pub size: usize,
    /// Rule name.
    pub rule: &'static str,
    /// `black` or `white`.
    pub to_move: &'static str,
    /// Moves played (passes included), the set-up plies among them.
    pub moves: usize,
    /// Plies of the set-up start position (`--board`; passes included), 0 without one.
    pub setup_plies: usize,
    /// `null`, `"draw"` or `{"winner": .., "line": [..]}`.
    pub result: serde_json::Value,
    /// Renju forbidden points of Black.
    pub forbidden: Vec<ForbiddenJson>,
    /// The position as a line of the datasets' common format (`15 renju h8 i9`).
    pub line: String,
    /// The renju opening the first three moves form (`null` when they form none).
    pub opening: Option<crate::renju_opening::OpeningName>,
}

/// One forbidden point.
#[derive(Debug, Serialize)]
pub struct ForbiddenJson {
    /// The point in `h8` notation.
    pub point: String,
    /// `double-three`, `double-four` or `overline`.
    pub kind: &'static str,
}

/// Builds the game described by the arguments.
///
/// # Errors
/// The first bad token, with the reason.
pub fn build_game(args: &Args) -> Result<Game> {
    args.position.load(args.diagram)
}

fn result_json(size: usize, r: Option<&GameResult>) -> serde_json::Value {
    match r {
        None => serde_json::Value::Null,
        Some(GameResult::Draw) => serde_json::json!("draw"),
        Some(GameResult::Win { winner, line, foul }) => {
            let line: Vec<String> = line.iter().map(|&p| format_pos(p, size)).collect();
            let mut v = serde_json::json!({ "winner": winner.name(), "line": line });
            if let Some(k) = foul {
                v["foul"] = serde_json::json!(k.name());
            }
            v
        }
    }
}

/// Runs the command.
///
/// # Errors
/// Bad moves (named with the reason).
pub fn run(args: &Args) -> Result<()> {
    let mut game = build_game(args)?;
    let forbidden: Vec<(Pos, ForbiddenKind)> = game.board_mut().forbidden_points();
    let board = game.board();
    let size = board.size();
    let line = gomoku_engine::record::line_of(&game);
    let opening = gomoku_engine::renju::of_game(&game);
    if args.json {
        let out = PositionJson {
            size,
            rule: board.rule().name(),
            to_move: board.to_move().name(),
            moves: board.ply(),
            setup_plies: game.start_ply(),
            result: result_json(size, game.result()),
            forbidden: forbidden
                .iter()
                .map(|&(p, k)| ForbiddenJson {
                    point: format_pos(p, size),
                    kind: k.name(),
                })
                .collect(),
            line,
            opening: opening.map(crate::renju_opening::OpeningName::of),
        };
        println!("{}", serde_json::to_string(&out)?);
        return Ok(());
    }
    let marks: Vec<(Pos, char)> = forbidden
        .iter()
        .map(|&(p, k)| {
            let c = match k {
                ForbiddenKind::DoubleThree => '3',
                ForbiddenKind::DoubleFour => '4',
                ForbiddenKind::Overline => '6',
            };
            (p, c)
        })
        .collect();
    print!("{}", board.to_text(&marks));
    let setup = if game.start_ply() > 0 {
        let stones = board.moves()[..game.start_ply()]
            .iter()
            .filter(|p| !p.is_pass())
            .count();
        format!(" (after a set-up position of {stones} stones)")
    } else {
        String::new()
    };
    println!(
        "rule: {}  size: {size}x{size}  moves: {}{setup}",
        board.rule(),
        board.ply() - game.start_ply()
    );
    let to_move = board.to_move();
    println!(
        "to move: {to_move}{}",
        if to_move == Color::Black {
            " (X)"
        } else {
            " (O)"
        }
    );
    println!("result: {}", crate::args::result_text(&game));
    if let Some(o) = opening {
        println!("opening: {o}");
    }
    println!("line: {line}");
    if board.rule() == Rule::Renju {
        if forbidden.is_empty() {
            println!("forbidden points of black: none");
        } else {
            let list: Vec<String> = forbidden
                .iter()
                .map(|&(p, k)| format!("{} {k}", format_pos(p, size)))
                .collect();
            println!(
                "forbidden points of black (3 = double-three, 4 = double-four, 6 = overline):"
            );
            println!("  {}", list.join(", "));
        }
    }
    Ok(())
}
