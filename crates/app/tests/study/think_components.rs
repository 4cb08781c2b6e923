//! The component flags of `gomoku think`.

use super::*;

#[test]
fn think_with_another_search_and_evaluator() {
    let o = gomoku(&[
        "think", "--size", "9", "--depth", "2", "--search", "minimax", "--eval", "tuple", "e5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("search: minimax/tuple"), "{out}");
    assert!(out.contains("depth  2"), "{out}");
    assert!(out.contains("bestmove "), "{out}");
    assert_fails_with(
        &gomoku(&["think", "--eval", "tuple", "h8"]),
        "pvs search uses the engine's own pattern evaluation",
    );
}
