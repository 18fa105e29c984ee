//! `documents/library.json`: the library documents and the files they name.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use super::check::{json, not_blank, safe_relative, unique};
use crate::catalogue::DocumentItem;
use crate::content::file_kind::read_document;
use crate::content::{ContentError, ContentFile, TableRows};

pub(super) const FILE: &str = "documents/library.json";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LibraryDoc {
    id: i64,
    title: String,
    name: String,
    #[serde(default)]
    subtitle: String,
    category: Option<String>,
    size: String,
    #[serde(default)]
    languages_in_file: String,
    #[serde(default)]
    code_points: String,
    file: String,
    for_internal_use: bool,
    controlled_release: bool,
    upon_request: bool,
}

/// The library documents by id, as lists show them.
pub(super) struct Library {
    docs: HashMap<i64, DocumentItem>,
}

impl Library {
    /// The documents `ids` name, in order; `field` names the list in a refusal.
    pub fn documents(
        &self,
        file: &ContentFile,
        field: String,
        ids: &[i64],
    ) -> Result<Vec<DocumentItem>, ContentError> {
        ids.iter()
            .enumerate()
            .map(|(j, id)| {
                self.docs.get(id).cloned().ok_or_else(|| {
                    file.invalid(
                        format!("{field}[{j}]"),
                        format!("document {id} does not exist in {FILE}"),
                    )
                })
            })
            .collect()
    }
}

pub(super) fn read(dir: &Path) -> Result<(Library, TableRows), ContentError> {
    let f = ContentFile::new(dir, FILE);
    let library: Vec<LibraryDoc> = f.read()?;
    unique(&f, &library, |d| d.id)?;
    let mut docs = HashMap::new();
    let mut t = TableRows::new(
        "library_documents",
        &[
            "id",
            "category",
            "position",
            "item",
            "file_name",
            "content_type",
            "bytes",
        ],
    );
    for (i, d) in library.iter().enumerate() {
        not_blank(&f, format!("[{i}].title"), &d.title)?;
        let rel = d
            .file
            .strip_prefix("/files/")
            .filter(|r| safe_relative(r))
            .ok_or_else(|| {
                f.invalid(
                    format!("[{i}].file"),
                    format!("'{}' must be a path under /files/", d.file),
                )
            })?;
        let (kind, bytes) = read_document(&dir.join("files"), rel, &d.file)
            .map_err(|e| f.invalid(format!("[{i}].file"), e.to_string()))?;
        let item = DocumentItem {
            id: d.id,
            kind: "file".into(),
            title: d.title.clone(),
            name: d.name.clone(),
            subtitle: d.subtitle.clone(),
            size: d.size.clone(),
            languages_in_file: d.languages_in_file.clone(),
            code_points: d.code_points.clone(),
            url: format!("/api/library/{}/file", d.id),
            actions: Vec::new(),
            for_internal_use: d.for_internal_use,
            controlled_release: d.controlled_release,
            upon_request: d.upon_request,
        };
        t.push(vec![
            d.id.into(),
            d.category.clone().into(),
            (i as i64).into(),
            json(&item).into(),
            d.name.clone().into(),
            kind.content_type().into(),
            bytes.into(),
        ]);
        docs.insert(d.id, item);
    }
    Ok((Library { docs }, t))
}

#[cfg(test)]
mod tests {
    use super::super::check::TestContent;
    use super::*;
    use std::io::{Cursor, Write};

    fn doc(file: &str) -> String {
        format!(
            r#"[{{"id": 1, "title": "Sizes", "name": "sizes", "size": "1 KB", "file": "{file}",
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
}
