//! Positions and records: setting up a position, the board as a diagram and as a position
//! line and back, a puzzle's line, the tree of lines and its SGF, the recent games.

use super::browser::{run, Page, IDLE, MOVE_COUNT};
use serde_json::json;

/// The stones on the board, `h8:black h9:white ...` in order.
const STONES: &str = "[...document.querySelectorAll('[data-testid=board] [data-stone]')]\
    .map(s => s.dataset.stone + ':' + s.dataset.color).sort().join(' ')";

/// The stones of the set-up position of these scenarios.
const SET_UP: &str = "h8:black h9:white i8:black j8:black";

/// Sets up three black stones and a white one, Black to move, and starts a game from them
/// against the engine.
async fn set_up_position(p: &Page) {
    p.select("ng-mode", "person-engine").await;
    p.click("ng-setup").await;
    for point in ["h8", "i8", "j8"] {
        p.click_point(point).await;
    }
    p.click("setup-white").await;
    p.click_point("h9").await;
    p.select("setup-to-move", "black").await;
    p.click("setup-done").await;
    p.wait(
        "the game from the set-up position",
        &format!("return document.querySelector('[data-testid=setup-bar]').hidden && {IDLE} && {STONES} === '{SET_UP}';"),
    )
    .await;
}

#[test]
fn setting_up_a_position_and_playing_from_it() {
    run(async |_, p| {
        // from a game Black won under freestyle
        p.start_game("freestyle", "15", "person-person").await;
        p.import("h8 a1 i8 a15 j8 o1 k8 o15 l8", 9).await;
        p.select("ng-mode", "person-engine").await;
        p.select("ng-rule", "standard").await;
        p.click("ng-setup").await;
        // the set-up's rule in the header, and nothing of the game before (its result)
        p.wait(
            "the set-up bar, from the board shown",
            "return !document.querySelector('[data-testid=setup-bar]').hidden \
             && document.querySelector('[data-testid=status]').dataset.setup === 'yes' \
             && !!document.querySelector('[data-stone=h8]') \
             && document.querySelector('[data-testid=result]').hidden \
             && document.querySelector('[data-testid=game-rule]').textContent === 'Standard (exactly five), 15×15' \
             && document.querySelector('[data-testid=btn-undo]').disabled;",
        )
        .await;
        p.click("setup-clear").await;
        p.wait("an empty board", &format!("return {STONES} === '';"))
            .await;
        // a five is refused by the server: the message shows and the stones stay
        for point in ["a1", "a2", "a3", "a4", "a5"] {
            p.click_point(point).await;
        }
        p.click("setup-done").await;
        p.wait(
            "the refusal",
            "const e = document.querySelector('[data-testid=error]'); \
             return !e.hidden && e.textContent.includes('winning line');",
        )
        .await;
        let kept =
            format!("return [document.querySelector('[data-testid=setup-bar]').hidden, {STONES}];");
        assert_eq!(
            p.js(&kept).await,
            json!([false, "a1:black a2:black a3:black a4:black a5:black"]),
            "still setting up, nothing lost"
        );
        for point in ["a1", "a2", "a3", "a4", "a5", "h8", "i8", "j8"] {
            p.click_point(point).await;
        }
        p.click("setup-white").await;
        p.click_point("h9").await;
        p.click_point("i8").await; // taken away
        p.click("setup-black").await;
        p.click_point("i8").await; // and put back, black
        let to_move = "document.querySelector('[data-testid=setup-count]').dataset.toMove";
        p.wait(
            "three black stones and a white one, White to move",
            &format!("return {STONES} === '{SET_UP}' && {to_move} === 'white';"),
        )
        .await;
        // the side to move chosen: Black (the person), though Black has more stones
        p.select("setup-to-move", "black").await;
        p.wait("Black to move", &format!("return {to_move} === 'black';"))
            .await;
        p.screenshot("web-e2e-setup.png").await;
        p.click("setup-done").await;
        p.wait(
            "the game from the set-up position",
            &format!(
                "return document.querySelector('[data-testid=setup-bar]').hidden && {IDLE} \
                 && document.querySelector('[data-testid=status]').dataset.toMove === 'black' \
                 && document.querySelector('[data-testid=setup-entry]')?.textContent.includes('3') \
                 && {MOVE_COUNT} === 0 && {STONES} === '{SET_UP}';"
            ),
        )
        .await;
        // a move and the engine's reply, numbered after the set-up stones; undo takes both
        // back to the set-up position, which cannot be undone
        p.click_point("a15").await;
        p.wait(
            "the engine's reply",
            &format!(
                "return {IDLE} && {MOVE_COUNT} === 2 \
                 && document.querySelectorAll('[data-testid=board] [data-stone]').length === 6;"
            ),
        )
        .await;
        p.click("btn-undo").await;
        p.wait(
            "the set-up position again, which cannot be undone",
            &format!(
                "return {IDLE} && {MOVE_COUNT} === 0 && {STONES} === '{SET_UP}' \
                 && document.querySelector('[data-testid=btn-undo]').disabled;"
            ),
        )
        .await;
    });
}

#[test]
fn a_diagram_and_a_position_line_bring_the_position_back() {
    run(async |_, p| {
        set_up_position(p).await;
        // the board as a diagram, and back: a new game from the same stones
        p.click("io-export-diagram").await;
        p.wait(
            "the diagram in the box",
            "const t = document.querySelector('[data-testid=io-text]').value; \
             return t.replace(/[\\[\\]]/g, ' ').includes(' 8  . . . . . . . X X X') && t.endsWith('to move: black\\n');",
        )
        .await;
        let same = |before: &serde_json::Value| {
            format!(
                "return {IDLE} && {MOVE_COUNT} === 0 && {STONES} === '{SET_UP}' \
                 && document.querySelector('[data-testid=status]').dataset.toMove === 'black' \
                 && !!document.querySelector('[data-testid=setup-entry]') \
                 && sessionStorage.getItem('gomoku.game') !== {before};"
            )
        };
        let before = p.game_id().await;
        p.click("io-import").await;
        p.wait("the game from the diagram", &same(&before)).await;
        // the same as a position line (the passes keep the set-up), and back
        p.click("io-export-record").await;
        p.wait(
            "the position line in the box",
            "return document.querySelector('[data-testid=io-text]').value.startsWith('15 freestyle ');",
        )
        .await;
        let before = p.game_id().await;
        p.click("io-import").await;
        p.wait("the game from the position line", &same(&before))
            .await;
        // a puzzle's line brings its own size and rule (Black to move: the engine is White)
        p.type_import("9 renju e5 -- d4 -- | task=x").await;
        p.click("io-import").await;
        p.wait(
            "the puzzle's position",
            &format!(
                "return {IDLE} && {STONES} === 'd4:black e5:black' \
                 && document.querySelector('[data-testid=board]').dataset.size === '9' \
                 && document.querySelector('[data-testid=ng-rule]').value === 'renju' \
                 && document.querySelector('[data-testid=status]').dataset.toMove === 'black';"
            ),
        )
        .await;
    });
}

/// The move list.
const LIST: &str = "document.querySelector('[data-testid=move-list]')";

#[test]
fn lines_stay_beside_each_other_and_go_out_as_sgf() {
    run(async |_, p| {
        p.start_game("freestyle", "15", "person-person").await;
        p.import("h8 i9 h9 i10", 4).await;
        // after an undo another move starts a new line, and the old one stays
        p.click("btn-undo").await;
        p.wait_moves("the undo", 3).await;
        p.click_point("h10").await;
        p.wait(
            "a new line beside the old one",
            &format!(
                "return {MOVE_COUNT} === 4 && !!document.querySelector('[data-stone=h10]') \
                 && !document.querySelector('[data-stone=i10]') \
                 && !!{LIST}.querySelector(':scope > .mv[data-move=i10]') \
                 && !!{LIST}.querySelector('[data-testid=variation] > .mv[data-move=h10].current');"
            ),
        )
        .await;
        // a click on a move of either line shows its board again
        for (shown, gone) in [("i10", "h10"), ("h10", "i10")] {
            p.js(&format!(
                "{LIST}.querySelector('.mv[data-move={shown}]').click(); return true;"
            ))
            .await;
            p.wait(
                "the line on the board",
                &format!(
                    "return {MOVE_COUNT} === 4 && !!document.querySelector('[data-stone={shown}]') \
                     && !document.querySelector('[data-stone={gone}]') \
                     && {LIST}.querySelector('.current').dataset.move === '{shown}';"
                ),
            )
            .await;
        }
        // back along the line with the arrow key, forward along the line last shown
        p.key("ArrowLeft").await;
        p.wait("a move back", &format!("return {MOVE_COUNT} === 3;"))
            .await;
        p.click("nav-next").await;
        p.wait(
            "forward along the new line",
            &format!("return {MOVE_COUNT} === 4 && !!document.querySelector('[data-stone=h10]');"),
        )
        .await;
        p.click("btn-promote").await;
        p.wait(
            "the new line made the main line",
            &format!(
                "return !!{LIST}.querySelector(':scope > .mv[data-move=h10]') \
                 && !!{LIST}.querySelector('[data-testid=variation] > .mv[data-move=i10]') \
                 && document.querySelector('[data-testid=btn-promote]').disabled;"
            ),
        )
        .await;
        p.screenshot("web-e2e-tree.png").await;
        // the tree as SGF, and a new game from it: the same lines
        let shape = format!(
            "return [...{LIST}.querySelectorAll('.mv')].map(m => {{ let d = 0; \
             for (let e = m.parentElement; e && e !== {LIST}; e = e.parentElement) d++; \
             return m.dataset.move + '/' + d; }}).join(' ');"
        );
        let before = p.js(&shape).await;
        assert_eq!(
            before,
            json!("h8/0 i9/0 h9/0 h10/0 i10/1"),
            "the main line and one other"
        );
        p.click("io-export-sgf").await;
        p.wait(
            "the SGF record in the box",
            "const t = document.querySelector('[data-testid=io-text]').value; \
             return t.startsWith('(;FF[4]GM[4]') && t.includes('(;W[hf]') && t.includes('(;W[if]');",
        )
        .await;
        let old_id = p.game_id().await;
        p.click("io-import").await;
        p.wait(
            "the game from the SGF record",
            &format!(
                "return sessionStorage.getItem('gomoku.game') !== {old_id} && {MOVE_COUNT} === 4 && {IDLE} \
                 && !!document.querySelector('[data-stone=h10]');"
            ),
        )
        .await;
        assert_eq!(p.js(&shape).await, before, "the same tree after the SGF");
    });
}

#[test]
fn recent_games_open_again_and_clear() {
    run(async |_, p| {
        // two games, then one Black won
        for moves in ["h8 i9", "h8 i9 j10", "h8 a1 i8 a15 j8 o1 k8 o15 l8"] {
            p.start_game("freestyle", "15", "person-person").await;
            p.import(moves, moves.split(' ').count()).await;
        }
        // the won game heads the list; Open starts it again as a new game (the old one is
        // gone from the server); Clear empties the list
        let first = "document.querySelector('[data-testid=history-list] li')";
        p.wait(
            "the won game in the recent games",
            &format!(
                "return !!{first} && {first}.classList.contains('current') \
                 && {first}.textContent.includes('9 moves') && {first}.textContent.includes('Black wins');"
            ),
        )
        .await;
        let old_id = p.game_id().await;
        let count = "return JSON.parse(localStorage.getItem('gomoku.history')).length;";
        let saved = p.js(count).await;
        assert!(
            saved.as_u64().is_some_and(|n| n >= 3),
            "earlier games are there too: {saved}"
        );
        p.js(&format!(
            "{first}.querySelector('[data-open]').click(); return true;"
        ))
        .await;
        p.wait(
            "the game opened again",
            &format!(
                "return sessionStorage.getItem('gomoku.game') !== {old_id} && {MOVE_COUNT} === 9 \
                 && !document.querySelector('[data-testid=result]').hidden \
                 && {first}.classList.contains('current');"
            ),
        )
        .await;
        assert_eq!(p.js(count).await, saved, "the same moves are listed once");
        p.js("document.querySelector('[data-testid=history]').scrollIntoView(); return true;")
            .await;
        p.screenshot_as_is("web-e2e-history.png").await;
        p.click("btn-history-clear").await;
        p.wait(
            "an empty list",
            "return document.querySelectorAll('[data-testid=history-list] li').length === 0 \
             && !document.getElementById('history-empty').hidden;",
        )
        .await;
    });
}
