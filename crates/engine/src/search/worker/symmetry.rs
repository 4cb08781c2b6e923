//! Board symmetries in the search: in a symmetric position, moves that are images of each
//! other have the same value, so only one of each class is searched.

use crate::board::Board;
use crate::search::movegen::ScoredMove;
use crate::types::Pos;

/// Up to this many stones, the tree's nodes look for board symmetries of their position.
const SYMMETRY_MAX_STONES: usize = 10;

/// In a symmetric position with few stones, keeps one move of each class of images under the
/// position's symmetries (`first`, when given, represents its class): the others have the
/// same value.
pub(super) fn drop_images(board: &Board, list: &mut Vec<ScoredMove>, first: Pos) {
    if board.stone_count() <= SYMMETRY_MAX_STONES {
        keep_one_per_image(board, list, first);
    }
}

/// Keeps the first move of each class of images under the symmetries of `board`'s position
/// (`first`, when given, represents its class wherever it stands in the list).
pub(super) fn keep_one_per_image(board: &Board, list: &mut Vec<ScoredMove>, first: Pos) {
    let sym = board.symmetries();
    if sym.len() == 1 {
        return;
    }
    let mut kept: Vec<Pos> = Vec::with_capacity(list.len());
    if first != Pos::NONE {
        kept.push(first);
    }
    list.retain(|m| {
        if m.pos == first {
            return true;
        }
        let image = kept
            .iter()
            .any(|&k| sym.iter().any(|&t| board.transform(k, t) == m.pos));
        if !image {
            kept.push(m.pos);
        }
        !image
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::movegen::gen_all;

    #[test]
    fn drop_images_keeps_one_move_of_each_mirror_pair() {
        let b = crate::Game::from_position(15, crate::Rule::Standard, "h8 i8 h9 g8")
            .expect("valid")
            .board()
            .clone();
        let sym = b.symmetries();
        assert_eq!(sym.len(), 2);
        let mut all = Vec::new();
        gen_all(&mut b.clone(), b.to_move(), &mut all);
        let on_axis = |p: Pos| b.transform(p, sym[1]) == p;
        let first = all.iter().map(|m| m.pos).find(|&p| !on_axis(p)).unwrap();
        // the chosen representative stays even when its image comes first in the list
        let image = b.transform(first, sym[1]);
        let mut list = all.clone();
        let k = list.iter().position(|m| m.pos == image).unwrap();
        list.swap(0, k);
        drop_images(&b, &mut list, first);
        assert!(list.iter().any(|m| m.pos == first));
        assert!(!list.iter().any(|m| m.pos == image));
        let axis = all.iter().filter(|m| on_axis(m.pos)).count();
        assert_eq!(list.len(), axis + (all.len() - axis) / 2);
        for m in &list {
            let i = b.transform(m.pos, sym[1]);
            assert!(i == m.pos || !list.iter().any(|n| n.pos == i), "{m:?}");
        }
        // an asymmetric position keeps everything
        let b = crate::Game::from_position(15, crate::Rule::Standard, "h8 i8 h9 g7")
            .expect("valid")
            .board()
            .clone();
        let mut all = Vec::new();
        gen_all(&mut b.clone(), b.to_move(), &mut all);
        let mut list = all.clone();
        drop_images(&b, &mut list, Pos::NONE);
        assert_eq!(list, all);
    }
}
