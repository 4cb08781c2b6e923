//! The game as text: a position string, a line of the datasets' common format, a diagram, and
//! a Piskvork `.psq` record.

use super::{Player, Slot};
use crate::psq;
use crate::web::error::ApiError;
use gomoku_engine::Pos;

impl Slot {
    /// The game as a position string.
    #[must_use]
    pub fn position(&self) -> String {
        self.game.board().position_string()
    }

    /// The game as a line of the datasets' common format: size, rule and moves (a set-up
    /// position's passes included, so that it reads back as one), and the renju opening's
    /// keys (`renju_opening=`, `opening_rule=`, `offers=`) when it has one.
    #[must_use]
    pub fn record(&self) -> String {
        let line = gomoku_engine::record::line_of(&self.game);
        let rule = self.renju.as_ref().map(|r| &r.opening);
        let keys = crate::renju_opening::record_keys(&self.game, rule);
        if keys.is_empty() {
            line
        } else {
            format!("{line} |{keys}")
        }
    }

    /// The board as a diagram (as `gomoku position` draws it), with the side to move.
    #[must_use]
    pub fn diagram(&self) -> String {
        let board = self.game.board();
        format!("{}to move: {}\n", board.to_text(&[]), board.to_move())
    }

    /// The game as a Piskvork `.psq` record.
    ///
    /// # Errors
    /// 409 when the game has passes, which the format cannot hold.
    pub fn psq(&self) -> Result<String, ApiError> {
        let moves = self.game.board().moves();
        if moves.iter().any(|p| p.is_pass()) {
            return Err(ApiError::conflict(
                "cannot_export",
                "a .psq record cannot hold passes",
            ));
        }
        let list: Vec<(Pos, u64)> = moves
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, self.records.get(i).map_or(0, |r| r.ms)))
            .collect();
        let name = |pl: Player| match pl {
            Player::Person => "person".to_string(),
            Player::Engine => format!("gomoku ({})", self.level.name()),
        };
        Ok(psq::format(
            self.size(),
            &list,
            &name(self.players[0]),
            &name(self.players[1]),
        ))
    }
}
