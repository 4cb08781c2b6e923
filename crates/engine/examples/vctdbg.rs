use gomoku_engine::record::Record;
use gomoku_engine::search::movegen::{gen_defence, own_class};
use gomoku_engine::*;
fn main() {
    let file = std::env::args().nth(1).unwrap();
    let ln: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let seq = std::env::args().nth(3).unwrap_or_default();
    let text = std::fs::read_to_string(&file).unwrap();
    let r = Record::parse(text.lines().nth(ln - 1).unwrap()).unwrap();
    let mut b = r.game().unwrap().board().clone();
    for m in notation::parse_moves(&seq, 15).unwrap() {
        b.play(m);
    }
    let att = b.to_move();
    let mut moves = Vec::new();
    b.for_each_candidate(|q| moves.push(q));
    for q in moves {
        let c = own_class(&mut b, q, att);
        if c >= Pattern4::Flex3 && c < Pattern4::Five {
            b.play(q);
            let mut d = Vec::new();
            let def = b.to_move();
            let four = b.threat_count(att, Pattern4::Five) > 0;
            if !four {
                gen_defence(&mut b, def, &mut d);
            }
            let ds: Vec<String> = d.iter().map(|m| b.fmt_pos(m.pos)).collect();
            println!(
                "{} {:?}: {} defences: {}",
                b.fmt_pos(q),
                c,
                if four { "FOUR" } else { "" },
                ds.join(" ")
            );
            b.undo();
        }
    }
}
