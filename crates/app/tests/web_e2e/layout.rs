//! The page on a laptop and on a phone: the board, the evaluation and every button in view
//! without scrolling, nothing sideways; small cells take a tap to preview and a second to
//! play.

use super::browser::{
    names_a_side, run, Page, Screen, World, FITS, INSIDE, LAPTOP, MOVE_COUNT, PHONE,
};
use serde_json::json;

/// The game of the screenshots: twelve moves, with another line tried at the 8th.
const SHOWN_GAME: &str =
    "(;FF[4]GM[4]SZ[15]RU[freestyle];B[hh];W[ig];B[gg];W[ii];B[hg];W[hf];B[gi]\
    (;W[fj];B[ih];W[gh])(;W[jh];B[ff]))";

/// Starts the game of the screenshots, analysed; returns its id.
async fn analysed_game(p: &Page) -> String {
    p.select("ng-mode", "person-person").await;
    p.import(SHOWN_GAME, 10).await;
    p.click("btn-analyze").await;
    p.wait(
        "the analysis",
        "return document.querySelectorAll('[data-testid=heat-map] [data-candidate]').length >= 3;",
    )
    .await;
    let id = p.game_id().await;
    id.as_str().expect("the game's id").to_string()
}

/// Opens game `id` in a browser on `screen`, checks that the board and its tools fit, and
/// saves a screenshot.
async fn fits(world: &World, screen: Screen, id: &str) -> Page {
    let Screen::Emulated { width, height, .. } = screen else {
        unreachable!("an emulated screen")
    };
    let v = world.open(screen, &format!("#game={id}")).await;
    v.wait(
        "the analysed game",
        "return document.querySelectorAll('[data-testid=heat-map] [data-candidate]').length >= 3 \
         && document.querySelectorAll('[data-testid=move-list] [data-testid=variation]').length === 1;",
    )
    .await;
    let size = v
        .js("return [window.innerWidth, window.innerHeight];")
        .await;
    assert_eq!(size, json!([width, height]), "the page's size");
    v.wait("the board and its tools in view", FITS).await;
    let label = v
        .js("return document.querySelector('[data-testid=eval-bar]').dataset.label;")
        .await;
    assert!(
        names_a_side(label.as_str().unwrap_or("")),
        "the evaluation in view: {label}"
    );
    v.screenshot(&format!("web-e2e-{width}x{height}.png")).await;
    v
}

#[test]
fn a_laptop_window_shows_the_board_and_its_tools() {
    run(async |world, p| {
        let id = analysed_game(p).await;
        // a laptop's window of 1366x768 (the page gets less of it: the browser's own bars)
        p.c.set_window_size(1366, 768)
            .await
            .expect("a laptop-sized window");
        p.js("window.scrollTo(0, 0); return true;").await;
        p.wait("the board and its tools in view", FITS).await;
        // exactly 1366x768 of page: the board and its tools, and the buttons of a new game,
        // of export and import and of the recent games, each dialog's own in view too
        let v = fits(world, LAPTOP, &id).await;
        for (opens, inner) in [
            ("open-new", "ng-start"),
            ("open-io", "io-import"),
            ("open-history", "btn-history-clear"),
        ] {
            let shown =
                format!("{INSIDE} return inside(document.querySelector('[data-testid={opens}]'));");
            assert_eq!(v.js(&shown).await, json!(true), "{opens} in view");
            v.click(opens).await;
            let shown =
                format!("{INSIDE} return inside(document.querySelector('[data-testid={inner}]'));");
            v.wait(&format!("{inner} in view"), &shown).await;
            v.screenshot(&format!("web-e2e-{opens}.png")).await;
            v.key("Escape").await;
            v.js("document.querySelectorAll('dialog[open]').forEach(d => d.close()); return true;")
                .await;
        }
        v.close().await;
    });
}

#[test]
fn a_phone_shows_the_board_and_takes_two_taps_on_small_cells() {
    run(async |world, p| {
        let id = analysed_game(p).await;
        let v = fits(world, PHONE, &id).await;
        // a tap on a candidate of the analysis: its value in the status line, and no label
        // over the stones around it
        let best = v
            .js("return document.querySelector('[data-testid=heat-map] [data-rank=\"0\"]').dataset.candidate;")
            .await;
        let best = best.as_str().expect("the best candidate").to_string();
        v.click_point(&best).await;
        v.wait(
            "the candidate's value in the status line",
            &format!(
                "const status = document.querySelector('[data-testid=status]'); \
                 return status.dataset.pending === '{best}' \
                 && /^{best}: (Black|White) (\\d+%|wins in \\d+) · Tap {best} again/.test(status.textContent) \
                 && !document.querySelector('[data-testid=heat-label] text');"
            ),
        )
        .await;
        v.key("Escape").await;
        // small cells: a tap shows the stone to come, a second tap on it plays it
        v.start_game("freestyle", "22", "person-person").await;
        let confirm = "return document.querySelector('[data-testid=board]').dataset.confirm;";
        assert_eq!(v.js(confirm).await, "yes");
        v.click_point("k11").await;
        v.wait(
            "the stone to come",
            &format!(
                "const status = document.querySelector('[data-testid=status]'); \
                 return !!document.querySelector('[data-testid=pending][data-pending=k11]') \
                 && status.dataset.pending === 'k11' && status.textContent.includes('k11') \
                 && !document.querySelector('[data-testid=heat-label] text') && {MOVE_COUNT} === 0;"
            ),
        )
        .await;
        v.screenshot_as_is("web-e2e-phone-tap.png").await;
        v.click_point("k11").await;
        v.wait(
            "the move on the second tap",
            &format!(
                "return {MOVE_COUNT} === 1 && !!document.querySelector('[data-stone=k11]') \
                 && !document.querySelector('[data-testid=pending]');"
            ),
        )
        .await;
        v.js("window.scrollTo(0, 0); return true;").await;
        v.wait("the board and its tools in view", FITS).await;
        v.close().await;
    });
}

#[test]
fn a_phone_keeps_the_status_the_legend_and_messages_clear_of_the_rest() {
    run(async |world, _| {
        let v = world.open(PHONE, "").await;
        // the legend opens inside the window
        v.js("document.querySelector('[data-testid=legend]').open = true; return true;")
            .await;
        let legend = format!(
            "{INSIDE} return inside(document.querySelector('[data-testid=legend] .legend-body'));"
        );
        assert_eq!(
            v.js(&legend).await,
            json!(true),
            "the legend inside the window"
        );
        v.js("document.querySelector('[data-testid=legend]').open = false; return true;")
            .await;
        // a Taraguchi-10 opening: its status whole, not cut to a few letters
        v.select("ng-level", "easy").await;
        v.select("ng-time", "200").await;
        v.select("ng-opening", "taraguchi10").await;
        v.start_game("renju", "15", "person-engine").await;
        let whole = "const whole = (id) => { const e = document.querySelector(`[data-testid=${id}]`); \
                     return e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1; }; \
                     return ['status', 'game-rule', 'opening-name'].filter(id => !whole(id));";
        assert_eq!(v.js(whole).await, json!([]), "texts cut");
        let status = v.text("status").await;
        assert!(status.starts_with("Taraguchi-10"), "{status}");
        // the first stone by two taps; a tap on it again is refused, the message over the
        // status line and clear of the board's buttons
        v.click_point("h8").await;
        v.click_point("h8").await;
        v.wait("the first stone", &format!("return {MOVE_COUNT} >= 1;"))
            .await;
        v.wait(
            "the engine's turn done",
            "return document.querySelector('[data-testid=status]').dataset.thinking === 'no';",
        )
        .await;
        v.click_point("h8").await;
        let clear = format!(
            "{INSIDE} const e = document.querySelector('[data-testid=error]'); \
             if (e.hidden) return false; const r = e.getBoundingClientRect(); \
             const over = (b) => {{ const q = b.getBoundingClientRect(); \
             return r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom; }}; \
             return inside(e) && ![...document.querySelectorAll('[data-testid=controls] button, \
             [data-testid=renju] button, [data-testid=menu] button')].some(over);"
        );
        v.wait("the message, clear of the buttons", &clear).await;
        assert_eq!(v.js(whole).await, json!([]), "texts cut");
        v.screenshot("web-e2e-phone-renju.png").await;
        v.close().await;
    });
}
