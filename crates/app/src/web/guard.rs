//! What the server refuses before any handler runs, so that only the page it serves (and tools
//! on this machine, such as `curl`) can drive it:
//!
//! - a `Host` that is not this server's (403 `forbidden_host`): a page on some other site whose
//!   name was made to resolve to this machine (DNS rebinding) sends its own name. Accepted:
//!   `localhost`, any IP address (a name is needed for rebinding), and the name given with
//!   `--host`, each with the port the server listens on;
//! - a state-changing request (anything but `GET`, `HEAD`, `OPTIONS`) whose `Origin` is not
//!   the server's own (403 `cross_origin`): a form or a script of another site;
//! - a state-changing request whose body is not `application/json` (415
//!   `unsupported_media_type`): a cross-site form can send `text/plain` without asking;
//! - a body over [`Protection::body_limit`] (413 `too_large`), or one that does not arrive
//!   within [`Protection::body_timeout`] (408 `timeout`, and the connection is closed).
//!
//! The headers' own timeout is the connection's ([`Protection::header_timeout`], set by
//! [`super::serve_listener`]). Requests without `Host` or `Origin` (HTTP/1.0 tools, the router
//! called directly in tests) are not refused for it: browsers always send both where it
//! matters.

use super::error::ApiError;
use super::AppState;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::time::Duration;

/// Longest a client may take to send a request's headers, or its body.
pub const READ_TIMEOUT: Duration = Duration::from_secs(5);

/// Largest request body accepted (the largest real one, a `.psq` of a full 22x22 board, is
/// about 10 kB).
pub const BODY_LIMIT: usize = 1 << 20;

/// What the server accepts: see the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Protection {
    /// The port the server listens on, which `Host` and `Origin` must name (`None`: any, for
    /// the router without a socket).
    pub port: Option<u16>,
    /// Host names accepted besides `localhost` and IP addresses (lower case).
    pub names: Vec<String>,
    /// Largest body, in bytes.
    pub body_limit: usize,
    /// Longest wait for the whole body.
    pub body_timeout: Duration,
    /// Longest wait for the headers of a request, including the first one of a new connection
    /// (an idle kept-alive connection is closed after as long).
    pub header_timeout: Duration,
}

impl Default for Protection {
    fn default() -> Protection {
        Protection {
            port: None,
            names: Vec::new(),
            body_limit: BODY_LIMIT,
            body_timeout: READ_TIMEOUT,
            header_timeout: READ_TIMEOUT,
        }
    }
}

impl Protection {
    /// The protection of a server listening on `port`, started with `--host host` (a name
    /// there is accepted in `Host`; an address adds nothing, addresses are always accepted).
    #[must_use]
    pub fn listening(host: &str, port: u16) -> Protection {
        let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
        let is_address =
            host.parse::<Ipv4Addr>().is_ok() || unbracket(&host).parse::<Ipv6Addr>().is_ok();
        Protection {
            port: Some(port),
            names: if is_address || host.is_empty() {
                Vec::new()
            } else {
                vec![host]
            },
            ..Protection::default()
        }
    }

    /// Whether `authority` (`host` or `host:port`, as in `Host`) names this server; a missing
    /// port is `default_port`.
    fn is_own(&self, authority: &str, default_port: u16) -> bool {
        let Some((host, port)) = split_authority(authority) else {
            return false;
        };
        let port = port.unwrap_or(default_port);
        if self.port.is_some_and(|p| p != port) {
            return false;
        }
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        host == "localhost"
            || host.parse::<Ipv4Addr>().is_ok()
            || (host.starts_with('[') && unbracket(&host).parse::<Ipv6Addr>().is_ok())
            || self.names.contains(&host)
    }
}

/// Whether the host of `authority` is this machine: `localhost`, `127.x.y.z` or `[::1]`.
fn is_loopback(authority: &str) -> bool {
    let Some((host, _)) = split_authority(authority) else {
        return false;
    };
    let host = host.trim_end_matches('.');
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<Ipv4Addr>().is_ok_and(|a| a.is_loopback())
        || unbracket(host)
            .parse::<Ipv6Addr>()
            .is_ok_and(|a| a.is_loopback())
}

/// `[::1]` without its brackets (anything else as it is).
fn unbracket(host: &str) -> &str {
    host.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host)
}

/// `host[:port]` split, the port read (`None` when absent); `None` for a bad port or an empty
/// host.
fn split_authority(authority: &str) -> Option<(&str, Option<u16>)> {
    let (host, port) = if authority.starts_with('[') {
        let end = authority.find(']')?;
        let (host, rest) = authority.split_at(end + 1);
        match rest {
            "" => (host, None),
            _ => (host, Some(rest.strip_prefix(':')?)),
        }
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    let port = match port {
        Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => Some(p.parse().ok()?),
        Some(_) => return None,
        None => None,
    };
    (!host.is_empty()).then_some((host, port))
}

/// An `Origin` (`scheme://host[:port]`) as an authority with the scheme's default port, or
/// `None` for `null` or anything else that is no web origin.
fn origin_authority(origin: &str) -> Option<(&str, u16)> {
    let (scheme, authority) = origin.split_once("://")?;
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    (!authority.is_empty() && !authority.contains(['/', '?', '#', '@']))
        .then_some((authority, default_port))
}

/// Whether two authorities name the same host and port.
fn same_authority(a: (&str, u16), b: (&str, u16)) -> bool {
    match (split_authority(a.0), split_authority(b.0)) {
        (Some((ha, pa)), Some((hb, pb))) => {
            ha.trim_end_matches('.')
                .eq_ignore_ascii_case(hb.trim_end_matches('.'))
                && pa.unwrap_or(a.1) == pb.unwrap_or(b.1)
        }
        _ => false,
    }
}

fn header_text<'a>(headers: &'a HeaderMap, name: &header::HeaderName) -> Option<&'a str> {
    // a header that is no text (or given twice, for Host) is as good as a foreign one
    let mut values = headers.get_all(name).iter();
    let first = values.next()?;
    if values.next().is_some() {
        return Some("");
    }
    Some(first.to_str().unwrap_or(""))
}

fn forbidden(code: &'static str, message: String) -> ApiError {
    ApiError {
        status: StatusCode::FORBIDDEN,
        code,
        message,
    }
}

/// Refuses what the [module documentation](self) lists; passes everything else on with its
/// body read (so no handler waits on a slow client).
pub(super) async fn check(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let p = &state.protection;
    let (parts, body) = req.into_parts();
    if let Err(e) = check_head(p, &parts.method, &parts.headers) {
        return e.into_response();
    }
    let length = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if length.is_some_and(|n| n > p.body_limit as u64) {
        return too_large(p.body_limit).into_response();
    }
    let bytes = match tokio::time::timeout(p.body_timeout, read_body(body, p.body_limit)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) => return e.into_response(),
        Err(_) => {
            let mut resp = ApiError {
                status: StatusCode::REQUEST_TIMEOUT,
                code: "timeout",
                message: format!(
                    "the body did not arrive within {} s",
                    p.body_timeout.as_secs_f64()
                ),
            }
            .into_response();
            resp.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            return resp;
        }
    };
    if !bytes.is_empty()
        && changes_state(&parts.method)
        && parts.headers.get(header::CONTENT_TYPE).is_none()
    {
        return unsupported_media_type("none").into_response();
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The checks on the request line and headers.
fn check_head(p: &Protection, method: &Method, headers: &HeaderMap) -> Result<(), ApiError> {
    let host = header_text(headers, &header::HOST);
    if let Some(host) = host {
        if !p.is_own(host, 80) {
            return Err(forbidden(
                "forbidden_host",
                format!(
                    "this server does not answer to the host name '{}' (open it as localhost or \
                     by its address, or start it with --host NAME)",
                    host.chars().take(80).collect::<String>()
                ),
            ));
        }
    }
    if !changes_state(method) {
        return Ok(());
    }
    if let Some(origin) = header_text(headers, &header::ORIGIN) {
        // the origin must be the very host the request was sent to: a page served from an
        // address of the attacker's with our port must not pass as ours
        let own = match (origin_authority(origin), host) {
            (Some(o), Some(h)) => same_authority(o, (h, 80)),
            // no Host (no browser leaves it out): only this machine's own names will do
            (Some((authority, port)), None) => p.is_own(authority, port) && is_loopback(authority),
            (None, _) => false,
        };
        if !own {
            return Err(forbidden(
                "cross_origin",
                format!(
                    "requests from another site ('{}') cannot change anything here",
                    origin.chars().take(80).collect::<String>()
                ),
            ));
        }
    }
    if let Some(ct) = headers.get(header::CONTENT_TYPE) {
        let essence = ct
            .to_str()
            .unwrap_or("")
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if essence != "application/json" {
            return Err(unsupported_media_type(&essence));
        }
    }
    Ok(())
}

fn unsupported_media_type(given: &str) -> ApiError {
    ApiError {
        status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
        code: "unsupported_media_type",
        message: format!(
            "the body must be JSON (Content-Type: application/json), not '{}'",
            given.chars().take(80).collect::<String>()
        ),
    }
}

fn too_large(limit: usize) -> ApiError {
    ApiError {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        code: "too_large",
        message: format!("the body is larger than {limit} bytes"),
    }
}

/// The whole body, at most `limit` bytes.
async fn read_body(body: Body, limit: usize) -> Result<Bytes, ApiError> {
    let mut stream = body.into_data_stream();
    let mut buf = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| {
            ApiError::bad_request("bad_request", format!("cannot read the body: {e}"))
        })?;
        if buf.len() + chunk.len() > limit {
            return Err(too_large(limit));
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(buf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authorities() {
        assert_eq!(
            split_authority("localhost:8080"),
            Some(("localhost", Some(8080)))
        );
        assert_eq!(split_authority("localhost"), Some(("localhost", None)));
        assert_eq!(split_authority("[::1]:80"), Some(("[::1]", Some(80))));
        assert_eq!(split_authority("[::1]"), Some(("[::1]", None)));
        for bad in [
            "", ":80", "a:", "a:x", "a:99999", "[::1", "[::1]x", "[::1]:",
        ] {
            assert_eq!(split_authority(bad), None, "{bad}");
        }
        assert_eq!(origin_authority("http://a:1"), Some(("a:1", 80)));
        assert_eq!(origin_authority("https://a"), Some(("a", 443)));
        for bad in [
            "null",
            "file://",
            "ftp://a",
            "http://a/b",
            "http://u@a",
            "a",
        ] {
            assert_eq!(origin_authority(bad), None, "{bad}");
        }
        assert!(is_loopback("localhost:1") && is_loopback("127.0.0.2") && is_loopback("[::1]:8"));
        assert!(!is_loopback("10.0.0.1:8") && !is_loopback("evil") && !is_loopback("[::2]"));
        assert!(same_authority(("LocalHost:80", 80), ("localhost", 80)));
        assert!(!same_authority(("localhost:81", 80), ("localhost", 80)));
    }

    #[test]
    fn own_hosts() {
        let p = Protection::listening("127.0.0.1", 8080);
        for own in [
            "localhost:8080",
            "LOCALHOST:8080",
            "localhost.:8080",
            "127.0.0.1:8080",
            "192.168.1.20:8080",
            "[::1]:8080",
        ] {
            assert!(p.is_own(own, 80), "{own}");
        }
        for foreign in [
            "evil.example:8080",
            "localhost:8081",
            "localhost",
            "127.0.0.1",
            "::1:8080",
            "[evil]:8080",
            "localhost.evil.example:8080",
            "",
        ] {
            assert!(!p.is_own(foreign, 80), "{foreign}");
        }
        // a name given with --host is accepted too; port 80 may be left out
        let p = Protection::listening("Board.Local", 80);
        assert!(p.is_own("board.local", 80));
        assert!(p.is_own("board.local:80", 80));
        assert!(!p.is_own("other.local", 80));
        assert_eq!(
            Protection::listening("0.0.0.0", 1).names,
            Vec::<String>::new()
        );
        assert_eq!(Protection::listening("[::]", 1).names, Vec::<String>::new());
    }
}
