//! The games of the board in the library: every change of a game is written as it happens
//! ([`Slot::persist`], called by every change of the state), an analysis is stored with its
//! position, and a game the server does not hold (after a restart, or cleaned up after
//! idling) is read back whole when it is asked for ([`Games::restore`]).
//!
//! A game goes into the library with its first move (an empty board is not kept). The board
//! owns the moves, lines, comments, labels, result and opening of its game; the tags a person
//! gives in the library (name, players, event, date) stay as they are there
//! ([`crate::library::Library::save_board`]).

use super::info::EngineInfo;
use super::store::Start;
use super::tree::{Node, Tree, ROOT};
use super::{lock, Level, MoveRecord, Player, Purpose, Slot};
use crate::library::analyses::{Analysis, Candidate};
use crate::library::game::{GameTree, LibGame, Note};
use crate::library::symmetry::SymHash;
use crate::library::Library;
use crate::web::error::ApiError;
use crate::web::games::Games;
use gomoku_engine::notation::parse_pos;
use gomoku_engine::{Color, Game, GameResult, Pos};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};

/// A game's link to the library.
#[derive(Debug)]
pub(super) struct LibLink {
    lib: Arc<Library>,
    /// Its number there, once it is there.
    id: Option<i64>,
    /// What was last written (nothing is written while it is the same).
    saved: Option<(LibGame, String)>,
    /// The last write that failed, for the next answer to a request.
    error: Option<String>,
}

impl LibLink {
    pub(super) fn new(lib: Arc<Library>) -> LibLink {
        LibLink {
            lib,
            id: None,
            saved: None,
            error: None,
        }
    }
}

/// The board's state of a game, kept beside it in the library.
#[derive(Debug, Serialize, Deserialize)]
struct BoardState {
    black: Player,
    white: Player,
    level: Level,
    time_ms: u64,
    /// The node shown.
    node: usize,
}

/// The engine's figures of a move, as stored.
#[derive(Debug, Serialize, Deserialize)]
struct StoredEngine {
    purpose: String,
    color: String,
    score: i32,
    depth: i32,
    seldepth: i32,
    nodes: u64,
    nps: Option<u64>,
    time_ms: u64,
    pv: Vec<String>,
    engine: String,
}

fn engine_json(e: &EngineInfo) -> Option<String> {
    serde_json::to_string(&StoredEngine {
        purpose: e.purpose.name().to_string(),
        color: e.color.to_string(),
        score: e.score,
        depth: e.depth,
        seldepth: e.seldepth,
        nodes: e.nodes,
        nps: e.nps,
        time_ms: e.time_ms,
        pv: e.pv.clone(),
        engine: e.engine.clone(),
    })
    .ok()
}

fn engine_of(json: &str, size: usize) -> Option<EngineInfo> {
    let s: StoredEngine = serde_json::from_str(json).ok()?;
    let purpose = [
        Purpose::Move,
        Purpose::Hint,
        Purpose::Analysis,
        Purpose::Swap2,
        Purpose::Opening,
        Purpose::Review,
        Purpose::Solve,
    ]
    .into_iter()
    .find(|p| p.name() == s.purpose)?;
    let color = if s.color == "white" {
        Color::White
    } else {
        Color::Black
    };
    let pv: Vec<Pos> =
        s.pv.iter()
            .filter_map(|t| parse_pos(t, size).ok())
            .collect();
    Some(EngineInfo {
        depth: s.depth,
        seldepth: s.seldepth,
        nodes: s.nodes,
        nps: s.nps,
        time_ms: s.time_ms,
        engine: s.engine,
        done: true,
        ..EngineInfo::new(purpose, color, s.score, &pv, size)
    })
}

/// The result of a game as SGF writes it.
fn result_text(winner: Color, how: &str) -> String {
    let w = if winner == Color::Black { 'B' } else { 'W' };
    format!("{w}+{how}")
}

impl Slot {
    /// The game's number in the library, once it is there.
    pub(super) fn library_id(&self) -> Option<i64> {
        self.library.as_ref().and_then(|l| l.id)
    }

    /// The game's tags as the library has them, once the game is there.
    pub(super) fn library_tags(&self) -> Option<crate::library::Tags> {
        let link = self.library.as_ref()?;
        let stored = link.lib.load(link.id?).ok()??;
        Some(stored.game.tags)
    }

    /// The last write to the library that failed, if any (taken: it is told once).
    ///
    /// # Errors
    /// 503 `library` with the reason.
    pub fn take_library_error(&mut self) -> Result<(), ApiError> {
        match self.library.as_mut().and_then(|l| l.error.take()) {
            Some(e) => Err(ApiError {
                status: axum::http::StatusCode::SERVICE_UNAVAILABLE,
                code: "library",
                message: format!(
                    "the change was made but could not be written to the library: {e}"
                ),
            }),
            None => Ok(()),
        }
    }

    /// The result at the end of the main line (or of a resignation, or a flag fallen).
    fn main_line_result(&self) -> String {
        if let Some(loser) = self.resigned {
            return result_text(loser.opponent(), "R");
        }
        if let Some(loser) = self.timed_out {
            return result_text(loser.opponent(), "T");
        }
        let board = self.game.board();
        let start = self.game.start_ply();
        let Ok(mut g) = Game::setup(board.size(), board.rule(), &board.moves()[..start]) else {
            return String::new();
        };
        let mut at = ROOT;
        while let Some(&c) = self.tree.get(at).and_then(|n| n.children.first()) {
            let Some(n) = self.tree.get(c) else { break };
            if g.play(n.rec.pos).is_err() {
                break;
            }
            at = c;
        }
        match g.result() {
            Some(GameResult::Win { winner, .. }) => result_text(*winner, ""),
            Some(GameResult::Draw) => "0".to_string(),
            None => String::new(),
        }
    }

    /// The game as the library keeps it.
    pub(super) fn lib_game(&self) -> LibGame {
        let board = self.game.board();
        let size = board.size();
        let start = self.game.start_ply();
        let mut g = LibGame::new(size, board.rule());
        for (i, &p) in board.moves()[..start].iter().enumerate() {
            if p.is_point() {
                if i % 2 == 0 {
                    g.black.push(p);
                } else {
                    g.white.push(p);
                }
            }
        }
        g.to_move = if start % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        // the engine has a name; a person's is given in the library
        let name = |p: Player| match p {
            Player::Person => String::new(),
            Player::Engine => "gomoku".to_string(),
        };
        g.tags = self.tags.clone();
        if g.tags.black.is_empty() {
            g.tags.black = name(self.players[0]);
        }
        if g.tags.white.is_empty() {
            g.tags.white = name(self.players[1]);
        }
        let result = self.main_line_result();
        if !result.is_empty() {
            g.tags.result = result;
        }
        g.tags.opening_rule = match (
            &self.renju,
            self.swap2_log.is_empty() && self.opening.is_none(),
        ) {
            (Some(r), _) => r.opening.rule().name().to_string(),
            (None, false) => "swap2".to_string(),
            (None, true) => "free".to_string(),
        };
        if let Some(name) = self.main_line_opening() {
            g.tags.opening = name;
        }
        if g.tags.source.is_empty() {
            g.tags.source = "board".to_string();
        }
        let mut nodes: Vec<(usize, &Node)> = self.tree.nodes().collect();
        nodes.sort_by_key(|&(id, _)| id);
        let mut tree = GameTree::new();
        for (id, n) in nodes {
            let note = Note {
                comment: n.comment.clone(),
                labels: n.labels.clone(),
                engine: n.rec.engine.as_ref().and_then(engine_json),
            };
            if id == ROOT {
                if let Some(root) = tree.get_mut(0) {
                    root.note = note;
                }
                continue;
            }
            let node = crate::library::game::Node {
                parent: n.parent.map(|p| p as u32),
                point: n.rec.pos,
                ms: n.rec.ms,
                children: Vec::new(),
                note,
            };
            // ids grow from parent to child, so the parent is always in place already
            if tree.insert(id as u32, node).is_err() {
                break;
            }
        }
        // the order of the lines is the board's
        for (id, n) in self.tree.nodes() {
            if let Some(t) = tree.get_mut(id as u32) {
                t.children = n.children.iter().map(|&c| c as u32).collect();
            }
        }
        g.tree = tree;
        g
    }

    fn board_state(&self) -> String {
        serde_json::to_string(&BoardState {
            black: self.players[0],
            white: self.players[1],
            level: self.level,
            time_ms: self.time_ms,
            node: self.tree.current(),
        })
        .unwrap_or_default()
    }

    /// Writes what changed since the last write to the library (nothing while the board is
    /// empty and has no comment). A failure is logged and told with the next answer.
    pub(super) fn persist(&mut self) {
        if self.library.is_none() {
            return;
        }
        let g = self.lib_game();
        let state = self.board_state();
        let Some(link) = self.library.as_mut() else {
            return;
        };
        if link
            .saved
            .as_ref()
            .is_some_and(|(sg, ss)| *sg == g && *ss == state)
        {
            return;
        }
        let empty = g.tree.moves() == 0 && g.tree.get(0).is_none_or(|r| r.note.is_empty());
        let result = match link.id {
            None if empty => return,
            None => link
                .lib
                .insert_board(&g, Some(&self.id), Some(&state))
                .map(|id| link.id = Some(id)),
            Some(id) => link.lib.save_board(id, &g, &state),
        };
        match result {
            Ok(()) => link.saved = Some((g, state)),
            Err(e) => {
                eprintln!("gomoku serve: library: {e}");
                link.error = Some(e.0);
            }
        }
    }

    /// Stores a finished analysis of the position on the board.
    pub(super) fn persist_analysis(&mut self, info: &EngineInfo) {
        let Some(link) = self.library.as_ref() else {
            return;
        };
        let board = self.game.board();
        let size = board.size();
        let mut at = SymHash::new(size, board.rule());
        for &p in board.moves() {
            at.play(p);
        }
        let points = |pv: &[String]| -> Vec<Pos> {
            pv.iter().filter_map(|t| parse_pos(t, size).ok()).collect()
        };
        let a = Analysis {
            depth: info.depth,
            score: info.score,
            nodes: info.nodes,
            time_ms: info.time_ms,
            best: info
                .candidates
                .iter()
                .filter_map(|c| {
                    Some(Candidate {
                        point: parse_pos(&c.point, size).ok()?,
                        score: c.score,
                        depth: c.depth,
                        pv: points(&c.pv),
                    })
                })
                .collect(),
            engine: info.engine.clone(),
            created: 0,
        };
        if let Err(e) = link.lib.put_analysis(&at, &a) {
            eprintln!("gomoku serve: library: {e}");
        }
    }
}

/// The board's tree of a library game, every line replayed by the rules from `game` (its
/// start): lines that break them (a move after a five, a renju foul followed by more moves,
/// a move of a line the board cannot play) are left out. Returns the tree and whether
/// anything was left out.
fn board_tree(lib: &LibGame, game: &mut Game) -> (Tree, bool) {
    let size = lib.size;
    let start = game.start_ply();
    let mut nodes: Vec<Option<Node>> = Vec::new();
    let mut cut = false;
    let mut todo: Vec<(u32, Option<usize>, usize)> = vec![(0, None, 0)];
    let mut played: Vec<Pos> = Vec::new();
    while let Some((id, parent, depth)) = todo.pop() {
        while played.len() > depth.saturating_sub(1) {
            played.pop();
            game.undo();
        }
        let Some(n) = lib.tree.get(id) else { continue };
        if id != 0 && (game.is_over() || game.play(n.point).is_err()) {
            cut = true;
            continue;
        }
        if id != 0 {
            played.push(n.point);
        }
        let i = id as usize;
        if nodes.len() <= i {
            nodes.resize(i + 1, None);
        }
        nodes[i] = Some(Node {
            parent,
            children: Vec::new(),
            next: None,
            rec: MoveRecord {
                pos: if id == 0 { Pos::NONE } else { n.point },
                ms: n.ms,
                engine: n.note.engine.as_deref().and_then(|j| engine_of(j, size)),
            },
            ply: start + depth,
            proof: None,
            comment: n.note.comment.clone(),
            labels: n.note.labels.clone(),
        });
        if let Some(p) = parent
            .and_then(|p| nodes.get_mut(p))
            .and_then(Option::as_mut)
        {
            p.children.push(i);
        }
        todo.extend(n.children.iter().rev().map(|&c| (c, Some(i), depth + 1)));
    }
    while played.pop().is_some() {
        game.undo();
    }
    (Tree::rebuild(nodes), cut)
}

/// The start of a library game on the board: its set-up stones under its rule.
fn start_game(lib: &LibGame) -> Result<Game, ApiError> {
    let bad = |e: String| ApiError::conflict("bad_library_game", e);
    if lib.black.is_empty() && lib.white.is_empty() && lib.to_move == Color::Black {
        Game::new(lib.size, lib.rule).map_err(|e| bad(e.to_string()))
    } else {
        Game::from_stones(lib.size, lib.rule, &lib.black, &lib.white, lib.to_move)
            .map_err(|e| bad(e.to_string()))
    }
}

impl Games {
    /// The library of the server, if it has one.
    #[must_use]
    pub fn library(&self) -> Option<&Arc<Library>> {
        self.config.library.as_ref()
    }

    /// Reads game `id` of the board back from the library into the server, if it is there.
    ///
    /// # Errors
    /// 503 when there are too many games, 500 when the library cannot be read.
    pub(super) fn restore(&self, id: &str) -> Result<Option<Arc<Mutex<Slot>>>, ApiError> {
        let Some(lib) = self.library().cloned() else {
            return Ok(None);
        };
        let Some(stored) = lib.find_board_game(id).map_err(ApiError::internal)? else {
            return Ok(None);
        };
        let state: Option<BoardState> = stored
            .board_state
            .as_deref()
            .and_then(|s| serde_json::from_str(s).ok());
        let slot = self.load(stored.id, &stored.game, state, Some(id.to_string()))?;
        Ok(Some(slot))
    }

    /// Opens library game `lib_id` on the board: a new game of the server, whose changes are
    /// written to that library game (or to a copy of it, when some of its lines break the
    /// rules and cannot be played on the board). The board shows node `node` of its tree (a
    /// node of the library game keeps its id on the board), else the end of its main line.
    ///
    /// # Errors
    /// 404 for no such game; 503 when there are too many games.
    pub fn open_library_game(
        &self,
        lib_id: i64,
        node: Option<usize>,
    ) -> Result<super::GameView, ApiError> {
        let lib = self
            .library()
            .cloned()
            .ok_or_else(|| ApiError::conflict("no_library", "the server has no library"))?;
        let stored = lib
            .load(lib_id)
            .map_err(ApiError::internal)?
            .filter(|s| s.deleted.is_none())
            .ok_or_else(|| ApiError {
                status: axum::http::StatusCode::NOT_FOUND,
                code: "unknown_library_game",
                message: format!("no game {lib_id} in the library"),
            })?;
        // both players people, as a game that is only read back
        let state = node.map(|node| BoardState {
            black: Player::Person,
            white: Player::Person,
            level: Level::Max,
            time_ms: 1000,
            node,
        });
        let slot = self.load(lib_id, &stored.game, state, None)?;
        let mut s = lock(&slot);
        Ok(s.view())
    }

    /// Makes a server game of a library game.
    fn load(
        &self,
        lib_id: i64,
        g: &LibGame,
        state: Option<BoardState>,
        board_id: Option<String>,
    ) -> Result<Arc<Mutex<Slot>>, ApiError> {
        let mut game = start_game(g)?;
        let (tree, cut) = board_tree(g, &mut game);
        let (black, white, level, time_ms, node) = match &state {
            Some(s) => (s.black, s.white, s.level, s.time_ms, s.node),
            None => (Player::Person, Player::Person, Level::Max, 1000, usize::MAX),
        };
        let start = Start {
            game,
            tree,
            players: [black, white],
            level,
            time_ms: super::check_time(time_ms).unwrap_or(1000),
            clock: None,
            opening: None,
            renju: None,
            tags: g.tags.clone(),
        };
        self.make_room()?;
        let (id, serial) = self.next_id(board_id);
        let slot = self.new_slot(id.clone(), serial, start);
        {
            let mut s = lock(&slot);
            // the node shown: the one saved, else the end of the main line
            let target = if s.tree.get(node).is_some() {
                node
            } else {
                s.tree.continuation(ROOT).last().copied().unwrap_or(ROOT)
            };
            s.jump(target);
            s.hold = true;
            if let Some(link) = s.library.as_mut() {
                // a tree cut short is written to a copy, never over the whole one
                link.id = (!cut).then_some(lib_id);
            }
            let saved = (s.lib_game(), s.board_state());
            if let Some(link) = s.library.as_mut() {
                if !cut {
                    link.saved = Some(saved);
                }
            }
        }
        lock(&self.map).insert(id, slot.clone());
        Ok(slot)
    }
}
