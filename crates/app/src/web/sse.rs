//! `GET /api/games/{id}/events`: server-sent events for one game. The stream starts with the
//! current state, then forwards every change (`state`), every search iteration (`info`) and,
//! when the game is removed, `closed`.

use super::error::ApiError;
use super::games::{lock, ServerEvent, Slot};
use super::AppState;
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use std::convert::Infallible;
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::broadcast::Receiver;

/// The stream's own state: the receiver, a way back to the game for a fresh state when events
/// were missed, and the token that tells the cleanup that someone is watching.
struct Watch {
    rx: Receiver<ServerEvent>,
    slot: Weak<Mutex<Slot>>,
    _token: Arc<()>,
    first: Option<String>,
    done: bool,
}

fn state_event(json: &str) -> Event {
    Event::default().event("state").data(json)
}

fn current_state(slot: &Weak<Mutex<Slot>>) -> Option<String> {
    let slot = slot.upgrade()?;
    let view = lock(&slot).view();
    serde_json::to_string(&view).ok()
}

pub(super) async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let slot = state.games.get(&id)?;
    let (rx, token, first) = {
        let mut s = lock(&slot);
        let (rx, token) = s.subscribe();
        let first = serde_json::to_string(&s.view()).map_err(ApiError::internal)?;
        (rx, token, first)
    };
    let watch = Watch {
        rx,
        slot: Arc::downgrade(&slot),
        _token: token,
        first: Some(first),
        done: false,
    };
    // dropping the stream (the page went away) drops the watch and its token at once
    let stream = stream::unfold(watch, |mut w| async move {
        next(&mut w).await.map(|ev| (Ok(ev), w))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// The next event of a watch, `None` at the end.
async fn next(w: &mut Watch) -> Option<Event> {
    if let Some(first) = w.first.take() {
        return Some(state_event(&first));
    }
    if w.done {
        return None;
    }
    loop {
        match w.rx.recv().await {
            Ok(ServerEvent::State(json)) => return Some(state_event(&json)),
            Ok(ServerEvent::Info(json)) => {
                return Some(Event::default().event("info").data(&*json))
            }
            Ok(ServerEvent::Closed) | Err(RecvError::Closed) => {
                w.done = true;
                return Some(Event::default().event("closed").data("{}"));
            }
            // a slow page missed events: the full state replaces them all
            Err(RecvError::Lagged(_)) => match current_state(&w.slot) {
                Some(json) => return Some(state_event(&json)),
                None => continue,
            },
        }
    }
}
