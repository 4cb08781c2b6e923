//! The library (issue 77): a game with a side line, a comment and a label kept whole through
//! a restart of the server; its stored analysis shown again without the engine; collections
//! (SGF, RenLib) imported, filtered, renamed, deleted and restored in the library panel; and
//! the explorer of a position reached by two move orders and a mirror image, counting their
//! games together and showing their moves where the board has them.

use super::browser::{run_with_library, Page, FITS, IDLE, LAPTOP, MOVE_COUNT, PHONE};
use serde_json::{json, Value};
use std::path::PathBuf;

/// The move list.
const LIST: &str = "document.querySelector('[data-testid=move-list]')";

/// The move list's moves: number, point, `v` in a side line, `*` with a comment.
const TREE: &str = "return [...document.querySelectorAll('[data-testid=move-list] [data-testid=move]')]\
    .map(e => e.dataset.number + e.dataset.move + (e.closest('[data-testid=variation]') ? 'v' : '') \
    + (e.classList.contains('has-comment') ? '*' : '')).join(' ');";

/// The explorer's answer shown: `[games, [[move, games], ...], [game titles]]`.
const EXPLORED: &str = "const ex = document.querySelector('[data-testid=explorer]'); \
    return [Number(ex.dataset.games), \
    [...ex.querySelectorAll('[data-testid=ex-move]')].map(e => [e.dataset.move, Number(e.dataset.games)]), \
    [...ex.querySelectorAll('[data-testid=ex-game] .ex-title')].map(e => e.textContent)];";

/// A file of the library's test data.
fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/library")
        .join(name)
}

/// Plays `moves` on the board, one after the other (both players people).
async fn play(p: &Page, moves: &[&str]) {
    let start = usize::try_from(p.moves().await).expect("a count");
    for (i, m) in moves.iter().enumerate() {
        p.click_point(m).await;
        p.wait_moves(&format!("move {m}"), start + i + 1).await;
    }
}

/// Waits until the explorer shows the position on the board, and returns what it shows.
async fn explored(p: &Page) -> Value {
    p.wait(
        "the explorer of the position on the board",
        "const ex = document.querySelector('[data-testid=explorer]'); \
         const moves = [...document.querySelectorAll('[data-testid=move-list] .mv.played')].map(m => m.dataset.move); \
         return !ex.hidden && ex.dataset.games !== '' \
         && decodeURIComponent(ex.dataset.key).endsWith('moves=' + moves.join(','));",
    )
    .await;
    p.js(EXPLORED).await
}

/// A game with a side line, a comment and a label.
async fn game_with_a_side_line(p: &Page) {
    p.start_game("renju", "15", "person-person").await;
    play(p, &["h8", "h9", "i8", "i9", "j8"]).await;
    p.click("nav-prev").await;
    p.wait_moves("a move back", 4).await;
    play(p, &["g8"]).await;
    p.type_into("comment", "the other line").await;
    p.click("btn-comment-save").await;
    p.wait(
        "the comment kept",
        "return document.querySelector('[data-testid=notes]').dataset.comment === 'the other line';",
    )
    .await;
    p.click("label-letter").await;
    p.click_point("k8").await;
    p.wait(
        "a label on the board",
        "return document.querySelector('[data-testid=labels] [data-label=k8]')?.dataset.text === 'A';",
    )
    .await;
    p.click("label-letter").await;
    assert_eq!(
        p.js(TREE).await,
        json!("1h8 2h9 3i8 4i9 5j8 5g8v*"),
        "the main line, and the side line with its comment"
    );
}

#[test]
fn a_game_is_kept_whole_through_a_restart_and_its_analysis_found_again() {
    run_with_library(async |world, p| {
        game_with_a_side_line(p).await;
        let id = p.game_id().await;
        // the server dies and starts again on the same library: the page goes on with the
        // game (read back from the library, its versions counted again from the start), and
        // finds it whole when opened again
        world.restart_server().await;
        p.click("nav-prev").await;
        p.wait_moves("a move back after the restart", 4).await;
        p.click("nav-next").await;
        p.wait_moves("and forward again", 5).await;
        p.c.refresh().await.expect("the page again");
        p.wait(
            "the game after the restart",
            &format!(
                "return sessionStorage.getItem('gomoku.game') === {id} && {MOVE_COUNT} === 5 \
                 && !!document.querySelector('[data-stone=g8]') && {IDLE};"
            ),
        )
        .await;
        assert_eq!(p.js(TREE).await, json!("1h8 2h9 3i8 4i9 5j8 5g8v*"));
        let notes = p
            .js("return [document.querySelector('[data-testid=notes]').dataset.comment, \
                 document.querySelector('[data-testid=comment]').value, \
                 [...document.querySelectorAll('[data-testid=labels] [data-label]')].map(l => l.dataset.label + l.dataset.text)];")
            .await;
        assert_eq!(notes, json!(["the other line", "the other line", ["k8A"]]));
        assert_eq!(
            p.js("return document.querySelector('[data-testid=error]').hidden;")
                .await,
            json!(true),
            "no message: the game was not lost"
        );
        // in the library panel, with every line counted, and the file named
        p.click("open-library").await;
        p.wait(
            "the game in the library",
            "return [...document.querySelectorAll('[data-testid=lib-game]')].some(g => g.classList.contains('current') \
             && g.textContent.includes('6 moves'));",
        )
        .await;
        let lib = world.library().display().to_string();
        let where_ = p.text("lib-where").await;
        assert!(where_.contains(&lib), "{where_} names {lib}");
        p.js("document.querySelector('#dlg-library').close(); return true;")
            .await;
        // an analysis of the position is kept; coming back to it shows it without the engine
        p.click("btn-analyze").await;
        p.wait(
            "the analysis",
            "return document.querySelectorAll('[data-testid=candidates] li').length >= 3;",
        )
        .await;
        p.click("btn-stop").await;
        p.wait(
            "the analysis stopped",
            &format!("return {IDLE} && document.querySelector('[data-testid=btn-analyze]').getAttribute('aria-pressed') === 'true';"),
        )
        .await;
        let best = p
            .js("return document.querySelector('[data-testid=info-move]').textContent;")
            .await;
        p.click("btn-analyze").await;
        p.wait(
            "the analysis off",
            "return document.querySelector('[data-testid=btn-analyze]').getAttribute('aria-pressed') === 'false';",
        )
        .await;
        p.click("nav-prev").await;
        p.wait_moves("a move back", 4).await;
        p.click("nav-next").await;
        p.wait(
            "the stored analysis, the engine idle",
            &format!(
                "return {MOVE_COUNT} === 5 && {IDLE} \
                 && document.querySelector('[data-testid=info-status]').textContent.startsWith('stored analysis') \
                 && document.querySelectorAll('[data-testid=heat-map] [data-candidate]').length >= 3 \
                 && document.querySelector('[data-testid=info-move]').textContent === {best};"
            ),
        )
        .await;
    });
}

/// Imports the SGF collection and the RenLib fixture in the library panel; checks the list,
/// a filter, a rename, a delete and its undo, and the exports.
async fn import_and_manage(p: &Page) {
    p.upload(
        "lib-file",
        &[data("collection.sgf"), data("renlib-fixture.lib")],
    )
    .await;
    p.wait(
        "the import's report",
        "const r = document.querySelector('[data-testid=lib-report]'); return !r.hidden && r.textContent.includes('added');",
    )
    .await;
    assert_eq!(
        p.text("lib-report").await,
        "2 files read: 4 games added, 0 already in the library."
    );
    const TITLES: &str = "return [...document.querySelectorAll('[data-testid=lib-game]')].map(g => g.dataset.title).sort();";
    p.wait(
        "four games",
        "return document.querySelectorAll('[data-testid=lib-game]').length === 4;",
    )
    .await;
    let titles = p.js(TITLES).await;
    assert_eq!(
        titles,
        json!(["Ann – Bo", "Ann – Di", "Cy – Di", "renlib-fixture"])
    );
    // a filter by player, and its export
    p.type_into("lib-player", "ann").await;
    p.wait(
        "the filter",
        "return document.querySelectorAll('[data-testid=lib-game]').length === 2;",
    )
    .await;
    p.js("window.exported = null; fetch(document.querySelector('[data-testid=lib-export-filtered]').href)\
          .then(r => r.text()).then(t => window.exported = t); return true;")
        .await;
    p.wait("the export", "return window.exported !== null;")
        .await;
    let sgf = p.js("return window.exported;").await;
    let sgf = sgf.as_str().unwrap_or("");
    assert_eq!(sgf.matches("(;").count(), 2, "{sgf}");
    assert!(sgf.contains("PB[Ann]") && !sgf.contains("PB[Cy]"), "{sgf}");
    p.js(
        "const i = document.querySelector('[data-testid=lib-player]'); i.value = ''; \
          i.dispatchEvent(new Event('input')); return true;",
    )
    .await;
    p.wait(
        "all again",
        "return document.querySelectorAll('[data-testid=lib-game]').length === 4;",
    )
    .await;
    // rename, delete, undo
    let game = "[...document.querySelectorAll('[data-testid=lib-game]')].find(g => g.dataset.title === 'Ann – Di')";
    p.js(&format!(
        "{game}.querySelector('[data-testid=lib-rename]').click(); return true;"
    ))
    .await;
    p.type_into("lib-rename-input", "The mirror").await;
    p.click("lib-rename-save").await;
    p.wait("the new name", "return [...document.querySelectorAll('[data-testid=lib-game]')].some(g => g.dataset.title === 'The mirror');")
        .await;
    p.js("[...document.querySelectorAll('[data-testid=lib-game]')].find(g => g.dataset.title === 'The mirror')\
          .querySelector('[data-testid=lib-delete]').click(); return true;")
        .await;
    p.wait(
        "the game deleted, with an undo",
        "return document.querySelectorAll('[data-testid=lib-game]').length === 3 \
         && !document.querySelector('[data-testid=lib-undo]').hidden;",
    )
    .await;
    p.click("lib-undo-btn").await;
    p.wait(
        "the game back",
        "return document.querySelectorAll('[data-testid=lib-game]').length === 4 \
        && document.querySelector('[data-testid=lib-undo]').hidden;",
    )
    .await;
}

#[test]
fn collections_come_in_and_the_explorer_counts_every_move_order_and_mirror_image() {
    run_with_library(async |world, p| {
        p.click("open-library").await;
        import_and_manage(p).await;
        // the RenLib game opens on the board with its comments
        p.js("[...document.querySelectorAll('[data-testid=lib-game]')].find(g => g.dataset.title === 'renlib-fixture')\
              .querySelector('[data-testid=lib-open]').click(); return true;")
            .await;
        p.wait(
            "the RenLib game on the board",
            &format!("return !document.querySelector('#dlg-library').open && {MOVE_COUNT} > 0 \
              && [...{LIST}.querySelectorAll('.mv.has-comment')].some(m => m.title.includes('main line'));"),
        )
        .await;
        // one position by two move orders and as a mirror image: the games counted together
        p.start_game("renju", "15", "person-person").await;
        play(p, &["h8", "h9", "i8", "i9"]).await;
        let e = explored(p).await;
        // games A, B and C of the collection, and this one
        assert_eq!(e[0], json!(4), "{e}");
        assert_eq!(e[1], json!([["j8", 2], ["g8", 1]]), "{e}");
        for t in ["Ann – Bo", "Cy – Di", "The mirror"] {
            assert!(e[2].as_array().unwrap().contains(&json!(t)), "{t} in {e}");
        }
        p.start_game("renju", "15", "person-person").await;
        play(p, &["i8", "i9", "h8", "h9"]).await;
        let e = explored(p).await;
        assert_eq!(e[0], json!(5), "{e}");
        assert_eq!(e[1], json!([["j8", 2], ["g8", 1]]), "{e}");
        p.start_game("renju", "15", "person-person").await;
        play(p, &["h8", "h9", "g8", "g9"]).await;
        let e = explored(p).await;
        assert_eq!(e[0], json!(6), "{e}");
        // the mirror image's moves where this board has them: f8 for j8, i8 for g8
        assert_eq!(e[1], json!([["f8", 2], ["i8", 1]]), "{e}");
        let marks = p
            .js("return [...document.querySelectorAll('[data-testid=explorer-marks] [data-explorer]')]\
                 .map(m => m.dataset.explorer + m.dataset.games);")
            .await;
        assert_eq!(marks, json!(["f82", "i81"]));
        // the pages at a laptop's size and a phone's: the board and its tools in view
        let id = p.game_id().await;
        let id = id.as_str().expect("an id");
        for (screen, name) in [
            (LAPTOP, "web-e2e-library.png"),
            (PHONE, "web-e2e-library-phone.png"),
        ] {
            let v = world.open(screen, &format!("#game={id}")).await;
            explored(&v).await;
            v.wait("the board and its tools in view", FITS).await;
            v.screenshot(name).await;
            v.close().await;
        }
        // a move of the explorer is played; a game of it opens at the position
        p.js("document.querySelector('[data-testid=ex-move][data-move=f8]').click(); return true;")
            .await;
        p.wait_moves("the explorer's move", 5).await;
        let e = explored(p).await;
        assert_eq!(e[0], json!(3), "games A, C and this one: {e}");
        p.js("[...document.querySelectorAll('[data-testid=ex-game]')].find(g => g.textContent.includes('Ann – Bo')).click(); return true;")
            .await;
        p.wait(
            "game A at the position",
            &format!("return sessionStorage.getItem('gomoku.game') !== '{id}' && {MOVE_COUNT} === 5 \
              && !!document.querySelector('[data-stone=j8]') && !document.querySelector('.mv.ahead');"),
        )
        .await;
    });
}
