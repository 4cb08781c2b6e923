//! `gomoku play`: a game against the engine in the terminal. The board is redrawn after every
//! move; moves are typed as `h8`; `undo`, `hint`, `result`, `review`, `new`, `help` and `quit`
//! do what they say. With `--clock-ms` the game has a clock, and the side whose time runs out
//! loses; with `--swap2` it opens with swap2 (`black`, `white` or `more` to choose), with
//! `--opening soosorv8` or `taraguchi10` with a renju tournament rule (points for stones,
//! offers and the choice among offers; `swap`, `keep`, a number, `ten`). Reads standard input
//! line by line, so it also works with piped input.

mod opening;

use crate::args::{load_position, ComponentArgs, OpeningKind};
use crate::clock::{format_ms, Clock};
use crate::opening::{Choice, Next, Opening};
use crate::renju_opening::RenjuTable;
use crate::web::games::Player;
use anyhow::{bail, Result};
use gomoku_engine::notation::{format_pos, parse_pos};
use gomoku_engine::renju;
use gomoku_engine::search::format_score;
use gomoku_engine::study::Searcher;
use gomoku_engine::{Color, ForbiddenKind, Game, GameResult, Limits, Pos, Rule, SearchOptions};
use opening::{first_player, new_opening, new_renju, renju_prompt, swap2_asked};
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `gomoku play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position to start from: the moves are played before the game starts.
    #[command(flatten)]
    pub position: crate::args::PositionArgs,
    /// The colour you play: black (moves first) or white.
    #[arg(long, default_value = "black", value_parser = crate::args::parse_color)]
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
    /// Open the game with swap2: you put down the first three stones with --color black (the
    /// default), the engine does with --color white; the colours are then chosen as the rule
    /// says. Starts from the empty board.
    #[arg(long)]
    pub swap2: bool,
    /// How the game opens: free (the default), swap2 (as --swap2), or a renju tournament rule,
    /// soosorv8 (Soosõrv-8) or taraguchi10 (Taraguchi-10), whose rule is renju unless --rule
    /// says otherwise. You start the opening with --color black, the engine with --color
    /// white. Starts from the empty board.
    #[arg(long, value_parser = crate::args::parse_opening)]
    pub opening: Option<OpeningKind>,
}

const HELP: &str = "commands: a point like h8 to play there, undo (takes back your last move \
and the engine's answer), hint (the engine's suggestion for you), result, review (every move \
of the game judged by the engine), save FILE (a position line, or a .psq record), new, help, \
quit; in a swap2 opening, black, white or more to choose; in a renju opening (soosorv8, \
taraguchi10), a point for a stone, an offer or the offer chosen, swap or keep, a number of \
offers, or ten";

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
    if game.board().ply() == 3 {
        if let Some(o) = renju::of_game(game) {
            writeln!(out, "opening: {o}")?;
        }
    }
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
            "value {}, depth {}, {} ms, {} nodes, {} table hits",
            format_score(r.score),
            r.depth,
            r.elapsed_ms,
            r.stats.nodes,
            r.stats.tt_hits
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

/// What the loop does after a line of input.
enum Flow {
    Go,
    Quit,
}

/// A terminal game: the position, who plays which colour, the clock and the swap2 opening.
struct Table<'a> {
    args: &'a Args,
    game: Game,
    /// The game `new` starts again from.
    initial: Game,
    /// Moves (and set-up plies) that `undo` does not take back: the start position's, and
    /// the stones of a swap2 opening once it is over.
    start_len: usize,
    /// Your colour (tentative while a swap2 opening goes on).
    human: Color,
    engine: Opponent,
    timer: Option<Timer>,
    /// The side that lost on time.
    timed_out: Option<Color>,
    /// The swap2 opening under way.
    opening: Option<Opening<Player>>,
    /// The renju opening (Soosõrv-8, Taraguchi-10) under way.
    renju: Option<RenjuTable<Player>>,
    /// The renju opening once it is over (for the game record).
    renju_done: Option<renju::Opening>,
    /// Varies the engine's swap2 openings from game to game.
    seed: u64,
}

impl Table<'_> {
    fn size(&self) -> usize {
        self.game.board().size()
    }

    fn over(&self) -> bool {
        self.game.is_over() || self.timed_out.is_some()
    }

    /// Back to the start: the position, the clock and the opening.
    fn restart(&mut self) {
        self.game = self.initial.clone();
        self.start_len = self.game.board().moves().len();
        self.timed_out = None;
        if let Some(t) = &mut self.timer {
            t.clock = t.initial.clone();
            t.turn = Instant::now();
        }
        if swap2_asked(self.args) {
            self.opening = Some(new_opening(self.args.color));
            self.human = self.args.color;
            self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        }
        self.renju_done = None;
        if let Some(OpeningKind::Renju(rule)) = self.args.opening {
            self.renju = Some(new_renju(rule, self.size(), self.args.color));
            self.human = self.args.color;
            self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        }
    }

    /// Whether an opening (swap2 or renju) is under way.
    fn in_opening(&self) -> bool {
        self.opening.is_some() || self.renju.is_some()
    }

    /// The clock's line under the board, while the game goes on (none in the opening).
    fn show_clock(&self, out: &mut impl Write) -> Result<()> {
        if let (Some(t), false) = (&self.timer, self.in_opening()) {
            let running = (!self.over()).then(|| self.game.board().to_move());
            writeln!(out, "{}", t.line(running))?;
        }
        Ok(())
    }

    /// The engine's move in the game.
    fn engine_move(&mut self, out: &mut impl Write) -> Result<()> {
        let me = self.game.board().to_move();
        let left = self
            .timer
            .as_ref()
            .map(|t| t.clock.left(me).saturating_sub(t.used()));
        let (m, info) = self.engine.think(&self.game, left);
        if self.timer.as_mut().is_some_and(|t| !t.charge(me, true)) {
            self.timed_out = Some(me);
            writeln!(out, "game over: {}", lost_on_time(me))?;
            return Ok(());
        }
        if !m.is_point() {
            writeln!(out, "the engine found no move")?;
        } else if self.game.play(m).is_ok() {
            writeln!(out, "engine plays {} ({info})", format_pos(m, self.size()))?;
            draw(&mut self.game, out)?;
            self.show_clock(out)?;
        }
        if self.game.is_over() {
            writeln!(out, "game over: {}", result_text(&self.game))?;
        }
        Ok(())
    }

    /// Whether the engine acts now (moves, or decides in the opening).
    fn engine_to_act(&self) -> bool {
        if let Some(r) = &self.renju {
            return r.actor() == Player::Engine;
        }
        match &self.opening {
            Some(o) => o.actor() == Player::Engine,
            None => {
                !self.over()
                    && self.game.board().to_move() != self.human
                    && !self.game.board().is_full()
            }
        }
    }

    fn prompt(&self) -> String {
        if let Some(r) = &self.renju {
            return renju_prompt(r);
        }
        match &self.opening {
            Some(o) => self.opening_prompt(o),
            None if self.over() => "game over: undo, review, new or quit> ".to_string(),
            None => "your move> ".to_string(),
        }
    }

    fn undo(&mut self, out: &mut impl Write) -> Result<()> {
        if let Some(r) = &mut self.renju {
            // in the opening, only your own actions of the turn under way, one at a time
            let mine = r.opening.actor();
            let last = r.opening.actions().last().map(|&(seat, _)| seat);
            if r.actor() == Player::Person && last == Some(mine) {
                r.opening.undo(&mut self.game);
                r.log.pop();
                draw(&mut self.game, out)?;
                self.explain_renju(out)?;
            } else {
                writeln!(
                    out,
                    "nothing of yours to undo in this turn of the opening (new starts again)"
                )?;
            }
            return Ok(());
        }
        if let Some(o) = &self.opening {
            // in the opening, only the stones of the stage under way, one at a time
            if o.placing() && self.game.board().stone_count() > o.stage_start() {
                self.game.undo();
                draw(&mut self.game, out)?;
            } else {
                writeln!(
                    out,
                    "nothing to undo in this stage of the opening (new starts again)"
                )?;
            }
            return Ok(());
        }
        if self.timed_out.is_some() {
            writeln!(out, "the game was lost on time: it cannot be taken back")?;
            return Ok(());
        }
        if self.game.board().moves().len() <= self.start_len {
            writeln!(out, "nothing to undo")?;
            return Ok(());
        }
        // the turn under way takes its time so far, without the increment
        let me = self.game.board().to_move();
        if !self.game.is_over() && self.timer.as_mut().is_some_and(|t| !t.charge(me, false)) {
            self.timed_out = Some(me);
            writeln!(out, "game over: {}", lost_on_time(me))?;
            return Ok(());
        }
        self.game.undo();
        // back to a position where it is your turn
        if self.game.board().to_move() != self.human
            && self.game.board().moves().len() > self.start_len
        {
            self.game.undo();
        }
        if let Some(t) = &mut self.timer {
            t.turn = Instant::now();
        }
        draw(&mut self.game, out)?;
        self.show_clock(out)
    }

    /// A point typed by the person: a stone of the opening or a move of the game.
    fn point(&mut self, p: Pos, out: &mut impl Write) -> Result<()> {
        if let Some(r) = &self.renju {
            let Some(action) = r.point_action(p) else {
                let step = r.opening.step().unwrap_or(renju::Step::Swap);
                writeln!(out, "not a point now: {}", r.asks(step))?;
                return Ok(());
            };
            return self.renju_act(action, true, out);
        }
        if let Some(o) = self.opening.clone() {
            if !o.placing() {
                writeln!(out, "choose first: {}", o.choices().join(", "))?;
                return Ok(());
            }
            match self.game.play(p) {
                Ok(_) => {
                    draw(&mut self.game, out)?;
                    let mut o = o;
                    let before = o.stage;
                    o.after_stone(self.game.board().stone_count());
                    if o.stage != before {
                        let next = Next::Stage(o.stage);
                        return self.advance(Player::Person, next, out);
                    }
                }
                Err(e) => writeln!(out, "cannot put a stone there: {e}")?,
            }
            return Ok(());
        }
        let human = self.human;
        // a move after the time ran out loses on time, whatever the move
        if let Some(t) = &mut self.timer {
            if t.clock.is_out(human, t.used()) {
                t.clock.run_out(human);
                self.timed_out = Some(human);
                writeln!(out, "game over: {}", lost_on_time(human))?;
                return Ok(());
            }
        }
        match self.game.play(p) {
            Ok(_) => {
                if let Some(t) = &mut self.timer {
                    t.charge(human, true);
                }
                draw(&mut self.game, out)?;
                if self.game.is_over() {
                    writeln!(out, "game over: {}", result_text(&self.game))?;
                }
            }
            Err(e) => writeln!(out, "cannot play there: {e}")?,
        }
        Ok(())
    }

    /// Writes the game to `path`: a Piskvork record for a `.psq` name, else a position line
    /// (which `--board` reads back) with the players and the result.
    fn save(&self, path: &str, out: &mut impl Write) -> Result<()> {
        if path.is_empty() {
            writeln!(
                out,
                "save needs a file name: save game.txt (a position line) or save game.psq"
            )?;
            return Ok(());
        }
        let board = self.game.board();
        let name = |c: Color| {
            if !self.in_opening() && c == self.human {
                "person"
            } else if !self.in_opening() {
                "engine"
            } else {
                "undecided"
            }
        };
        let text = if path.to_ascii_lowercase().ends_with(".psq") {
            if board.moves().iter().any(|p| p.is_pass()) {
                writeln!(
                    out,
                    "a .psq record cannot hold the passes of a set-up position: save as .txt"
                )?;
                return Ok(());
            }
            let moves: Vec<(Pos, u64)> = board.moves().iter().map(|&p| (p, 0)).collect();
            crate::psq::format(board.size(), &moves, name(Color::Black), name(Color::White))
        } else {
            let result = match (self.timed_out, self.game.result()) {
                (Some(loser), _) => format!(" result={}", loser.opponent()),
                (None, Some(GameResult::Win { winner, .. })) => format!(" result={winner}"),
                (None, Some(GameResult::Draw)) => " result=draw".to_string(),
                (None, None) => String::new(),
            };
            format!(
                "{} | black={} white={}{result}{}\n",
                gomoku_engine::record::line_of(&self.game),
                name(Color::Black),
                name(Color::White),
                crate::renju_opening::record_keys(&self.game, self.renju_done.as_ref())
            )
        };
        match std::fs::write(path, text) {
            Ok(()) => writeln!(out, "saved to {path}")?,
            Err(e) => writeln!(out, "cannot save to {path}: {e}")?,
        }
        Ok(())
    }

    /// One line of input (`raw`, and `cmd` trimmed and in lower case).
    fn command(&mut self, raw: &str, cmd: &str, out: &mut impl Write) -> Result<Flow> {
        let choice = match cmd {
            "black" | "b" => Some(Choice::Black),
            "white" | "w" => Some(Choice::White),
            "more" | "m" => Some(Choice::More),
            _ => None,
        };
        match cmd {
            "" => {}
            "quit" | "exit" | "q" => return Ok(Flow::Quit),
            "help" | "?" => writeln!(out, "{HELP}")?,
            "result" => {
                if self.renju.is_some() {
                    writeln!(out, "the renju opening is under way")?;
                } else if self.opening.is_some() {
                    writeln!(out, "the swap2 opening is under way")?;
                } else {
                    writeln!(out, "{}", outcome(&self.game, self.timed_out))?;
                    self.show_clock(out)?;
                }
            }
            "review" => review(&self.game, self.args, out)?,
            "new" => {
                self.restart();
                writeln!(out, "new game")?;
                draw(&mut self.game, out)?;
                if let Some(o) = self.opening.clone() {
                    self.explain(&o, out)?;
                }
                self.explain_renju(out)?;
                self.show_clock(out)?;
            }
            "undo" => self.undo(out)?,
            _ if cmd == "save" || cmd.starts_with("save ") => {
                self.save(raw.trim()[4..].trim(), out)?;
            }
            "hint" => {
                if self.opening.is_some() {
                    writeln!(out, "no hints in the swap2 opening")?;
                } else if self.renju.is_some() {
                    writeln!(out, "no hints in the renju opening")?;
                } else if self.over() {
                    writeln!(out, "the game is over")?;
                } else {
                    let (m, info) = self.engine.think(&self.game, None);
                    writeln!(out, "hint: {} ({info})", format_pos(m, self.size()))?;
                }
            }
            _ if self.renju.is_some() => match parse_pos(cmd, self.size()) {
                Ok(p) if p.is_point() => self.point(p, out)?,
                _ => {
                    let action = self.renju.as_ref().map(|r| r.word_action(cmd));
                    match action {
                        Some(Ok(a)) => self.renju_act(a, true, out)?,
                        Some(Err(e)) => writeln!(out, "{e}")?,
                        None => {}
                    }
                }
            },
            _ if choice.is_some() && self.opening.is_some() => {
                if let (Some(c), Some(o)) = (choice, self.opening.clone()) {
                    self.choose(&o, c, out)?;
                }
            }
            _ if self.over() => {
                writeln!(
                    out,
                    "the game is over: {}",
                    outcome(&self.game, self.timed_out)
                )?;
            }
            _ => match parse_pos(cmd, self.size()) {
                Ok(p) if p.is_point() => self.point(p, out)?,
                Ok(_) => writeln!(out, "passing is not allowed here")?,
                Err(e) => writeln!(out, "{e} ({HELP})")?,
            },
        }
        Ok(Flow::Go)
    }
}

/// Runs the command.
///
/// # Errors
/// Bad flags or starting moves; failures writing to standard output.
pub fn run(args: &Args) -> Result<()> {
    let game = start_position(args)?;
    let mut table = new_table(args, game)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{}", greeting(&table))?;
    writeln!(out, "{HELP}")?;
    draw(&mut table.game, &mut out)?;
    if let Some(o) = table.opening.clone() {
        table.explain(&o, &mut out)?;
    }
    table.explain_renju(&mut out)?;
    table.show_clock(&mut out)?;
    play(&mut table, &mut input, &mut out)
}

/// The renju opening rule of `--opening`, if it names one.
fn opening_rule(args: &Args) -> Option<renju::OpeningRule> {
    match args.opening {
        Some(OpeningKind::Renju(rule)) => Some(rule),
        _ => None,
    }
}

/// The position the game starts from.
///
/// # Errors
/// Bad flags, or flags that do not go together; a bad board file or bad moves.
fn start_position(args: &Args) -> Result<Game> {
    if let Some(d) = args.depth {
        if d < 1 {
            bail!("--depth must be at least 1");
        }
    }
    let start = &args.position;
    if start
        .start
        .path
        .as_ref()
        .is_some_and(|p| p.as_os_str() == "-")
    {
        bail!("play reads your moves from standard input: give --board a file");
    }
    if args.swap2 && args.opening.is_some_and(|o| o != OpeningKind::Swap2) {
        bail!("--swap2 and --opening ask for two openings: give one");
    }
    let from_position = start.start.path.is_some() || !start.moves.is_empty();
    if swap2_asked(args) && from_position {
        bail!("a swap2 opening starts from the empty board: no moves or --board with --swap2");
    }
    if let (Some(rule), true) = (opening_rule(args), from_position) {
        bail!("a {rule} opening starts from the empty board: no moves or --board with it");
    }
    let mut board_args = start.board;
    if board_args.rule.is_none() {
        board_args.rule = args.opening.map(OpeningKind::default_rule);
    }
    let game = load_position(board_args, &start.start, &start.moves, false)?;
    if let Some(rule) = opening_rule(args) {
        renju::Opening::check_start(rule, game.board()).map_err(anyhow::Error::msg)?;
    }
    Ok(game)
}

/// The table of a game from `game` as the flags set it: the engine, the clock, the opening.
///
/// # Errors
/// A bad clock; a searcher that cannot be built.
fn new_table(args: &Args, game: Game) -> Result<Table<'_>> {
    let clock = match (args.clock_ms, args.increment_ms) {
        (0, Some(_)) => bail!("--increment-ms needs a game clock (--clock-ms)"),
        (0, None) => None,
        (total, inc) => Some(Clock::new(total, inc.unwrap_or(0)).map_err(anyhow::Error::msg)?),
    };
    let (_, searcher) = args.components.build(args.hash_mb, 1, &[])?;
    let mut table = Table {
        args,
        start_len: game.board().moves().len(),
        initial: game.clone(),
        game,
        human: args.color,
        engine: Opponent {
            searcher,
            limits: Limits {
                move_time_ms: Some(args.time_ms),
                depth: args.depth,
                ..Limits::default()
            },
        },
        timer: clock.map(|clock| Timer {
            initial: clock.clone(),
            clock,
            turn: Instant::now(),
        }),
        timed_out: None,
        opening: swap2_asked(args).then(|| new_opening(args.color)),
        renju: None,
        renju_done: None,
        seed: crate::seed::time_seed(),
    };
    if let Some(rule) = opening_rule(args) {
        table.renju = Some(new_renju(rule, table.size(), args.color));
    }
    Ok(table)
}

/// The first line of the game: the rule and size, who plays what, the engine and its time.
fn greeting(table: &Table<'_>) -> String {
    let args = table.args;
    let clock_text = table.timer.as_ref().map_or(String::new(), |t| {
        format!(
            ", a clock of {} a side{}",
            format_ms(t.clock.left(Color::Black)),
            match args.increment_ms {
                Some(inc) if inc > 0 => format!(" + {} a move", format_ms(inc)),
                _ => String::new(),
            }
        )
    });
    let size = table.size();
    let who = if let Some(rule) = opening_rule(args) {
        match first_player(args.color) {
            Player::Person => format!("a {rule} opening: you start it"),
            Player::Engine => format!("a {rule} opening: the engine starts it"),
        }
    } else if swap2_asked(args) {
        match first_player(args.color) {
            Player::Person => "a swap2 opening: you put down the first three stones".to_string(),
            Player::Engine => {
                "a swap2 opening: the engine puts down the first three stones".to_string()
            }
        }
    } else {
        format!("you are {}", args.color)
    };
    format!(
        "gomoku play: {} {size}x{size}, {who}, the engine is {} ({} ms per move{clock_text})",
        table.game.board().rule(),
        table.engine.searcher.name(),
        args.time_ms
    )
}

/// Plays the game: the engine acts when it is to, else a line of `input` is read and done,
/// until the input ends or says `quit`.
///
/// # Errors
/// Failures reading the input or writing to `out`.
fn play(table: &mut Table<'_>, input: &mut impl BufRead, out: &mut impl Write) -> Result<()> {
    let mut bytes = Vec::new();
    loop {
        if table.engine_to_act() {
            if table.renju.is_some() {
                table.engine_renju(out)?;
                continue;
            }
            match table.opening.clone() {
                Some(o) => table.engine_opening(&o, out)?,
                None => table.engine_move(out)?,
            }
            continue;
        }
        write!(out, "{}", table.prompt())?;
        out.flush()?;
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            writeln!(out)?;
            writeln!(out, "bye")?;
            return Ok(());
        }
        // a line that is not text is refused like any other bad input: the game goes on
        let Ok(line) = std::str::from_utf8(&bytes) else {
            writeln!(out, "that line is not text (UTF-8) ({HELP})")?;
            continue;
        };
        let cmd = line.trim().to_ascii_lowercase();
        if let Flow::Quit = table.command(line, &cmd, out)? {
            writeln!(out, "bye")?;
            return Ok(());
        }
    }
}
