//! The games of the server: the map from id to [`Slot`], with the creation of a game from a
//! [`NewGame`] request (its start position, players, opening and clock), its removal, and
//! the removal of idle games.

use super::jobs::EnginePool;
#[cfg(test)]
use super::jobs::JobGate;
use super::persist::LibLink;
use super::timing::watch_clock;
use super::tree::{Tree, ROOT};
use super::view::GameView;
use super::{check_time, lock, parse_color, read_point, Level, MoveRecord, Player, Slot};
use crate::clock::Clock;
use crate::library::{Label, Tags};
use crate::opening::Opening;
use crate::psq;
use crate::renju_opening::RenjuTable;
use crate::sgf::{self, SgfRecord};
use crate::web::error::ApiError;
use gomoku_engine::notation::{self, check_size, format_pos};
use gomoku_engine::record::Record;
use gomoku_engine::renju;
use gomoku_engine::{Color, EngineConfig, Game, Pos, Rule};
use serde::Deserialize;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// Server-wide settings.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Transposition table of each engine, in MB.
    pub hash_mb: usize,
    /// Search threads per engine move.
    pub threads: usize,
    /// A game with no request and no open event stream for this long is removed.
    pub idle_timeout: Duration,
    /// At most this many games at once.
    pub max_games: usize,
    /// Every search stops after this many nodes instead of at a time (the game clock still
    /// runs): a game then gives the same moves, hints and analyses every time (for tests).
    pub node_limit: Option<u64>,
    /// The library every game is written to as it changes, and read back from when the
    /// server does not hold it (`None`: games live in memory only).
    pub library: Option<Arc<crate::library::Library>>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            hash_mb: 32,
            threads: 1,
            idle_timeout: Duration::from_secs(30 * 60),
            max_games: 200,
            node_limit: None,
            library: None,
        }
    }
}

/// The body of `POST /api/games`: every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewGame {
    /// Rule name (default freestyle; renju under a renju opening rule).
    pub rule: Option<String>,
    /// Board size (default 15, or the size of the `.psq` record).
    pub size: Option<usize>,
    /// Who plays Black (default person).
    pub black: Option<Player>,
    /// Who plays White (default engine).
    pub white: Option<Player>,
    /// Engine level (default max).
    pub level: Option<Level>,
    /// Engine time per move in ms (default 1000).
    pub time_ms: Option<u64>,
    /// Start from these moves (a position string).
    pub position: Option<String>,
    /// Start from this Piskvork `.psq` record.
    pub psq: Option<String>,
    /// `free` (the default), `swap2` (one person and one engine, from an empty board; the
    /// player given as Black puts down the first three stones), or a renju opening rule,
    /// `soosorv8` or `taraguchi10` (any players, from an empty board; the player given as
    /// Black starts it).
    pub opening: Option<OpeningRule>,
    /// A game clock: milliseconds per side (absent or 0: none). The side whose time runs out
    /// loses; the engine shares its time out over the game, each move at most `time_ms`.
    pub clock_ms: Option<u64>,
    /// Milliseconds added to a side's clock after each of its moves (with `clock_ms` only).
    pub increment_ms: Option<u64>,
    /// Start from a set-up position (instead of `position` or `psq`).
    pub setup: Option<SetUp>,
    /// Start from a board diagram (`X` Black, `O` White, `.` empty, a row per line from the
    /// top, as `gomoku position` prints it); a set-up position like `setup`.
    pub diagram: Option<String>,
    /// Start from a line of the datasets' common format (`15 renju h8 i9 | key=value`): its
    /// size and rule; with a pass among its moves a set-up position, else a game.
    pub record: Option<String>,
    /// Start from an SGF record (`GM[4]`) with its variations: its size, its rule (`RU`, else
    /// `rule`), its set-up stones; the board shows the end of its main line.
    pub sgf: Option<String>,
}

/// A position set up stone by stone: the start of a new game. Its stones are not moves of the
/// game: they cannot be undone, and a review starts after them.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SetUp {
    /// Black's stones (`h8` style or Gomocup `x,y`).
    pub black: Vec<String>,
    /// White's stones.
    pub white: Vec<String>,
    /// The side to move (default: Black when Black has no more stones than White, else
    /// White).
    pub to_move: Option<String>,
}

/// How a game opens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpeningRule {
    /// Black's first move is free.
    #[default]
    Free,
    /// Swap2: three stones, a choice, perhaps two more stones and a second choice.
    Swap2,
    /// Soosõrv-8: one of the 26 openings, a swap, the 4th stone and 1 to 8 offers, a swap,
    /// the offers, White's choice.
    Soosorv8,
    /// Taraguchi-10: a stone at a time in growing central squares, each followed by a swap,
    /// then one 5th stone or ten offers.
    Taraguchi10,
}

/// The game of a set-up position; errors are 400 `bad_position`.
fn set_up(size: usize, rule: Rule, req: &SetUp) -> Result<Game, ApiError> {
    let bad = |e: String| ApiError::bad_request("bad_position", e);
    let read = |list: &[String], color: &str| -> Result<Vec<Pos>, ApiError> {
        list.iter()
            .map(|t| read_point(t, size).map_err(|e| bad(format!("{color} stone: {e}"))))
            .collect()
    };
    let (black, white) = (read(&req.black, "black")?, read(&req.white, "white")?);
    let to_move = req.to_move.as_deref().map(parse_color).transpose()?;
    let to_move = to_move.unwrap_or_else(|| notation::side_to_move(black.len(), white.len()));
    Game::from_stones(size, rule, &black, &white, to_move).map_err(|e| bad(e.to_string()))
}

/// A fresh id that is hard to guess (so one tab cannot stumble on another's game).
fn new_id(serial: u64) -> String {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(serial);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    h.write_u64(t);
    format!("{:016x}{:04x}", h.finish(), serial & 0xffff)
}

/// All games of the server.
#[derive(Debug)]
pub struct Games {
    pub(super) map: Mutex<HashMap<String, Arc<Mutex<Slot>>>>,
    pub(super) pool: Arc<EnginePool>,
    pub(super) config: ServerConfig,
    /// The serial number of the next game.
    next_serial: AtomicU64,
    /// Holds the games' jobs until the tests let them run.
    #[cfg(test)]
    pub(super) gate: Option<Arc<JobGate>>,
}

impl Games {
    /// An empty set of games.
    #[must_use]
    pub fn new(config: ServerConfig) -> Games {
        let pool = Arc::new(EnginePool::new(EngineConfig {
            hash_mb: config.hash_mb.max(1),
            threads: config.threads.max(1),
        }));
        Games {
            map: Mutex::new(HashMap::new()),
            pool,
            config,
            next_serial: AtomicU64::new(1),
            #[cfg(test)]
            gate: None,
        }
    }

    /// An empty set of games whose jobs wait at a [`JobGate`] until the test lets them run.
    #[cfg(test)]
    pub(super) fn held(config: ServerConfig) -> Games {
        Games {
            gate: Some(Arc::new(JobGate::default())),
            ..Games::new(config)
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    /// Number of games.
    #[must_use]
    pub fn len(&self) -> usize {
        lock(&self.map).len()
    }

    /// Whether there is no game.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The game with this id.
    ///
    /// # Errors
    /// 404 when there is none.
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Slot>>, ApiError> {
        if let Some(slot) = lock(&self.map).get(id).cloned() {
            return Ok(slot);
        }
        // a game of an earlier run of the server, or one cleaned up after idling
        self.restore(id)?.ok_or_else(|| ApiError::unknown_game(id))
    }

    /// A new game's id (`given`, for a game read back from the library) and serial number.
    pub(super) fn next_id(&self, given: Option<String>) -> (String, u64) {
        let serial = self.next_serial.fetch_add(1, Ordering::Relaxed);
        let id = given.unwrap_or_else(|| new_id(serial));
        (id, serial)
    }

    /// Creates a game; the engine starts at once if it plays Black. Returns the game's view
    /// taken under the same lock as the engine's start, so that it shows the engine thinking
    /// even when a fast engine (the greedy level) has its move ready a moment later.
    ///
    /// # Errors
    /// 400 for bad settings or a bad position or record; 503 when there are too many games.
    pub fn create(&self, req: &NewGame) -> Result<GameView, ApiError> {
        let start = Start::of(req)?;
        self.make_room()?;
        let serial = self.next_serial.fetch_add(1, Ordering::Relaxed);
        let id = new_id(serial);
        let slot = self.new_slot(id.clone(), serial, start);
        let mut game = lock(&slot);
        // a game that starts from a record's moves is kept from the start
        game.persist();
        game.maybe_start_engine();
        let view = game.view();
        let timed = game.clock.is_some();
        drop(game);
        if timed {
            watch_clock(Arc::downgrade(&slot));
        }
        lock(&self.map).insert(id, slot);
        Ok(view)
    }

    /// Makes room for one more game: at the limit, idle games go first.
    ///
    /// # Errors
    /// 503 when there are still too many games.
    pub(super) fn make_room(&self) -> Result<(), ApiError> {
        if self.len() >= self.config.max_games {
            self.reap(self.config.idle_timeout);
        }
        if self.len() >= self.config.max_games {
            return Err(ApiError::unavailable(format!(
                "too many games ({}); try again later",
                self.config.max_games
            )));
        }
        Ok(())
    }

    /// The slot of a new game `id` (`serial`), from where it starts.
    pub(super) fn new_slot(&self, id: String, serial: u64, start: Start) -> Arc<Mutex<Slot>> {
        let start_ply = start.game.start_ply();
        let (tx, _) = broadcast::channel(256);
        Arc::new_cyclic(|me| {
            Mutex::new(Slot {
                id,
                serial,
                me: me.clone(),
                pool: self.pool.clone(),
                node_limit: self.config.node_limit,
                next_job: 0,
                #[cfg(test)]
                gate: self.gate.clone(),
                game: start.game,
                players: start.players,
                level: start.level,
                time_ms: start.time_ms,
                tree: start.tree,
                hold: false,
                resigned: None,
                clock: start.clock,
                timed_out: None,
                job: None,
                live: None,
                hint: None,
                analyze: false,
                analysis: None,
                excluded: None,
                opening_plies: start_ply,
                opening: start.opening,
                swap2_log: Vec::new(),
                swap2_events: Vec::new(),
                renju: start.renju,
                review: None,
                solution: None,
                error: None,
                version: 0,
                last_seen: Instant::now(),
                turn_started: Instant::now(),
                watchers: Arc::new(()),
                tx,
                library: self.config.library.clone().map(LibLink::new),
                tags: start.tags,
            })
        })
    }

    /// Removes a game, stopping its search.
    ///
    /// # Errors
    /// 404 when there is none.
    pub fn remove(&self, id: &str) -> Result<(), ApiError> {
        let slot = lock(&self.map)
            .remove(id)
            .ok_or_else(|| ApiError::unknown_game(id))?;
        lock(&slot).close();
        Ok(())
    }

    /// Removes the games nobody has touched for `idle` and nobody watches; returns how many.
    pub fn reap(&self, idle: Duration) -> usize {
        let mut map = lock(&self.map);
        let now = Instant::now();
        let stale: Vec<String> = map
            .iter()
            .filter(|(_, slot)| {
                let s = lock(slot);
                // one reference is the slot's own; more are open event streams
                now.duration_since(s.last_seen) >= idle && Arc::strong_count(&s.watchers) == 1
            })
            .map(|(id, _)| id.clone())
            .collect();
        for id in &stale {
            if let Some(slot) = map.remove(id) {
                lock(&slot).close();
            }
        }
        stale.len()
    }
}

/// A new game as a [`NewGame`] request describes it, checked.
pub(super) struct Start {
    pub(super) game: Game,
    pub(super) tree: Tree,
    pub(super) players: [Player; 2],
    pub(super) level: Level,
    pub(super) time_ms: u64,
    pub(super) clock: Option<Clock>,
    pub(super) opening: Option<Opening<Player>>,
    pub(super) renju: Option<RenjuTable<Player>>,
    /// The tags of the record the game starts from (players, result, date, ...).
    pub(super) tags: Tags,
}

/// A 400 `bad_settings` error.
fn bad(e: String) -> ApiError {
    ApiError::bad_request("bad_settings", e)
}

/// A 400 `bad_position` error.
fn bad_position(e: String) -> ApiError {
    ApiError::bad_request("bad_position", e)
}

impl Start {
    /// Reads and checks a request: the rule, the times, the start position, the players and
    /// the opening.
    fn of(req: &NewGame) -> Result<Start, ApiError> {
        let rule: Rule = match &req.rule {
            Some(r) => r
                .parse()
                .map_err(|e: gomoku_engine::NotationError| bad(e.to_string()))?,
            // the renju opening rules are renju's
            None if matches!(
                req.opening,
                Some(OpeningRule::Soosorv8 | OpeningRule::Taraguchi10)
            ) =>
            {
                Rule::Renju
            }
            None => Rule::Freestyle,
        };
        let time_ms = check_time(req.time_ms.unwrap_or(1000))?;
        let clock = match (req.clock_ms.unwrap_or(0), req.increment_ms) {
            (0, Some(inc)) if inc > 0 => {
                return Err(bad("increment_ms needs a clock (clock_ms)".into()));
            }
            (0, _) => None,
            (total, inc) => Some(Clock::new(total, inc.unwrap_or(0)).map_err(bad)?),
        };
        let (game, tree, tags) = Start::position(req, rule)?;
        let players = [
            req.black.unwrap_or(Player::Person),
            req.white.unwrap_or(Player::Engine),
        ];
        let renju = match req.opening.unwrap_or_default() {
            OpeningRule::Soosorv8 => Some(renju::OpeningRule::Soosorv8),
            OpeningRule::Taraguchi10 => Some(renju::OpeningRule::Taraguchi10),
            OpeningRule::Free | OpeningRule::Swap2 => None,
        };
        let renju = match renju {
            Some(rule) => {
                if game.board().ply() > 0 {
                    return Err(bad(format!("a {rule} opening starts from an empty board")));
                }
                renju::Opening::check_start(rule, game.board()).map_err(|e| bad(e.to_string()))?;
                Some(RenjuTable::new(
                    rule,
                    game.board().size(),
                    players[0],
                    players[1],
                ))
            }
            None => None,
        };
        let opening = match req.opening.unwrap_or_default() {
            OpeningRule::Free | OpeningRule::Soosorv8 | OpeningRule::Taraguchi10 => None,
            OpeningRule::Swap2 => {
                if players[0] == players[1] {
                    return Err(bad("a swap2 opening needs one person and one engine".into()));
                }
                if game.board().ply() > 0 {
                    return Err(bad("a swap2 opening starts from an empty board".into()));
                }
                Some(Opening::new(players[0], players[1]))
            }
        };
        Ok(Start {
            game,
            tree,
            players,
            level: req.level.unwrap_or(Level::Max),
            time_ms,
            clock,
            opening,
            renju,
            tags,
        })
    }

    /// The start position under `rule` (at most one of a position, a `.psq` record, a set-up
    /// position, a diagram, a position line or an SGF record; none is the empty board) and
    /// its tree of moves (with a `.psq` record's times, an SGF record's variations).
    fn position(req: &NewGame, rule: Rule) -> Result<(Game, Tree, Tags), ApiError> {
        let mut records: Vec<MoveRecord> = Vec::new();
        let starts = [
            req.position.is_some(),
            req.psq.is_some(),
            req.setup.is_some(),
            req.diagram.is_some(),
            req.record.is_some(),
            req.sgf.is_some(),
        ];
        if starts.iter().filter(|&&given| given).count() > 1 {
            return Err(bad(
                "give one of a position, a psq record, a set-up position, a diagram, a \
                 position line or an SGF record"
                    .into(),
            ));
        }
        // a size given beside a start that has its own must agree with it
        let same_size = |size: usize, whose: &str| match req.size {
            Some(s) if s != size => Err(bad(format!("size {s} differs from {whose} {size}"))),
            _ => Ok(()),
        };
        if let Some(text) = &req.sgf {
            let rec = sgf::read(text).map_err(bad_position)?;
            same_size(rec.size, "the SGF record's")?;
            let rule = match (rec.rule, req.rule.is_some()) {
                (Some(r), true) if r != rule => {
                    return Err(bad(format!(
                        "rule {rule} differs from the SGF record's RU[{r}]"
                    )))
                }
                (Some(r), _) => r,
                (None, _) => rule,
            };
            let tags = crate::library::convert::tags_of_sgf(&rec);
            let (game, tree) = sgf_start(&rec, rule)?;
            return Ok((game, tree, tags));
        }
        let game = match (
            &req.position,
            &req.psq,
            &req.setup,
            &req.diagram,
            &req.record,
        ) {
            (_, _, _, _, Some(text)) => {
                let rec = Record::parse(text.trim()).map_err(|e| bad_position(e.to_string()))?;
                same_size(rec.size, "the position line's")?;
                if req.rule.is_some() && rule != rec.rule {
                    return Err(bad(format!(
                        "rule {rule} differs from the position line's {}",
                        rec.rule
                    )));
                }
                rec.start().map_err(|e| bad_position(e.to_string()))?
            }
            (_, _, _, Some(text), None) => {
                let d = notation::parse_diagram(text).map_err(|e| bad_position(e.to_string()))?;
                same_size(d.size, "the diagram's")?;
                Game::from_diagram(rule, &d).map_err(|e| bad_position(e.to_string()))?
            }
            (_, _, Some(setup), None, None) => {
                let size = check_size(req.size.unwrap_or(15)).map_err(|e| bad(e.to_string()))?;
                set_up(size, rule, setup)?
            }
            (_, Some(text), None, None, None) => {
                let rec = psq::parse(text).map_err(bad_position)?;
                same_size(rec.size, "the record's")?;
                let mut g = Game::new(rec.size, rule).map_err(|e| bad(e.to_string()))?;
                for (n, &(p, ms)) in rec.moves.iter().enumerate() {
                    g.play(p)
                        .map_err(|e| bad_position(format!("psq move {}: {e}", n + 1)))?;
                    records.push(MoveRecord {
                        pos: p,
                        ms,
                        engine: None,
                    });
                }
                g
            }
            (pos, None, None, None, None) => {
                let size = check_size(req.size.unwrap_or(15)).map_err(|e| bad(e.to_string()))?;
                Game::from_position(size, rule, pos.as_deref().unwrap_or(""))
                    .map_err(|e| bad_position(e.to_string()))?
            }
        };
        // a position's moves have no times (a set-up position's stones are not moves)
        let start = game.start_ply();
        let moves = &game.board().moves()[start..];
        let mut tree = Tree::new(start);
        for (i, &pos) in moves.iter().enumerate() {
            let ms = records.get(start + i).map_or(0, |r| r.ms);
            tree.push(MoveRecord {
                pos,
                ms,
                engine: None,
            });
        }
        Ok((game, tree, Tags::default()))
    }
}

/// At most this many moves in an SGF record's tree (every one is sent to the page with each
/// state).
pub const SGF_MAX_MOVES: usize = 2_000;

/// The game and the tree of an SGF record under `rule`: its set-up stones, then each of its
/// lines replayed by the rules; the board shows the end of the main line.
fn sgf_start(rec: &SgfRecord, rule: Rule) -> Result<(Game, Tree), ApiError> {
    if rec.moves.len() > SGF_MAX_MOVES {
        return Err(bad_position(format!(
            "the SGF record holds {} moves; at most {SGF_MAX_MOVES} are read",
            rec.moves.len()
        )));
    }
    let to_move = rec
        .to_move
        .unwrap_or_else(|| notation::side_to_move(rec.black.len(), rec.white.len()));
    let mut game = if rec.black.is_empty() && rec.white.is_empty() && to_move == Color::Black {
        Game::new(rec.size, rule).map_err(|e| bad(e.to_string()))?
    } else {
        Game::from_stones(rec.size, rule, &rec.black, &rec.white, to_move)
            .map_err(|e| bad_position(format!("SGF set-up stones: {e}")))?
    };
    let size = rec.size;
    let mut tree = Tree::new(game.board().ply());
    let labels = |list: &[(Pos, String)]| -> Vec<Label> {
        list.iter()
            .map(|(p, t)| Label {
                point: *p,
                text: t.clone(),
            })
            .collect()
    };
    if let Some(root) = tree.get_mut(ROOT) {
        rec.comment.clone_into(&mut root.comment);
        root.labels = labels(&rec.labels);
    }
    enum Step {
        Play(usize),
        Back,
    }
    let mut todo: Vec<Step> = rec.first.iter().rev().map(|&m| Step::Play(m)).collect();
    while let Some(step) = todo.pop() {
        match step {
            Step::Back => {
                game.undo();
                tree.up();
            }
            Step::Play(m) => {
                let mv = &rec.moves[m];
                let board = game.board();
                let number = board.ply() + 1;
                let name = format_pos(mv.pos, size);
                let sgf_name = format!(
                    "{}[{}]",
                    if mv.color == Color::Black { 'B' } else { 'W' },
                    sgf::point(mv.pos)
                );
                let bad_move = |why: String| {
                    bad_position(format!("SGF move {number} ({sgf_name}, {name}): {why}"))
                };
                if mv.color != board.to_move() {
                    return Err(bad_move(format!("it is {}'s turn", board.to_move())));
                }
                if mv.pos.is_point() && !board.is_empty(mv.pos) {
                    return Err(bad_move("the point is taken".to_string()));
                }
                game.play(mv.pos).map_err(|e| bad_move(e.to_string()))?;
                let id = tree.push(MoveRecord {
                    pos: mv.pos,
                    ms: 0,
                    engine: None,
                });
                if let Some(node) = tree.get_mut(id) {
                    mv.comment.clone_into(&mut node.comment);
                    node.labels = labels(&mv.labels);
                }
                todo.push(Step::Back);
                todo.extend(mv.children.iter().rev().map(|&c| Step::Play(c)));
            }
        }
    }
    // the board at the end of the main line, which the line shown follows
    tree.forget_visits();
    let main = tree.continuation(ROOT);
    for &n in &main {
        if let Some(node) = tree.get(n) {
            game.play(node.rec.pos)
                .map_err(|e| bad_position(format!("SGF main line: {e}")))?;
        }
    }
    tree.set_current(main.last().copied().unwrap_or(ROOT));
    Ok((game, tree))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_differ() {
        let ids: std::collections::HashSet<String> = (0..100).map(new_id).collect();
        assert_eq!(ids.len(), 100);
    }
}
