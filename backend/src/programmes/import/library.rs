//! `documents/library.json` as programmes serve its documents.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{json, Map, Value};

use super::check::{join, Check, Res};
use super::set;

/// The library documents that programmes refer to: by id (lists of files) and by content path
/// (a venue's floor plan), each as served.
pub(super) struct Library {
    by_id: HashMap<i64, Value>,
    by_path: HashMap<String, i64>,
}

/// Where the signed-in app fetches a library document's file (checked and served by the
/// catalogue's library route, which needs the bearer token).
pub(super) fn library_file_url(id: i64) -> String {
    format!("/api/library/{id}/file")
}

/// The documents of `documents/library.json` as programmes serve them: `type: file` and the
/// address of the served file instead of the raw content path, which no route serves.
pub(super) fn read_library(dir: &Path) -> Res<Library> {
    let check = Check::new("documents/library.json");
    let docs = check.json(dir)?;
    let mut by_id = HashMap::new();
    let mut by_path = HashMap::new();
    for (i, d) in check.array(&docs, "-")?.iter().enumerate() {
        let m = check.obj(d, &format!("[{i}]"))?;
        let id = check.int(m, &format!("[{i}]"), "id")?;
        let path = format!("id {id}");
        check.string(m, &path, "title")?;
        let file = check.string(m, &path, "file")?;
        let mut doc = d.clone();
        set(&mut doc, "type", json!("file"));
        set(&mut doc, "url", json!(library_file_url(id)));
        if let Some(fields) = doc.as_object_mut() {
            fields.remove("file");
            fields.remove("category");
        }
        if by_id.insert(id, doc).is_some() {
            return Err(check.err(path, "duplicate id"));
        }
        by_path.insert(file, id);
    }
    Ok(Library { by_id, by_path })
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
    match library.by_path.get(&link) {
        Some(id) => Ok(Some(library_file_url(*id))),
        None => Err(check.err(
            join(path, key),
            format!("'{link}' is not the file of a document in documents/library.json"),
        )),
    }
}

pub(super) fn documents(
    check: &Check<'_>,
    library: &Library,
    m: &Map<String, Value>,
    path: &str,
    key: &str,
) -> Res<Value> {
    let ids = check.ids(m, path, key)?;
    ids.iter()
        .map(|id| {
            library.by_id.get(id).cloned().ok_or_else(|| {
                check.err(
                    join(path, key),
                    format!("document {id} not in documents/library.json"),
                )
            })
        })
        .collect::<Res<Vec<_>>>()
        .map(Value::Array)
}
