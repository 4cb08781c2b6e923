//! The state of a game as the page sees it: the JSON of [`GameView`].

use super::info::EngineInfo;
use super::review::ReviewView;
use super::solve::SolutionView;
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
    pub(super) moves: Vec<MoveView>,
    pub(super) redo: Vec<String>,
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
}

#[derive(Debug, Serialize)]
pub(super) struct PlayersView {
    pub(super) black: Player,
    pub(super) white: Player,
}

#[derive(Debug, Serialize)]
pub(super) struct MoveView {
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

impl Slot {
    /// The state as JSON-ready data.
    pub fn view(&mut self) -> GameView {
        let size = self.size();
        let board_moves: Vec<Pos> = self.game.board().moves().to_vec();
        let moves = board_moves
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let rec = self.records.get(i).filter(|r| r.pos == p);
                MoveView {
                    number: i + 1,
                    point: format_pos(p, size),
                    x: p.is_point().then(|| p.x()),
                    y: p.is_point().then(|| p.y()),
                    color: if i % 2 == 0 { "black" } else { "white" },
                    ms: rec.map_or(0, |r| r.ms),
                    engine: rec.and_then(|r| r.engine.clone()),
                }
            })
            .collect();
        let result = if let Some(loser) = self.resigned.or(self.timed_out) {
            Some(ResultView {
                kind: "win",
                winner: Some(loser.opponent().name()),
                line: Vec::new(),
                foul: None,
                resigned: self.resigned.is_some(),
                timeout: self.resigned.is_none(),
            })
        } else {
            self.game.result().map(|r| match r {
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
            })
        };
        let to_move = self.game.board().to_move();
        let forbidden = if self.is_over() || to_move != Color::Black {
            Vec::new()
        } else {
            self.game
                .board_mut()
                .forbidden_points()
                .into_iter()
                .map(|(p, k)| ForbiddenView {
                    point: format_pos(p, size),
                    kind: k.name(),
                })
                .collect()
        };
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
            redo: self
                .game
                .redo_stack()
                .iter()
                .map(|&p| format_pos(p, size))
                .collect(),
            position: self.game.board().position_string(),
            result,
            forbidden,
            thinking: self.job.as_ref().map(|j| ThinkingView {
                purpose: j.purpose,
                color: j.color.name(),
                elapsed_ms: j.started.elapsed().as_millis() as u64,
            }),
            live: self.live.clone(),
            hint: self.hint.clone(),
            analyze: self.analyze,
            analysis: self.analysis.clone(),
            excluded: self
                .excluded()
                .iter()
                .map(|&p| format_pos(p, self.game.board().size()))
                .collect(),
            opening: self.opening.as_ref().map(|o| OpeningView {
                rule: "swap2",
                stage: o.stage,
                first: o.first,
                actor: o.actor(),
                choices: if o.actor() == Player::Person {
                    o.choices()
                } else {
                    &[]
                },
            }),
            swap2_log: self.swap2_log.clone(),
            renju: self.renju_view(),
            opening_name: self.opening_name(),
            setup_plies: self.game.start_ply(),
            review: self.review_view(&board_moves),
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
}
