//! The game as text: a position string, a line of the datasets' common format, a diagram, a
//! Piskvork `.psq` record (the position on the board), and an SGF record (the whole tree,
//! named by its renju opening when it has one).

use super::tree::ROOT;
use super::{Player, Slot};
use crate::psq;
use crate::sgf;
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
        let start = self.game.start_ply();
        let records = self.path_records();
        let list: Vec<(Pos, u64)> = moves
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let ms = i
                    .checked_sub(start)
                    .and_then(|k| records.get(k))
                    .map_or(0, |r| r.ms);
                (p, ms)
            })
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

    /// The game as an SGF record with every line of its tree (the main line first): the
    /// rule, the tags (those given in the library, when the game is there), a set-up
    /// position's stones (`AB`, `AW`, `PL`), then the moves with their comments and labels.
    #[must_use]
    pub fn sgf(&self) -> String {
        let mut g = self.lib_game();
        if let Some(tags) = self.library_tags() {
            g.tags = tags;
        }
        let mut rec = crate::library::convert::to_sgf(&g);
        // the board's start is a set-up position only when it has stones
        if self.game.start_ply() == 0 {
            rec.to_move = None;
        }
        sgf::write(&rec, crate::library::convert::APP)
    }

    /// The renju opening the main line's first three moves form (`Kagetsu 花月 (4D)`), if
    /// any: the record's name for the game, whichever line the board shows.
    pub(super) fn main_line_opening(&self) -> Option<String> {
        let board = self.game.board();
        if self.game.start_ply() > 0 || board.rule() != gomoku_engine::Rule::Renju {
            return None;
        }
        let mut first = Vec::new();
        let mut at = ROOT;
        while first.len() < 3 {
            let next = *self.tree.get(at)?.children.first()?;
            first.push(self.tree.get(next)?.rec.pos);
            at = next;
        }
        gomoku_engine::renju::of_moves(board, &first).map(ToString::to_string)
    }
}
