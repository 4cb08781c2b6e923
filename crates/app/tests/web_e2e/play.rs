//! Playing: a game against the engine (its reply, its figures, the best line), undo and redo
//! by buttons and keys, boards of other sizes, a game clock.

use super::browser::{names_a_side, number, run, IDLE, MOVE_COUNT};
use serde_json::json;

#[test]
fn the_engine_replies_and_shows_its_figures() {
    run(async |_, p| {
        // easy, so that its replies are quick
        p.select("ng-level", "easy").await;
        p.select("ng-time", "500").await;
        p.start_game("freestyle", "15", "person-engine").await;
        let points = "return document.querySelectorAll('[data-testid=board] .hit').length;";
        assert_eq!(p.js(points).await, 225);
        // hovering an empty point previews the stone of the side to move (the driver once
        // refused the move in a loaded run: tried again, with the point found afresh)
        let i9 = "[data-testid=board] .hit[data-point=i9]";
        if !p.hover(i9).await {
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            assert!(p.hover(i9).await, "the pointer on i9");
        }
        let fill = p
            .js("return getComputedStyle(document.querySelector('.hit[data-point=i9]')).fill;")
            .await;
        assert_eq!(fill, "rgba(0, 0, 0, 0.42)", "black preview under the mouse");
        p.click_point("h8").await;
        p.wait_moves("the engine's reply", 2).await;
        let reply = p
            .js("return document.querySelector('[data-testid=move-list] [data-played][data-number=\"2\"]').dataset.move;")
            .await;
        let reply = reply.as_str().expect("the reply's point").to_string();
        let color =
            format!("return document.querySelector('[data-stone=\"{reply}\"]').dataset.color;");
        assert_eq!(
            p.js(&color).await,
            "white",
            "the engine's stone is on the board"
        );
        assert_eq!(p.text("info-move").await, reply, "coordinate");
        // every value names its side, in the panel and under the board
        let eval = p.text("info-eval").await;
        assert!(names_a_side(&eval), "evaluation: {eval}");
        let bar = p
            .js("return document.querySelector('[data-testid=eval-bar]').dataset.label;")
            .await;
        assert!(
            names_a_side(bar.as_str().unwrap_or("")),
            "under the board: {bar}"
        );
        let time = p.text("info-time").await;
        assert!(time.ends_with(" s"), "think time: {time}");
        let depth = p.text("info-depth").await;
        assert!(
            number(depth.split('/').next().unwrap_or("")) >= 1,
            "depth: {depth}"
        );
        assert!(number(&p.text("info-nodes").await) > 0, "nodes");
        // nodes per second only for a search long enough to measure them (0.1 s; the time
        // shown is rounded to hundredths, so 0.10 s may be either side of it)
        let secs: f64 = time.trim_end_matches(" s").parse().expect("seconds");
        let nps = p.text("info-nps").await;
        if secs > 0.105 {
            number(&nps);
        } else if secs < 0.095 {
            assert_eq!(nps, "–", "no speed after {time}");
        }
        number(&p.text("info-tt").await); // hash hits: a number, possibly 0 this early
        assert!(
            p.text("info-pv").await.starts_with(&reply),
            "principal variation"
        );
        // the figures were streamed while the engine thought, not only sent at the end
        let streamed = p
            .js("return Number(document.querySelector('[data-testid=engine-info]').dataset.liveUpdates || 0);")
            .await;
        assert!(
            streamed.as_u64().is_some_and(|n| n > 0),
            "live updates: {streamed}"
        );
        // one more exchange: the last move is marked and the graph has points
        p.click_point(if reply == "i9" { "g7" } else { "i9" }).await;
        p.wait_moves("the second reply", 4).await;
        let dots =
            "return document.querySelectorAll('[data-testid=eval-graph] .graph-dot').length;";
        assert_eq!(p.js(dots).await, 2);
        let last = "return document.querySelectorAll('[data-testid=last-move]').length;";
        assert_eq!(p.js(last).await, 1);
    });
}

#[test]
fn a_hint_and_its_best_line_on_the_board() {
    run(async |_, p| {
        p.select("ng-time", "500").await;
        p.start_game("freestyle", "15", "person-person").await;
        p.import("h8 i9 h9 i8", 4).await;
        p.click("btn-hint").await;
        p.wait(
            "the hint",
            &format!("return {IDLE} && !!document.querySelector('[data-testid=hint-mark]');"),
        )
        .await;
        p.click("chk-pv").await;
        let shown = p
            .js(
                "return [[...document.querySelectorAll('[data-testid=pv-line] [data-pv]')]\
                 .map(g => [g.dataset.pv, g.dataset.color, Number(g.dataset.step)]), \
                 document.querySelector('[data-testid=info-pv]').textContent];",
            )
            .await;
        p.screenshot("web-e2e-line.png").await;
        let pv: Vec<&str> = shown[1].as_str().unwrap_or("").split(' ').collect();
        let stones = shown[0].as_array().expect("the line's stones");
        // numbered, Black first (a line of one move when the hint is a win found at once)
        assert!(!pv.is_empty() && pv[0] != "–", "a line: {shown}");
        assert_eq!(stones.len(), pv.len(), "{shown}");
        for (i, st) in stones.iter().enumerate() {
            assert_eq!(st[0], json!(pv[i]), "{shown}");
            assert_eq!(st[1], json!(["black", "white"][i % 2]), "{shown}");
            assert_eq!(st[2], json!(i + 1), "{shown}");
        }
        p.click("chk-pv").await;
        let marks = "return document.querySelectorAll('[data-pv]').length;";
        assert_eq!(
            p.js(marks).await,
            json!(0),
            "the line goes with the box unticked"
        );
    });
}

#[test]
fn undo_and_redo_by_buttons_and_keys() {
    run(async |_, p| {
        p.select("ng-level", "easy").await;
        p.select("ng-time", "200").await;
        p.start_game("freestyle", "15", "person-engine").await;
        p.click_point("h8").await;
        p.wait_moves("the engine's reply", 2).await;
        let second = p
            .js("return document.querySelector('[data-stone=i9]') ? 'g7' : 'i9';")
            .await;
        p.click_point(second.as_str().expect("a point")).await;
        p.wait_moves("the second reply", 4).await;
        // undo takes back the engine's reply and the person's move
        p.click("btn-undo").await;
        p.wait("undo", &format!("return {MOVE_COUNT} === 2;")).await;
        // Ctrl+Y redoes, Ctrl+Z undoes, Ctrl+Shift+Z redoes
        assert!(p.ctrl_key("y", false).await);
        p.wait_moves("redo by Ctrl+Y", 4).await;
        assert!(p.ctrl_key("z", false).await);
        p.wait_moves("undo by Ctrl+Z", 2).await;
        assert!(p.ctrl_key("Z", true).await);
        p.wait_moves("redo by Ctrl+Shift+Z", 4).await;
        p.ctrl_key("z", false).await;
        p.wait_moves("undo again", 2).await;
    });
}

#[test]
fn boards_of_other_sizes_take_clicks_where_they_land() {
    run(async |_, p| {
        let points = "return document.querySelectorAll('[data-testid=board] .hit').length;";
        p.start_game("freestyle", "20", "person-person").await;
        assert_eq!(p.js(points).await, 400);
        p.click_point("t20").await;
        p.wait(
            "the corner stone",
            "return !!document.querySelector('[data-stone=t20][data-color=black]');",
        )
        .await;
        p.start_game("freestyle", "19", "person-person").await;
        assert_eq!(p.js(points).await, 361);
    });
}

#[test]
fn a_game_clock_runs_for_the_side_to_move() {
    run(async |_, p| {
        p.select("ng-clock", "180000+2000").await;
        p.start_game("freestyle", "15", "person-person").await;
        let hidden = "return document.querySelector('[data-testid=clocks]').hidden;";
        assert_eq!(p.js(hidden).await, json!(false), "the clocks are shown");
        let inc = p.text("clock-inc").await;
        assert!(inc.contains('2'), "the increment: {inc}");
        p.wait(
            "Black's clock running down",
            "const b = document.querySelector('[data-testid=clock-black]'); \
             return b.classList.contains('running') && Number(b.dataset.ms) < 179_800;",
        )
        .await;
        p.click_point("h8").await;
        p.wait(
            "White's clock running",
            &format!(
                "return {MOVE_COUNT} === 1 \
                 && document.querySelector('[data-testid=clock-white]').classList.contains('running') \
                 && !document.querySelector('[data-testid=clock-black]').classList.contains('running');"
            ),
        )
        .await;
        let black = p
            .js(
                "return [Number(document.querySelector('[data-testid=clock-black]').dataset.ms), \
                 document.querySelector('[data-testid=clock-black] .time').textContent];",
            )
            .await;
        let black_ms = black[0].as_f64().unwrap_or(0.0);
        // three minutes, less the move's time (a loaded machine is slow), plus the 2 s
        assert!(
            (150_000.0..=182_000.0).contains(&black_ms),
            "Black's time after the move: {black}"
        );
        assert!(
            black[1]
                .as_str()
                .is_some_and(|t| t.starts_with("3:0") || t.starts_with("2:")),
            "m:ss: {black}"
        );
        p.screenshot("web-e2e-clock.png").await;
    });
}
