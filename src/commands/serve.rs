//! `evotune serve`: a small read-only web server on a results folder, to watch runs from a
//! browser as their generations finish. It reads the runs' files on every request (they are
//! the source of truth; the runs need not know that anyone watches) and writes nothing.
//!
//! Pages: `/` lists the runs, `/run/<run>/` shows one (the page of `report.html`, with a
//! script that polls `/api/run/<run>` every two seconds and redraws when its files change),
//! `/run/<run>/<file>` the files the page links to; `/api/runs` and `/api/run/<run>` are JSON.

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Result};
use clap::Args;
use tiny_http::{Header, Method, Request, Response, Server};

use crate::watch::page as html;
use crate::watch::run_files::{list_runs, RunFiles};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The folder of the runs (the `results/` of `evolve`), or one run's results folder.
    #[arg(default_value = "results")]
    pub results: PathBuf,
    /// The address to listen on. The default serves this machine only; give 0.0.0.0 (or one
    /// of the machine's addresses) to let others on the network watch. The pages are
    /// read-only, but they show the runs to anyone who can reach the port.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// The port (0: any free one; the URL line says which).
    #[arg(long, default_value_t = 8470)]
    pub port: u16,
}

pub fn run(args: &ServeArgs) -> Result<()> {
    if !args.results.is_dir() {
        bail!(
            "{}: no such folder (give the folder of the runs, e.g. results/, or one run's results/<run>)",
            args.results.display()
        );
    }
    let server = Server::http(SocketAddr::new(args.bind, args.port))
        .map_err(|e| anyhow!("cannot listen on {}:{}: {e}", args.bind, args.port))?;
    let addr = server.server_addr().to_ip().ok_or_else(|| anyhow!("the server has no IP address"))?;
    let host = if addr.ip().is_unspecified() { "127.0.0.1".to_string() } else { addr.ip().to_string() };
    let host = if host.contains(':') { format!("[{host}]") } else { host };
    // The first line of stdout, for people and for scripts that started the server on port 0.
    println!("serving {} at http://{host}:{}/ (Ctrl-C stops)", args.results.display(), addr.port());
    use std::io::Write;
    std::io::stdout().flush()?;
    for request in server.incoming_requests() {
        let _ = answer(&args.results, request);
    }
    Ok(())
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn respond(request: Request, status: u16, content_type: &str, body: Vec<u8>) -> std::io::Result<()> {
    let response = Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"));
    request.respond(response)
}

/// What a request asks for.
#[derive(Debug, PartialEq, Eq)]
enum Route<'a> {
    Index,
    Runs,
    Run(&'a str),
    RunBody(&'a str),
    RunJson(&'a str),
    File(&'a str, &'a str),
    NotFound,
}

/// A run's name as a URL gives it: one plain folder name.
fn plain(name: &str) -> Option<&str> {
    (!name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '%'])).then_some(name)
}

fn route(url: &str) -> Route<'_> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match parts[..] {
        [""] => Route::Index,
        ["api", "runs"] => Route::Runs,
        ["api", "run", name] => plain(name).map_or(Route::NotFound, Route::RunJson),
        ["run", name] | ["run", name, ""] => plain(name).map_or(Route::NotFound, Route::Run),
        ["run", name, "body"] => plain(name).map_or(Route::NotFound, Route::RunBody),
        ["run", name, file] if html::LINKED_FILES.contains(&file) => {
            plain(name).map_or(Route::NotFound, |n| Route::File(n, file))
        }
        _ => Route::NotFound,
    }
}

/// The results folder of a run by name: `root` itself when it is one run's folder.
fn run_dir(root: &Path, name: &str) -> Option<PathBuf> {
    list_runs(root).into_iter().find(|d| d.file_name().is_some_and(|n| n == name))
}

fn content_type(file: &str) -> &'static str {
    match file.rsplit('.').next() {
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("html") => "text/html; charset=utf-8",
        Some("csv") => "text/csv; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    }
}

fn answer(root: &Path, request: Request) -> std::io::Result<()> {
    if !matches!(request.method(), Method::Get | Method::Head) {
        return respond(request, 405, "text/plain; charset=utf-8", b"read-only: GET only\n".to_vec());
    }
    let url = request.url().to_string();
    let json = |v: &serde_json::Value| serde_json::to_vec_pretty(v).unwrap_or_default();
    let not_found = |what: String| (404, "text/plain; charset=utf-8", format!("{what}\n").into_bytes());
    let (status, kind, body) = match route(&url) {
        Route::Index => {
            let runs: Vec<RunFiles> = list_runs(root).iter().filter_map(|d| RunFiles::read(d).ok()).collect();
            (200, "text/html; charset=utf-8", html::index_page(root, &runs, "/api/runs").into_bytes())
        }
        Route::Runs => {
            let runs: Vec<serde_json::Value> = list_runs(root)
                .iter()
                .filter_map(|d| RunFiles::read(d).ok())
                .map(|r| {
                    serde_json::json!({
                        "name": r.name,
                        "stamp": r.stamp,
                        "generation": r.last_generation(),
                        "finished": r.summary.is_some(),
                    })
                })
                .collect();
            (200, "application/json", json(&serde_json::Value::Array(runs)))
        }
        Route::Run(name) | Route::RunBody(name) | Route::RunJson(name) => match run_dir(root, name) {
            None => not_found(format!("no run `{name}` in {}", root.display())),
            Some(dir) => match RunFiles::read(&dir) {
                Err(e) => (500, "text/plain; charset=utf-8", format!("{e:#}\n").into_bytes()),
                Ok(files) => match route(&url) {
                    Route::RunJson(_) => (200, "application/json", json(&html::run_json(&files))),
                    Route::RunBody(_) => (200, "text/html; charset=utf-8", html::run_body(&files).into_bytes()),
                    _ => {
                        let api = format!("/api/run/{name}");
                        let body = format!("/run/{name}/body");
                        (200, "text/html; charset=utf-8", html::run_page(&files, Some((&api, &body))).into_bytes())
                    }
                },
            },
        },
        Route::File(name, file) => match run_dir(root, name).map(|d| std::fs::read(d.join(file))) {
            Some(Ok(bytes)) => (200, content_type(file), bytes),
            _ => not_found(format!("no {file} in run `{name}`")),
        },
        Route::NotFound => not_found(format!("nothing at {url}")),
    };
    respond(request, status, kind, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_take_plain_run_names_and_linked_files_only() {
        assert_eq!(route("/"), Route::Index);
        assert_eq!(route("/api/runs"), Route::Runs);
        assert_eq!(route("/run/quick/"), Route::Run("quick"));
        assert_eq!(route("/run/quick"), Route::Run("quick"));
        assert_eq!(route("/run/quick/body?x=1"), Route::RunBody("quick"));
        assert_eq!(route("/api/run/quick"), Route::RunJson("quick"));
        assert_eq!(route("/run/quick/report.md"), Route::File("quick", "report.md"));
        assert_eq!(route("/run/quick/gen-0001.json"), Route::NotFound);
        assert_eq!(route("/run/../report.md"), Route::NotFound);
        assert_eq!(route("/run/..%2F/report.md"), Route::NotFound);
        assert_eq!(route("/run/a/b/c"), Route::NotFound);
    }
}
