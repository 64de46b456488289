//! Puts the commit evotune is built from into `--version` (EVOTUNE_COMMIT). It comes from git
//! when the source is a checkout, from `.cargo_vcs_info.json` when it is a crate package, from
//! the EVOTUNE_COMMIT variable when the builder sets it (a tarball built by a script that
//! knows the commit), and is `unknown` otherwise: a build never fails for want of a commit.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=EVOTUNE_COMMIT");
    let commit = std::env::var("EVOTUNE_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(from_git)
        .or_else(from_package)
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=EVOTUNE_COMMIT={}", commit.trim());
}

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// The checkout's commit, with a rebuild when HEAD moves: HEAD itself (a checkout or a
/// detached HEAD) and the branch it names (a commit on the branch). Only when this
/// folder is the repository's top: a tarball unpacked inside another checkout is not it.
fn from_git() -> Option<String> {
    let top = git(&["rev-parse", "--show-toplevel"])?;
    let here = std::env::var("CARGO_MANIFEST_DIR").ok()?;
    if Path::new(&top).canonicalize().ok()? != Path::new(&here).canonicalize().ok()? {
        return None;
    }
    let head = git(&["rev-parse", "--git-path", "HEAD"])?;
    println!("cargo:rerun-if-changed={head}");
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        if let Some(file) = git(&["rev-parse", "--git-path", &branch]) {
            println!("cargo:rerun-if-changed={file}");
        }
        if let Some(packed) = git(&["rev-parse", "--git-path", "packed-refs"]) {
            println!("cargo:rerun-if-changed={packed}");
        }
    }
    git(&["rev-parse", "--short=12", "HEAD"])
}

/// `cargo package` records the commit it packaged in `.cargo_vcs_info.json`.
fn from_package() -> Option<String> {
    let text = std::fs::read_to_string(".cargo_vcs_info.json").ok()?;
    let info: serde_json::Value = serde_json::from_str(&text).ok()?;
    let sha = info.get("git")?.get("sha1")?.as_str()?;
    (sha.len() >= 12 && sha.bytes().all(|b| b.is_ascii_hexdigit())).then(|| sha[..12].to_string())
}
