//! The page on a laptop and on a phone: the board, the evaluation and every button in view
//! without scrolling, nothing sideways; small cells take a tap to preview and a second to
//! play.

use super::browser::{names_a_side, run, Page, Screen, World, FITS, LAPTOP, MOVE_COUNT, PHONE};
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
        // exactly 1366x768 of page
        fits(world, LAPTOP, &id).await.close().await;
    });
}

#[test]
fn a_phone_shows_the_board_and_takes_two_taps_on_small_cells() {
    run(async |world, p| {
        let id = analysed_game(p).await;
        let v = fits(world, PHONE, &id).await;
        // small cells: a tap shows the stone to come, a second tap on it plays it
        v.start_game("freestyle", "22", "person-person").await;
        let confirm = "return document.querySelector('[data-testid=board]').dataset.confirm;";
        assert_eq!(v.js(confirm).await, "yes");
        v.click_point("k11").await;
        v.wait(
            "the stone to come",
            &format!(
                "return !!document.querySelector('[data-testid=pending][data-pending=k11]') \
                 && document.querySelector('[data-testid=heat-label]').dataset.text.includes('k11') \
                 && {MOVE_COUNT} === 0;"
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
