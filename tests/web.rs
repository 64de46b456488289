//! `evotune serve` in a real browser: Debian's Chromium, headless, driven through chromedriver
//! (WebDriver over HTTP) loads the page of a real tiny run, shows its curves, and updates when
//! a generation is appended to history.csv and when the work in flight moves on.
//!
//! Without chromium and chromedriver this test says so loudly and passes, so that `cargo test`
//! runs on a machine without a browser; with EVOTUNE_REQUIRE_BROWSER=1 (as .ci/run sets it,
//! after installing the packages) their absence fails it.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

mod common;
use common::cli::{s, BIN};
use common::runs::{evotune, tiny_config};

/// A child process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(program)).find(|p| p.is_file())
}

/// Chromium and chromedriver, or None after a loud message (a failure when they are required).
fn browser() -> Option<(PathBuf, PathBuf)> {
    let chromium = find("chromium").or_else(|| find("chromium-browser"));
    let driver = find("chromedriver");
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        _ => {
            let required = std::env::var("EVOTUNE_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
            let msg = "chromium and chromedriver are not installed: the browser test of `evotune serve` did NOT run \
                       (apt-get install -y chromium chromium-driver; .ci/run installs them and runs it)";
            assert!(!required, "{msg}");
            eprintln!("\n{}\nSKIPPED: {msg}\n{}\n", "!".repeat(100), "!".repeat(100));
            None
        }
    }
}

/// A WebDriver session on a chromedriver.
struct Driver {
    base: String,
    session: String,
    agent: ureq::Agent,
}

impl Driver {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}/session/{}{path}", self.base, self.session);
        let mut response = match (method, body) {
            ("POST", body) => self.agent.post(&url).send_json(body.unwrap_or(json!({}))),
            ("DELETE", _) => self.agent.delete(&url).call(),
            _ => self.agent.get(&url).call(),
        }
        .unwrap_or_else(|e| panic!("{method} {url}: {e}"));
        let v: Value = response.body_mut().read_json().unwrap();
        assert!(v["value"].get("error").is_none(), "{method} {path}: {v}");
        v["value"].clone()
    }

    fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    /// Runs a script in the page and returns its value.
    fn script(&self, code: &str) -> Value {
        self.call("POST", "/execute/sync", Some(json!({ "script": code, "args": [] })))
    }

    /// Waits until the script returns true, or fails after `limit` with the page's text.
    fn wait_for(&self, what: &str, code: &str, limit: Duration) {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.script(code) == json!(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        panic!("the page never showed {what}; it shows:\n{}", self.script("return document.body.innerText"));
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.agent.delete(&format!("{}/session/{}", self.base, self.session)).call();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Starts chromedriver and a headless Chromium session with the flags this machine needs
/// (no sandbox as root, no GPU, no background connections to the outside).
fn start_browser(chromium: &Path, driver: &Path, profile: &Path) -> (Killed, Driver) {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let child = Killed(child);
    let base = format!("http://127.0.0.1:{port}");
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let start = Instant::now();
    while agent.get(&format!("{base}/status")).call().is_err() {
        assert!(start.elapsed() < Duration::from_secs(60), "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let args = [
        "--headless".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--disable-quic".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--no-first-run".into(),
        "--window-size=1400,1000".into(),
        format!("--user-data-dir={}", profile.display()),
    ];
    let caps = json!({ "capabilities": { "alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": { "binary": chromium.to_str().unwrap(), "args": args },
    }}});
    let mut response = agent.post(&format!("{base}/session")).send_json(caps).expect("new session");
    let v: Value = response.body_mut().read_json().unwrap();
    let session = v["value"]["sessionId"].as_str().unwrap_or_else(|| panic!("no session: {v}")).to_string();
    (child, Driver { base, session, agent })
}

/// Starts `evotune serve` on a free port and returns it with its URL (its first line).
fn serve(results: &Path) -> (Killed, String) {
    let mut child = Command::new(BIN)
        .args(["serve", s(results), "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start evotune serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_else(|| panic!("{line}"));
    assert!(url.starts_with("http://127.0.0.1:"), "binds to this machine by default: {line}");
    (Killed(child), url.to_string())
}

#[test]
fn the_served_page_shows_a_run_and_follows_it_in_a_browser() {
    let Some((chromium, driver)) = browser() else { return };
    let dir = tempfile::tempdir().unwrap();
    let config = tiny_config(dir.path(), 2);
    evotune(&["evolve", "--config", s(&config), "--out", s(dir.path()), "--log"]);
    let results = dir.path().join("results");
    let run = results.join("tiny");
    // report.html is written beside the report, self-contained (no script, no outside file).
    let report = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert!(report.contains("<svg") && !report.contains("<script") && !report.contains("src=\"http"));

    let (_server, url) = serve(&results);
    let profile = dir.path().join("chromium-profile");
    let (_chromedriver, page) = start_browser(&chromium, &driver, &profile);

    page.open(&url);
    page.wait_for(
        "the run in the list of runs",
        "return document.querySelector('#runs a')?.textContent === 'tiny'",
        Duration::from_secs(60),
    );
    page.open(&format!("{url}run/tiny/"));
    page.wait_for(
        "the run's status",
        "return document.getElementById('status')?.dataset.generation === '2'",
        Duration::from_secs(60),
    );
    // The curves are drawn: lines in the fitness figure, the validation table, each gene.
    let drawn = page.script(
        "const c = document.querySelector('#curves svg'); const g = document.querySelector('#genes svg');
         return [c ? c.querySelectorAll('polyline, path, line').length : 0,
                 g ? g.querySelectorAll('polyline, path, line').length : 0,
                 document.querySelectorAll('#validation tr').length,
                 c ? c.getBoundingClientRect().width : 0]",
    );
    assert!(drawn[0].as_u64().unwrap() > 5, "no curves: {drawn}");
    assert!(drawn[1].as_u64().unwrap() > 5, "no genes: {drawn}");
    assert_eq!(drawn[2], 2, "the validation table: a header and the match against defaults");
    assert!(drawn[3].as_f64().unwrap() > 300.0, "the figure is not laid out: {drawn}");

    // A generation appended to history.csv and work in flight: the open page follows.
    let history = run.join("history.csv");
    let text = std::fs::read_to_string(&history).unwrap();
    let last = text.lines().last().unwrap();
    let (_, rest) = last.split_once(',').unwrap();
    std::fs::write(&history, format!("{text}3,{rest}\n")).unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    std::fs::remove_file(run.join("summary.json")).unwrap();
    let progress = json!({"task": "gen 4/4", "done": 5, "total": 16, "unit": "games", "started": now, "updated": now});
    std::fs::write(run.join("progress.json"), progress.to_string()).unwrap();
    page.wait_for(
        "generation 3 after it was appended",
        "return document.getElementById('status').dataset.generation === '3'
            && document.querySelector('#history tr:nth-child(2) td').textContent === '3'",
        Duration::from_secs(60),
    );
    page.wait_for(
        "the games in flight",
        "return document.getElementById('progress').textContent.startsWith('gen 4/4: 5 of 16 games')",
        Duration::from_secs(60),
    );
    if let Ok(path) = std::env::var("EVOTUNE_SCREENSHOT") {
        let png = page.call("GET", "/screenshot", None);
        use base64::Engine;
        std::fs::write(&path, base64::engine::general_purpose::STANDARD.decode(png.as_str().unwrap()).unwrap())
            .unwrap();
    }
}
