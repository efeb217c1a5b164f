//! `netcode-lab serve`: the page and the snapshot stream from one HTTP server.
//!
//! ```text
//!  GET  /…            ─► the page's files (ServeDir: a `.br`/`.gz` beside the file when the client takes it —
//!                         what `cargo xtask dist` writes —, else compressed on the fly; Cache-Control: no-cache)
//!  GET  /stream/ws    ─► WebSocket: one stream (`netcode_lab::live::protocol`) per connection
//!  POST /stream/rtc   ─► WebRTC signalling: an offer in, an answer out; the stream on an unreliable,
//!                         unordered data channel (`rtc.rs`)
//! ```
//! Each stream's timing is its `Session`: the loop below sleeps until the next snapshot is due on the monotonic
//! clock (`tokio::time::sleep_until` an `Instant` computed from the start, so the sends never drift), answers the
//! client's messages as they come, and closes when the session says so. A refused message ends only its own
//! stream. By default the server listens on 127.0.0.1 only: the stream is unreachable from another machine
//! without `--lan` (every interface) or `--listen ADDR`.

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::http::header::{HeaderValue, CACHE_CONTROL, X_CONTENT_TYPE_OPTIONS};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use netcode_lab::live::protocol::{Reply, ServerMessage, Session, MAX_MESSAGE_BYTES};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::time::Instant;
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

/// What `serve` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    pub dir: PathBuf,
    pub listen: SocketAddr,
    /// Print the machine's local-network addresses (the listen address is every interface).
    pub lan: bool,
}

/// The server's routes over `dir`.
pub fn router(dir: &Path) -> Router {
    let files = ServeDir::new(dir).append_index_html_on_directories(true).precompressed_br().precompressed_gzip();
    let page = Router::new()
        .fallback_service(files)
        .layer(CompressionLayer::new().quality(CompressionLevel::Precise(5)))
        .layer(SetResponseHeaderLayer::overriding(CACHE_CONTROL, HeaderValue::from_static("no-cache")))
        .layer(SetResponseHeaderLayer::overriding(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")));
    Router::new().route("/stream/ws", get(websocket)).merge(super::rtc::routes()).merge(page)
}

/// Serves until the process is stopped; prints where (and, with `lan`, the addresses a phone can open).
pub fn serve(options: &Options) -> Result<(), String> {
    if !options.dir.join("index.html").is_file() {
        return Err(format!(
            "--dir: {} has no index.html (build the page: `cargo xtask dist`, then `--dir dist`)",
            options.dir.display()
        ));
    }
    let listener = std::net::TcpListener::bind(options.listen)
        .map_err(|e| format!("--listen: cannot listen on {}: {e}", options.listen))?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let shown = if options.listen.ip().is_unspecified() { IpAddr::from([127, 0, 0, 1]) } else { options.listen.ip() };
    // One line a script can read: the URL, first.
    println!("serving {} at http://{shown}:{port}/  (Ctrl-C to stop)", options.dir.display());
    if options.lan {
        let addresses = lan_addresses();
        if addresses.is_empty() {
            println!("--lan: no local-network address found (only loopback)");
        }
        for ip in addresses {
            println!("on your local network: http://{ip}:{port}/");
        }
    }
    let router = router(&options.dir);
    // One thread is plenty: a stream is a timer and a few small writes.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(|e| e.to_string())?;
        axum::serve(listener, router).await.map_err(|e| e.to_string())
    })
}

async fn websocket(upgrade: WebSocketUpgrade) -> Response {
    // The crate refuses frames past its limit by itself; below it, `Session` names a message over the stream's own.
    upgrade.max_message_size(64 * 1024).on_upgrade(stream)
}

/// One stream on one WebSocket.
async fn stream(mut socket: WebSocket) {
    let accepted = Instant::now();
    let since = |at: Instant| at.duration_since(accepted).as_secs_f64();
    let mut session = Session::default();
    loop {
        let wake = session.next_send().map(|t| accepted + Duration::from_secs_f64(t));
        let outgoing = tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => session.on_message(text.as_str(), since(Instant::now())),
                Some(Ok(Message::Binary(_))) => Reply::Close(vec![ServerMessage::Error {
                    message: format!("message: binary; the stream speaks JSON text (at most {MAX_MESSAGE_BYTES} bytes)"),
                }]),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
            },
            () = sleep_until(wake) => {
                let (due, over) = session.due(since(Instant::now()));
                if over { Reply::Close(due) } else { Reply::Send(due) }
            }
        };
        let (messages, close) = match outgoing {
            Reply::Send(m) => (m, false),
            Reply::Close(m) => (m, true),
        };
        for message in messages {
            if socket.send(Message::Text(message.to_json().into())).await.is_err() {
                return;
            }
        }
        if close {
            let frame = CloseFrame { code: 1000, reason: "".into() };
            let _ = socket.send(Message::Close(Some(frame))).await;
            // Wait for the client's close (a little): dropping a socket with its pings unread would reset the
            // connection, and a reset can throw away the last snapshots still in the client's buffer.
            let _ = tokio::time::timeout(Duration::from_secs(2), async {
                while let Some(Ok(m)) = socket.recv().await {
                    if matches!(m, Message::Close(_)) {
                        break;
                    }
                }
            })
            .await;
            return;
        }
    }
}

/// Sleeps until `at`, or forever when there is nothing to wait for.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The machine's IPv4 addresses other than loopback (what `--lan` prints).
fn lan_addresses() -> Vec<IpAddr> {
    let mut found: Vec<IpAddr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .into_iter()
        .map(|i| i.ip())
        .filter(|ip| ip.is_ipv4() && !ip.is_loopback())
        .collect();
    found.sort();
    found.dedup();
    found
}
