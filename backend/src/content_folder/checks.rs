//! Checks of the content folder as a whole, before any feature reads its files: every path a
//! JSON file names (`/media/...`, `/files/...`) exists and stays inside the folder, every rich
//! text fragment holds only the markup the app keeps, and the files themselves are what the app
//! can show (small SVG images, real PDF and XLS documents) within the folder's size limit.
//!
//! The JSON files are walked as text (their strings and the keys above them), so these checks
//! hold for every file, whatever its shape; each feature's reader checks its own shapes and
//! references.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::file::{safe_relative, ContentError, ContentFile};
use super::file_kind::FileKind;

/// Largest SVG image, in bytes: images are drawings, not photographs.
pub const MAX_SVG_BYTES: u64 = 3 * 1024;
/// Largest content folder, in bytes: the whole folder ships with the app.
pub const MAX_FOLDER_BYTES: u64 = 3 * 1024 * 1024;
/// Tags a rich-text fragment may hold: the content's rich text (content/README.md), all of
/// which the sanitiser of the served HTML keeps.
pub const HTML_TAGS: [&str; 9] = ["p", "strong", "em", "ul", "ol", "li", "a", "h3", "br"];
const VOID_TAGS: [&str; 1] = ["br"];
/// Keys whose text is rich text when it starts with a tag.
const HTML_KEYS: [&str; 8] = [
    "description",
    "message",
    "address",
    "info",
    "mainText",
    "subText",
    "disclaimers",
    "description_short",
];

/// Checks the whole folder; the first problem refuses it.
pub fn check_folder(dir: &Path) -> Result<(), ContentError> {
    for relative in json_files(dir)? {
        let file = ContentFile::new(dir, &relative);
        let text = std::fs::read_to_string(&file.path)
            .map_err(|e| file.invalid("", format!("cannot be read: {e}")))?;
        let mut strings = Vec::new();
        let mut de = serde_json::Deserializer::from_str(&text);
        Walk {
            path: String::new(),
            key: None,
            out: &mut strings,
        }
        .deserialize(&mut de)
        .map_err(|e| file.invalid("", format!("invalid JSON: {e}")))?;
        for s in &strings {
            check_string(dir, &file, s)?;
        }
    }
    check_media(dir)?;
    check_documents(dir)?;
    check_size(dir)
}

/// The JSON files of the folder: `*/*.json`, in name order.
fn json_files(dir: &Path) -> Result<Vec<String>, ContentError> {
    let mut out = Vec::new();
    for folder in entries(dir)? {
        if !folder.is_dir() {
            continue;
        }
        for path in entries(&folder)? {
            if path.is_file() && path.extension().is_some_and(|e| e == "json") {
                if let Ok(rel) = path.strip_prefix(dir) {
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
    }
    Ok(out)
}

fn entries(dir: &Path) -> Result<Vec<PathBuf>, ContentError> {
    let read =
        std::fs::read_dir(dir).map_err(|e| folder_error(dir, format!("cannot be read: {e}")))?;
    let mut paths: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    Ok(paths)
}

fn folder_error(path: &Path, reason: impl Into<String>) -> ContentError {
    ContentError::Invalid {
        file: path.display().to_string(),
        field: "-".into(),
        reason: reason.into(),
    }
}

/// One string of a JSON file, with where it is and the key it is the value of.
struct Found {
    path: String,
    key: Option<String>,
    text: String,
}

/// Walks a JSON value and collects its strings (no tree of values is built).
struct Walk<'a> {
    path: String,
    key: Option<String>,
    out: &'a mut Vec<Found>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        self.out.push(Found {
            path: self.path,
            key: self.key,
            text: v.to_string(),
        });
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        loop {
            let seed = Walk {
                path: format!("{}[{i}]", self.path),
                key: None,
                out: &mut *self.out,
            };
            if seq.next_element_seed(seed)?.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            let path = if self.path.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", self.path)
            };
            map.next_value_seed(Walk {
                path,
                key: Some(key),
                out: &mut *self.out,
            })?;
        }
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }
}

/// The `/media/...` paths written in a text (a path, or an image inside rich text).
fn media_paths(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("/media/") {
        let tail = &rest[at..];
        let end = tail
            .char_indices()
            .skip(7)
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-')))
            .map(|(i, _)| i)
            .unwrap_or(tail.len());
        out.push(&tail[..end]);
        rest = &tail[end..];
    }
    out
}

fn check_string(dir: &Path, file: &ContentFile, s: &Found) -> Result<(), ContentError> {
    for path in media_paths(&s.text) {
        let rel = &path[1..];
        if !safe_relative(&rel["media/".len()..]) {
            return Err(file.invalid(&s.path, format!("'{path}' must be a path under /media/")));
        }
        if !dir.join(rel).is_file() {
            return Err(file.invalid(&s.path, format!("image {path} does not exist")));
        }
    }
    if let Some(rel) = s.text.strip_prefix("/files/") {
        if !safe_relative(rel) {
            return Err(file.invalid(
                &s.path,
                format!("'{}' must be a path under /files/", s.text),
            ));
        }
        if !dir.join("files").join(rel).is_file() {
            return Err(file.invalid(&s.path, format!("file {} does not exist", s.text)));
        }
    }
    let rich = s.key.as_deref().is_some_and(|k| HTML_KEYS.contains(&k));
    if rich && s.text.starts_with('<') {
        html_problem(&s.text).map_or(Ok(()), |p| Err(file.invalid(&s.path, p)))?;
    }
    Ok(())
}

/// The first reason a rich-text fragment would not be served as written: a tag the app does
/// not keep, a link without a target, unbalanced tags, or a bare `&`.
pub fn html_problem(html: &str) -> Option<String> {
    if has_bare_ampersand(html) {
        return Some("bare '&' (write &amp;)".into());
    }
    let mut open: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        let tail = &rest[lt + 1..];
        let Some(gt) = tail.find('>') else {
            return Some("a tag is not closed with '>'".into());
        };
        let tag = &tail[..gt];
        rest = &tail[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let name = name.trim().to_ascii_lowercase();
            if VOID_TAGS.contains(&name.as_str()) {
                continue;
            }
            if open.pop().as_deref() != Some(name.as_str()) {
                return Some(format!("unbalanced </{name}>"));
            }
            continue;
        }
        let name = tag
            .trim_end_matches('/')
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if !HTML_TAGS.contains(&name.as_str()) {
            return Some(format!("tag <{name}> is not allowed"));
        }
        if name == "a" && !tag.contains("href=") {
            return Some("<a> without href".into());
        }
        if !VOID_TAGS.contains(&name.as_str()) && !tag.ends_with('/') {
            open.push(name);
        }
    }
    open.pop().map(|t| format!("unclosed <{t}>"))
}

/// An `&` that does not start an entity (`&amp;`, `&nbsp;`, `&#8211;`, `&#x2013;`, ...).
fn has_bare_ampersand(text: &str) -> bool {
    text.match_indices('&').any(|(i, _)| {
        let rest = &text[i + 1..];
        let Some(semi) = rest.find(';') else {
            return true;
        };
        let name = &rest[..semi];
        let all = |d: &str, f: fn(&u8) -> bool| !d.is_empty() && d.as_bytes().iter().all(f);
        let named = ["amp", "lt", "gt", "quot", "nbsp"].contains(&name);
        let decimal = name
            .strip_prefix('#')
            .is_some_and(|d| all(d, u8::is_ascii_digit));
        let hex = name
            .strip_prefix("#x")
            .is_some_and(|d| all(d, u8::is_ascii_hexdigit));
        !(named || decimal || hex)
    })
}

/// Every file under `media/` is a small SVG drawing. (A file no JSON names is harmless; the
/// generator, `content/tools/generate.py`, removes it.)
fn check_media(dir: &Path) -> Result<(), ContentError> {
    for path in files_below(&dir.join("media"))? {
        let problem = |reason: String| folder_error(&path, reason);
        if path.extension().is_none_or(|e| e != "svg") {
            return Err(problem("only SVG images are accepted".into()));
        }
        let bytes = std::fs::read(&path).map_err(|e| problem(format!("cannot be read: {e}")))?;
        if bytes.len() as u64 > MAX_SVG_BYTES {
            return Err(problem(format!(
                "{} bytes, over the {MAX_SVG_BYTES} an image may have",
                bytes.len()
            )));
        }
        if !is_svg_with_view_box(&bytes) {
            return Err(problem("not an SVG drawing with a viewBox".into()));
        }
    }
    Ok(())
}

/// The root element is `<svg ...>` and has a `viewBox`.
fn is_svg_with_view_box(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let Some(start) = text.find("<svg") else {
        return false;
    };
    let before = &text[..start];
    // Only an XML declaration or comments may come before the root element.
    let prolog_ok = before.trim().is_empty() || before.trim_start().starts_with("<?xml");
    let tag_end = text[start..].find('>').map(|e| start + e);
    prolog_ok
        && tag_end.is_some_and(|e| text[start..e].contains("viewBox="))
        && text.trim_end().ends_with("</svg>")
}

/// Every file under `files/` is a real PDF or XLS document.
fn check_documents(dir: &Path) -> Result<(), ContentError> {
    for path in files_below(&dir.join("files"))? {
        let name = path.to_string_lossy().to_string();
        let problem = |reason: String| folder_error(&path, reason);
        let Some(kind) = FileKind::from_name(&name) else {
            return Err(problem("only .pdf and .xls documents are accepted".into()));
        };
        let bytes = std::fs::read(&path).map_err(|e| problem(format!("cannot be read: {e}")))?;
        if !kind.matches(&bytes) {
            return Err(problem(format!("not a valid {} file", kind.label())));
        }
        if kind == FileKind::Pdf {
            if let Some(reason) = pdf_problem(&bytes) {
                return Err(problem(reason));
            }
        }
    }
    Ok(())
}

/// The first structural problem of a PDF: the end marker, the cross-reference table and the
/// objects it points to, and at least one page.
pub fn pdf_problem(b: &[u8]) -> Option<String> {
    let trimmed = trim_end(b);
    if !trimmed.ends_with(b"%%EOF") {
        return Some("no %%EOF at the end".into());
    }
    let body = trim_end(&trimmed[..trimmed.len() - 5]);
    let digits = body.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    let before = trim_end(&body[..body.len() - digits]);
    if digits == 0 || !before.ends_with(b"startxref") {
        return Some("no startxref".into());
    }
    let xref: usize = std::str::from_utf8(&body[body.len() - digits..])
        .ok()
        .and_then(|d| d.parse().ok())?;
    let table = b.get(xref..).filter(|t| t.starts_with(b"xref"));
    let Some(table) = table else {
        return Some("startxref does not point to the xref table".into());
    };
    let Some((count, entries)) = xref_header(table) else {
        return Some("unreadable xref header".into());
    };
    for n in 0..count {
        let entry = entries.get(20 * n..20 * n + 20);
        let Some(entry) = entry.filter(|e| is_xref_entry(e)) else {
            return Some(format!("xref entry {n} is malformed"));
        };
        if entry[17] == b'n' {
            let offset: usize = std::str::from_utf8(&entry[..10]).ok()?.parse().ok()?;
            let expected = format!("{n} 0 obj");
            if !b
                .get(offset..)
                .is_some_and(|o| o.starts_with(expected.as_bytes()))
            {
                return Some(format!(
                    "xref offset {offset} does not point to '{expected}'"
                ));
            }
        }
    }
    let has_page = contains(b, b"/Type /Page ") || contains(b, b"/Type /Page\n");
    (!has_page).then(|| "no page".to_string())
}

/// `xref 0 N` and the bytes of its entries.
fn xref_header(table: &[u8]) -> Option<(usize, &[u8])> {
    let rest = skip_space(&table[4..])?;
    let rest = rest.strip_prefix(b"0")?;
    let rest = skip_space(rest)?;
    let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    let count = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
    let rest = skip_space(&rest[digits..])?;
    Some((count, rest))
}

/// `rest` after at least one white-space byte.
fn skip_space(rest: &[u8]) -> Option<&[u8]> {
    let n = rest.iter().take_while(|c| c.is_ascii_whitespace()).count();
    (n > 0).then(|| &rest[n..])
}

/// `nnnnnnnnnn ggggg n` (or `f`) and a two-byte end of line.
fn is_xref_entry(e: &[u8]) -> bool {
    e[..10].iter().all(u8::is_ascii_digit)
        && e[10] == b' '
        && e[11..16].iter().all(u8::is_ascii_digit)
        && e[16] == b' '
        && matches!(e[17], b'n' | b'f')
        && matches!(&e[18..20], b"\r\n" | b" \n" | b" \r")
}

fn trim_end(b: &[u8]) -> &[u8] {
    let n = b
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_whitespace())
        .count();
    &b[..b.len() - n]
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The whole folder stays within [`MAX_FOLDER_BYTES`].
fn check_size(dir: &Path) -> Result<(), ContentError> {
    let mut total = 0;
    for path in files_below(dir)? {
        if path.components().any(|c| c.as_os_str() == "__pycache__") {
            continue;
        }
        total += std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    }
    if total > MAX_FOLDER_BYTES {
        return Err(folder_error(
            dir,
            format!("{total} bytes, over the {MAX_FOLDER_BYTES} the content folder may hold"),
        ));
    }
    Ok(())
}

/// Every file below `dir` (none when it does not exist), in name order.
fn files_below(dir: &Path) -> Result<Vec<PathBuf>, ContentError> {
    let mut out = Vec::new();
    if !dir.is_dir() {
        return Ok(out);
    }
    for path in entries(dir)? {
        if path.is_dir() {
            out.extend(files_below(&path)?);
        } else if path.is_file() {
            out.push(path);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_content_folder_passes() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        check_folder(&dir).expect("the demo content is consistent");
    }

    #[test]
    fn rich_text_keeps_to_the_markup_the_app_serves() {
        assert_eq!(
            html_problem("<p>Fish &amp; <strong>chips</strong><br></p>"),
            None
        );
        assert_eq!(
            html_problem("<p><a href=\"https://x.example\">x</a>&nbsp;&#8211;</p>"),
            None
        );
        assert_eq!(
            html_problem("<div>x</div>").as_deref(),
            Some("tag <div> is not allowed")
        );
        assert_eq!(
            html_problem("<p><a>x</a></p>").as_deref(),
            Some("<a> without href")
        );
        assert_eq!(html_problem("<p>x").as_deref(), Some("unclosed <p>"));
        assert_eq!(
            html_problem("<p>x</em>").as_deref(),
            Some("unbalanced </em>")
        );
        assert_eq!(
            html_problem("<p>R&D</p>").as_deref(),
            Some("bare '&' (write &amp;)")
        );
    }

    #[test]
    fn media_paths_are_found_inside_any_text() {
        assert_eq!(
            media_paths("<p>see /media/a/b-1.svg and /media/c.svg.</p>"),
            ["/media/a/b-1.svg", "/media/c.svg."]
        );
        assert!(media_paths("no images").is_empty());
    }

    /// A minimal PDF whose cross-reference table points at its objects.
    fn pdf() -> Vec<u8> {
        let mut b = b"%PDF-1.4\n".to_vec();
        let one = b.len();
        b.extend_from_slice(b"1 0 obj\n<< /Type /Page >>\nendobj\n");
        let xref = b.len();
        b.extend_from_slice(b"xref\n0 2\n0000000000 65535 f\r\n");
        b.extend_from_slice(format!("{one:010} 00000 n\r\n").as_bytes());
        b.extend_from_slice(
            format!("trailer\n<< /Size 2 >>\nstartxref\n{xref}\n%%EOF\n").as_bytes(),
        );
        b
    }

    #[test]
    fn a_pdf_is_checked_down_to_its_cross_references() {
        assert_eq!(pdf_problem(&pdf()), None);
        let cut = &pdf()[..pdf().len() - 6];
        assert_eq!(pdf_problem(cut).as_deref(), Some("no %%EOF at the end"));
        let moved = String::from_utf8(pdf())
            .expect("text")
            .replace("1 0 obj", "2 0 obj");
        assert_eq!(
            pdf_problem(moved.as_bytes()).as_deref(),
            Some("xref offset 9 does not point to '1 0 obj'")
        );
        let no_page = String::from_utf8(pdf())
            .expect("text")
            .replace("/Page ", "/Pages");
        assert_eq!(pdf_problem(no_page.as_bytes()).as_deref(), Some("no page"));
    }
}
