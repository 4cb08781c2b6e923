//! The command loop: one [`Event`] at a time, replies on the [`Output`].

use super::command::{self, info_int, notation_message, Command, ParseError};
use super::output::Output;
use super::position::{parse_field_line, Position};
use super::settings::{rule_from_flags, Settings, MAX_HASH_MB, MAX_THREADS};
use super::swap2::{self, Answer};
use super::thinker::{Job, Outcome, SearchJob, Thinker};
use super::{Event, AUTHOR, COUNTRY, NAME};
use gomoku_engine::notation::{check_size, format_xy, parse_xy};
use gomoku_engine::{EngineConfig, Pos};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Whether the loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next event.
    Continue,
    /// Stop (after `END` or the end of input).
    Quit,
}

/// What the lines up to `DONE` are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LinesFor {
    /// `BOARD` (`think`) or `YXBOARD`: `x,y,field` lines of the position.
    Board { think: bool },
    /// `SWAP2BOARD`: `x,y` of stones, Black first.
    Swap2,
    /// `YXBLOCK` or `YXBLOCKUNDO` (`undo`): `x,y` of points to block or unblock.
    Block { undo: bool },
}

/// `BOARD` (or `SWAP2BOARD`, `YXBLOCK`, `YXBLOCKUNDO`) lines collected until `DONE`.
#[derive(Debug)]
struct BoardInput {
    kind: LinesFor,
    lines: Vec<String>,
    received: Instant,
}

/// What a search is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    /// A move, with the `nbest` best ones reported (`YXNBEST`).
    Move { nbest: usize },
    /// The answer to `SWAP2BOARD`.
    Swap2,
    /// `YXBALANCEONE` (`two: false`) or `YXBALANCETWO`, aiming at `bias`.
    Balance { two: bool, bias: i32 },
}

/// The search under way.
#[derive(Debug)]
struct Thinking {
    id: u64,
    stop: Arc<AtomicBool>,
    received: Instant,
    /// The latest moment the answer is due (a shorter limit from `INFO` moves it earlier).
    deadline: Instant,
}

/// The protocol state machine. Feed it events with [`Session::handle`] or let
/// [`Session::run`] take them from a channel.
///
/// Commands are processed in order, as by a brain with one thread, except that `STOP`,
/// `YXSTOP`, `END` and `INFO` act at once even during a search; other lines that arrive
/// during a search wait until its move is out.
#[derive(Debug)]
pub struct Session {
    out: Output,
    thinker: Thinker,
    settings: Settings,
    game: Option<Position>,
    board_input: Option<BoardInput>,
    /// Points the engine must not play (`YXBLOCK`), until `YXBLOCKRESET` or `START`.
    blocked: Vec<Pos>,
    thinking: Option<Thinking>,
    /// Lines that arrived during the search, to handle after it.
    waiting: VecDeque<String>,
    /// The input has ended: quit once the work in hand is done.
    eof: bool,
    next_id: u64,
}

impl Session {
    /// A session writing to `out`; the thinking thread reports finished searches on `events`
    /// (the sender of the channel [`Session::run`] reads).
    #[must_use]
    pub fn new(out: Output, events: Sender<Event>) -> Session {
        Session {
            thinker: Thinker::spawn(out.clone(), events),
            out,
            settings: Settings::default(),
            game: None,
            board_input: None,
            blocked: Vec::new(),
            thinking: None,
            waiting: VecDeque::new(),
            eof: false,
            next_id: 0,
        }
    }

    /// Handles events until `END` or the end of input.
    pub fn run(mut self, events: &Receiver<Event>) {
        while let Ok(ev) = events.recv() {
            if self.handle(ev) == Flow::Quit {
                break;
            }
        }
        self.abort_search();
    }

    /// Handles one event.
    pub fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Line(line, at) => {
                if self.thinking.is_some() {
                    self.line_during_search(line, at)
                } else {
                    self.line(&line, at)
                }
            }
            Event::Eof => {
                // finish what was asked (a script piped in gets all its answers), then quit
                self.eof = true;
                if self.thinking.is_some() {
                    Flow::Continue
                } else {
                    Flow::Quit
                }
            }
            Event::Finished(outcome) => {
                self.finished(&outcome);
                self.drain()
            }
        }
    }

    fn line_during_search(&mut self, line: String, at: Instant) -> Flow {
        match command::parse(&line) {
            Ok(cmd @ (Command::Stop | Command::End | Command::Info { .. })) => {
                self.command(cmd, at)
            }
            _ => {
                self.waiting.push_back(line);
                Flow::Continue
            }
        }
    }

    /// Handles the lines that waited for the search, until one starts another search.
    fn drain(&mut self) -> Flow {
        while self.thinking.is_none() {
            let Some(line) = self.waiting.pop_front() else {
                break;
            };
            // the manager's clock for a line that had to wait starts now: only scripts that
            // do not wait for answers queue commands, and they want full-strength moves
            if self.line(&line, Instant::now()) == Flow::Quit {
                return Flow::Quit;
            }
        }
        if self.eof && self.thinking.is_none() {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    fn reply(&self, text: &str) {
        self.out.line(text);
    }

    fn error(&self, reason: &str) {
        self.out.line(&format!("ERROR {reason}"));
    }

    fn line(&mut self, raw: &str, at: Instant) -> Flow {
        let line = command::clean(raw);
        if let Some(input) = self.board_input.as_mut() {
            // inside BOARD: field lines until DONE (END still ends everything)
            match line.to_ascii_uppercase().as_str() {
                "DONE" => {
                    if let Some(input) = self.board_input.take() {
                        match input.kind {
                            LinesFor::Board { think } => self.board_done(&input, think),
                            LinesFor::Swap2 => self.swap2_done(&input),
                            LinesFor::Block { undo } => self.block_done(&input, undo),
                        }
                    }
                }
                "END" => return self.end(),
                "" => {}
                _ => input.lines.push(line.to_string()),
            }
            return Flow::Continue;
        }
        if line.is_empty() {
            return Flow::Continue;
        }
        match command::parse(line) {
            Ok(cmd) => self.command(cmd, at),
            Err(e @ ParseError::Unknown(_)) => {
                self.reply(&format!("UNKNOWN {e}"));
                Flow::Continue
            }
            Err(e @ ParseError::Malformed(_)) => {
                self.error(&e.to_string());
                Flow::Continue
            }
        }
    }

    fn command(&mut self, cmd: Command, at: Instant) -> Flow {
        match cmd {
            Command::Start(n) => self.start(n),
            Command::RectStart(w, h) => {
                if w == h {
                    self.start(w);
                } else {
                    self.error(&format!(
                        "rectangular boards are not supported ({w}x{h}); use START with a size from 5 to 22"
                    ));
                }
            }
            Command::Restart => {
                if let Some(size) = self.game.as_ref().map(Position::size) {
                    self.new_game(size);
                    self.reply("OK");
                } else {
                    self.error("no board yet: send START first");
                }
            }
            Command::Begin => {
                let Some(game) = self.game.as_ref() else {
                    return self.no_game();
                };
                if game.stone_count() > 0 {
                    self.error("BEGIN needs an empty board (send BOARD for a position)");
                } else {
                    self.think(at, Ask::Move { nbest: 1 });
                }
            }
            Command::Turn(xy) => {
                if let Some(p) = self.point(&xy) {
                    // a game that is already decided takes no more stones; a TURN that
                    // decides it keeps its stone (TAKEBACK can remove it) and gets an ERROR
                    let played = self.game.as_mut().map(|g| match g.over() {
                        Some(reason) => Err(reason),
                        None => g.play(p),
                    });
                    match played {
                        Some(Ok(())) => self.think(at, Ask::Move { nbest: 1 }),
                        Some(Err(e)) => self.error(&format!("TURN: {e}")),
                        None => {}
                    }
                }
            }
            // without a board the lines are still taken up to DONE, which answers the error
            Command::Board { think } => self.collect(LinesFor::Board { think }, at),
            Command::Swap2Board => self.collect(LinesFor::Swap2, at),
            Command::Block { undo } => self.collect(LinesFor::Block { undo }, at),
            Command::BlockReset => self.blocked.clear(),
            Command::Takeback(xy) => {
                if let Some(p) = self.point(&xy) {
                    let taken = self.game.as_mut().map(|g| g.take_back(p));
                    match taken {
                        Some(Ok(())) => self.reply("OK"),
                        Some(Err(e)) => self.error(&format!("TAKEBACK: {e}")),
                        None => {}
                    }
                }
            }
            Command::End => return self.end(),
            Command::About => self.reply(&format!(
                "name=\"{NAME}\", version=\"{}\", author=\"{AUTHOR}\", country=\"{COUNTRY}\"",
                env!("CARGO_PKG_VERSION")
            )),
            Command::Play(xy) => self.play(&xy),
            Command::Info { key, value } => self.info(&key, &value),
            Command::ShowForbid => match self.game.as_mut() {
                Some(game) => {
                    let line = game.forbid_line();
                    self.reply(&line);
                }
                None => return self.no_game(),
            },
            Command::Stop => {
                if let Some(t) = &self.thinking {
                    t.stop.store(true, Ordering::Relaxed);
                }
            }
            Command::HashClear => self.thinker.send(Job::ClearHash),
            Command::ShowInfo => {
                let threads = std::thread::available_parallelism()
                    .map_or(1, std::num::NonZeroUsize::get)
                    .min(MAX_THREADS);
                // Yixin-Board reads the table limit as log2 of kilobytes
                let hash_log2_kb = (MAX_HASH_MB * 1024).ilog2();
                self.reply(&format!("MESSAGE INFO MAX_THREAD_NUM {threads}"));
                self.reply(&format!("MESSAGE INFO MAX_HASH_SIZE {hash_log2_kb}"));
            }
            Command::Balance { two, bias } => {
                if self.game.is_none() {
                    return self.no_game();
                }
                self.think(at, Ask::Balance { two, bias });
            }
            Command::NBest(n) => {
                if self.game.is_none() {
                    return self.no_game();
                }
                self.think(at, Ask::Move { nbest: n });
            }
        }
        Flow::Continue
    }

    /// Takes the lines that follow, up to `DONE`, for `kind`.
    fn collect(&mut self, kind: LinesFor, at: Instant) {
        self.board_input = Some(BoardInput {
            kind,
            lines: Vec::new(),
            received: at,
        });
    }

    fn no_game(&self) -> Flow {
        self.error("no board yet: send START first");
        Flow::Continue
    }

    /// Parses `x,y` on the current board, answering `ERROR` when there is no board or the
    /// point is bad.
    fn point(&self, xy: &str) -> Option<Pos> {
        let Some(game) = self.game.as_ref() else {
            self.no_game();
            return None;
        };
        match parse_xy(xy, game.size()) {
            Ok(p) => Some(p),
            Err(e) => {
                self.error(&notation_message(e));
                None
            }
        }
    }

    fn start(&mut self, size: usize) {
        if check_size(size).is_err() {
            self.error(&format!("unsupported board size {size} (5 to 22)"));
            return;
        }
        self.new_game(size);
        self.blocked.clear();
        // allocate the table before answering: managers do not count START against the
        // clock, but they do count the first move
        let (ack, allocated) = std::sync::mpsc::channel();
        self.thinker
            .send(Job::Configure(self.engine_config(), Some(ack)));
        let _ = allocated.recv();
        let changed = crate::args::search::changed_params(&crate::args::search::session_params());
        if !changed.is_empty() {
            // GOMOKU_SEARCH_SET: the manager's log shows what the engine plays with
            self.reply(&format!("MESSAGE search parameters: {changed}"));
        }
        self.reply("OK");
    }

    fn new_game(&mut self, size: usize) {
        // the size was checked, so this cannot fail
        self.game = Position::new(size, self.settings.rule).ok();
        self.board_input = None;
        self.settings.new_match();
    }

    fn engine_config(&self) -> EngineConfig {
        EngineConfig {
            hash_mb: self.settings.hash_mb(),
            threads: self.settings.threads,
        }
    }

    fn board_done(&mut self, input: &BoardInput, think: bool) {
        let Some(size) = self.game.as_ref().map(Position::size) else {
            self.no_game();
            return;
        };
        let mut fields = Vec::new();
        for line in &input.lines {
            match parse_field_line(line, size) {
                Ok(f) => fields.push(f),
                Err(e) => {
                    self.error(&format!("BOARD: {e}"));
                    return;
                }
            }
        }
        match Position::from_fields(size, self.settings.rule, &fields) {
            Ok(pos) => {
                self.game = Some(pos);
                if think {
                    self.think(input.received, Ask::Move { nbest: 1 });
                }
            }
            Err(e) => self.error(&format!("BOARD: {e}")),
        }
    }

    /// `SWAP2BOARD ... DONE`: the stones so far (0, 3 or 5, Black first) become the game, and
    /// the answer (stones or `SWAP`) comes from a search.
    fn swap2_done(&mut self, input: &BoardInput) {
        let Some(size) = self.game.as_ref().map(Position::size) else {
            self.no_game();
            return;
        };
        let Ok(mut pos) = Position::new(size, self.settings.rule) else {
            return; // the size was checked by START
        };
        for line in &input.lines {
            let played = parse_xy(line, size)
                .map_err(notation_message)
                .and_then(|p| pos.play(p));
            if let Err(e) = played {
                self.error(&format!("SWAP2BOARD: {e}"));
                return;
            }
        }
        let n = pos.stone_count();
        if ![0, 3, 5].contains(&n) {
            let stones = if n == 1 { "stone" } else { "stones" };
            self.error(&format!(
                "SWAP2BOARD: {n} {stones}; swap2 asks with 0, 3 or 5"
            ));
            return;
        }
        self.game = Some(pos);
        self.think(input.received, Ask::Swap2);
    }

    /// `YXBLOCK ... DONE` (or `YXBLOCKUNDO`): the points join (or leave) the blocked ones. No
    /// answer, as Yixin-Board expects; a bad point is an `ERROR` and changes nothing.
    fn block_done(&mut self, input: &BoardInput, undo: bool) {
        let Some(size) = self.game.as_ref().map(Position::size) else {
            self.no_game();
            return;
        };
        let word = if undo { "YXBLOCKUNDO" } else { "YXBLOCK" };
        let mut points = Vec::new();
        for line in &input.lines {
            match parse_xy(line, size) {
                Ok(p) => points.push(p),
                Err(e) => {
                    self.error(&format!("{word}: {}", notation_message(e)));
                    return;
                }
            }
        }
        if undo {
            self.blocked.retain(|p| !points.contains(p));
        } else {
            for p in points {
                if !self.blocked.contains(&p) {
                    self.blocked.push(p);
                }
            }
        }
    }

    fn play(&mut self, xy: &str) {
        let Some(p) = self.point(xy) else { return };
        let Some(game) = self.game.as_mut() else {
            return;
        };
        if let Some(reason) = game.status() {
            self.error(&reason);
        } else if !game.is_free(p) {
            self.error(&format!("PLAY: {} is already occupied", format_xy(p)));
        } else if !game.is_legal(p) {
            self.error(&format!("PLAY: {} is forbidden for Black", format_xy(p)));
        } else if let Err(e) = game.play(p) {
            self.error(&format!("PLAY: {e}"));
        } else {
            self.reply(&format_xy(p));
        }
    }

    fn info(&mut self, key: &str, value: &str) {
        let int = || info_int(key, value);
        let non_negative = || match info_int(key, value) {
            Ok(v) if v >= 0 => Ok(v as u64),
            Ok(v) => Err(format!("INFO {key}: {v} is negative")),
            Err(e) => Err(e),
        };
        let result: Result<(), String> = match key {
            "timeout_turn" => non_negative().map(|v| {
                self.settings.timeout_turn = v;
                self.tighten_deadline();
            }),
            "timeout_match" => non_negative().map(|v| {
                self.settings.timeout_match = v;
                self.tighten_deadline();
            }),
            "time_left" => int().map(|v| {
                self.settings.set_time_left(v);
                self.tighten_deadline();
            }),
            // Yixin-Board: milliseconds added to our clock after each of our moves
            "time_increment" => non_negative().map(|v| {
                self.settings.increment_ms = v.min(gomoku_engine::search::time::MAX_LIMIT_MS);
            }),
            "max_memory" => non_negative().map(|v| {
                self.settings.max_memory = v;
                self.settings.hash_kb = None;
                self.reconfigure();
            }),
            // Yixin-Board: table size in kilobytes
            "hash_size" => non_negative().map(|v| {
                self.settings.hash_kb = Some(v);
                self.reconfigure();
            }),
            "thread_num" => non_negative().map(|v| {
                self.settings.threads = (v as usize).clamp(1, MAX_THREADS);
                self.reconfigure();
            }),
            "game_type" => int().map(|v| self.settings.game_type = v),
            "rule" => int()
                .and_then(rule_from_flags)
                .map(|rule| self.set_rule(rule)),
            "folder" => {
                self.settings.folder = Some(value.to_string());
                Ok(())
            }
            // Yixin-Board: 1 real-time best move, 2 structured lines per reported move
            "show_detail" => non_negative().map(|v| self.settings.show_detail = (v & 3) as u8),
            // Yixin-Board's search limits (0 or less: none)
            "max_depth" => int().map(|v| {
                self.settings.max_depth = (v > 0).then(|| v.min(i64::from(i32::MAX)) as i32);
            }),
            "max_node" => int().map(|v| self.settings.max_nodes = (v > 0).then_some(v as u64)),
            // unknown keys (evaluate, Yixin-Board's many options, ...) are ignored
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.error(&e);
        }
    }

    fn set_rule(&mut self, rule: gomoku_engine::Rule) {
        if self.settings.rule == rule {
            return;
        }
        self.settings.rule = rule;
        if let Some(game) = self.game.as_ref() {
            // keep the stones: GUIs may send the rule after the position
            self.game = game.with_rule(rule).ok().or_else(|| self.game.take());
        }
    }

    /// Sends the engine settings to the thinking thread once a board exists (before that,
    /// `START` does it).
    fn reconfigure(&self) {
        if self.game.is_some() {
            self.thinker
                .send(Job::Configure(self.engine_config(), None));
        }
    }

    /// A time limit changed during a search: if the answer is now due earlier, make sure the
    /// search stops in time (the engine's own limits were fixed when it started).
    fn tighten_deadline(&mut self) {
        let budget = self.settings.budget();
        let Some(t) = self.thinking.as_mut() else {
            return;
        };
        let deadline = t.received + Duration::from_millis(budget.hard_deadline_ms());
        if deadline >= t.deadline {
            return;
        }
        t.deadline = deadline;
        let stop = Arc::clone(&t.stop);
        std::thread::spawn(move || {
            std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
            stop.store(true, Ordering::Relaxed);
        });
    }

    /// Starts a search for what `ask` asks.
    fn think(&mut self, at: Instant, ask: Ask) {
        let Some(game) = self.game.as_mut() else {
            self.no_game();
            return;
        };
        if let Some(reason) = game.over() {
            self.error(&reason);
            return;
        }
        if game.only_forbidden_left() {
            // the rules leave Black no legal move: a move is still the answer the manager
            // waits for, and it is a foul that loses, as the rules say (ERROR would be read
            // as a broken engine)
            if let (Ask::Move { .. }, Some(p)) = (ask, game.any_free()) {
                if game.play(p).is_ok() {
                    self.out.line(&format!(
                        "MESSAGE every free point is forbidden for Black: {} is a foul",
                        format_xy(p)
                    ));
                    self.out.line(&format_xy(p));
                    return;
                }
            }
            self.error("every free point is forbidden for Black");
            return;
        }
        let budget = self.settings.budget();
        let (exclude, set_aside) = excluded(&self.blocked, game);
        if set_aside {
            self.out
                .line("MESSAGE every legal point is blocked: the block is set aside for this move");
        }
        let job = SearchJob {
            id: self.next_id,
            board: game.board().clone(),
            exclude,
            budget,
            received: at,
            stop: Arc::new(AtomicBool::new(false)),
            nbest: match ask {
                Ask::Move { nbest } => nbest,
                _ => 1,
            },
            show_detail: self.settings.show_detail,
            config: self.engine_config(),
        };
        self.thinking = Some(Thinking {
            id: job.id,
            stop: Arc::clone(&job.stop),
            received: at,
            deadline: at + Duration::from_millis(budget.hard_deadline_ms()),
        });
        self.next_id += 1;
        self.thinker.send(match ask {
            Ask::Move { .. } => Job::Search(Box::new(job)),
            Ask::Swap2 => Job::Swap2(Box::new(job)),
            Ask::Balance { two, bias } => Job::Balance(Box::new(job), two, bias),
        });
    }

    /// Stops the search under way; its result will be ignored.
    fn abort_search(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.stop.store(true, Ordering::Relaxed);
        }
    }

    fn end(&mut self) -> Flow {
        self.abort_search();
        self.out.close();
        Flow::Quit
    }

    fn finished(&mut self, outcome: &Outcome) {
        let Some(t) = self.thinking.take_if(|t| t.id == outcome.id) else {
            return; // a search that was aborted
        };
        self.settings.spend(t.received.elapsed().as_millis() as u64);
        let Some(game) = self.game.as_mut() else {
            return;
        };
        if let Some(answer) = &outcome.swap2 {
            // stones go on the board (the manager sends the position again anyway); ones that
            // do not fit (a bug) give way to the answer that needs none
            let mut after = game.clone();
            let fits = match answer {
                Answer::Stones(stones) => stones.iter().all(|&p| after.play(p).is_ok()),
                Answer::Swap => true,
            };
            let answer = if fits {
                *game = after;
                answer.clone()
            } else {
                let fallback = swap2::fallback(game.board());
                if let Answer::Stones(stones) = &fallback {
                    for &p in stones {
                        let _ = game.play(p);
                    }
                }
                fallback
            };
            self.out.line(&answer.line());
            return;
        }
        if let Some(stones) = &outcome.balance {
            // the stones go on the board as far as they fit (they always should)
            let mut played = Vec::new();
            for &p in stones {
                if game.is_legal(p) && game.play(p).is_ok() {
                    played.push(format_xy(p));
                } else {
                    break;
                }
            }
            if played.is_empty() {
                match game.any_legal() {
                    Some(p) if game.play(p).is_ok() => played.push(format_xy(p)),
                    _ => {
                        self.error("no legal move left");
                        return;
                    }
                }
            }
            self.out.line(&played.join(" "));
            return;
        }
        // the engine guarantees a legal move; check anyway, an illegal answer loses the game
        let best = if game.is_legal(outcome.best) {
            Some(outcome.best)
        } else {
            game.any_legal()
        };
        match best {
            Some(p) if game.play(p).is_ok() => {
                if game.over().is_some() {
                    // the manager starts the next game the moment this reply arrives; a
                    // brain that answered the move before is sometimes still winding down
                    // and drops that command, so a game-ending move never comes at once
                    let pause = self.settings.ending_pause();
                    std::thread::sleep(pause.saturating_sub(t.received.elapsed()));
                }
                self.out.line(&format_xy(p))
            }
            _ => self.error("no legal move left"),
        }
    }
}

/// The points a search in `game` must not play: its dead stones, and the `blocked` points
/// unless they leave no legal move; then they are set aside (the `bool`), as the answer must
/// be a move.
fn excluded(blocked: &[Pos], game: &Position) -> (Vec<Pos>, bool) {
    let mut exclude = game.dead().to_vec();
    if blocked.is_empty() {
        return (exclude, false);
    }
    let with_blocked: Vec<Pos> = exclude.iter().chain(blocked).copied().collect();
    if game.board().clone().has_move_outside(&with_blocked) {
        exclude.extend(blocked.iter().filter(|&&p| game.is_free(p)));
        (exclude, false)
    } else {
        (exclude, true)
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod props;

#[cfg(test)]
mod increment {
    use super::*;

    #[test]
    fn info_time_increment_reaches_the_budget() {
        let (events, _rx) = super::super::channel();
        let mut s = Session::new(Output::new(std::io::sink()), events);
        assert_eq!(s.settings.budget().increment_ms, None);
        // (value, the increment after it): a bad value changes nothing
        for (value, after) in [
            ("2000", Some(2_000)),
            ("-5", Some(2_000)),
            ("x", Some(2_000)),
            ("0", None),
        ] {
            s.info("time_increment", value);
            assert_eq!(s.settings.budget().increment_ms, after, "{value}");
        }
    }
}
