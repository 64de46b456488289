//! Where a config's key is written: errors found after a config is parsed (a range, a
//! missing anchor or weight file, an opening suite too small) name the key as
//! `[section] key ...`; [`invalid`] and [`at_key`] put the file and the key's line before them, as a parse
//! error has: `quick.toml:47: invalid config: [engine] tt_mib = 0: ...`.
//!
//! The line comes from the TOML parser's spans of the file's own text (`toml_edit`), so
//! dotted keys, inline tables and keys anywhere in their table are found.

use std::ops::Range;

use toml_edit::{ImDocument, TableLike};

/// The error `e` found checking the config `file` (text `text`) after it parsed, with
/// `FILE:LINE: invalid config` before it when its message starts with a key the file writes
/// (the line of its table's header when the file leaves the key to its default), `FILE:
/// invalid config` otherwise.
pub fn invalid(e: anyhow::Error, file: &str, text: &str) -> anyhow::Error {
    match line_of(&e, text) {
        Some(n) => e.context(format!("{file}:{n}: invalid config")),
        None => e.context(format!("{file}: invalid config")),
    }
}

/// The error `e` of a step that reads what the config `file` names (anchors, weight files,
/// opening suites): with `FILE:LINE: invalid config` before it when it is about a key the
/// file writes; unchanged otherwise (an error of something else).
pub fn at_key(e: anyhow::Error, file: &str, text: &str) -> anyhow::Error {
    match line_of(&e, text) {
        Some(n) => e.context(format!("{file}:{n}: invalid config")),
        None => e,
    }
}

/// [`at_key`] for the config file at `path`, if the config came from one (read again: its
/// error is rare, its text is not kept).
pub fn at_key_of_file(e: anyhow::Error, path: Option<&std::path::Path>) -> anyhow::Error {
    match path.and_then(|p| Some((p, std::fs::read_to_string(p).ok()?))) {
        Some((p, text)) => at_key(e, &p.display().to_string(), &text),
        None => e,
    }
}

/// The line of the key the error, or one of its causes, starts with.
fn line_of(e: &anyhow::Error, text: &str) -> Option<usize> {
    e.chain().find_map(|cause| {
        let (section, key) = key_of(&cause.to_string())?;
        key_line(text, section.as_deref(), key.as_deref())
    })
}

/// The key a message starts with: `[section] key ...` (a key of a table, `[a.b]` for a
/// nested one; `[section]: ...` for the table itself) or `key = ...` of the top level.
fn key_of(message: &str) -> Option<(Option<String>, Option<String>)> {
    let word = |s: &str| -> Option<String> {
        let w: String = s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-').collect();
        (!w.is_empty()).then_some(w)
    };
    match message.strip_prefix('[') {
        Some(rest) => {
            let (section, rest) = rest.split_once(']')?;
            let section = section.trim();
            if section.is_empty() || section.contains(' ') {
                return None;
            }
            Some((Some(section.to_string()), word(rest.trim_start())))
        }
        // A top-level key is only taken when the message says `key = value`.
        None => {
            let key = word(message)?;
            message[key.len()..].trim_start().starts_with('=').then_some((None, Some(key)))
        }
    }
}

/// The line (from 1) where `text` writes `key` of table `section` (`a.b` for a nested one;
/// `None`: the top level), or the table's header when the key is not written; `None` when
/// neither is, or the text does not parse.
pub fn key_line(text: &str, section: Option<&str>, key: Option<&str>) -> Option<usize> {
    let doc = ImDocument::parse(text).ok()?;
    let mut table: &dyn TableLike = doc.as_table();
    let mut header: Option<Range<usize>> = None;
    for name in section.into_iter().flat_map(|s| s.split('.')) {
        let (k, item) = table.get_key_value(name.trim())?;
        // A `[table]` header's span; a dotted or inline table's is its key's.
        header = item.as_table().and_then(|t| t.span()).or_else(|| k.span());
        table = item.as_table_like()?;
    }
    let span = match key.and_then(|k| table.get_key_value(k)) {
        Some((k, item)) => k.span().or_else(|| item.span()),
        None => header,
    }?;
    Some(text[..span.start.min(text.len())].matches('\n').count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "name = \"x\"\n\n[engine]\n# a comment\n  depth = 3\n[hall_of_fame]\nanchors = [\"a\"]\n\
                        [final]\nvalidation.pairs = 4\n[output]\nplot = { png = true }\n";

    #[test]
    fn keys_are_found_on_their_lines() {
        assert_eq!(key_line(TEXT, None, Some("name")), Some(1));
        assert_eq!(key_line(TEXT, Some("engine"), Some("depth")), Some(5));
        assert_eq!(key_line(TEXT, Some("hall_of_fame"), Some("anchors")), Some(7));
        // Left to its default: its table's header.
        assert_eq!(key_line(TEXT, Some("engine"), Some("tt_mib")), Some(3));
        assert_eq!(key_line(TEXT, Some("hall_of_fame"), None), Some(6));
        // Dotted keys and inline tables.
        assert_eq!(key_line(TEXT, Some("final.validation"), Some("pairs")), Some(9));
        assert_eq!(key_line(TEXT, Some("output.plot"), Some("png")), Some(11));
        // A table the file does not write, a text that does not parse.
        assert_eq!(key_line(TEXT, Some("fitness"), Some("mode")), None);
        assert_eq!(key_line("[engine\n", Some("engine"), None), None);
    }

    #[test]
    fn errors_get_the_file_and_the_line_of_their_key() {
        let e = |m: &str| format!("{:#}", invalid(anyhow::anyhow!(m.to_string()), "c.toml", TEXT));
        assert_eq!(
            e("[engine] depth = 99: between 1 and 60"),
            "c.toml:5: invalid config: [engine] depth = 99: between 1 and 60"
        );
        let anchors = anyhow::anyhow!("no such weight file").context("[hall_of_fame] anchors: `a`");
        assert_eq!(
            format!("{:#}", at_key(anchors, "c.toml", TEXT)),
            "c.toml:7: invalid config: [hall_of_fame] anchors: `a`: no such weight file"
        );
        assert_eq!(e("name = \"\": empty"), "c.toml:1: invalid config: name = \"\": empty");
        assert_eq!(e("something else"), "c.toml: invalid config: something else");
        assert_eq!(e("[fitness] mode: bad"), "c.toml: invalid config: [fitness] mode: bad");
        // Another step's error, not about a key: left as it is.
        let other = at_key(anyhow::anyhow!("results/x exists: --force"), "c.toml", TEXT);
        assert_eq!(format!("{other:#}"), "results/x exists: --force");
    }
}
