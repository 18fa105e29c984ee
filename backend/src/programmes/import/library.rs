//! The documents of `documents/library.json` (read and checked once by
//! [`crate::content_folder::library`]) as programmes serve them: `type: file` and the address of the
//! served file instead of the raw content path, which no route serves.

use serde_json::{Map, Value};

use super::check::{join, Check, Res};
use crate::content_folder::library::{file_url, Library, LibraryEntry, FILE};
use crate::programmes::items::LibraryDocument;

/// A library entry as programmes list it.
fn served(entry: &LibraryEntry) -> LibraryDocument {
    LibraryDocument {
        id: entry.id,
        kind: "file".into(),
        title: entry.title.clone(),
        url: file_url(entry.id),
        name: Some(Some(entry.name.clone())),
        subtitle: entry.subtitle.clone().map(Some),
        size: Some(Some(entry.size.clone())),
        languages_in_file: entry.languages_in_file.clone().map(Some),
        code_points: entry.code_points.clone().map(Some),
        for_internal_use: Some(Some(entry.for_internal_use)),
        controlled_release: Some(Some(entry.controlled_release)),
        upon_request: Some(Some(entry.upon_request)),
        more: Map::new(),
    }
}

/// A link to a content file (`/files/...`, e.g. a venue's floor plan) becomes the address of
/// the library document with that file; a path that names no library document is refused, so
/// the app never links to an address that answers with something else than the file.
pub(super) fn document_link(
    check: &Check<'_>,
    library: &Library,
    m: &Map<String, Value>,
    path: &str,
    key: &str,
) -> Res<Option<String>> {
    let Some(link) = check.opt_string(m, path, key)? else {
        return Ok(None);
    };
    match library.id_of_file(&link) {
        Some(id) => Ok(Some(file_url(id))),
        None => Err(check.err(
            join(path, key),
            format!("'{link}' is not the file of a document in {FILE}"),
        )),
    }
}

/// The documents a list of ids names, as served.
pub(super) fn documents(
    check: &Check<'_>,
    library: &Library,
    m: &Map<String, Value>,
    path: &str,
    key: &str,
) -> Res<Value> {
    let ids = check.ids(m, path, key)?;
    let docs =
        ids.iter()
            .map(|id| {
                library.get(*id).map(|d| served(&d.entry)).ok_or_else(|| {
                    check.err(join(path, key), format!("document {id} not in {FILE}"))
                })
            })
            .collect::<Res<Vec<_>>>()?;
    serde_json::to_value(docs).map_err(|e| check.err(join(path, key), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Served as it was when the programmes read `documents/library.json` on their own: the
    /// entry as written, without `file` and `category`, with `type` and `url`.
    #[test]
    fn a_document_is_served_as_its_entry_with_its_address() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        let library = crate::content_folder::library::read_entries(&dir).expect("library");
        let text = std::fs::read_to_string(dir.join(FILE)).expect("read");
        let written: Vec<Value> = serde_json::from_str(&text).expect("json");
        assert_eq!(written.len(), library.documents.len());
        for (doc, mut expected) in library.documents.iter().zip(written) {
            let fields = expected.as_object_mut().expect("object");
            fields.remove("file");
            fields.remove("category");
            fields.insert("type".into(), "file".into());
            fields.insert("url".into(), file_url(doc.entry.id).into());
            let served = serde_json::to_value(served(&doc.entry)).expect("served");
            assert_eq!(served.to_string(), expected.to_string());
        }
    }
}
