//! `documents/library.json`, read and checked once for every feature that names its documents
//! (the catalogue's lists and pages, the programmes' downloads and floor plans).
//!
//! Every entry names a file under `files/` that must exist, stay inside that folder and really
//! be the kind its name announces ([`super::file_kind`]).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::Deserialize;

use super::file::{safe_relative, ContentError, ContentFile};
use super::file_kind::{read_document, FileKind, FileKindError};

/// Where the library file lives in the content folder.
pub const FILE: &str = "documents/library.json";

/// One entry of `documents/library.json`, as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibraryEntry {
    pub id: i64,
    pub title: String,
    pub name: String,
    pub subtitle: Option<String>,
    pub category: Option<String>,
    pub size: String,
    pub languages_in_file: Option<String>,
    pub code_points: Option<String>,
    /// `/files/...`: the document's file in the content folder.
    pub file: String,
    pub for_internal_use: bool,
    pub controlled_release: bool,
    pub upon_request: bool,
}

/// A checked entry, with the content of its file when the files were read.
pub struct LibraryDocument {
    pub entry: LibraryEntry,
    pub file: Option<DocumentFile>,
}

/// A document's file, checked to be the kind its name announces and of the size the entry shows.
pub struct DocumentFile {
    pub kind: FileKind,
    pub bytes: Vec<u8>,
}

/// The checked library, in the order of the file.
pub struct Library {
    pub documents: Vec<LibraryDocument>,
    by_id: HashMap<i64, usize>,
    by_file: HashMap<String, i64>,
}

impl Library {
    /// The document with this id.
    pub fn get(&self, id: i64) -> Option<&LibraryDocument> {
        self.by_id.get(&id).map(|&i| &self.documents[i])
    }

    /// The id of the document whose file is `path` (`/files/...`).
    pub fn id_of_file(&self, path: &str) -> Option<i64> {
        self.by_file.get(path).copied()
    }
}

/// Where the signed-in app fetches a library document's file (checked and served by the
/// catalogue's library route, which needs the bearer token).
pub fn file_url(id: i64) -> String {
    format!("/api/library/{id}/file")
}

/// How a document's size is shown: `5.3 KB` below 10 KB, `12 KB` from there on.
pub fn display_size(bytes: usize) -> String {
    let kb = bytes as f64 / 1024.0;
    if bytes >= 10 * 1024 {
        format!("{kb:.0} KB")
    } else {
        format!("{kb:.1} KB")
    }
}

/// Reads `documents/library.json` and every file it names; the first problem refuses it.
pub fn read(dir: &Path) -> Result<Library, ContentError> {
    read_with(dir, true)
}

/// Reads `documents/library.json` without its files, for a reader that names documents but
/// stores none (the programmes imported on their own): every check but those of the files.
pub fn read_entries(dir: &Path) -> Result<Library, ContentError> {
    read_with(dir, false)
}

fn read_with(dir: &Path, with_files: bool) -> Result<Library, ContentError> {
    let f = ContentFile::new(dir, FILE);
    let entries: Vec<LibraryEntry> = f.read()?;
    let mut seen = HashSet::new();
    let mut documents = Vec::with_capacity(entries.len());
    let mut by_id = HashMap::new();
    let mut by_file = HashMap::new();
    for (i, entry) in entries.into_iter().enumerate() {
        if entry.id <= 0 {
            return Err(f.invalid(
                format!("[{i}].id"),
                format!("id {} must be positive", entry.id),
            ));
        }
        if !seen.insert(entry.id) {
            return Err(f.invalid(format!("[{i}].id"), format!("duplicate id {}", entry.id)));
        }
        if entry.title.trim().is_empty() {
            return Err(f.invalid(format!("[{i}].title"), "must not be empty"));
        }
        let rel = entry
            .file
            .strip_prefix("/files/")
            .filter(|r| safe_relative(r))
            .ok_or_else(|| {
                f.invalid(
                    format!("[{i}].file"),
                    format!("'{}' must be a path under /files/", entry.file),
                )
            })?;
        if rel.rsplit('/').next() != Some(entry.name.as_str()) {
            return Err(f.invalid(
                format!("[{i}].file"),
                format!("'{}' must end with the name '{}'", entry.file, entry.name),
            ));
        }
        let file = if with_files {
            Some(read_file(&f, dir, i, &entry, rel)?)
        } else {
            FileKind::from_name(rel).ok_or_else(|| {
                f.invalid(
                    format!("[{i}].file"),
                    FileKindError::UnknownExtension.to_string(),
                )
            })?;
            None
        };
        by_id.insert(entry.id, i);
        by_file.insert(entry.file.clone(), entry.id);
        documents.push(LibraryDocument { entry, file });
    }
    Ok(Library {
        documents,
        by_id,
        by_file,
    })
}

/// The file of entry `i`, at `rel` below `files/`: there, of its kind and of its size.
fn read_file(
    f: &ContentFile,
    dir: &Path,
    i: usize,
    entry: &LibraryEntry,
    rel: &str,
) -> Result<DocumentFile, ContentError> {
    let (kind, bytes) = read_document(&dir.join("files"), rel, &entry.file)
        .map_err(|e| f.invalid(format!("[{i}].file"), e.to_string()))?;
    let size = display_size(bytes.len());
    if entry.size != size {
        return Err(f.invalid(
            format!("[{i}].size"),
            format!(
                "'{}' must be '{size}', the size of {}",
                entry.size, entry.file
            ),
        ));
    }
    Ok(DocumentFile { kind, bytes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content_folder::file::TestContent;
    use std::io::{Cursor, Write};

    fn doc(file: &str) -> String {
        let name = file.rsplit('/').next().unwrap_or_default();
        format!(
            r#"[{{"id": 1, "title": "Sizes", "name": "{name}", "size": "0.0 KB", "file": "{file}",
               "for_internal_use": false, "controlled_release": false, "upon_request": false}}]"#
        )
    }

    fn refusal(content: &TestContent) -> String {
        content.refusal(read(content.dir()).err().expect("refused"))
    }

    fn word_document() -> Vec<u8> {
        let mut file = cfb::CompoundFile::create(Cursor::new(Vec::new())).expect("create");
        file.create_stream("/WordDocument")
            .expect("stream")
            .write_all(b"word")
            .expect("write");
        file.flush().expect("flush");
        file.into_inner().into_inner()
    }

    #[test]
    fn a_word_document_renamed_xls_is_refused() {
        let content = TestContent::new();
        content
            .write(FILE, doc("/files/sizes.xls"))
            .write("files/sizes.xls", word_document());
        assert_eq!(
            refusal(&content),
            "documents/library.json: library[0].file: /files/sizes.xls is not a valid XLS file"
        );
    }

    #[test]
    fn a_file_outside_files_or_of_another_kind_or_missing_is_refused() {
        let content = TestContent::new();
        content.write(FILE, doc("/files/../secret.pdf"));
        assert_eq!(
            refusal(&content),
            "documents/library.json: library[0].file: '/files/../secret.pdf' must be a path under /files/"
        );
        content.write(FILE, doc("/files/notes.doc"));
        assert_eq!(
            refusal(&content),
            "documents/library.json: library[0].file: only .pdf and .xls documents are accepted"
        );
        content.write(FILE, doc("/files/gone.pdf"));
        assert_eq!(
            refusal(&content),
            "documents/library.json: library[0].file: file /files/gone.pdf does not exist"
        );
        content
            .write(FILE, doc("/files/fake.pdf"))
            .write("files/fake.pdf", "hello");
        assert_eq!(
            refusal(&content),
            "documents/library.json: library[0].file: /files/fake.pdf is not a valid PDF file"
        );
    }

    #[test]
    fn an_unknown_field_is_refused() {
        let content = TestContent::new();
        content.write(
            FILE,
            doc("/files/a.pdf").replace("\"size\"", "\"sise\": 1, \"size\""),
        );
        let text = refusal(&content);
        assert!(
            text.starts_with("documents/library.json: library[0].sise: unknown field `sise`"),
            "{text}"
        );
    }

    #[test]
    fn a_duplicate_id_and_a_blank_title_are_refused() {
        let content = TestContent::new();
        let one = doc("/files/a.pdf");
        let two = format!("[{0}, {0}]", &one[1..one.len() - 1]);
        content.write(FILE, two).write("files/a.pdf", "%PDF-1.4");
        assert_eq!(
            refusal(&content),
            "documents/library.json: library[1].id: duplicate id 1"
        );
        content.write(FILE, one.replace("\"Sizes\"", "\" \""));
        assert_eq!(
            refusal(&content),
            "documents/library.json: library[0].title: must not be empty"
        );
    }

    #[test]
    fn a_file_that_is_not_the_name_or_not_the_size_is_refused() {
        let content = TestContent::new();
        content
            .write(
                FILE,
                doc("/files/a.pdf").replace("\"name\": \"a.pdf\"", "\"name\": \"b.pdf\""),
            )
            .write("files/a.pdf", "%PDF-1.4");
        assert_eq!(
            refusal(&content),
            "documents/library.json: library[0].file: '/files/a.pdf' must end with the name 'b.pdf'"
        );
        content.write(FILE, doc("/files/a.pdf").replace("0.0 KB", "3 KB"));
        assert_eq!(
            refusal(&content),
            "documents/library.json: library[0].size: '3 KB' must be '0.0 KB', the size of /files/a.pdf"
        );
    }

    #[test]
    fn sizes_are_shown_as_the_generator_writes_them() {
        assert_eq!(display_size(5427), "5.3 KB");
        assert_eq!(display_size(10 * 1024), "10 KB");
        assert_eq!(display_size(12_800), "12 KB");
    }
}
