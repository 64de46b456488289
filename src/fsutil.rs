//! File helpers shared by every writer: nothing is ever left half-written.
//!
//! Two kinds of file are written: whole files, replaced atomically ([`write_atomic`]), and
//! logs of lines that only grow by whole lines ([`LineLog`]). A crash or a full disk leaves
//! either the old content or the new, never a mix, and no temporary file behind once the
//! writer has returned.
//!
//! Every write step passes a test-only failpoint ([`failpoint`]) so that the tests can kill
//! the process at each of them and check that a resumed run comes out the same.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The environment variable of the failpoints: `KIND@N` aborts the process at the N-th step
/// of that kind (`KIND` alone: the first). Kinds: `temp` (an atomic write's temporary file is
/// on disk but not yet renamed) and `write` (any write step has just completed).
pub const FAILPOINT_VAR: &str = "EVOTUNE_FAILPOINT";

/// A test hook: aborts the process, as a `kill -9` or a power cut would stop it, when
/// [`FAILPOINT_VAR`] names this step. Costs one atomic increment per file write otherwise.
pub fn failpoint(kind: &str, what: &Path) {
    static TARGET: OnceLock<Option<(String, u64)>> = OnceLock::new();
    static HITS: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
    let target = TARGET.get_or_init(|| {
        let spec = std::env::var(FAILPOINT_VAR).ok()?;
        let (name, n) = match spec.split_once('@') {
            Some((name, n)) => (name.to_string(), n.parse().ok()?),
            None => (spec, 1),
        };
        Some((name, n))
    });
    let Some((name, n)) = target else { return };
    let slot = match kind {
        "temp" => 0,
        _ => 1,
    };
    let hit = HITS[slot].fetch_add(1, Ordering::SeqCst) + 1;
    if name == kind && hit == *n {
        eprintln!("failpoint {kind}@{n}: aborting at {}", what.display());
        std::process::abort();
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder is written,
/// flushed to disk and renamed over the target, so a crash leaves either the old file or the
/// new one, never a truncated mix. Missing parent folders are created. On any error the
/// temporary file is removed (a full disk must not fill up with them). A symbolic link is
/// followed (the file it names is replaced, the link stays); a device or a named pipe
/// (`/dev/null`, `/dev/stdout`) is written straight through, never replaced.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_whole(path, bytes, true)
}

/// [`write_atomic`] without waiting for the disk: the file is replaced whole (a reader or a
/// killed process sees the old file or the new one), but a power cut may lose it. For files
/// derived from a checkpoint, which a resumed run writes again (a run's champions,
/// `history.csv`, `report.html`), and for watchers' mirrors (`progress.json`): two disk
/// flushes each, every generation, held up every thread of a fast run.
pub fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_whole(path, bytes, false)
}

fn write_whole(path: &Path, bytes: &[u8], durable: bool) -> std::io::Result<()> {
    let target = follow_link(path);
    let path = target.as_path();
    if is_device_or_pipe(path) {
        // `-o /dev/null`, `-o /dev/stdout`, a named pipe: a rename would put a regular file
        // in the device's place (for root, /dev/null itself), so the bytes go through it.
        fs::OpenOptions::new().write(true).open(path)?.write_all(bytes)?;
        failpoint("write", path);
        return Ok(());
    }
    let dir = parent_dir(path);
    fs::create_dir_all(dir)?;
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        if durable {
            f.sync_all()?;
        }
        failpoint("temp", path);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result?;
    // The rename is durable only once the folder's entry is: without this a power cut can
    // bring back the old file after a checkpoint that said otherwise was acted on.
    if durable {
        sync_dir(dir);
    }
    failpoint("write", path);
    Ok(())
}

/// The file a symbolic link at `path` names (links to links followed), so that the rename
/// replaces that file and the link stays a link; `path` itself when it is no link.
fn follow_link(path: &Path) -> PathBuf {
    let mut current = path.to_path_buf();
    // A bound, not a loop detector: the kernel gives up on chains longer than 40 too.
    for _ in 0..40 {
        let is_link = fs::symlink_metadata(&current).map(|m| m.file_type().is_symlink()).unwrap_or(false);
        if !is_link {
            break;
        }
        match fs::read_link(&current) {
            Ok(next) => current = parent_dir(&current).join(next),
            Err(_) => break,
        }
    }
    current
}

/// A character or block device, a named pipe or a socket: anything that exists and is
/// neither a regular file nor a folder.
fn is_device_or_pipe(path: &Path) -> bool {
    fs::metadata(path).map(|m| !m.is_file() && !m.is_dir()).unwrap_or(false)
}

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// `.NAME.tmp-PID` beside `path`: hidden, and unique per process so that two processes
/// never write the same temporary file.
fn temp_path(path: &Path) -> PathBuf {
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".to_string());
    parent_dir(path).join(format!(".{file_name}.tmp-{}", std::process::id()))
}

fn sync_dir(dir: &Path) {
    // Best effort: not every platform or file system lets a folder be opened and synced.
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Removes the temporary files that [`write_atomic`] leaves when its process is killed
/// mid-write, in `dir` and its subfolders. Call it only while holding the folder's lock (no
/// other process is writing there). Returns how many were removed.
pub fn remove_stale_temps(dir: &Path) -> std::io::Result<usize> {
    let mut removed = 0;
    let Ok(entries) = fs::read_dir(dir) else { return Ok(0) };
    for e in entries {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        let kind = e.file_type()?;
        if kind.is_dir() {
            removed += remove_stale_temps(&e.path())?;
        } else if name.starts_with('.') && name.contains(".tmp-") {
            fs::remove_file(e.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// A file of lines that grows only by whole lines (game records): an append that fails
/// half-way (a full disk) is cut back to where it began, so readers never meet half a line.
/// A pipe or a device (`--records /dev/stdout | jq`) is written as a stream: nothing to cut
/// back or resume there.
#[derive(Debug)]
pub struct LineLog {
    file: fs::File,
    path: PathBuf,
    /// Bytes of complete lines.
    len: u64,
    /// A regular file, which can be cut back and synced; false for a pipe or a device.
    seekable: bool,
}

impl LineLog {
    /// Creates (truncates) the file; missing folders are created.
    pub fn create(path: &Path) -> std::io::Result<LineLog> {
        fs::create_dir_all(parent_dir(path))?;
        let file = fs::File::create(path)?;
        let seekable = file.metadata()?.is_file();
        Ok(LineLog { file, path: path.to_path_buf(), len: 0, seekable })
    }

    /// Opens the file to continue it after its first `len` bytes, cutting off anything past
    /// them (lines written after the last checkpoint of a killed run). `None` keeps the file
    /// as it is. A file shorter than `len` is an error: lines that were promised are gone.
    pub fn resume(path: &Path, len: Option<u64>) -> std::io::Result<LineLog> {
        fs::create_dir_all(parent_dir(path))?;
        if is_device_or_pipe(path) {
            return LineLog::create(path);
        }
        let file = fs::OpenOptions::new().create(true).truncate(false).read(true).write(true).open(path)?;
        let actual = file.metadata()?.len();
        let len = len.unwrap_or(actual);
        if actual < len {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                format!("{actual} bytes where the checkpoint recorded {len}: records are missing"),
            ));
        }
        // A file torn mid-line (shorter than the checkpoint says, or cut by a crash where no
        // length was recorded) is cut back to its last whole line, so that what follows
        // starts a line of its own.
        let whole = last_line_end(&file, len)?;
        if actual > whole {
            file.set_len(whole)?;
            file.sync_data()?;
        }
        Ok(LineLog { file, path: path.to_path_buf(), len: whole, seekable: true })
    }

    /// Appends `text` (whole lines, each ending in a newline) in one write. On error the
    /// file is cut back to its length before the call and the error returned.
    pub fn append(&mut self, text: &str) -> std::io::Result<()> {
        use std::io::{Seek, SeekFrom};
        debug_assert!(text.is_empty() || text.ends_with('\n'));
        if self.seekable {
            let result = self.file.seek(SeekFrom::Start(self.len)).and_then(|_| self.file.write_all(text.as_bytes()));
            if let Err(e) = result {
                let _ = self.file.set_len(self.len);
                return Err(e);
            }
        } else {
            self.file.write_all(text.as_bytes())?;
        }
        self.len += text.len() as u64;
        failpoint("write", &self.path);
        Ok(())
    }

    /// Flushes the lines to disk (before a checkpoint records the length).
    pub fn sync(&self) -> std::io::Result<()> {
        if self.seekable {
            self.file.sync_data()
        } else {
            Ok(())
        }
    }

    /// Bytes of complete lines written so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// What is wrong with a file that should carry a checksum ([`with_checksum`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChecksumError {
    /// No checksum where it belongs, or the text ends before the body does: the file was cut
    /// short (or is not one of evotune's).
    #[error("truncated or corrupt (no checksum, or the file ends early)")]
    Missing,
    /// The content does not hash to the checksum: a changed or damaged file.
    #[error("corrupt (checksum mismatch)")]
    Mismatch,
}

/// How a checksummed file starts: `{"checksum":"` then 16 hex digits, then [`BODY_KEY`].
const CHECKSUM_KEY: &str = "{\"checksum\":\"";
const BODY_KEY: &str = "\",\"body\":";

/// `body` (one JSON value on one line) as a JSON document that carries its own checksum:
/// `{"checksum":"<16 hex digits>","body":<body>}` and a line break, where the checksum is
/// the FNV-1a hash of the body's bytes as written. Files that other processes or machines
/// read (checkpoints, a cluster's plans and shards) carry it, so that a file cut short or
/// changed is refused, not misread, while `jq` and every JSON reader still open it.
pub fn with_checksum(body: String) -> String {
    let body = body.trim_end();
    format!("{CHECKSUM_KEY}{:016x}{BODY_KEY}{body}}}\n", fnv1a64(body.as_bytes()))
}

/// The body of a file written by [`with_checksum`], once its checksum is verified: the bytes
/// between `"body":` and the closing brace, exactly as written (a reformatted file fails
/// the check). Files of the earlier form, the body followed by a last line `checksum <16
/// hex digits>` (the hash of every byte before it), are read too.
pub fn verify_checksum(text: &str) -> Result<&str, ChecksumError> {
    let Some(rest) = text.strip_prefix(CHECKSUM_KEY) else { return verify_checksum_line(text) };
    let (sum, rest) = rest.split_at_checked(16).ok_or(ChecksumError::Missing)?;
    let rest = rest.strip_prefix(BODY_KEY).ok_or(ChecksumError::Missing)?;
    let body = rest.trim_end().strip_suffix('}').ok_or(ChecksumError::Missing)?;
    if format!("{:016x}", fnv1a64(body.as_bytes())) != sum {
        return Err(ChecksumError::Mismatch);
    }
    Ok(body)
}

/// The earlier form: the body and a last line `checksum <16 hex digits>`.
fn verify_checksum_line(text: &str) -> Result<&str, ChecksumError> {
    let body_len = text.trim_end_matches('\n').rfind('\n').map(|i| i + 1).unwrap_or(0);
    let (body, last) = text.split_at(body_len);
    let sum = last.trim().strip_prefix("checksum ").ok_or(ChecksumError::Missing)?;
    if format!("{:016x}", fnv1a64(body.as_bytes())) != sum {
        return Err(ChecksumError::Mismatch);
    }
    Ok(body)
}

/// 64-bit FNV-1a: a stable, dependency-free content hash for config and checkpoint checks
/// (not cryptographic; it detects accidents such as truncation, not tampering).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Where the last whole line of `file`'s first `len` bytes ends: `len` when they end in a
/// newline (or are empty), else just past the last newline before it (0 if there is none).
fn last_line_end(file: &fs::File, len: u64) -> std::io::Result<u64> {
    use std::os::unix::fs::FileExt;
    const CHUNK: u64 = 64 * 1024;
    let mut end = len;
    let mut buf = vec![0u8; CHUNK as usize];
    let mut first = true;
    while end > 0 {
        let start = end.saturating_sub(CHUNK);
        let chunk = &mut buf[..(end - start) as usize];
        file.read_exact_at(chunk, start)?;
        if first && chunk.last() == Some(&b'\n') {
            return Ok(len);
        }
        first = false;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temps(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".tmp-"))
            .collect()
    }

    #[test]
    fn atomic_write_replaces_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sub/x.txt");
        write_atomic(&p, b"first version, long").unwrap();
        write_atomic(&p, b"second").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "second");
        assert!(temps(p.parent().unwrap()).is_empty());
    }

    /// A named pipe `pipe` in `dir`, and a thread reading it to its end.
    #[cfg(unix)]
    fn named_pipe_with_reader(dir: &Path) -> (PathBuf, std::thread::JoinHandle<Vec<u8>>) {
        let pipe = dir.join("pipe");
        let c_path = std::ffi::CString::new(pipe.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        let reader = {
            let pipe = pipe.clone();
            std::thread::spawn(move || fs::read(pipe).unwrap())
        };
        (pipe, reader)
    }

    /// `-o /dev/null` and friends: the bytes go through the pipe, which stays a pipe (a
    /// rename over it once left a root machine with a regular file for /dev/null, which
    /// every later `2>/dev/null` filled).
    #[cfg(unix)]
    #[test]
    fn atomic_write_to_a_named_pipe_writes_through_it() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let (pipe, reader) = named_pipe_with_reader(dir.path());
        write_atomic(&pipe, b"through the pipe").unwrap();
        // First: were the pipe replaced, the reader could wait on it for ever.
        assert!(fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo(), "the pipe was replaced");
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(temps(dir.path()).is_empty(), "{:?}", temps(dir.path()));
    }

    /// `--records /dev/stdout | jq`: the lines go through the pipe in order, no seek, no cut.
    #[cfg(unix)]
    #[test]
    fn line_log_streams_to_a_named_pipe() {
        let dir = tempfile::tempdir().unwrap();
        let (pipe, reader) = named_pipe_with_reader(dir.path());
        {
            let mut log = LineLog::resume(&pipe, Some(0)).unwrap();
            log.append("one\n").unwrap();
            log.sync().unwrap();
            log.append("two\nthree\n").unwrap();
            assert_eq!(log.len(), 14);
        }
        assert_eq!(reader.join().unwrap(), b"one\ntwo\nthree\n");
    }

    /// A link to a weight file stays a link; the file it names gets the new content.
    #[cfg(unix)]
    #[test]
    fn atomic_write_through_a_link_replaces_the_file_it_names() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("tables")).unwrap();
        let real = dir.path().join("tables/champion.toml");
        fs::write(&real, b"old").unwrap();
        let link = dir.path().join("current.toml");
        std::os::unix::fs::symlink("tables/champion.toml", &link).unwrap();
        replace(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert!(temps(dir.path()).is_empty() && temps(&dir.path().join("tables")).is_empty());
    }

    #[test]
    fn failed_atomic_write_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        // The rename fails (a folder stands where the file should go) after the temporary
        // file was written: it must not stay behind.
        let p = dir.path().join("target");
        fs::create_dir(&p).unwrap();
        fs::write(p.join("keep"), b"x").unwrap();
        assert!(write_atomic(&p, b"data").is_err());
        assert!(temps(dir.path()).is_empty(), "{:?}", temps(dir.path()));
    }

    /// A full disk while the temporary file is written: the temporary name is made a link to
    /// /dev/full, where every write fails with "no space left on device".
    #[cfg(target_os = "linux")]
    #[test]
    fn atomic_write_on_a_full_disk_leaves_no_temporary_file() {
        if !Path::new("/dev/full").exists() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("champion.toml");
        fs::write(&p, b"old").unwrap();
        std::os::unix::fs::symlink("/dev/full", temp_path(&p)).unwrap();
        let e = write_atomic(&p, b"new content").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::StorageFull, "{e}");
        assert_eq!(fs::read_to_string(&p).unwrap(), "old");
        assert!(temps(dir.path()).is_empty(), "{:?}", temps(dir.path()));
    }

    #[test]
    fn stale_temporary_files_are_swept() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("champions")).unwrap();
        fs::write(dir.path().join(".champion.toml.tmp-123"), b"half").unwrap();
        fs::write(dir.path().join("champions/.gen-0001.toml.tmp-9"), b"half").unwrap();
        fs::write(dir.path().join("history.csv"), b"keep").unwrap();
        assert_eq!(remove_stale_temps(dir.path()).unwrap(), 2);
        assert!(dir.path().join("history.csv").exists());
        assert_eq!(remove_stale_temps(&dir.path().join("missing")).unwrap(), 0);
    }

    #[test]
    fn line_log_resumes_at_a_length_and_cuts_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/log.jsonl");
        let mut log = LineLog::create(&p).unwrap();
        log.append("one\n").unwrap();
        let mark = log.len();
        log.append("two\nthree\n").unwrap();
        drop(log);
        let mut log = LineLog::resume(&p, Some(mark)).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "one\n");
        log.append("four\n").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "one\nfour\n");
        drop(log);
        let log = LineLog::resume(&p, None).unwrap();
        assert_eq!(log.len(), 9);
        let e = LineLog::resume(&p, Some(100)).unwrap_err();
        assert!(e.to_string().contains("missing"), "{e}");
    }

    #[test]
    fn a_log_torn_mid_line_is_cut_back_to_its_last_whole_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("games.jsonl");
        fs::write(&p, "{\"a\":1}\n{\"b\":").unwrap();
        let mut log = LineLog::resume(&p, None).unwrap();
        log.append("{\"c\":3}\n").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "{\"a\":1}\n{\"c\":3}\n");
        drop(log);
        // A length that ends mid-line, and a torn line longer than one read.
        let log = LineLog::resume(&p, Some(10)).unwrap();
        assert_eq!((log.len(), fs::read_to_string(&p).unwrap()), (8, "{\"a\":1}\n".to_string()));
        drop(log);
        fs::write(&p, format!("ok\n{}", "x".repeat(200_000))).unwrap();
        assert_eq!(LineLog::resume(&p, None).unwrap().len(), 3);
        fs::write(&p, "x".repeat(100)).unwrap();
        assert_eq!(LineLog::resume(&p, None).unwrap().len(), 0);
    }

    /// A full device: the append fails and nothing of it stays (here the device cannot even
    /// be cut back, so only the error is checked; the integration tests use a file-size
    /// limit, where it can).
    #[cfg(target_os = "linux")]
    #[test]
    fn line_log_reports_a_full_disk() {
        let Ok(file) = fs::OpenOptions::new().write(true).open("/dev/full") else { return };
        let mut log = LineLog { file, path: PathBuf::from("/dev/full"), len: 0, seekable: true };
        assert!(log.append("x\n").is_err());
        assert_eq!(log.len(), 0);
    }

    #[test]
    fn checksummed_text_is_json_round_trips_and_refuses_damage() {
        let text = with_checksum("{\"a\":1}".to_string());
        let doc: serde_json::Value = serde_json::from_str(&text).expect("the whole file is JSON");
        assert_eq!(doc["body"]["a"], 1);
        assert_eq!(doc["checksum"].as_str().map(str::len), Some(16));
        assert_eq!(verify_checksum(&text), Ok("{\"a\":1}"));
        for cut in [1, 5, 20, text.len() - 2, text.len() - 4] {
            assert!(verify_checksum(&text[..cut]).is_err(), "cut at {cut}");
        }
        assert_eq!(verify_checksum(&text.replace("1", "2")), Err(ChecksumError::Mismatch));
        assert_eq!(verify_checksum(""), Err(ChecksumError::Missing));
    }

    /// Files of the earlier form (a JSON line, then `checksum <hex>`) still read.
    #[test]
    fn checksum_lines_of_earlier_files_still_verify() {
        let body = "{\"a\":1}\n";
        let text = format!("{body}checksum {:016x}\n", fnv1a64(body.as_bytes()));
        assert_eq!(verify_checksum(&text), Ok(body));
        assert_eq!(verify_checksum(&text[..text.len() - 5]), Err(ChecksumError::Mismatch));
        assert_eq!(verify_checksum(&text[..6]), Err(ChecksumError::Missing));
        assert_eq!(verify_checksum(&text.replace("1", "2")), Err(ChecksumError::Mismatch));
    }

    #[test]
    fn fnv_known_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
