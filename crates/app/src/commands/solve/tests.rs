//! Unit tests of reading puzzle lines, checking answers and writing the report.

use super::*;

fn puzzle(line: &str) -> Puzzle {
    parse_puzzle(line, 1, FileContext::default()).unwrap()
}

fn found(p: &Puzzle, line: &[Pos], method: Option<SolveMethod>) -> Found {
    Found {
        result: SolveResult {
            line: line.to_vec(),
            method,
            nodes: 1,
            elapsed_ms: 0,
        },
        time_ms: 0.5,
        verified: (method == Some(SolveMethod::Vcf)).then(|| verify_vcf_line(&p.board, line)),
        source_verified: None,
        engine_move: None,
    }
}

fn pts(p: &Puzzle, s: &str) -> Vec<Pos> {
    gomoku_engine::notation::parse_moves(s, p.board.size()).unwrap()
}

#[test]
fn task_comes_from_the_key_or_the_kind_of_line() {
    assert_eq!(
        puzzle("15 renju h8 | task=vct side=white").task,
        SolveTask::Vct
    );
    assert_eq!(puzzle("15 renju h8 | task=win_in_3").task, SolveTask::Win);
    assert_eq!(puzzle("15 renju h8 | task=win_in_3").task_name, "win_in_3");
    assert_eq!(
        puzzle("15 renju h8 | attacker=white solution=i9").task,
        SolveTask::Vcf
    );
    assert_eq!(
        puzzle("15 renju h8 | attacker=white vcf_last_move=i9").task,
        SolveTask::Vcf
    );
    assert_eq!(
        puzzle("10 freestyle h8 | side=white outcome=win best=any").task,
        SolveTask::Win
    );
    assert_eq!(puzzle("15 renju h8 | side=white").task, SolveTask::Win);
    let in_vcf = FileContext {
        vcf_dir: true,
        task_override: None,
    };
    let p = parse_puzzle("15 renju h8 | side=white", 1, in_vcf).unwrap();
    assert_eq!(p.task, SolveTask::Vcf);
    let forced = FileContext {
        vcf_dir: false,
        task_override: Some(SolveTask::Vcf),
    };
    let p = parse_puzzle("15 renju h8 | task=vct", 1, forced).unwrap();
    assert_eq!((p.task, p.task_key), (SolveTask::Vcf, false));
}

#[test]
fn malformed_values_are_reported() {
    let err = |l: &str| parse_puzzle(l, 1, FileContext::default()).unwrap_err();
    assert!(err("15 renju h8 | task=vcx").contains("task=vcx"));
    assert!(err("15 renju h8 | side=red").contains("side=red"));
    assert!(err("15 renju h8 | solution=h8,z99").contains("solution="));
    assert!(err("15 renju h8 | vcf_last_move=h9,h10").contains("one point"));
    assert!(err("15 renju h8 | outcome=maybe").contains("outcome=maybe"));
    assert!(err("15 renju h8 | best=none").contains("best=none"));
    assert!(err("15 renju h8 h8").contains("h8"));
    assert!(err("15 renju | side=black attacker=white").contains("disagree"));
    assert!(err("15 freestyle h8 a1 h9 a2 h10 a3 h11 a4 h12").contains("five"));
    assert!(err("15 renju h8 | junk").contains("junk"));
}

#[test]
fn answers_are_checked_against_every_key() {
    // black to move with an open four on row 8: g8 or l8 wins at once
    let p = puzzle(
        "15 freestyle h8 h1 i8 i1 j8 j1 k8 a15 | side=black solution=l8 vcf_last_move=g8 \
         answer=g8,l8 outcome=win best=l8",
    );
    let f = found(&p, &pts(&p, "l8"), Some(SolveMethod::Vcf));
    assert_eq!(f.verified, Some(Ok(())));
    let got: Vec<(String, bool)> = checks(&p, &f).into_iter().map(|c| (c.key, c.ok)).collect();
    let want: Vec<(String, bool)> = [
        ("side", true),
        ("solution", true),
        ("vcf_last_move", false),
        ("answer", true),
        ("outcome=win", true),
        ("best", true),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(got, want);
}

#[test]
fn a_claimed_win_on_a_not_win_line_is_wrong() {
    let p = puzzle("15 freestyle h8 i9 | side=black outcome=not-win best=any task=vct");
    let unsolved = found(&p, &[], None);
    let c = checks(&p, &unsolved);
    assert!(c.iter().any(|c| c.key == "outcome=not-win" && c.ok));
    assert!(c.iter().any(|c| c.key == "task=vct" && !c.ok));
    assert!(!c.iter().any(|c| c.key == "best"), "best=any needs a win");
    let claimed = found(&p, &pts(&p, "h9"), Some(SolveMethod::Vct));
    let c = checks(&p, &claimed);
    assert!(c.iter().any(|c| c.key == "outcome=not-win" && !c.ok));
    assert!(position_text(&p, &claimed, &c).contains("WRONG"));
}

#[test]
fn side_mismatch_is_reported() {
    let p = puzzle("15 renju h8 | attacker=black");
    let c = checks(&p, &found(&p, &[], None));
    assert_eq!(c[0].key, "side");
    assert!(!c[0].ok);
    assert!(c[0].note.contains("white is to move"), "{}", c[0].note);
}

#[test]
fn a_broken_vcf_line_fails_the_checker() {
    let p = puzzle("15 freestyle h8 h1 i8 i1 j8 j1 | side=black");
    // a1 makes no four
    let f = found(&p, &pts(&p, "a1"), Some(SolveMethod::Vcf));
    assert!(matches!(f.verified, Some(Err(_))));
    let text = position_text(&p, &f, &checks(&p, &f));
    assert!(text.contains("checker FAILED"), "{text}");
}
