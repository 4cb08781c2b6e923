//! `gomoku play`: a game against the engine in the terminal. The board is redrawn after every
//! move; moves are typed as `h8`; `undo`, `hint`, `result`, `review`, `new`, `help` and `quit`
//! do what they say. With `--clock-ms` the game has a clock, and the side whose time runs out
//! loses. Reads standard input line by line, so it also works with piped input.

use crate::clock::{format_ms, Clock};
use crate::study::{load_position, ComponentArgs};
use anyhow::{bail, Result};
use gomoku_engine::notation::{format_pos, parse_pos};
use gomoku_engine::search::format_score;
use gomoku_engine::study::Searcher;
use gomoku_engine::{Color, ForbiddenKind, Game, GameResult, Limits, Pos, Rule, SearchOptions};
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `gomoku play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rule and board size.
    #[command(flatten)]
    pub board: crate::cli::BoardArgs,
    /// A board diagram to start from.
    #[command(flatten)]
    pub start: crate::study::BoardFile,
    /// The colour you play: black (moves first) or white.
    #[arg(long, default_value = "black", value_parser = parse_color)]
    pub color: Color,
    /// The engine's time per move in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub time_ms: u64,
    /// The engine's depth limit.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Search and evaluator of the engine you play against.
    #[command(flatten)]
    pub components: ComponentArgs,
    /// Transposition table size in MB (pvs).
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// A game clock: milliseconds per side (1 s to 3 h; 0 for none). The side whose time runs
    /// out loses; the engine spends its time as in a tournament, at most --time-ms a move.
    #[arg(long, default_value_t = 0)]
    pub clock_ms: u64,
    /// Milliseconds added to a side's clock after each of its moves (with --clock-ms).
    #[arg(long)]
    pub increment_ms: Option<u64>,
    /// Moves played before the game starts, Black first.
    #[arg(allow_hyphen_values = true)]
    pub moves: Vec<String>,
}

/// Parses a colour name for clap.
pub fn parse_color(s: &str) -> Result<Color, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "black" | "b" | "x" | "first" => Ok(Color::Black),
        "white" | "w" | "o" | "second" => Ok(Color::White),
        _ => Err(format!("'{s}': expected black or white")),
    }
}

const HELP: &str = "commands: a point like h8 to play there, undo (takes back your last move \
and the engine's answer), hint (the engine's suggestion for you), result, review (every move \
of the game judged by the engine), new, help, quit";

fn result_text(game: &Game) -> String {
    match game.result() {
        None => format!("no result yet, {} to move", game.board().to_move()),
        Some(GameResult::Draw) => "draw: the board is full".to_string(),
        Some(GameResult::Win {
            winner,
            foul: Some(kind),
            ..
        }) => format!(
            "{winner} wins: black played a forbidden point ({})",
            kind.name()
        ),
        Some(GameResult::Win { winner, line, .. }) => {
            let size = game.board().size();
            let pts: Vec<String> = line.iter().map(|&p| format_pos(p, size)).collect();
            format!("{winner} wins with five: {}", pts.join(" "))
        }
    }
}

fn lost_on_time(loser: Color) -> String {
    format!("{} wins on time: {loser}'s time ran out", loser.opponent())
}

/// The result so far: a loss on time (`timed_out`: the loser), else the game's own.
fn outcome(game: &Game, timed_out: Option<Color>) -> String {
    timed_out.map_or_else(|| result_text(game), lost_on_time)
}

fn draw(game: &mut Game, out: &mut impl Write) -> Result<()> {
    let board = game.board_mut();
    // show renju forbidden points while Black is to move, so nobody steps on one unawares
    let marks: Vec<(Pos, char)> =
        if board.rule() == Rule::Renju && board.to_move() == Color::Black && !board.is_full() {
            board
                .forbidden_points()
                .into_iter()
                .map(|(p, k)| {
                    let c = match k {
                        ForbiddenKind::DoubleThree => '3',
                        ForbiddenKind::DoubleFour => '4',
                        ForbiddenKind::Overline => '6',
                    };
                    (p, c)
                })
                .collect()
        } else {
            Vec::new()
        };
    writeln!(out)?;
    write!(out, "{}", game.board().to_text(&marks))?;
    if !marks.is_empty() {
        writeln!(
            out,
            "(3, 4, 6: forbidden for black: double three, double four, overline)"
        )?;
    }
    Ok(())
}

/// Kept off the engine's time left on the clock (the move's way from the search to the board).
const CLOCK_MARGIN_MS: u64 = 50;

/// The game clock of a terminal game: the times, the clock to start a new game with, and when
/// the turn under way began. The clock runs for the side to move while the game goes on.
struct Timer {
    clock: Clock,
    initial: Clock,
    turn: Instant,
}

impl Timer {
    /// Milliseconds of the turn under way.
    fn used(&self) -> u64 {
        u64::try_from(self.turn.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Charges `color`'s turn, ended by a move (with the increment) or not (an undo), and
    /// starts the next turn. False, with `color`'s time set to nothing, when its time had run
    /// out before.
    fn charge(&mut self, color: Color, moved: bool) -> bool {
        let ok = self.clock.charge(color, self.used(), moved);
        if !ok {
            self.clock.run_out(color);
        }
        self.turn = Instant::now();
        ok
    }

    /// The times left, with `running` the side whose turn is under way.
    fn line(&self, running: Option<Color>) -> String {
        let v = self.clock.view(running.map(|c| (c, self.used())));
        format!(
            "clock: black {}  white {}",
            format_ms(v.black_ms),
            format_ms(v.white_ms)
        )
    }
}

struct Opponent {
    searcher: Box<dyn Searcher>,
    limits: Limits,
}

impl Opponent {
    /// The engine's move and a line about it; `clock_left_ms`: its time left on the game clock.
    fn think(&mut self, game: &Game, clock_left_ms: Option<u64>) -> (Pos, String) {
        let stop = AtomicBool::new(false);
        let limits = Limits {
            game_time_left_ms: clock_left_ms,
            margin_ms: if clock_left_ms.is_some() {
                CLOCK_MARGIN_MS
            } else {
                0
            },
            ..self.limits.clone()
        };
        let r = self.searcher.search(
            game.board(),
            &limits,
            &SearchOptions::default(),
            &stop,
            &mut |_| {},
        );
        let info = format!(
            "value {}, depth {}, {} ms",
            format_score(r.score),
            r.depth,
            r.elapsed_ms
        );
        (r.best_move, info)
    }
}

/// Judges every move of the game with the engine (at most 1 s a position, whatever player the
/// game is against) and prints the table of `gomoku review`.
fn review(game: &Game, args: &Args, out: &mut impl Write) -> Result<()> {
    if !gomoku_engine::review::has_moves(game) {
        writeln!(out, "no moves to review yet")?;
        return Ok(());
    }
    let time_ms = args.time_ms.min(1000);
    writeln!(out, "reviewing: {time_ms} ms per position...")?;
    out.flush()?;
    let mut engine = gomoku_engine::Engine::new(gomoku_engine::EngineConfig {
        hash_mb: args.hash_mb,
        threads: 1,
    });
    let limits = Limits {
        move_time_ms: Some(time_ms),
        depth: args.depth,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let review = gomoku_engine::review::review_game(
        &mut engine,
        game,
        &limits,
        &gomoku_engine::review::ReviewParams::default(),
        &stop,
        &mut |_| {},
    );
    crate::commands::review::write_table(out, &review, game.board().size())?;
    Ok(())
}

/// Runs the command.
///
/// # Errors
/// Bad flags or starting moves; failures writing to standard output.
pub fn run(args: &Args) -> Result<()> {
    if let Some(d) = args.depth {
        if d < 1 {
            bail!("--depth must be at least 1");
        }
    }
    if args
        .start
        .path
        .as_ref()
        .is_some_and(|p| p.as_os_str() == "-")
    {
        bail!("play reads your moves from standard input: give --board a file");
    }
    let mut game = load_position(args.board, &args.start, &args.moves, false)?;
    let clock = match (args.clock_ms, args.increment_ms) {
        (0, Some(_)) => bail!("--increment-ms needs a game clock (--clock-ms)"),
        (0, None) => None,
        (total, inc) => Some(Clock::new(total, inc.unwrap_or(0)).map_err(anyhow::Error::msg)?),
    };
    let mut timer = clock.map(|clock| Timer {
        initial: clock.clone(),
        clock,
        turn: Instant::now(),
    });
    // the side that lost on time
    let mut timed_out: Option<Color> = None;
    let start_len = game.board().moves().len();
    let initial = game.clone();
    let (_, searcher) = args.components.build(args.hash_mb, 1, &[])?;
    let mut engine = Opponent {
        searcher,
        limits: Limits {
            move_time_ms: Some(args.time_ms),
            depth: args.depth,
            ..Limits::default()
        },
    };
    let human = args.color;
    let size = game.board().size();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let clock_text = timer.as_ref().map_or(String::new(), |t| {
        format!(
            ", a clock of {} a side{}",
            format_ms(t.clock.left(Color::Black)),
            match args.increment_ms {
                Some(inc) if inc > 0 => format!(" + {} a move", format_ms(inc)),
                _ => String::new(),
            }
        )
    });
    writeln!(
        out,
        "gomoku play: {} {size}x{size}, you are {human}, the engine is {} ({} ms per move{clock_text})",
        args.board.rule,
        engine.searcher.name(),
        args.time_ms
    )?;
    writeln!(out, "{HELP}")?;
    draw(&mut game, &mut out)?;
    // the clock's line under the board, while the game goes on
    let show_clock = |timer: &Option<Timer>, game: &Game, out: &mut dyn Write| -> Result<()> {
        if let Some(t) = timer {
            let running = (!game.is_over()).then(|| game.board().to_move());
            writeln!(out, "{}", t.line(running))?;
        }
        Ok(())
    };
    show_clock(&timer, &game, &mut out)?;
    let mut line = String::new();
    loop {
        let over = game.is_over() || timed_out.is_some();
        if !over && game.board().to_move() != human && !game.board().is_full() {
            let me = game.board().to_move();
            let left = timer
                .as_ref()
                .map(|t| t.clock.left(me).saturating_sub(t.used()));
            let (m, info) = engine.think(&game, left);
            if timer.as_mut().is_some_and(|t| !t.charge(me, true)) {
                timed_out = Some(me);
                writeln!(out, "game over: {}", lost_on_time(me))?;
                continue;
            }
            if !m.is_point() {
                writeln!(out, "the engine found no move")?;
            } else if game.play(m).is_ok() {
                writeln!(out, "engine plays {} ({info})", format_pos(m, size))?;
                draw(&mut game, &mut out)?;
                show_clock(&timer, &game, &mut out)?;
            }
            if game.is_over() {
                writeln!(out, "game over: {}", result_text(&game))?;
            }
            continue;
        }
        if over {
            write!(out, "game over: undo, review, new or quit> ")?;
        } else {
            write!(out, "your move> ")?;
        }
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            writeln!(out, "bye")?;
            return Ok(());
        }
        let cmd = line.trim().to_ascii_lowercase();
        match cmd.as_str() {
            "" => {}
            "quit" | "exit" | "q" => {
                writeln!(out, "bye")?;
                return Ok(());
            }
            "help" | "?" => writeln!(out, "{HELP}")?,
            "result" => {
                writeln!(out, "{}", outcome(&game, timed_out))?;
                show_clock(&timer, &game, &mut out)?;
            }
            "review" => review(&game, args, &mut out)?,
            "new" => {
                game = initial.clone();
                timed_out = None;
                if let Some(t) = &mut timer {
                    t.clock = t.initial.clone();
                    t.turn = Instant::now();
                }
                writeln!(out, "new game")?;
                draw(&mut game, &mut out)?;
                show_clock(&timer, &game, &mut out)?;
            }
            "undo" => {
                if timed_out.is_some() {
                    writeln!(out, "the game was lost on time: it cannot be taken back")?;
                    continue;
                }
                if game.board().moves().len() <= start_len {
                    writeln!(out, "nothing to undo")?;
                    continue;
                }
                // the turn under way takes its time so far, without the increment
                let me = game.board().to_move();
                if !game.is_over() && timer.as_mut().is_some_and(|t| !t.charge(me, false)) {
                    timed_out = Some(me);
                    writeln!(out, "game over: {}", lost_on_time(me))?;
                    continue;
                }
                game.undo();
                // back to a position where it is your turn
                if game.board().to_move() != human && game.board().moves().len() > start_len {
                    game.undo();
                }
                if let Some(t) = &mut timer {
                    t.turn = Instant::now();
                }
                draw(&mut game, &mut out)?;
                show_clock(&timer, &game, &mut out)?;
            }
            "hint" => {
                if over {
                    writeln!(out, "the game is over")?;
                } else {
                    let (m, info) = engine.think(&game, None);
                    writeln!(out, "hint: {} ({info})", format_pos(m, size))?;
                }
            }
            _ if over => {
                writeln!(out, "the game is over: {}", outcome(&game, timed_out))?;
            }
            _ => match parse_pos(&cmd, size) {
                Ok(p) if p.is_point() => {
                    // a move after the time ran out loses on time, whatever the move
                    if timer
                        .as_ref()
                        .is_some_and(|t| t.clock.is_out(human, t.used()))
                    {
                        if let Some(t) = &mut timer {
                            t.clock.run_out(human);
                        }
                        timed_out = Some(human);
                        writeln!(out, "game over: {}", lost_on_time(human))?;
                        continue;
                    }
                    match game.play(p) {
                        Ok(_) => {
                            if let Some(t) = &mut timer {
                                t.charge(human, true);
                            }
                            draw(&mut game, &mut out)?;
                            if game.is_over() {
                                writeln!(out, "game over: {}", result_text(&game))?;
                            }
                        }
                        Err(e) => writeln!(out, "cannot play there: {e}")?,
                    }
                }
                Ok(_) => writeln!(out, "passing is not allowed here")?,
                Err(e) => writeln!(out, "{e} ({HELP})")?,
            },
        }
    }
}
