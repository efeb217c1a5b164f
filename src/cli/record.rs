//! `netcode-lab record`: measure a network from a headless machine. Connects to a running `netcode-lab serve`,
//! asks for a stream, stamps every message on arrival with this process's monotonic clock, pings four times a
//! second, and prints the trace (`netcode_lab::live::recorder` builds it; the page's record worker does the
//! same in the browser).

use futures_util::{SinkExt, StreamExt};
use netcode_lab::live::recorder::Recorder;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// What `record` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    /// `http://HOST:PORT` (a path after it is ignored).
    pub server: String,
    pub channel: String,
    pub rate: u32,
    pub seconds: u32,
}

/// Pings a second.
const PINGS_PER_SECOND: f64 = 4.0;

/// Records and returns the trace's JSON. A connection that drops mid-stream keeps what arrived, marked partial
/// (on stderr too); nothing arriving at all is an error.
pub fn record(options: &Options) -> Result<String, String> {
    if options.channel != "websocket" {
        return Err(format!("--channel: `{}` is not recorded natively (known: websocket)", options.channel));
    }
    let url = websocket_url(&options.server)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    let (recorder, partial) = runtime.block_on(run(&url, options))?;
    if let Some(why) = &partial {
        eprintln!("record: partial: {why}");
    }
    let trace = recorder
        .finish(&options.channel, partial.as_deref())
        .ok_or_else(|| format!("record: no snapshot arrived from {url}"))?;
    Ok(trace.to_json())
}

/// `http://host:port[/…]` → `ws://host:port/stream/ws`.
fn websocket_url(server: &str) -> Result<String, String> {
    let rest = server
        .strip_prefix("http://")
        .ok_or_else(|| format!("--server: `{server}` is not an http:// address (e.g. http://127.0.0.1:8080)"))?;
    let host = rest.split('/').next().unwrap_or_default();
    if host.is_empty() {
        return Err(format!("--server: `{server}` has no host"));
    }
    Ok(format!("ws://{host}/stream/ws"))
}

async fn run(url: &str, options: &Options) -> Result<(Recorder, Option<String>), String> {
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.map_err(|e| format!("--server: {url}: {e}"))?;
    let zero = Instant::now();
    let local = || zero.elapsed().as_secs_f64();
    let mut rec = Recorder::new();
    socket.send(Message::text(Recorder::start(options.rate, options.seconds))).await.map_err(|e| e.to_string())?;
    let mut pings = tokio::time::interval(Duration::from_secs_f64(1.0 / PINGS_PER_SECOND));
    // The server ends the stream; this only guards against one that never does.
    let deadline = tokio::time::sleep(Duration::from_secs(u64::from(options.seconds) + 30));
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            incoming = socket.next() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    let at = local();
                    if let Err(e) = rec.on_message(text.as_str(), at) {
                        return Ok((rec, Some(e)));
                    }
                    if let Some(error) = rec.error() {
                        return Err(format!("record: the server refused the stream: {error}"));
                    }
                }
                Some(Ok(Message::Close(_))) | None => break,
                Some(Ok(_)) => {}
                // After `end` the stream is whole, however the socket then closes.
                Some(Err(_)) if rec.finished() => break,
                Some(Err(e)) => return Ok((rec, Some(format!("the connection failed ({e})")))),
            },
            _ = pings.tick(), if rec.rate().is_some() && !rec.finished() => {
                let text = rec.ping(local());
                if socket.send(Message::text(text)).await.is_err() {
                    return Ok((rec, Some("the connection closed while pinging".into())));
                }
            }
            () = &mut deadline => return Ok((rec, Some("the server did not end the stream in time".into()))),
        }
    }
    let partial = (!rec.finished()).then(|| "the server closed the connection before the end".to_string());
    Ok((rec, partial))
}
