//! The state of a game as the page sees it: the JSON of [`GameView`].

use super::info::{EngineInfo, WIN_SCALE};
use super::review::ReviewView;
use super::solve::SolutionView;
use super::tree::{NodeId, ROOT};
use super::{Level, Player, Purpose, Slot};
use crate::clock::ClockView;
use crate::opening::Stage;
use gomoku_engine::notation::format_pos;
use gomoku_engine::{Color, GameResult, Pos};
use serde::Serialize;

/// The JSON state of a game.
#[derive(Debug, Serialize)]
pub struct GameView {
    pub(super) id: String,
    pub(super) version: u64,
    pub(super) rule: &'static str,
    pub(super) size: usize,
    pub(super) players: PlayersView,
    pub(super) level: Level,
    pub(super) time_ms: u64,
    pub(super) to_move: &'static str,
    /// The moves on the board (the path from the start to the current node of the tree).
    pub(super) moves: Vec<MoveView>,
    /// The moves after them on the line shown (what redo and `›` replay).
    pub(super) continuation: Vec<MoveView>,
    /// The points of `continuation`.
    pub(super) redo: Vec<String>,
    /// Every move tried: the tree of the game's lines.
    pub(super) tree: TreeView,
    /// The engine is to move but waits: the position was reached by moving about the tree.
    pub(super) engine_waits: bool,
    /// `K` of the winning chance `1 / (1 + exp(-value / K))` of an evaluation ([`WIN_SCALE`]).
    pub(super) win_scale: f64,
    pub(super) position: String,
    pub(super) result: Option<ResultView>,
    pub(super) forbidden: Vec<ForbiddenView>,
    pub(super) thinking: Option<ThinkingView>,
    pub(super) live: Option<EngineInfo>,
    pub(super) hint: Option<EngineInfo>,
    /// Whether analysis mode is on.
    pub(super) analyze: bool,
    /// The last finished analysis of the current position (the live one is in `live`).
    pub(super) analysis: Option<EngineInfo>,
    /// The points the analysis of the current position leaves out.
    pub(super) excluded: Vec<String>,
    /// The swap2 opening while it lasts.
    pub(super) opening: Option<OpeningView>,
    /// What happened in the swap2 opening: the engine's reasons, the choices made.
    pub(super) swap2_log: Vec<String>,
    /// The same as events (the page words them in its language).
    pub(super) swap2_events: Vec<crate::renju_opening::OpeningEvent>,
    /// The renju opening rule (Soosõrv-8, Taraguchi-10), while it lasts and after.
    pub(super) renju: Option<super::renju::RenjuView>,
    /// The renju opening the first three moves form (`null` when they form none).
    pub(super) opening_name: Option<crate::renju_opening::OpeningName>,
    /// The plies of a set-up start position (0 without one): `moves` up to this number are
    /// its stones (and passes), not moves of the game; they cannot be undone.
    pub(super) setup_plies: usize,
    /// The review of the game's moves: running, or done (only the moves still in the game).
    pub(super) review: Option<ReviewView>,
    /// The last solve's answer, while the position is the one it was for.
    pub(super) solution: Option<SolutionView>,
    /// The game clock (`null` without one).
    pub(super) clock: Option<ClockView>,
    /// Why the engine could not move, if it could not (never set by a bad request).
    pub(super) engine_error: Option<String>,
    /// The game's number in the library, once it is there (`null` before its first move, or
    /// when the server has no library).
    pub(super) library_id: Option<i64>,
}

#[derive(Debug, Serialize)]
pub(super) struct PlayersView {
    pub(super) black: Player,
    pub(super) white: Player,
}

/// The tree of a game's moves: every node with its children (the main line first).
#[derive(Debug, Serialize)]
pub(super) struct TreeView {
    /// The node of the position on the board.
    pub(super) current: NodeId,
    /// The earliest node one may go back to: the start, or the last stone of a swap2
    /// opening (the current node while the opening lasts).
    pub(super) first: NodeId,
    /// The nodes, the start position (id 0, no move) first.
    pub(super) nodes: Vec<NodeView>,
}

/// One node of the tree.
#[derive(Debug, Serialize)]
pub(super) struct NodeView {
    pub(super) id: NodeId,
    pub(super) parent: Option<NodeId>,
    /// The move that led here (`h8` style; `null` at the start).
    #[serde(rename = "move")]
    pub(super) point: Option<String>,
    /// Its number in the game.
    pub(super) number: usize,
    pub(super) color: &'static str,
    /// The moves tried from here, the main line first.
    pub(super) children: Vec<NodeId>,
    /// The comment on the move (absent when there is none).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(super) comment: String,
    /// Labels on the board at this node: `{"point": "h8", "text": "A"}`, an empty text a
    /// plain mark (absent when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) labels: Vec<LabelView>,
}

/// A label on the board.
#[derive(Debug, Serialize)]
pub(super) struct LabelView {
    pub(super) point: String,
    pub(super) text: String,
}

#[derive(Debug, Serialize)]
pub(super) struct MoveView {
    /// The node of the tree this move leads to (`null` for a set-up position's stones).
    pub(super) node: Option<NodeId>,
    pub(super) number: usize,
    #[serde(rename = "move")]
    pub(super) point: String,
    pub(super) x: Option<usize>,
    pub(super) y: Option<usize>,
    pub(super) color: &'static str,
    pub(super) ms: u64,
    pub(super) engine: Option<EngineInfo>,
}

#[derive(Debug, Serialize)]
pub(super) struct ResultView {
    /// `win` or `draw`.
    pub(super) kind: &'static str,
    pub(super) winner: Option<&'static str>,
    pub(super) line: Vec<String>,
    pub(super) foul: Option<&'static str>,
    pub(super) resigned: bool,
    /// The loser's time ran out.
    pub(super) timeout: bool,
}

#[derive(Debug, Serialize)]
pub(super) struct ForbiddenView {
    pub(super) point: String,
    pub(super) kind: &'static str,
}

#[derive(Debug, Serialize)]
pub(super) struct OpeningView {
    pub(super) rule: &'static str,
    pub(super) stage: Stage,
    /// Who puts down the first three stones.
    pub(super) first: Player,
    /// Who acts now.
    pub(super) actor: Player,
    /// The person's choices now (empty while stones are put down or the engine decides).
    pub(super) choices: &'static [&'static str],
}

#[derive(Debug, Serialize)]
pub(super) struct ThinkingView {
    pub(super) purpose: Purpose,
    pub(super) color: &'static str,
    /// Milliseconds since the search started.
    pub(super) elapsed_ms: u64,
}

/// The moves of the line shown: those on the board, those after them, and their points.
struct LineView {
    moves: Vec<MoveView>,
    continuation: Vec<MoveView>,
    points: Vec<Pos>,
}

impl Slot {
    /// The state as JSON-ready data.
    pub fn view(&mut self) -> GameView {
        let size = self.size();
        let here = self.tree.current();
        let path = self.tree.path(here);
        let ahead = self.tree.continuation(here);
        let line: Vec<NodeId> = path.iter().chain(&ahead).copied().collect();
        // the proven values along the line (the start position's first)
        let proofs = self.tree.proofs(&line);
        let LineView {
            moves,
            continuation,
            points: line_moves,
        } = self.line_view(&path, &ahead, &proofs);
        let proof_here = proofs[path.len()];
        let to_move = self.game.board().to_move();
        GameView {
            id: self.id.clone(),
            version: self.version,
            rule: self.game.board().rule().name(),
            size,
            players: PlayersView {
                black: self.players[0],
                white: self.players[1],
            },
            level: self.level,
            time_ms: self.time_ms,
            to_move: to_move.name(),
            moves,
            redo: continuation.iter().map(|m| m.point.clone()).collect(),
            continuation,
            tree: self.tree_view(&path),
            engine_waits: self.hold
                && !self.is_over()
                && self.opening.is_none()
                && self.player(to_move) == Player::Engine,
            win_scale: WIN_SCALE,
            position: self.game.board().position_string(),
            result: self.result_view(),
            forbidden: self.forbidden_view(),
            thinking: self.job.as_ref().map(|j| ThinkingView {
                purpose: j.purpose,
                color: j.color.name(),
                elapsed_ms: j.started.elapsed().as_millis() as u64,
            }),
            live: self.live.as_ref().map(|i| i.with_proof(proof_here)),
            hint: self.hint.as_ref().map(|i| i.with_proof(proof_here)),
            analyze: self.analyze,
            analysis: self.analysis.as_ref().map(|i| i.with_proof(proof_here)),
            excluded: self
                .excluded()
                .iter()
                .map(|&p| format_pos(p, self.game.board().size()))
                .collect(),
            opening: self.opening_view(),
            swap2_log: self.swap2_log.clone(),
            swap2_events: self.swap2_events.clone(),
            renju: self.renju_view(),
            opening_name: self.opening_name(),
            setup_plies: self.game.start_ply(),
            library_id: self.library_id(),
            review: self.review_view(&line_moves),
            solution: self
                .solution
                .as_ref()
                .filter(|(position, _)| *position == self.game.board().position_string())
                .map(|(_, v)| v.clone()),
            clock: self
                .clock
                .as_ref()
                .map(|c| c.view(self.clock_running().map(|color| (color, self.turn_ms())))),
            engine_error: self.error.clone(),
        }
    }

    /// The moves of the line through the tree's nodes `path` (to the current node) and
    /// `ahead` (after it), each with the proof of the position before it from `proofs`.
    fn line_view(&self, path: &[NodeId], ahead: &[NodeId], proofs: &[Option<i32>]) -> LineView {
        let size = self.size();
        let start = self.tree.get(ROOT).map_or(0, |n| n.ply);
        let move_view = |i: usize, p: Pos, node: Option<NodeId>| {
            let rec = node.and_then(|n| self.tree.get(n)).map(|n| &n.rec);
            // the move's figures are of the position before it
            let proof = i.checked_sub(start).and_then(|k| proofs[k]);
            MoveView {
                node,
                number: i + 1,
                point: format_pos(p, size),
                x: p.is_point().then(|| p.x()),
                y: p.is_point().then(|| p.y()),
                color: if i % 2 == 0 { "black" } else { "white" },
                ms: rec.map_or(0, |r| r.ms),
                engine: rec
                    .and_then(|r| r.engine.as_ref())
                    .map(|e| e.with_proof(proof)),
            }
        };
        let board_moves: Vec<Pos> = self.game.board().moves().to_vec();
        let moves = board_moves
            .iter()
            .enumerate()
            .map(|(i, &p)| move_view(i, p, i.checked_sub(start).map(|k| path[k])))
            .collect();
        let continuation: Vec<MoveView> = ahead
            .iter()
            .enumerate()
            .filter_map(|(k, &n)| {
                let p = self.tree.get(n)?.rec.pos;
                Some(move_view(board_moves.len() + k, p, Some(n)))
            })
            .collect();
        let points: Vec<Pos> = board_moves
            .iter()
            .copied()
            .chain(
                ahead
                    .iter()
                    .filter_map(|&n| self.tree.get(n).map(|n| n.rec.pos)),
            )
            .collect();
        LineView {
            moves,
            continuation,
            points,
        }
    }

    /// The tree of the game's lines, with the current node at the end of `path`.
    fn tree_view(&self, path: &[NodeId]) -> TreeView {
        let size = self.size();
        let here = self.tree.current();
        let start = self.tree.get(ROOT).map_or(0, |n| n.ply);
        let first = if self.opening.is_some() {
            here
        } else if self.opening_plies > start {
            path.get(self.opening_plies - start - 1)
                .copied()
                .unwrap_or(here)
        } else {
            ROOT
        };
        TreeView {
            current: here,
            first,
            nodes: self
                .tree
                .nodes()
                .map(|(id, n)| NodeView {
                    id,
                    parent: n.parent,
                    point: (id != ROOT).then(|| format_pos(n.rec.pos, size)),
                    number: n.ply,
                    color: if n.ply % 2 == 1 { "black" } else { "white" },
                    children: n.children.clone(),
                    comment: n.comment.clone(),
                    labels: n
                        .labels
                        .iter()
                        .map(|l| LabelView {
                            point: format_pos(l.point, size),
                            text: l.text.clone(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    /// The game's result: a resignation, a time out, or the board's.
    fn result_view(&self) -> Option<ResultView> {
        let size = self.size();
        let Some(loser) = self.resigned.or(self.timed_out) else {
            return self.game.result().map(|r| match r {
                GameResult::Win { winner, line, foul } => ResultView {
                    kind: "win",
                    winner: Some(winner.name()),
                    line: line.iter().map(|&p| format_pos(p, size)).collect(),
                    foul: foul.map(|k| k.name()),
                    resigned: false,
                    timeout: false,
                },
                GameResult::Draw => ResultView {
                    kind: "draw",
                    winner: None,
                    line: Vec::new(),
                    foul: None,
                    resigned: false,
                    timeout: false,
                },
            });
        };
        Some(ResultView {
            kind: "win",
            winner: Some(loser.opponent().name()),
            line: Vec::new(),
            foul: None,
            resigned: self.resigned.is_some(),
            timeout: self.resigned.is_none(),
        })
    }

    /// Black's forbidden points while Black is to move in a game that goes on.
    fn forbidden_view(&mut self) -> Vec<ForbiddenView> {
        let size = self.size();
        if self.is_over() || self.game.board().to_move() != Color::Black {
            return Vec::new();
        }
        self.game
            .board_mut()
            .forbidden_points()
            .into_iter()
            .map(|(p, k)| ForbiddenView {
                point: format_pos(p, size),
                kind: k.name(),
            })
            .collect()
    }

    /// The swap2 opening while it lasts.
    fn opening_view(&self) -> Option<OpeningView> {
        self.opening.as_ref().map(|o| OpeningView {
            rule: "swap2",
            stage: o.stage,
            first: o.first,
            actor: o.actor(),
            choices: if o.actor() == Player::Person {
                o.choices()
            } else {
                &[]
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{
        lock, EngineInfo, Games, MoveRequest, NewGame, Player, Purpose, ServerConfig,
    };
    use gomoku_engine::search::score::win_in;
    use gomoku_engine::{Color, Pos};

    #[test]
    fn a_proof_holds_through_the_losers_reply() {
        let games = Games::new(ServerConfig {
            hash_mb: 1,
            ..ServerConfig::default()
        });
        let req = NewGame {
            black: Some(Player::Person),
            white: Some(Player::Person),
            position: Some("h8 h9".into()),
            ..NewGame::default()
        };
        let id = games.create(&req).expect("a game").id;
        let slot = games.get(&id).expect("the game");
        let mut s = lock(&slot);
        let play = |s: &mut super::Slot, p: &str| {
            s.play(&MoveRequest {
                point: p.into(),
                color: None,
            })
            .expect("a move");
        };
        // Black to move, proven to win in 9 plies with i8
        s.tree.prove(win_in(9), Pos::new(8, 7));
        play(&mut s, "i8");
        play(&mut s, "a1");
        // a short search of Black's position now sees an ordinary value
        s.hint = Some(EngineInfo::new(
            Purpose::Hint,
            Color::Black,
            296,
            &[Pos::new(9, 7)],
            15,
        ));
        let hint = s.view().hint.expect("the hint");
        assert_eq!((hint.mate, hint.proven_earlier), (Some(4), true));
        assert_eq!(hint.eval, "win in 4");
        // after another first move the proof says nothing
        s.undo().expect("undo");
        s.undo().expect("undo");
        play(&mut s, "j8");
        s.hint = Some(EngineInfo::new(Purpose::Hint, Color::White, -296, &[], 15));
        assert!(!s.view().hint.expect("the hint").proven_earlier);
    }
}
