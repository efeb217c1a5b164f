//! The stream on a WebRTC data channel: what browser games use to get UDP's behaviour (a lost message is gone, a
//! late one may be overtaken), so a recording shows the network itself rather than TCP's repairs of it.
//!
//! ```text
//!  page: RTCPeerConnection, createDataChannel("stream", {ordered: false, maxRetransmits: 0}), offer,
//!        ICE gathering complete ─► POST /stream/rtc  {"type": "offer", "sdp"}
//!  here: str0m accepts the offer with one host candidate: a UDP socket on the address the page was opened at
//!        (the Host header: 127.0.0.1, or the LAN address a phone typed) ◄─ {"type": "answer", "sdp"}
//!        a thread per peer: poll str0m ─► UDP out; UDP in / timeouts ─► str0m; the channel's messages ─► the
//!        same `Session` as the WebSocket's; its due snapshots ─► channel.write
//! ```
//! str0m is sans-IO: it never reads a clock or a socket, so the loop below hands it both. A peer that never
//! connects is dropped after [`CONNECT_TIMEOUT`]; at most [`MAX_PEERS`] run at once (the next offer is refused
//! by name). No STUN or TURN: on a LAN or loopback the host candidate is enough; across NATs use the WebSocket.

use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use netcode_lab::live::protocol::{Reply, ServerMessage, Session};
use serde_json::{json, Value};
use std::io::ErrorKind;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use str0m::change::SdpOffer;
use str0m::channel::ChannelId;
use str0m::net::{Protocol, Receive};
use str0m::{Candidate, Event, IceConnectionState, Input, Output, Rtc, RtcConfig};

/// WebRTC streams at once.
pub const MAX_PEERS: usize = 64;
/// How long a peer may take to connect after its answer.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a finished stream stays open so its last messages can leave.
const LINGER: Duration = Duration::from_millis(500);

static PEERS: AtomicUsize = AtomicUsize::new(0);

pub fn routes() -> Router {
    Router::new().route("/stream/rtc", post(offer)).layer(DefaultBodyLimit::max(64 * 1024))
}

fn refuse(status: StatusCode, message: String) -> (StatusCode, Json<Value>) {
    (status, Json(json!({ "error": message })))
}

/// `POST /stream/rtc`: the page's offer in, the answer out, and a thread that runs the peer.
async fn offer(headers: HeaderMap, body: String) -> (StatusCode, Json<Value>) {
    let offer: Value = match serde_json::from_str(&body) {
        Ok(v) => v,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, format!("offer: not JSON ({e})")),
    };
    let Some(sdp) = offer.get("sdp").and_then(Value::as_str) else {
        return refuse(StatusCode::BAD_REQUEST, "offer: `sdp` missing (post the RTCSessionDescription)".into());
    };
    let offer = match SdpOffer::from_sdp_string(sdp) {
        Ok(o) => o,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, format!("offer: `sdp` does not parse ({e})")),
    };
    if PEERS.fetch_add(1, Ordering::SeqCst) >= MAX_PEERS {
        PEERS.fetch_sub(1, Ordering::SeqCst);
        return refuse(StatusCode::SERVICE_UNAVAILABLE, format!("offer: {MAX_PEERS} WebRTC streams already run"));
    }
    match answer(host_ip(&headers), offer) {
        Ok((rtc, socket, sdp)) => {
            std::thread::spawn(move || {
                run(rtc, socket);
                PEERS.fetch_sub(1, Ordering::SeqCst);
            });
            (StatusCode::OK, Json(json!({ "type": "answer", "sdp": sdp })))
        }
        Err(e) => {
            PEERS.fetch_sub(1, Ordering::SeqCst);
            refuse(StatusCode::INTERNAL_SERVER_ERROR, e)
        }
    }
}

/// The address the page was opened at (the Host header), where the page can reach us; 127.0.0.1 for a name.
fn host_ip(headers: &HeaderMap) -> IpAddr {
    let host = headers.get("host").and_then(|h| h.to_str().ok()).unwrap_or("");
    let name = match host.rfind(':') {
        Some(i) if !host.ends_with(']') => &host[..i],
        _ => host,
    };
    name.trim_start_matches('[').trim_end_matches(']').parse().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
}

fn answer(ip: IpAddr, offer: SdpOffer) -> Result<(Rtc, UdpSocket, String), String> {
    static PROVIDER: std::sync::Once = std::sync::Once::new();
    PROVIDER.call_once(|| str0m::crypto::from_feature_flags().install_process_default());
    let socket = UdpSocket::bind(SocketAddr::new(ip, 0)).map_err(|e| format!("offer: no UDP socket on {ip} ({e})"))?;
    let local = socket.local_addr().map_err(|e| e.to_string())?;
    let mut rtc = RtcConfig::new().build(Instant::now());
    let candidate = Candidate::host(local, "udp").map_err(|e| format!("offer: candidate {local}: {e}"))?;
    rtc.add_local_candidate(candidate);
    let answer = rtc.sdp_api().accept_offer(offer).map_err(|e| format!("offer: not accepted ({e})"))?;
    Ok((rtc, socket, answer.to_sdp_string()))
}

/// Runs one peer until its stream ends, it disconnects, or it never connects.
fn run(mut rtc: Rtc, socket: UdpSocket) {
    let created = Instant::now();
    let since = |at: Instant| at.duration_since(created).as_secs_f64();
    let mut session = Session::default();
    let mut channel: Option<ChannelId> = None;
    let mut connected = false;
    let mut closing: Option<Instant> = None;
    let mut buf = vec![0u8; 2000];
    loop {
        let now = Instant::now();
        if closing.is_some_and(|at| now >= at) || (!connected && now - created > CONNECT_TIMEOUT) {
            return;
        }
        // Snapshots due now go out before str0m is polled, so they leave in this turn.
        if let Some(id) = channel {
            if closing.is_none() && session.next_send().is_some_and(|t| t <= since(now)) {
                let (due, over) = session.due(since(now));
                write(&mut rtc, id, &due);
                if over {
                    closing = Some(now + LINGER);
                }
            }
        }
        let wake = match rtc.poll_output() {
            Ok(Output::Timeout(at)) => at,
            Ok(Output::Transmit(t)) => {
                let _ = socket.send_to(&t.contents, t.destination);
                continue;
            }
            Ok(Output::Event(event)) => {
                match event {
                    Event::IceConnectionStateChange(IceConnectionState::Connected) => connected = true,
                    Event::IceConnectionStateChange(IceConnectionState::Disconnected) => return,
                    Event::ChannelOpen(id, _) => channel = Some(id),
                    Event::ChannelData(data) if Some(data.id) == channel => {
                        let reply = match std::str::from_utf8(&data.data) {
                            Ok(text) if !data.binary => session.on_message(text, since(Instant::now())),
                            _ => Reply::Close(vec![ServerMessage::Error {
                                message: "message: binary; the stream speaks JSON text (at most 1024 bytes)".into(),
                            }]),
                        };
                        let (messages, close) = match reply {
                            Reply::Send(m) => (m, false),
                            Reply::Close(m) => (m, true),
                        };
                        write(&mut rtc, data.id, &messages);
                        if close && closing.is_none() {
                            closing = Some(Instant::now() + LINGER);
                        }
                    }
                    Event::ChannelClose(_) => return,
                    _ => {}
                }
                continue;
            }
            Err(_) => return,
        };
        let next_send = session.next_send().map(|t| created + Duration::from_secs_f64(t));
        let wake = next_send.map_or(wake, |s| s.min(wake)).min(Instant::now() + Duration::from_millis(100));
        let timeout = wake.saturating_duration_since(Instant::now());
        if timeout.is_zero() {
            if rtc.handle_input(Input::Timeout(Instant::now())).is_err() {
                return;
            }
            continue;
        }
        let _ = socket.set_read_timeout(Some(timeout));
        let input = match socket.recv_from(&mut buf) {
            Ok((n, source)) => match buf[..n].try_into() {
                Ok(contents) => Input::Receive(
                    Instant::now(),
                    Receive {
                        proto: Protocol::Udp,
                        source,
                        destination: socket.local_addr().unwrap_or(source),
                        contents,
                    },
                ),
                Err(_) => continue, // not STUN, DTLS or RTP: someone else's datagram
            },
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => Input::Timeout(Instant::now()),
            Err(_) => return,
        };
        if rtc.handle_input(input).is_err() {
            return;
        }
    }
}

fn write(rtc: &mut Rtc, id: ChannelId, messages: &[ServerMessage]) {
    if let Some(mut channel) = rtc.channel(id) {
        for m in messages {
            // A full send buffer drops the message: on this channel that is what the network does anyway.
            let _ = channel.write(false, m.to_json().as_bytes());
        }
    }
}
