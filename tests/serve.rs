//! `netcode-lab serve` and `netcode-lab record` through the real binary: the page's files and a stream recorded
//! over loopback, and the server's door — a client that sends garbage, floods pings, sends an oversized or binary
//! message or hangs up mid-stream is refused by name (or let go) while another client's stream goes on.
#![cfg(all(not(target_arch = "wasm32"), feature = "serve"))]

#[path = "bad-inputs/catalogue.rs"]
mod catalogue;

use futures_util::{SinkExt, StreamExt};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use tokio_tungstenite::tungstenite::Message;

const BIN: &str = env!("CARGO_BIN_EXE_netcode-lab");

/// A server on a free port over a folder holding only an index.html; killed when dropped.
struct Server {
    child: Child,
    url: String,
    _dir: std::path::PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn server() -> Server {
    let dir = std::env::temp_dir().join(format!(
        "netcode-lab-serve-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><title>netcode-lab</title>").unwrap();
    let mut child = Command::new(BIN)
        .args(["serve", "--port", "0", "--dir"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    // "serving DIR at http://127.0.0.1:PORT/  (Ctrl-C to stop)"
    let url = first.split_whitespace().find(|w| w.starts_with("http://")).expect("the URL is printed").to_string();
    Server { child, url, _dir: dir }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// The server's messages to a client that sends `messages`, until it closes (at most 5 s).
async fn exchange(url: String, messages: Vec<Message>) -> Vec<String> {
    let ws = format!("{}stream/ws", url.replace("http://", "ws://"));
    let (mut socket, _) = tokio_tungstenite::connect_async(ws).await.expect("connects");
    for m in messages {
        socket.send(m).await.unwrap();
    }
    let mut got = Vec::new();
    let deadline = tokio::time::sleep(std::time::Duration::from_secs(5));
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            m = socket.next() => match m {
                Some(Ok(Message::Text(t))) => got.push(t.to_string()),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return got,
                _ => {}
            },
            () = &mut deadline => return got,
        }
    }
}

#[test]
fn the_page_is_served_and_a_recording_over_loopback_is_a_whole_trace() {
    let s = server();
    let page = Command::new("curl").args(["-s", &s.url]).output();
    if let Ok(page) = page {
        assert!(String::from_utf8_lossy(&page.stdout).contains("<title>netcode-lab</title>"));
    }
    // 2 s at 50 Hz over TCP on loopback: all 100 snapshots, ticks 0..=99, each at tick / 50 server seconds.
    let out =
        Command::new(BIN).args(["record", "--server", &s.url, "--seconds", "2", "--rate", "50"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let trace: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let snapshots = trace["snapshots"].as_array().unwrap();
    assert_eq!(snapshots.len(), 100);
    for (i, s) in snapshots.iter().enumerate() {
        assert_eq!(s["tick"], i as u64);
        assert!((s["serverTime"].as_f64().unwrap() - i as f64 / 50.0).abs() < 1e-12);
    }
    assert_eq!(trace["params"]["sendInterval"], 0.02);
    assert!(trace["rtt"].as_array().unwrap().len() >= 4, "four pings a second");
    assert_eq!(trace["note"], "recorded from netcode-lab serve over websocket at 50 Hz for 2 s");
    // The trace replays: every snapshot inserted, none refused.
    let mut replay =
        Command::new(BIN).args(["replay", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    std::io::Write::write_all(&mut replay.stdin.take().unwrap(), &out.stdout).unwrap();
    let replayed: serde_json::Value = serde_json::from_slice(&replay.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(replayed["metrics"]["inserted"], 100);
    // And through every strategy: each shows the recording (a position on most frames), none refuses it.
    let names = [
        "mirror",
        "mirror-core",
        "ngo",
        "ngo-1x",
        "source",
        "geckos",
        "lightyear",
        "fishnet",
        "gambetta",
        "neteq",
        "seed000",
        "seed004",
        "playground",
        "latest",
    ];
    // lightyear syncs its timeline only on the first packet after its third ping (`handshake_pings`); before that
    // it samples a timeline that is not the server's: its settling starts there.
    let trace: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let third_ping = trace["rtt"].as_array().and_then(|r| r.get(2)).and_then(|r| r["at"].as_f64());
    for name in names {
        let mut replay = Command::new(BIN)
            .args(["replay", "-", "--strategy", name])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut replay.stdin.take().unwrap(), &out.stdout).unwrap();
        let done = replay.wait_with_output().unwrap();
        assert!(done.status.success(), "{name}: {}", String::from_utf8_lossy(&done.stderr));
        let replayed: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
        // Past the first half second (priming: the buffered strategies wait for their delay), every frame
        // shows the entity: the recording is whole, so nothing is ever hidden.
        let samples = replayed["samples"].as_array().unwrap();
        let first = samples[0]["local"].as_f64().unwrap();
        // lightyear: half a second after its third ping. It syncs on the next packet and its timeline then jumps
        // back behind its data: a few frames show nothing while its history fills (locally 0.07–0.15 s after the
        // ping), and over a loaded loopback that packet comes later.
        let from = match name {
            "lightyear" => (first + 0.5).max(third_ping.expect("the recording measured round trips") + 0.5),
            _ => first + 0.5,
        };
        let settled: Vec<_> = samples.iter().filter(|s| s["local"].as_f64().unwrap() >= from).collect();
        let blank = settled.iter().filter(|s| !s["x"].is_number()).count();
        assert!(settled.len() > 40 && blank == 0, "{name}: {blank} of {} settled frames show nothing", settled.len());
    }
}

#[test]
fn bad_clients_are_refused_by_name_and_the_others_keep_streaming() {
    let s = server();
    runtime().block_on(async {
        let good =
            tokio::spawn(exchange(s.url.clone(), vec![Message::text(r#"{"type":"start","rate":20,"seconds":2}"#)]));
        // The catalogue's `stream` list (tests/bad-inputs/): each entry's messages, then its error, exactly.
        let catalogue = catalogue::load();
        let mut differences = Vec::new();
        for case in catalogue::list(&catalogue, "stream") {
            let mut messages: Vec<Message> = case["send"]
                .as_array()
                .map(|m| m.iter().map(|t| Message::text(catalogue::expanded(case, t.as_str().unwrap()))).collect())
                .unwrap_or_default();
            for i in 0..case["pings"].as_u64().unwrap_or(0) {
                messages.push(Message::text(format!(r#"{{"type":"ping","id":{i},"clientTime":0}}"#)));
            }
            if let Some(bytes) = case["binary"].as_array() {
                messages.push(Message::binary(bytes.iter().map(|b| b.as_u64().unwrap() as u8).collect::<Vec<u8>>()));
            }
            let got = exchange(s.url.clone(), messages).await;
            let last: serde_json::Value =
                got.last().map_or(serde_json::Value::Null, |m| serde_json::from_str(m).unwrap());
            let expected = catalogue::error(case).expect("every stream entry is refused");
            if last["type"] != "error" || last["message"] != expected {
                differences.push(format!("{}: got {got:?}", catalogue::id(case)));
            }
        }
        assert!(differences.is_empty(), "{}", differences.join("\n"));
        // A client that hangs up mid-stream: the server lets it go.
        let ws = format!("{}stream/ws", s.url.replace("http://", "ws://"));
        let (mut gone, _) = tokio_tungstenite::connect_async(ws).await.unwrap();
        gone.send(Message::text(r#"{"type":"start","rate":60,"seconds":60}"#)).await.unwrap();
        drop(gone);
        let got = good.await.unwrap();
        let snapshots = got.iter().filter(|m| m.contains(r#""type":"snapshot""#)).count();
        assert_eq!(snapshots, 40, "20 Hz for 2 s, all of it, beside the bad clients");
        assert_eq!(got.last().unwrap(), r#"{"type":"end","sent":40}"#);
    });
}

/// The catalogue's `offers` list: a POST to /stream/rtc gets the entry's status and `{"error"}` exactly.
#[test]
fn bad_offers_are_refused_by_name() {
    use std::io::{Read, Write};
    let s = server();
    let address = s.url.trim_start_matches("http://").trim_end_matches('/').to_string();
    let catalogue = catalogue::load();
    for case in catalogue::list(&catalogue, "offers") {
        let body = case["body"].as_str().unwrap();
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        write!(
            stream,
            "POST /stream/rtc HTTP/1.1\r\nHost: {address}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response.split_whitespace().nth(1).unwrap_or_default();
        assert_eq!(status, case["status"].as_u64().unwrap().to_string(), "{}: {response}", catalogue::id(case));
        let json: serde_json::Value = serde_json::from_str(response.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        assert_eq!(json["error"].as_str(), catalogue::error(case), "{}", catalogue::id(case));
    }
}

#[test]
fn record_refuses_bad_arguments_and_an_absent_server_by_name() {
    let run = |args: &[&str]| {
        let out = Command::new(BIN).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    assert_eq!(
        run(&["record", "--server", "http://127.0.0.1:1", "--seconds", "0"]),
        "--seconds: `0` is not a whole number in 1..=300\n"
    );
    assert_eq!(
        run(&["record", "--server", "http://127.0.0.1:1", "--seconds", "5", "--rate", "200"]),
        "--rate: `200` is not a whole number of Hz in 10..=128\n"
    );
    assert_eq!(
        run(&["record", "--server", "ftp://x", "--seconds", "5"]),
        "--server: `ftp://x` is not an http:// address (e.g. http://127.0.0.1:8080)\n"
    );
    assert!(run(&["record", "--server", "http://127.0.0.1:1", "--seconds", "5"])
        .starts_with("--server: ws://127.0.0.1:1/stream/ws: "));
    assert!(run(&["serve", "--dir", "/nonexistent"]).starts_with("--dir: /nonexistent has no index.html"));
}
