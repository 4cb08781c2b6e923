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
                    let played = self.game.as_mut().map(|g| match g.status() {
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
        if let Some(reason) = game.status() {
            self.error(&reason);
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
            Some(p) if game.play(p).is_ok() => self.out.line(&format_xy(p)),
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
mod tests {
    use super::super::channel;
    use super::*;
    use std::io::Write;
    use std::sync::mpsc;

    /// Collects output lines into a channel (the property tests below use it too).
    pub(super) struct Lines {
        pub(super) tx: mpsc::Sender<String>,
        pub(super) buf: Vec<u8>,
    }

    impl Write for Lines {
        fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
            for &b in data {
                if b == b'\n' {
                    let line = String::from_utf8_lossy(&self.buf).into_owned();
                    self.buf.clear();
                    let _ = self.tx.send(line);
                } else {
                    self.buf.push(b);
                }
            }
            Ok(data.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A session on its own thread, driven line by line.
    struct Harness {
        events: mpsc::Sender<Event>,
        lines: mpsc::Receiver<String>,
        thread: Option<std::thread::JoinHandle<()>>,
    }

    impl Harness {
        fn new() -> Harness {
            let (tx, lines) = mpsc::channel();
            let out = Output::new(Lines {
                tx,
                buf: Vec::new(),
            });
            let (events, rx) = channel();
            let session = Session::new(out, events.clone());
            let thread = std::thread::spawn(move || session.run(&rx));
            Harness {
                events,
                lines,
                thread: Some(thread),
            }
        }

        fn send(&self, line: &str) {
            self.events
                .send(Event::Line(format!("{line}\r\n"), Instant::now()))
                .unwrap();
        }

        /// The next line that is not a MESSAGE.
        fn answer(&self) -> String {
            loop {
                let l = self
                    .lines
                    .recv_timeout(Duration::from_secs(20))
                    .expect("an answer in time");
                if !l.starts_with("MESSAGE") {
                    return l;
                }
            }
        }

        /// All lines up to and including the next one that is not a MESSAGE.
        fn answer_with_messages(&self) -> Vec<String> {
            let mut v = Vec::new();
            loop {
                let l = self
                    .lines
                    .recv_timeout(Duration::from_secs(20))
                    .expect("an answer in time");
                let done = !l.starts_with("MESSAGE");
                v.push(l);
                if done {
                    return v;
                }
            }
        }

        fn silent_for(&self, ms: u64) -> bool {
            self.lines.recv_timeout(Duration::from_millis(ms)).is_err()
        }

        fn finish(mut self) {
            self.send("END");
            if let Some(t) = self.thread.take() {
                t.join().unwrap();
            }
        }
    }

    fn xy(answer: &str) -> (usize, usize) {
        let (x, y) = answer.split_once(',').expect("x,y");
        (x.parse().unwrap(), y.parse().unwrap())
    }

    #[test]
    fn a_short_game_in_process() {
        let h = Harness::new();
        h.send("INFO timeout_turn 100");
        h.send("INFO max_memory 16777216");
        h.send("START 15");
        assert_eq!(h.answer(), "OK");
        h.send("BEGIN");
        let lines = h.answer_with_messages();
        assert!(
            lines.iter().any(|l| l.starts_with("MESSAGE depth")),
            "{lines:?}"
        );
        assert_eq!(
            xy(lines.last().unwrap()),
            (7, 7),
            "the first move goes to the centre"
        );
        h.send("TURN 8,8");
        let (x, y) = xy(&h.answer());
        assert!((x, y) != (7, 7) && (x, y) != (8, 8));
        h.finish();
    }

    #[test]
    fn commands_during_a_search_wait_their_turn() {
        let h = Harness::new();
        h.send("INFO timeout_turn 150");
        h.send("START 15");
        h.send("BEGIN");
        h.send("TURN 8,8");
        h.send("ABOUT");
        assert_eq!(h.answer(), "OK");
        assert_eq!(xy(&h.answer()), (7, 7));
        let second = xy(&h.answer());
        assert!(second != (7, 7) && second != (8, 8));
        assert!(h.answer().starts_with("name="));
        h.finish();
    }

    #[test]
    fn stop_answers_at_once() {
        let h = Harness::new();
        h.send("INFO timeout_turn 600000");
        h.send("START 15");
        assert_eq!(h.answer(), "OK");
        h.send("BOARD");
        h.send("7,7,2");
        h.send("8,8,1");
        h.send("8,7,2");
        h.send("DONE");
        std::thread::sleep(Duration::from_millis(100));
        let t = Instant::now();
        h.send("YXSTOP");
        let (x, y) = xy(&h.answer());
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        assert!(x < 15 && y < 15 && (x, y) != (7, 7) && (x, y) != (8, 8) && (x, y) != (8, 7));
        h.finish();
    }

    #[test]
    fn a_shorter_limit_from_info_ends_the_search() {
        let h = Harness::new();
        h.send("INFO timeout_turn 600000");
        h.send("START 15");
        assert_eq!(h.answer(), "OK");
        h.send("TURN 7,7");
        std::thread::sleep(Duration::from_millis(50));
        let t = Instant::now();
        h.send("INFO timeout_turn 300");
        let (x, y) = xy(&h.answer());
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        assert!((x, y) != (7, 7));
        h.finish();
    }

    /// Sends `SWAP2BOARD` with `stones` and returns the answer.
    fn swap2(h: &Harness, stones: &[&str]) -> String {
        h.send("SWAP2BOARD");
        for s in stones {
            h.send(s);
        }
        h.send("DONE");
        h.answer()
    }

    #[test]
    fn swap2_answers_stones_or_swap_on_free_points() {
        let h = Harness::new();
        h.send("INFO timeout_turn 150");
        h.send("INFO rule 1");
        h.send("START 15");
        assert_eq!(h.answer(), "OK");
        // an opening: three distinct points
        let opening = swap2(&h, &[]);
        let mut points: Vec<(usize, usize)> = opening.split(' ').map(xy).collect();
        assert_eq!(points.len(), 3, "{opening}");
        // which are on the board now
        let first = points[0];
        h.send(&format!("TURN {},{}", first.0, first.1));
        let a = h.answer();
        assert!(a.starts_with("ERROR") && a.contains("occupied"), "{a}");
        points.sort_unstable();
        points.dedup();
        assert_eq!(points.len(), 3, "{opening}");
        // (stones, the answers allowed: SWAP, or how many stones)
        let cases: &[(&[&str], &[usize])] = &[
            // Black's open three: White takes Black
            (&["7,7", "0,0", "8,7", "14,14", "9,7"], &[]),
            // after three stones: swap, stay (one stone) or two more stones
            (&["7,7", "8,7", "11,7"], &[0, 1, 2]),
            // after five: swap or stay
            (&["7,7", "8,7", "11,7", "7,8", "3,3"], &[0, 1]),
        ];
        for &(stones, allowed) in cases {
            let a = swap2(&h, stones);
            if a == "SWAP" {
                assert!(
                    allowed.is_empty() || allowed.contains(&0),
                    "{stones:?}: {a}"
                );
                continue;
            }
            let placed: Vec<(usize, usize)> = a.split(' ').map(xy).collect();
            assert!(allowed.contains(&placed.len()), "{stones:?}: {a}");
            for p in &placed {
                assert!(
                    !stones.contains(&format!("{},{}", p.0, p.1).as_str()),
                    "{stones:?}: {a}"
                );
            }
        }
        h.finish();
    }

    #[test]
    fn swap2_with_bad_stones_is_an_error_and_the_game_goes_on() {
        let h = Harness::new();
        h.send("INFO timeout_turn 100");
        h.send("START 15");
        assert_eq!(h.answer(), "OK");
        for (stones, needle) in [
            (&["7,7", "7,7", "8,8"][..], "already occupied"),
            (&["1,1"][..], "1 stone; swap2 asks with 0, 3 or 5"),
            (&["7,7", "8,8", "9,9", "1,1"][..], "4 stones"),
            (&["zz"][..], "'zz'"),
            (&["7,7", "8,7", "20,3"][..], "off the 15x15 board"),
        ] {
            let a = swap2(&h, stones);
            assert!(a.starts_with("ERROR SWAP2BOARD: "), "{stones:?}: {a}");
            assert!(a.contains(needle), "{stones:?}: {a}");
        }
        h.send("BEGIN");
        assert_eq!(xy(&h.answer()), (7, 7));
        h.finish();
    }

    #[test]
    fn end_of_input_finishes_the_work_in_hand() {
        let mut h = Harness::new();
        h.send("INFO timeout_turn 100");
        h.send("START 15");
        h.send("BEGIN");
        h.events.send(Event::Eof).unwrap();
        assert_eq!(h.answer(), "OK");
        assert_eq!(xy(&h.answer()), (7, 7));
        if let Some(t) = h.thread.take() {
            t.join().unwrap();
        }
    }

    #[test]
    fn a_huge_malformed_line_gets_a_short_answer() {
        let h = Harness::new();
        let huge = "9".repeat(1 << 20);
        let noise = "z".repeat(1 << 20);
        h.send(&noise);
        h.send("START 15");
        for line in [
            format!("TURN {huge},7"),
            format!("TURN 7,{noise}"),
            format!("PLAY {noise}"),
            format!("TAKEBACK {noise}"),
            format!("INFO timeout_turn {noise}"),
            format!("START {huge}"),
            format!("ABOUT {noise}"),
            format!("{noise} 1"),
        ] {
            h.send(&line);
        }
        h.send("BOARD");
        h.send(&format!("7,7,{noise}"));
        h.send("DONE");
        h.send("BOARD");
        h.send(&format!("{huge},7,1"));
        h.send("DONE");
        let mut answers = Vec::new();
        for _ in 0..12 {
            answers.push(h.answer());
        }
        assert_eq!(
            answers.iter().filter(|a| *a == "OK").count(),
            1,
            "{answers:?}"
        );
        for a in answers.iter().filter(|a| *a != "OK") {
            assert!(
                a.starts_with("ERROR ") || a.starts_with("UNKNOWN "),
                "{}",
                &a[..a.len().min(300)]
            );
            assert!(a.len() < 300, "{} bytes: {}", a.len(), &a[..300]);
            // (the quoted text is a token or the whole line, a little over a megabyte)
            assert!(a.contains("... (104857"), "{a}");
        }
        h.finish();
    }

    #[test]
    fn end_during_a_search_is_silent() {
        let mut h = Harness::new();
        h.send("INFO timeout_turn 600000");
        h.send("START 15");
        assert_eq!(h.answer(), "OK");
        // (BEGIN would be answered at once: the centre is the only candidate)
        h.send("TURN 7,7");
        std::thread::sleep(Duration::from_millis(50));
        h.send("END");
        if let Some(t) = h.thread.take() {
            t.join().unwrap();
        }
        // the loop has ended, and the move of the stopped search was never written
        let rest: Vec<String> = h.lines.try_iter().collect();
        assert!(rest.iter().all(|l| l.starts_with("MESSAGE")), "{rest:?}");
        assert!(h.silent_for(200));
    }
}

/// Property test of the whole command loop: random sequences of protocol lines (commands with
/// good and bad arguments, `BOARD` blocks with broken field lines, random text) never crash the
/// brain; every line that is not a command gets exactly one `UNKNOWN`, every malformed command
/// exactly one `ERROR`; and the board stays consistent after every line. Searches are kept to
/// a few milliseconds, so the time settings the lines may change are kept small.
#[cfg(test)]
mod props {
    use super::super::channel;
    use super::tests::Lines;
    use super::*;
    use crate::prop_support::{mutate, noise, number, weird_token};
    use proptest::prelude::*;
    use proptest::sample::Index;
    use std::sync::mpsc;

    /// A coordinate, mostly on a board.
    fn coordinate() -> BoxedStrategy<String> {
        prop_oneof![
            4 => (0usize..5).prop_map(|v| v.to_string()),
            4 => (0usize..22).prop_map(|v| v.to_string()),
            1 => number(),
        ]
        .boxed()
    }

    fn point() -> BoxedStrategy<String> {
        (coordinate(), coordinate())
            .prop_map(|(x, y)| format!("{x},{y}"))
            .boxed()
    }

    /// A small number (time settings stay short), or a word that is no number.
    fn small() -> BoxedStrategy<String> {
        prop_oneof![
            3 => (0u32..12).prop_map(|v| v.to_string()),
            1 => prop::sample::select(vec!["-1", "x", "", "1e3", "-9223372036854775809"])
                .prop_map(str::to_string),
        ]
        .boxed()
    }

    /// One command as lines (a `BOARD` block is several).
    fn command() -> BoxedStrategy<Vec<String>> {
        let one = |s: BoxedStrategy<String>| s.prop_map(|l| vec![l]).boxed();
        let board = (
            prop::sample::select(vec!["BOARD", "YXBOARD", "yxboard"]),
            prop::collection::vec(
                (
                    point(),
                    prop_oneof![4 => "[1-3]", 1 => weird_token()],
                    any::<Index>(),
                    weird_token(),
                    0u8..16,
                )
                    .prop_map(|(p, f, at, w, how)| {
                        let line = format!("{p},{f}");
                        // now and then one part broken
                        if how < 4 {
                            let parts = line.split(',').map(str::to_string).collect();
                            mutate(parts, at, w, how).join(",")
                        } else {
                            line
                        }
                    }),
                0..8,
            ),
            prop::sample::select(vec!["DONE", "done", "DONE", "END", ""]),
        )
            .prop_map(|(word, fields, done)| {
                let mut v = vec![word.to_string()];
                v.extend(fields);
                v.push(done.to_string());
                v
            })
            .boxed();
        let swap2 = (
            prop::sample::select(vec!["SWAP2BOARD", "swap2board"]),
            prop::collection::vec(point(), 0..7),
            prop::sample::select(vec!["DONE", "done", "END", ""]),
        )
            .prop_map(|(word, stones, done)| {
                let mut v = vec![word.to_string()];
                v.extend(stones);
                v.push(done.to_string());
                v
            })
            .boxed();
        let block = (
            prop::sample::select(vec!["YXBLOCK", "yxblockundo", "yxblock"]),
            prop::collection::vec(point(), 0..30),
            prop::sample::select(vec!["DONE", "done", "END", ""]),
        )
            .prop_map(|(word, points, done)| {
                let mut v = vec![word.to_string()];
                v.extend(points);
                v.push(done.to_string());
                v
            })
            .boxed();
        let info = prop_oneof![
            (
                prop::sample::select(vec![
                    "timeout_turn",
                    "timeout_match",
                    "time_left",
                    "max_depth",
                    "thread_num",
                    "show_detail",
                    "game_type",
                ]),
                small(),
            )
                .prop_map(|(k, v)| format!("INFO {k} {v}")),
            number().prop_map(|v| format!("INFO rule {v}")),
            prop::sample::select(vec!["0", "1", "2", "4", "8", "9"])
                .prop_map(|v| format!("INFO rule {v}")),
            noise().prop_map(|v| format!("INFO folder {v}")),
            ("[a-z_]{0,10}", weird_token()).prop_map(|(k, v)| format!("INFO {k} {v}")),
        ]
        .boxed();
        prop_oneof![
            2 => one(
                prop_oneof![
                    4 => (5usize..=22).prop_map(|n| n.to_string()),
                    1 => number(),
                ]
                .prop_map(|n| format!("START {n}"))
                .boxed()
            ),
            1 => one((coordinate(), coordinate()).prop_map(|(w, h)| format!("RECTSTART {w},{h}")).boxed()),
            6 => one(
                (prop::sample::select(vec!["TURN", "PLAY", "TAKEBACK", "turn"]), point())
                    .prop_map(|(c, p)| format!("{c} {p}"))
                    .boxed()
            ),
            2 => board,
            1 => swap2,
            2 => block,
            2 => info.prop_map(|l| vec![l]).boxed(),
            2 => one(
                prop::sample::select(vec![
                    "BEGIN", "RESTART", "ABOUT", "YXSHOWFORBID", "YXHASHCLEAR", "YXSHOWINFO",
                    "STOP", "YXSTOP", "DONE", "BEGIN now", "END", "YXBLOCKRESET",
                    "YXBALANCEONE", "yxbalancetwo 0", "YXBALANCEONE -300", "YXBALANCETWO x",
                ])
                .prop_map(str::to_string)
                .boxed()
            ),
            1 => one(small().prop_map(|n| format!("YXNBEST {n}")).boxed()),
            1 => one(noise().prop_map(|l| l.replace(['\n', '\r'], " ")).boxed()),
            1 => one(
                (weird_token(), weird_token())
                    .prop_map(|(a, b)| format!("{a} {b}").replace(['\n', '\r'], " "))
                    .boxed()
            ),
        ]
        .boxed()
    }

    /// Feeds `lines` to a session, waiting for each search to end before the next line.
    fn drive(lines: &[String]) -> Result<(), TestCaseError> {
        let (tx, out) = mpsc::channel();
        let (events, rx) = channel();
        let mut s = Session::new(
            Output::new(Lines {
                tx,
                buf: Vec::new(),
            }),
            events,
        );
        let fail = |what: String| TestCaseError::fail(what);
        for setup in ["INFO timeout_turn 5", "INFO max_memory 8388608"] {
            s.handle(Event::Line(setup.to_string(), Instant::now()));
        }
        for line in lines {
            let in_board = s.board_input.is_some();
            let swap2 = s
                .board_input
                .as_ref()
                .is_some_and(|b| b.kind == LinesFor::Swap2);
            let blocked = s.blocked.clone();
            let flow = s.handle(Event::Line(format!("{line}\r\n"), Instant::now()));
            while flow == Flow::Continue && s.thinking.is_some() {
                let ev = rx
                    .recv_timeout(Duration::from_secs(30))
                    .map_err(|e| fail(format!("no answer to '{line}': {e}")))?;
                if s.handle(ev) == Flow::Quit {
                    return Ok(());
                }
            }
            let all: Vec<String> = out.try_iter().collect();
            let set_aside = all.iter().any(|l| l.contains("the block is set aside"));
            let answers: Vec<String> = all
                .into_iter()
                .filter(|l| !l.starts_with("MESSAGE"))
                .collect();
            // a move the engine chose is never a blocked point, unless the block left no
            // legal move (PLAY is the manager's move, answered as given; an error may name
            // the point it refuses)
            let imposed = matches!(command::parse(line), Ok(Command::Play(_)));
            if let (false, false, false, Some(g)) = (swap2, set_aside, imposed, &s.game) {
                let moves = answers
                    .iter()
                    .filter(|a| !a.starts_with("ERROR ") && !a.starts_with("UNKNOWN "));
                for a in moves {
                    for p in a.split(' ').filter_map(|t| parse_xy(t, g.size()).ok()) {
                        prop_assert!(!blocked.contains(&p), "'{}' answered blocked {}", line, a);
                    }
                }
            }
            let cleaned = command::clean(line);
            if !in_board && !cleaned.is_empty() {
                match command::parse(cleaned) {
                    Err(ParseError::Unknown(_)) => {
                        prop_assert!(
                            answers.len() == 1 && answers[0].starts_with("UNKNOWN "),
                            "'{}': {:?}",
                            line,
                            answers
                        );
                    }
                    Err(ParseError::Malformed(_)) => {
                        prop_assert!(
                            answers.len() == 1 && answers[0].starts_with("ERROR "),
                            "'{}': {:?}",
                            line,
                            answers
                        );
                    }
                    Ok(_) => {}
                }
            }
            for a in &answers {
                prop_assert!(a.len() < 2000, "a long answer to '{}': {}", line, a);
            }
            if let Some(g) = &s.game {
                g.board()
                    .validate()
                    .map_err(|e| fail(format!("after '{line}': {e}")))?;
                prop_assert_eq!(g.board().stone_count() + g.dead().len(), g.stone_count());
            }
            if flow == Flow::Quit {
                break;
            }
        }
        s.abort_search();
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 128,
            ..crate::prop_support::config()
        })]

        #[test]
        fn any_lines_get_answers_and_keep_the_board_sound(
            size in 5usize..=22,
            commands in prop::collection::vec(command(), 0..14),
        ) {
            // most lines need a board
            let mut lines = vec![format!("START {size}")];
            lines.extend(commands.concat());
            drive(&lines)?;
        }
    }

    /// A case the property found: the error refusing to take back a blocked point names the
    /// point, and is not a move onto it.
    #[test]
    fn an_error_naming_a_blocked_point_is_not_a_move() {
        let lines: Vec<String> = ["START 9", "yxblock", "2,8", "DONE", "TAKEBACK 2,8"]
            .map(str::to_string)
            .to_vec();
        drive(&lines).expect("no move onto a blocked point");
    }
}
