//! `cargo xtask view [--port P] [DIR]`: the planet in the browser. Serves the page
//! (`xtask/view/`, built in), three.js (from the npm registry at [`THREE_VERSION`], installed
//! on first use under `target/view-npm/`) and the demo's `DIR/view/` files on 127.0.0.1.
//!
//! The server is a few dozen lines of std: a fixed table of a dozen GET routes on the
//! loopback needs no routing, TLS, keep-alive or async, so a dependency would buy nothing.
//! Only the files in [`routes`] are served; every other path is a 404.

use crate::cli::ViewArgs;
use crate::tasks::root;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The three.js release the page is written against.
pub const THREE_VERSION: &str = "0.187.0";

/// The page's own files, built into the binary.
const PAGE: &[(&str, &str, &str)] = &[
    ("/", "text/html", include_str!("../view/index.html")),
    (
        "/viewer.js",
        "text/javascript",
        include_str!("../view/viewer.js"),
    ),
    (
        "/scene.js",
        "text/javascript",
        include_str!("../view/scene.js"),
    ),
    (
        "/colors.js",
        "text/javascript",
        include_str!("../view/colors.js"),
    ),
    (
        "/viewer.css",
        "text/css",
        include_str!("../view/viewer.css"),
    ),
];

/// What a path is answered with.
#[derive(Debug, PartialEq)]
enum Body {
    Text(&'static str, &'static str),
    File(PathBuf, &'static str),
}

/// The route table: the page, two three.js modules and the viewer files of `dir`.
fn routes(path: &str, dir: &Path, npm: &Path) -> Option<Body> {
    if let Some(&(_, mime, text)) = PAGE.iter().find(|(p, ..)| *p == path) {
        return Some(Body::Text(mime, text));
    }
    let three = npm.join("node_modules/three");
    let file = |p: PathBuf, mime| Some(Body::File(p, mime));
    match path {
        "/three/three.module.js" | "/three/three.core.js" => {
            file(three.join("build").join(&path[7..]), "text/javascript")
        }
        "/three/OrbitControls.js" => file(
            three.join("examples/jsm/controls/OrbitControls.js"),
            "text/javascript",
        ),
        "/data/manifest.json" => file(dir.join("view/manifest.json"), "application/json"),
        "/data/mesh.bin" | "/data/frames.bin" => file(
            dir.join("view").join(&path[6..]),
            "application/octet-stream",
        ),
        _ => None,
    }
}

/// The request line's method and path (query and fragment dropped).
fn parse_request_line(line: &str) -> Option<(&str, &str)> {
    let mut parts = line.split_ascii_whitespace();
    let (method, target, version) = (parts.next()?, parts.next()?, parts.next()?);
    if !version.starts_with("HTTP/1.") || parts.next().is_some() {
        return None;
    }
    let path = target.split(['?', '#']).next()?;
    path.starts_with('/').then_some((method, path))
}

fn respond(s: &mut TcpStream, status: &str, mime: &str, len: u64) -> io::Result<()> {
    write!(
        s,
        "HTTP/1.1 {status}\r\nContent-Type: {mime}\r\nContent-Length: {len}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
    )
}

/// Whether a `Host` header names this server (127.0.0.1 or localhost at `port`), so that a web
/// page elsewhere cannot read the files through a rebound DNS name.
fn host_ok(host: &str, port: u16) -> bool {
    let host = host.trim();
    host == format!("127.0.0.1:{port}") || host == format!("localhost:{port}")
}

/// Answers one request on `stream`; the server listens at `port`.
fn serve(stream: TcpStream, dir: &Path, npm: &Path, port: u16) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?.take(16 * 1024));
    let mut line = String::new();
    reader.read_line(&mut line)?;
    // Of the headers only `Host` matters.
    let mut header = String::new();
    let mut foreign = false;
    while reader.read_line(&mut header)? > 2 {
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("host")
        {
            foreign |= !host_ok(value, port);
        }
        header.clear();
    }
    let mut s = stream;
    if foreign {
        return respond(&mut s, "403 Forbidden", "text/plain", 0);
    }
    let Some((method, path)) = parse_request_line(line.trim_end()) else {
        let msg = "bad request\n";
        respond(&mut s, "400 Bad Request", "text/plain", msg.len() as u64)?;
        return s.write_all(msg.as_bytes());
    };
    if method != "GET" && method != "HEAD" {
        respond(&mut s, "405 Method Not Allowed", "text/plain", 0)?;
        return Ok(());
    }
    let head = method == "HEAD";
    match routes(path, dir, npm) {
        Some(Body::Text(mime, text)) => {
            respond(&mut s, "200 OK", mime, text.len() as u64)?;
            if !head {
                s.write_all(text.as_bytes())?;
            }
        }
        Some(Body::File(p, mime)) => match std::fs::File::open(&p) {
            Ok(mut f) => {
                respond(&mut s, "200 OK", mime, f.metadata()?.len())?;
                if !head {
                    io::copy(&mut f, &mut s)?;
                }
            }
            Err(_) => respond(&mut s, "404 Not Found", "text/plain", 0)?,
        },
        None => respond(&mut s, "404 Not Found", "text/plain", 0)?,
    }
    s.flush()
}

/// Where the npm packages of the page live.
fn npm_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
        .join("view-npm")
}

/// The version of an installed npm package (`None` when it is not there).
pub fn installed_version(modules: &Path, package: &str) -> Option<String> {
    let text = std::fs::read_to_string(modules.join(package).join("package.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["version"].as_str().map(str::to_string)
}

/// Installs three.js at [`THREE_VERSION`] into [`npm_dir`] unless it is there already.
fn ensure_three() -> Result<PathBuf, String> {
    let dir = npm_dir();
    if installed_version(&dir.join("node_modules"), "three").as_deref() == Some(THREE_VERSION) {
        return Ok(dir);
    }
    let npm_ok = Command::new("npm")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !npm_ok {
        return Err(
            "the viewer needs node and npm to fetch three.js once (Debian: \
                    `apt-get install nodejs npm`); neither `npm` was found on PATH"
                .into(),
        );
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let manifest =
        format!("{{\"private\": true, \"dependencies\": {{\"three\": \"{THREE_VERSION}\"}}}}\n");
    std::fs::write(dir.join("package.json"), manifest).map_err(|e| e.to_string())?;
    eprintln!(
        "installing three@{THREE_VERSION} into {} (once)",
        dir.display()
    );
    let status = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(&dir)
        .status()
        .map_err(|e| format!("cannot run npm: {e}"))?;
    if !status.success() {
        return Err(format!(
            "`npm install three@{THREE_VERSION}` failed ({status})"
        ));
    }
    Ok(dir)
}

pub fn run(args: &ViewArgs) -> Result<(), String> {
    let manifest = args.dir.join("view/manifest.json");
    if !manifest.is_file() {
        return Err(format!(
            "{} is missing: write it with `cargo xtask demo --out {}`",
            manifest.display(),
            args.dir.display()
        ));
    }
    let npm = ensure_three()?;
    let listener = TcpListener::bind(("127.0.0.1", args.port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", args.port))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!(
        "viewer: http://{addr}/ (showing {}; Ctrl-C stops)",
        args.dir.display()
    );
    io::stdout().flush().map_err(|e| e.to_string())?;
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let (dir, npm) = (args.dir.clone(), npm.clone());
        std::thread::spawn(move || {
            // A client that goes away mid-answer is its own business.
            let _ = serve(stream, &dir, &npm, addr.port());
        });
    }
    Ok(())
}

/// `cargo xtask view-test`: the browser tests (`xtask/view/test/`, `node --test`), after
/// installing their npm packages from the lock file when they are missing. Chromium comes
/// from Debian (`apt-get install chromium`; `.ci/run` does it).
pub fn test() -> Result<(), String> {
    let dir = root().join("xtask/view/test");
    let modules = dir.join("node_modules");
    let text = std::fs::read_to_string(dir.join("package.json")).map_err(|e| e.to_string())?;
    let pins: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let pins = pins["dependencies"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let stale = pins
        .iter()
        .any(|(name, v)| installed_version(&modules, name).as_deref() != v.as_str());
    if stale {
        crate::tasks::run(
            "npm",
            &[
                "ci",
                "--no-audit",
                "--no-fund",
                "--prefix",
                "xtask/view/test",
            ],
            &[],
        )?;
    }
    crate::tasks::run("node", &["--test", "xtask/view/test/viewer.test.mjs"], &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_lines_are_parsed_strictly() {
        assert_eq!(parse_request_line("GET / HTTP/1.1"), Some(("GET", "/")));
        assert_eq!(
            parse_request_line("GET /data/mesh.bin?x=1 HTTP/1.0"),
            Some(("GET", "/data/mesh.bin"))
        );
        for bad in [
            "",
            "GET",
            "GET /",
            "GET x HTTP/1.1",
            "GET / SPDY",
            "GET / HTTP/1.1 x",
        ] {
            assert_eq!(parse_request_line(bad), None, "{bad}");
        }
    }

    #[test]
    fn only_the_listed_files_are_served() {
        let (dir, npm) = (Path::new("/d"), Path::new("/n"));
        assert!(matches!(
            routes("/", dir, npm),
            Some(Body::Text("text/html", _))
        ));
        assert_eq!(
            routes("/data/mesh.bin", dir, npm),
            Some(Body::File(
                PathBuf::from("/d/view/mesh.bin"),
                "application/octet-stream"
            ))
        );
        assert_eq!(
            routes("/three/three.core.js", dir, npm),
            Some(Body::File(
                PathBuf::from("/n/node_modules/three/build/three.core.js"),
                "text/javascript"
            ))
        );
        for bad in [
            "/data/../../etc/passwd",
            "/data/",
            "/data/planet.world",
            "/three/../package.json",
            "/index.html/",
            "/view/manifest.json",
        ] {
            assert_eq!(routes(bad, dir, npm), None, "{bad}");
        }
    }

    #[test]
    fn the_server_answers_over_tcp() {
        let tmp = std::env::temp_dir().join(format!("xtask-view-{}", std::process::id()));
        std::fs::create_dir_all(tmp.join("view")).unwrap();
        std::fs::write(tmp.join("view/manifest.json"), "{}").unwrap();
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let addr = listener.local_addr().unwrap();
        let dir = tmp.clone();
        let server = std::thread::spawn(move || {
            for _ in 0..4 {
                let (s, _) = listener.accept().unwrap();
                serve(s, &dir, Path::new("/nonexistent"), addr.port()).unwrap();
            }
        });
        let get = |req: &str| {
            let mut c = TcpStream::connect(addr).unwrap();
            c.write_all(req.as_bytes()).unwrap();
            let mut out = String::new();
            c.read_to_string(&mut out).unwrap();
            out
        };
        let ok = get(&format!(
            "GET /data/manifest.json HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            addr.port()
        ));
        assert!(ok.starts_with("HTTP/1.1 200 OK\r\n"), "{ok}");
        assert!(ok.contains("Content-Length: 2\r\n") && ok.ends_with("\r\n\r\n{}"));
        assert!(get("GET /secret HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 404"));
        assert!(get("POST / HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 405"));
        let rebound = get("GET / HTTP/1.1\r\nHost: evil.example:80\r\n\r\n");
        assert!(rebound.starts_with("HTTP/1.1 403"), "{rebound}");
        server.join().unwrap();
        std::fs::remove_dir_all(tmp).unwrap();
    }
}
