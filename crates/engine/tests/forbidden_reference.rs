//! Cross-checks the table-driven renju forbidden-point detection against a slow, independent
//! implementation that reads the rules straight off a plain grid, on many random positions.

use gomoku_engine::rng::{Rng, XorShift64};
use gomoku_engine::{Board, Cell, Color, ForbiddenKind, Pos, Rule};

const N: i32 = 15;
const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[derive(Clone)]
struct Grid([[u8; N as usize]; N as usize]); // 0 empty, 1 black, 2 white

impl Grid {
    fn at(&self, x: i32, y: i32) -> Option<u8> {
        (x >= 0 && y >= 0 && x < N && y < N).then(|| self.0[y as usize][x as usize])
    }
    fn run(&self, x: i32, y: i32, (dx, dy): (i32, i32)) -> i32 {
        let mut n = 1;
        for s in [1, -1] {
            let (mut cx, mut cy) = (x + s * dx, y + s * dy);
            while self.at(cx, cy) == Some(1) {
                n += 1;
                cx += s * dx;
                cy += s * dy;
            }
        }
        n
    }
    /// Empty points on the line through (x,y) that make exactly five including (x,y) (which
    /// holds a black stone).
    fn five_points(&mut self, x: i32, y: i32, d: (i32, i32)) -> Vec<i32> {
        let mut v = Vec::new();
        for k in -4..=4 {
            if k == 0 {
                continue;
            }
            let (qx, qy) = (x + k * d.0, y + k * d.1);
            if self.at(qx, qy) != Some(0) {
                continue;
            }
            self.0[qy as usize][qx as usize] = 1;
            // the run through q must be exactly five and contain (x,y)
            let r = self.run(qx, qy, d);
            let contains = {
                let mut ok = true;
                let step = if k > 0 { -1 } else { 1 };
                let mut j = k + step;
                while j != 0 {
                    if self.at(x + j * d.0, y + j * d.1) != Some(1) {
                        ok = false;
                    }
                    j += step;
                }
                ok
            };
            if r == 5 && contains {
                v.push(k);
            }
            self.0[qy as usize][qx as usize] = 0;
        }
        v
    }
    fn forbidden(&mut self, x: i32, y: i32) -> Option<ForbiddenKind> {
        if self.at(x, y) != Some(0) {
            return None;
        }
        self.0[y as usize][x as usize] = 1;
        let result = self.judge(x, y);
        self.0[y as usize][x as usize] = 0;
        result
    }
    fn judge(&mut self, x: i32, y: i32) -> Option<ForbiddenKind> {
        if DIRS.iter().any(|&d| self.run(x, y, d) == 5) {
            return None;
        }
        if DIRS.iter().any(|&d| self.run(x, y, d) >= 6) {
            return Some(ForbiddenKind::Overline);
        }
        let mut fours = 0;
        for d in DIRS {
            let f = self.five_points(x, y, d);
            fours += match f.len() {
                0 => 0,
                1 => 1,
                2 if f[1] - f[0] == 5 => 1,
                _ => 2,
            };
        }
        if fours >= 2 {
            return Some(ForbiddenKind::DoubleFour);
        }
        let mut threes = 0;
        for d in DIRS {
            let mut real = false;
            for k in -4..=4 {
                let (qx, qy) = (x + k * d.0, y + k * d.1);
                if k == 0 || self.at(qx, qy) != Some(0) {
                    continue;
                }
                self.0[qy as usize][qx as usize] = 1;
                let f = self.five_points(x, y, d);
                // a straight four (five points at both ends of four stones) that contains q
                let straight = f.len() == 2 && f[1] - f[0] == 5 && k > f[0] && k < f[0] + 5;
                self.0[qy as usize][qx as usize] = 0;
                // a completion point that also makes five elsewhere is not forbidden (five wins)
                if straight && self.forbidden_with(x, y, qx, qy).is_none() {
                    real = true;
                    break;
                }
            }
            if real {
                threes += 1;
            }
        }
        (threes >= 2).then_some(ForbiddenKind::DoubleThree)
    }
    /// Whether q is forbidden with the stone at (x,y) already placed (it is).
    fn forbidden_with(&mut self, _x: i32, _y: i32, qx: i32, qy: i32) -> Option<ForbiddenKind> {
        self.forbidden(qx, qy)
    }
}

#[test]
fn forbidden_points_match_reference_on_random_positions() {
    let mut rng = XorShift64::new(0x1234_5678_9ABC_DEF1);
    let mut below = |n: i32| rng.below(n as usize) as i32;
    let mut found = [0usize; 3];
    for game in 0..300 {
        let mut b = Board::new(N as usize, Rule::Renju).unwrap();
        let mut g = Grid([[0; N as usize]; N as usize]);
        // dense clusters of black stones make forbidden shapes common
        let stones = 10 + below(40);
        let (cx, cy) = (3 + below(9), 3 + below(9));
        for _ in 0..stones {
            let x = (cx + below(9) - 4).clamp(0, N - 1);
            let y = (cy + below(9) - 4).clamp(0, N - 1);
            if g.0[y as usize][x as usize] != 0 {
                continue;
            }
            let black = below(3) != 0;
            let p = Pos::new(x as usize, y as usize);
            if (b.to_move() == Color::Black) != black {
                b.pass();
            }
            b.play(p);
            g.0[y as usize][x as usize] = if black { 1 } else { 2 };
        }
        for y in 0..N {
            for x in 0..N {
                let p = Pos::new(x as usize, y as usize);
                if b.cell(p) != Cell::Empty {
                    continue;
                }
                let want = g.forbidden(x, y);
                let got = b.forbidden_kind(p);
                assert_eq!(
                    got,
                    want,
                    "game {game} point {} in {}",
                    b.fmt_pos(p),
                    b.position_string()
                );
                if let Some(k) = want {
                    found[k as usize] += 1;
                }
            }
        }
    }
    // the test must actually exercise every kind
    assert!(
        found.iter().all(|&n| n > 20),
        "too few forbidden points found: {found:?}"
    );
}
