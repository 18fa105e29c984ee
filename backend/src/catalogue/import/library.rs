//! The catalogue's view of `documents/library.json` (read and checked once by
//! [`crate::content_folder::library`]): the documents as lists show them, and the rows of
//! `library_documents`.

use std::collections::HashMap;

use super::check::json;
use crate::catalogue::DocumentItem;
use crate::content_folder::file::{ContentError, ContentFile};
use crate::content_folder::library::{self, FILE};
use crate::content_folder::tables::TableRows;

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

/// The catalogue's documents and the rows of `library_documents`, files included: `library`
/// must have been read with its files ([`library::read`]).
pub(super) fn read(library: &library::Library) -> Result<(Library, TableRows), ContentError> {
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
    for (i, doc) in library.documents.iter().enumerate() {
        let d = &doc.entry;
        let file = doc.file.as_ref().ok_or_else(|| ContentError::Invalid {
            file: FILE.into(),
            field: format!("library[{i}].file"),
            reason: "the documents' files were not read".into(),
        })?;
        let item = DocumentItem {
            id: d.id,
            kind: "file".into(),
            title: d.title.clone(),
            name: d.name.clone(),
            subtitle: d.subtitle.clone().unwrap_or_default(),
            size: d.size.clone(),
            languages_in_file: d.languages_in_file.clone().unwrap_or_default(),
            code_points: d.code_points.clone().unwrap_or_default(),
            url: library::file_url(d.id),
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
            file.kind.content_type().into(),
            file.bytes.clone().into(),
        ]);
        docs.insert(d.id, item);
    }
    Ok((Library { docs }, t))
}
