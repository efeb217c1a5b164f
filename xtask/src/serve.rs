//! A small static file server for www/ (std only): `.wasm` as `application/wasm`, `pkg/` never cached,
//! bound to 127.0.0.1. Good enough for one developer and for the end-to-end tests; deploy `dist/` elsewhere.

use crate::run::say;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};

/// Serves `dir` on `port` until the process is stopped.
pub fn serve_forever(dir: &Path, port: u16) -> Result<(), String> {
    let listener = bind(port)?;
    let url = format!("http://127.0.0.1:{}/", listener.local_addr().map_err(|e| e.to_string())?.port());
    say("serve", format!("serving {} at {url}  (Ctrl-C to stop)", dir.display()));
    accept_loop(listener, dir.to_path_buf());
    Ok(())
}

/// Serves `dir` from a background thread on a free port; returns the base URL.
pub fn serve_in_background(dir: &Path) -> Result<String, String> {
    let listener = bind(0)?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let dir = dir.to_path_buf();
    std::thread::spawn(move || accept_loop(listener, dir));
    Ok(format!("http://127.0.0.1:{port}/"))
}

fn bind(port: u16) -> Result<TcpListener, String> {
    TcpListener::bind(("127.0.0.1", port)).map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))
}

fn accept_loop(listener: TcpListener, dir: PathBuf) {
    for stream in listener.incoming().flatten() {
        let dir = dir.clone();
        std::thread::spawn(move || {
            let _ = handle(stream, &dir);
        });
    }
}

fn handle(mut stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    if method != "GET" && method != "HEAD" {
        return respond(&mut stream, 405, "text/plain", "no-store", b"method not allowed", true);
    }
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let Some(file) = resolve(dir, path) else {
        return respond(&mut stream, 404, "text/plain", "no-store", b"not found", true);
    };
    match std::fs::read(&file) {
        Ok(body) => {
            let cache = if path.starts_with("/pkg/") { "no-store" } else { "no-cache" };
            respond(&mut stream, 200, content_type(&file), cache, &body, method == "GET")
        }
        Err(_) => respond(&mut stream, 404, "text/plain", "no-store", b"not found", true),
    }
}

/// Maps a URL path to a file under `dir`; refuses anything that would leave it.
fn resolve(dir: &Path, url_path: &str) -> Option<PathBuf> {
    let decoded = url_path.replace("%20", " ");
    let relative = Path::new(decoded.trim_start_matches('/'));
    if relative.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let mut file = dir.join(relative);
    if file.is_dir() {
        file = file.join("index.html");
    }
    file.is_file().then_some(file)
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "md" => "text/plain; charset=utf-8",
        "ts" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn respond(
    stream: &mut TcpStream,
    code: u16,
    kind: &str,
    cache: &str,
    body: &[u8],
    with_body: bool,
) -> std::io::Result<()> {
    let reason = match code {
        200 => "OK",
        404 => "Not Found",
        _ => "Method Not Allowed",
    };
    let head = format!(
        "HTTP/1.1 {code} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: {cache}\r\n\
         X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if with_body {
        stream.write_all(body)?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_cannot_escape_the_served_folder() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert!(resolve(dir, "/../Cargo.toml").is_none());
        assert!(resolve(dir, "/src/../../Cargo.toml").is_none());
        assert!(resolve(dir, "/Cargo.toml").is_some());
    }

    #[test]
    fn wasm_is_served_as_application_wasm() {
        assert_eq!(content_type(Path::new("pkg/netcode_lab_bg.wasm")), "application/wasm");
        assert_eq!(content_type(Path::new("js/main.js")), "text/javascript; charset=utf-8");
    }
}
