//! Random openings of the self-play corpora: a few stones, sometimes scattered along the
//! edges first, then a cluster whose first stone lies within a radius of the centre drawn per
//! game; never a five, a four, a renju forbidden point, nor a measuring opening
//! ([`super::measuring`]). The balance check by search is the caller's.

use super::measuring::starts_from_measuring;
use gomoku_engine::rng::{Rng, SplitMix64};
use gomoku_engine::{Color, Game, Pattern4, Pos, Rule};

/// How the openings of a corpus are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningSpec {
    /// Fewest and most stones of the cluster.
    pub stones: (usize, usize),
    /// Percentage of openings with 2 to 10 stones scattered along the edges first.
    pub scattered_pct: u8,
    /// Fewest and most points from the centre, in either direction, of the cluster's first
    /// stone; limited to the board less its edge (and 2 at least).
    pub radius: (usize, usize),
}

impl Default for OpeningSpec {
    fn default() -> Self {
        OpeningSpec {
            stones: (3, 7),
            scattered_pct: 30,
            radius: (2, 2),
        }
    }
}

/// The largest radius around the centre (`size / 2`) that keeps off the edge of a board of
/// `size`, but 2 at least (the central 5x5 fits every board).
#[must_use]
pub fn max_radius(size: usize) -> usize {
    let c = size / 2;
    (c.saturating_sub(1)).min(size.saturating_sub(2 + c)).max(2)
}

/// Draws one opening of `spec`: the counts, then the stones. `None` when the draw fails
/// (no room, a measuring opening): the caller draws again from the same generator.
pub fn draw_opening(
    rng: &mut SplitMix64,
    spec: &OpeningSpec,
    size: usize,
    rule: Rule,
) -> Option<Game> {
    let (lo, hi) = spec.stones;
    let stones = lo + rng.below(hi - lo + 1);
    let scattered = if rng.below(100) < usize::from(spec.scattered_pct) {
        2 + rng.below(9)
    } else {
        0
    };
    let (rlo, rhi) = spec.radius;
    // a fixed radius draws nothing, so that such corpora keep their games
    let radius = if rhi > rlo {
        rlo + rng.below(rhi - rlo + 1)
    } else {
        rlo
    };
    let game = random_opening(rng, size, rule, scattered, stones, radius)?;
    (!starts_from_measuring(game.board().moves(), size)).then_some(game)
}

/// Whether the side to move may open on `p`: empty, no four or five made, not forbidden.
fn fits(game: &mut Game, rule: Rule, p: Pos) -> bool {
    let b = game.board();
    let us = b.to_move();
    if !b.is_empty(p) || b.threat(p, us) >= Pattern4::Block4 {
        return false;
    }
    !(us == Color::Black && rule == Rule::Renju && game.board_mut().is_forbidden(p))
}

/// A random opening: `scattered` stones on points within two of the edge (as some of
/// Gomocup's openings have), then `stones` more, the first within `radius` of the centre
/// (limited by [`max_radius`]), each later one within two points of one of these.
pub fn random_opening(
    rng: &mut SplitMix64,
    size: usize,
    rule: Rule,
    scattered: usize,
    stones: usize,
    radius: usize,
) -> Option<Game> {
    let mut game = Game::new(size, rule).ok()?;
    let mut tries = 0;
    while game.board().stone_count() < scattered {
        tries += 1;
        if tries > 200 {
            return None;
        }
        let (x, y) = (rng.below(size), rng.below(size));
        let near_edge = x.min(y).min(size - 1 - x).min(size - 1 - y) <= 1;
        let p = Pos::new(x, y);
        if near_edge && fits(&mut game, rule, p) {
            game.play(p).ok()?;
        }
    }
    let r = radius.min(max_radius(size));
    let c = size / 2;
    let first = Pos::new(c - r + rng.below(2 * r + 1), c - r + rng.below(2 * r + 1));
    if !fits(&mut game, rule, first) {
        return None;
    }
    game.play(first).ok()?;
    let mut cluster = vec![first];
    while cluster.len() < stones {
        tries += 1;
        if tries > 400 {
            return None;
        }
        let base = cluster[rng.below(cluster.len())];
        let x = base.x() as i32 + rng.below(5) as i32 - 2;
        let y = base.y() as i32 + rng.below(5) as i32 - 2;
        if x < 0 || y < 0 || x >= size as i32 || y >= size as i32 {
            continue;
        }
        let p = Pos::new(x as usize, y as usize);
        if fits(&mut game, rule, p) {
            game.play(p).ok()?;
            cluster.push(p);
        }
    }
    Some(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_radius_keeps_off_the_edge_and_fits_small_boards() {
        assert_eq!(max_radius(15), 6);
        assert_eq!(max_radius(20), 8);
        assert_eq!(max_radius(9), 3);
        assert_eq!(max_radius(5), 2);
        assert_eq!(max_radius(6), 2);
        for size in 5..=22 {
            let (c, r) = (size / 2, max_radius(size));
            assert!(c >= r && c + r < size, "{size}");
        }
    }

    #[test]
    fn openings_spread_over_the_radius_drawn_and_skip_measuring_ones() {
        let spec = OpeningSpec {
            stones: (1, 5),
            scattered_pct: 0,
            radius: (2, 6),
        };
        let mut rng = SplitMix64::new(5);
        let mut far = 0;
        let mut drawn = 0;
        for _ in 0..400 {
            let Some(g) = draw_opening(&mut rng, &spec, 15, Rule::Renju) else {
                continue;
            };
            drawn += 1;
            let moves = g.board().moves();
            assert!((1..=5).contains(&moves.len()));
            assert!(!starts_from_measuring(moves, 15));
            let first = moves[0];
            let d = first.x().abs_diff(7).max(first.y().abs_diff(7));
            assert!(d <= 6, "{first:?}");
            far += usize::from(d > 2);
        }
        assert!(drawn > 300, "{drawn}");
        assert!(far > drawn / 3, "{far} of {drawn} beyond the central 5x5");
    }

    #[test]
    fn a_fixed_radius_of_two_is_the_central_five_by_five() {
        let spec = OpeningSpec {
            scattered_pct: 0,
            ..OpeningSpec::default()
        };
        let mut rng = SplitMix64::new(9);
        for _ in 0..200 {
            if let Some(g) = draw_opening(&mut rng, &spec, 15, Rule::Freestyle) {
                let first = g.board().moves()[0];
                assert!(
                    first.x().abs_diff(7).max(first.y().abs_diff(7)) <= 2,
                    "{first:?}"
                );
            }
        }
    }
}
