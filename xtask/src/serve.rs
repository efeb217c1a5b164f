//! The static file server of the page bench and the soak (old trees are served as they were), and the launcher
//! of the product's own server (`netcode-lab serve`) for `cargo xtask play`, `serve` and the end-to-end tests.
//!
//! tower-http's `ServeDir` does the work (MIME types from the extension — `.wasm` as `application/wasm`, `.js` as
//! `text/javascript` —, `Last-Modified` and conditional requests, ranges, no path ever leaving the folder); axum
//! runs it on a small tokio runtime. What this module adds:
//!
//! ```text
//!  request ─► ServeDir: a `.br` / `.gz` file beside the asked one and an Accept-Encoding that takes it?
//!               yes ─► that file, Content-Encoding: br | gzip      (what `cargo xtask dist` writes)
//!               no  ─► the file ─► compressed on the fly (brotli 5 / gzip) when the client takes it
//!                                   (so www/ served while you edit it is what users get, minus preloads)
//!          ─► Cache-Control: no-cache (revalidate every time: a rebuild is never hidden) + nosniff
//! ```
//! `Encoding::Identity` turns both off: the page bench uses it to serve a baseline exactly as the old
//! hand-written server did (uncompressed). `play`, `serve` and the end-to-end tests run the product's own
//! server instead (`netcode-lab serve`: the same files the same way, plus the snapshot stream the page records).

use axum::http::header::{HeaderValue, CACHE_CONTROL, X_CONTENT_TYPE_OPTIONS};
use axum::Router;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

/// Whether responses may be compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Precompressed `.br`/`.gz` when present, else compressed on the fly.
    Compressed,
    /// Every file as it is on disk (the old server's behaviour; the page bench's baseline).
    Identity,
}

/// Where to listen.
#[derive(Clone, Copy, Debug)]
pub struct Listen {
    pub port: u16,
    /// Every interface (0.0.0.0) instead of 127.0.0.1 only.
    pub lan: bool,
}

/// The router serving `dir`.
pub fn router(dir: &Path, encoding: Encoding) -> Router {
    let files = ServeDir::new(dir).append_index_html_on_directories(true);
    let router = match encoding {
        Encoding::Compressed => Router::new()
            .fallback_service(files.precompressed_br().precompressed_gzip())
            .layer(CompressionLayer::new().quality(CompressionLevel::Precise(5))),
        Encoding::Identity => Router::new().fallback_service(files),
    };
    router
        .layer(SetResponseHeaderLayer::overriding(CACHE_CONTROL, HeaderValue::from_static("no-cache")))
        .layer(SetResponseHeaderLayer::overriding(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
}

fn bind(listen: Listen) -> Result<TcpListener, String> {
    let ip = if listen.lan { IpAddr::V4(Ipv4Addr::UNSPECIFIED) } else { IpAddr::V4(Ipv4Addr::LOCALHOST) };
    let listener = TcpListener::bind(SocketAddr::new(ip, listen.port))
        .map_err(|e| format!("cannot listen on {ip}:{}: {e}", listen.port))?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    Ok(listener)
}

fn run(listener: TcpListener, router: Router) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_io().build().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(|e| e.to_string())?;
        axum::serve(listener, router).await.map_err(|e| e.to_string())
    })
}

/// Serves `dir` from a background thread on a free port of 127.0.0.1; returns the base URL.
pub fn serve_in_background(dir: &Path, encoding: Encoding) -> Result<String, String> {
    let listener = bind(Listen { port: 0, lan: false })?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let dir: PathBuf = dir.to_path_buf();
    std::thread::spawn(move || {
        if let Err(e) = run(listener, router(&dir, encoding)) {
            eprintln!("xtask: server for {} stopped: {e}", dir.display());
        }
    });
    Ok(format!("http://127.0.0.1:{port}/"))
}

/// `netcode-lab serve` (the product's server: the page and the snapshot stream), run as a child process; killed
/// when dropped.
pub struct Product {
    child: std::process::Child,
    pub url: String,
}

impl Drop for Product {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The product's binary, built (debug: the native tests built it already) and its path.
fn product_binary(root: &Path) -> Result<PathBuf, String> {
    let status = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "-q", "--bin", "netcode-lab"])
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("cargo build --bin netcode-lab failed".into());
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    Ok(target.join("debug/netcode-lab"))
}

/// Starts `netcode-lab serve --dir DIR` on a free port of 127.0.0.1 and waits for the URL it prints.
pub fn product_in_background(root: &Path, dir: &Path) -> Result<Product, String> {
    use std::io::BufRead;
    let mut child = std::process::Command::new(product_binary(root)?)
        .args(["serve", "--port", "0", "--dir"])
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start netcode-lab serve: {e}"))?;
    let mut first = String::new();
    let stdout = child.stdout.take().ok_or("netcode-lab serve: no stdout")?;
    std::io::BufReader::new(stdout).read_line(&mut first).map_err(|e| e.to_string())?;
    let url = first.split_whitespace().find(|w| w.starts_with("http://")).map(str::to_string);
    match url {
        Some(url) => Ok(Product { child, url }),
        None => Err(format!("netcode-lab serve did not say where it listens: {first:?}")),
    }
}

/// `netcode-lab serve --dir DIR` in the foreground, until stopped.
pub fn product_forever(root: &Path, dir: &Path, listen: Listen) -> Result<(), String> {
    let mut command = std::process::Command::new(product_binary(root)?);
    command.args(["serve", "--port", &listen.port.to_string(), "--dir"]).arg(dir);
    if listen.lan {
        command.arg("--lan");
    }
    let status = command.status().map_err(|e| format!("cannot start netcode-lab serve: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("netcode-lab serve ended: {status}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpStream;

    /// A raw HTTP/1.1 GET: (status line, lower-cased headers, body).
    fn get(base: &str, path: &str, accept_encoding: Option<&str>) -> (String, Vec<(String, String)>, Vec<u8>) {
        let addr = base.trim_start_matches("http://").trim_end_matches('/');
        let mut stream = TcpStream::connect(addr).expect("server listens");
        let extra = accept_encoding.map(|e| format!("Accept-Encoding: {e}\r\n")).unwrap_or_default();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n").unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).unwrap();
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a header block");
        let head = String::from_utf8_lossy(&raw[..split]).to_string();
        let mut lines = head.lines();
        let status = lines.next().unwrap_or_default().to_string();
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        (status, headers, raw[split + 4..].to_vec())
    }

    fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
        headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// A folder with a page, a script, a wasm file and a precompressed copy of the script; one per test (`name`):
    /// tests run in parallel, and one shared folder rewritten by one test while another's server read it made that
    /// server drop the connection without a response (seen once, on a fresh machine).
    fn site(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-serve-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(dir.join("pkg")).unwrap();
        std::fs::write(dir.join("index.html"), "<!doctype html><title>t</title>".repeat(20)).unwrap();
        std::fs::write(dir.join("main.js"), "export const answer = 42;\n".repeat(40)).unwrap();
        std::fs::write(dir.join("main.js.br"), b"pretend-brotli").unwrap();
        std::fs::write(dir.join("pkg/core_bg.wasm"), [0u8, 97, 115, 109, 1, 0, 0, 0].repeat(64)).unwrap();
        std::fs::write(dir.parent().unwrap().join("xtask-serve-secret.txt"), "secret").unwrap();
        dir
    }

    #[test]
    fn types_encodings_caching_and_the_folder_boundary() {
        let dir = site("types");
        let base = serve_in_background(&dir, Encoding::Compressed).unwrap();

        let (status, h, _) = get(&base, "/pkg/core_bg.wasm", None);
        assert!(status.contains("200"), "{status}");
        assert_eq!(header(&h, "content-type"), Some("application/wasm"));
        assert_eq!(header(&h, "cache-control"), Some("no-cache"));
        assert_eq!(header(&h, "x-content-type-options"), Some("nosniff"));
        assert_eq!(header(&h, "content-encoding"), None, "no Accept-Encoding, no encoding");

        // The precompressed file wins, with the type of the file it stands for.
        let (_, h, body) = get(&base, "/main.js", Some("gzip, deflate, br"));
        assert_eq!(header(&h, "content-type"), Some("text/javascript"));
        assert_eq!(header(&h, "content-encoding"), Some("br"));
        assert_eq!(body, b"pretend-brotli");

        // Without a precompressed copy the file is compressed on the fly.
        let (_, h, _) = get(&base, "/pkg/core_bg.wasm", Some("gzip"));
        assert_eq!(header(&h, "content-encoding"), Some("gzip"));
        let (status, h, body) = get(&base, "/", Some("identity"));
        assert!(status.contains("200") && header(&h, "content-type").unwrap().starts_with("text/html"));
        assert!(body.starts_with(b"<!doctype html>"));

        for escape in
            ["/../xtask-serve-secret.txt", "/pkg/../../xtask-serve-secret.txt", "/%2e%2e/xtask-serve-secret.txt"]
        {
            let (status, _, body) = get(&base, escape, None);
            assert!(!status.contains("200") && !body.ends_with(b"secret"), "{escape}: {status}");
        }
        assert!(get(&base, "/missing.js", None).0.contains("404"));
    }

    #[test]
    fn identity_never_compresses() {
        let dir = site("identity");
        let base = serve_in_background(&dir, Encoding::Identity).unwrap();
        let (_, h, body) = get(&base, "/main.js", Some("br, gzip"));
        assert_eq!(header(&h, "content-encoding"), None);
        assert!(body.starts_with(b"export const answer"));
    }
}
