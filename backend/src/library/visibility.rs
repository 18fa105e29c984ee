//! What reps see of library documents in the lists that embed them (catalogues, #ThinkClinical,
//! products' attachments): never an unreleased, withdrawn or expired one; a released new version
//! shows its new title and size with `updated: true`; a released console document appears in the
//! products it names.
//!
//! Lists are stored as ready JSON; the filter walks it only when some document has a lifecycle
//! that changes it. The view is one small query, cached until the local projector commits a
//! batch (and at most [`MAX_AGE`] on a node whose projector is elsewhere).

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use projections::library::{self as model, StateRow};
use projections::Tx;
use serde_json::{json, Value};

use super::operations::Library;
use crate::error::AppResult;

/// Longest a cached view is used on a node that does not run the projector.
const MAX_AGE: Duration = Duration::from_secs(1);

/// Library documents as lists must show them.
#[derive(Debug, Default, Clone)]
pub struct LibraryView {
    /// Not released yet, withdrawn or expired.
    pub hidden: HashSet<i64>,
    /// Released documents with a lifecycle: their current list entry.
    pub shown: HashMap<i64, Value>,
    /// Released console documents by the product ids they name.
    pub by_product: HashMap<i64, Vec<i64>>,
}

#[derive(Default)]
pub(super) struct Cache {
    view: Option<(u64, Instant, LibraryView)>,
}

pub(super) type SharedCache = Mutex<Cache>;

fn entry(row: &StateRow) -> Option<Value> {
    let file = row.released_file()?;
    let labels = row.labels();
    Some(json!({
        "id": row.id,
        "type": "file",
        "title": row.title,
        "name": file.file_name,
        "subtitle": row.category.clone().unwrap_or_default(),
        "size": human_size(file.size),
        "languages_in_file": "",
        "code_points": "",
        "url": model::file_url(row.id),
        "actions": [],
        "for_internal_use": labels.for_internal_use,
        "controlled_release": labels.controlled_release,
        "upon_request": labels.upon_request,
        "updated": row.released_version.unwrap_or(1) > 1,
    }))
}

/// Sizes as the catalogue prints them.
fn human_size(bytes: i64) -> String {
    let kb = bytes as f64 / 1024.0;
    if kb < 1024.0 {
        format!("{} KB", kb.ceil() as i64)
    } else {
        format!("{:.1} MB", kb / 1024.0)
    }
}

async fn read_view(tx: &mut Tx) -> Result<LibraryView, sqlx::Error> {
    let mut view = LibraryView {
        hidden: model::hidden_ids(tx).await?.into_iter().collect(),
        ..LibraryView::default()
    };
    for row in model::visible(tx).await? {
        // A folder document at its first version is listed exactly as the folder stored it;
        // only console documents and new versions need an entry of their own.
        let console = row.id >= super::operations::FIRST_CONSOLE_ID;
        if console || row.released_version.unwrap_or(1) > 1 {
            if let Some(e) = entry(&row) {
                view.shown.insert(row.id, e);
            }
        }
        // Content-folder documents are placed by the folder; console ones by their products
        // (a `us` one only reaches the US set, through its item there).
        if row.id >= super::operations::FIRST_CONSOLE_ID && row.audience == "all" {
            for product in StateRow::ids(&row.products) {
                view.by_product.entry(product).or_default().push(row.id);
            }
        }
    }
    Ok(view)
}

impl Library {
    /// The current view (cached; see the module).
    pub async fn view(&self) -> AppResult<LibraryView> {
        let batches = *self.batches().borrow();
        {
            let cache = self.view_cache().lock().unwrap_or_else(|e| e.into_inner());
            if let Some((at_batch, at, view)) = &cache.view {
                if *at_batch == batches && at.elapsed() < MAX_AGE {
                    return Ok(view.clone());
                }
            }
        }
        let mut tx = self.tx().await?;
        let view = read_view(&mut tx).await?;
        tx.rollback().await?;
        let mut cache = self.view_cache().lock().unwrap_or_else(|e| e.into_inner());
        cache.view = Some((batches, Instant::now(), view.clone()));
        Ok(view)
    }

    /// `json` (a stored list answer) as reps must see it now.
    pub async fn filter_list_json(&self, json: String, product: Option<i64>) -> AppResult<String> {
        let view = self.view().await?;
        let extra = product
            .and_then(|p| view.by_product.get(&p))
            .filter(|v| !v.is_empty());
        if view.hidden.is_empty() && view.shown.is_empty() && extra.is_none() {
            return Ok(json);
        }
        let Ok(mut value) = serde_json::from_str::<Value>(&json) else {
            return Ok(json);
        };
        filter_value(&mut value, &view);
        if let Some(extra) = extra {
            add_to_attachments(&mut value, extra, &view);
        }
        Ok(value.to_string())
    }
}

/// The library id of a list entry (`{type: "file", url: "/api/library/{id}/file"}`).
fn library_id(value: &Value) -> Option<i64> {
    let url = value.get("url")?.as_str()?;
    url.strip_prefix("/api/library/")?
        .strip_suffix("/file")?
        .parse()
        .ok()
}

fn filter_value(value: &mut Value, view: &LibraryView) {
    match value {
        Value::Array(items) => {
            items.retain(|item| library_id(item).is_none_or(|id| !view.hidden.contains(&id)));
            for item in items.iter_mut() {
                match library_id(item).and_then(|id| view.shown.get(&id)) {
                    Some(current) => *item = current.clone(),
                    None => filter_value(item, view),
                }
            }
        }
        Value::Object(map) => {
            for (_, v) in map.iter_mut() {
                filter_value(v, view);
            }
        }
        _ => {}
    }
}

/// Puts released console documents naming the product into its attachments (a 'Documents'
/// group), unless already listed.
fn add_to_attachments(value: &mut Value, ids: &[i64], view: &LibraryView) {
    let Some(groups) = value.get_mut("attachments").and_then(Value::as_array_mut) else {
        return;
    };
    let listed: HashSet<i64> = groups
        .iter()
        .filter_map(|g| g.get("files").and_then(Value::as_array))
        .flatten()
        .filter_map(library_id)
        .collect();
    let files: Vec<Value> = ids
        .iter()
        .filter(|id| !listed.contains(id))
        .filter_map(|id| view.shown.get(id).cloned())
        .collect();
    if files.is_empty() {
        return;
    }
    groups.push(json!({"name": "Documents", "files": files}));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_documents_leave_every_list_and_new_versions_replace_their_entry() {
        let mut view = LibraryView::default();
        view.hidden.insert(2);
        view.shown.insert(
            3,
            json!({"url": "/api/library/3/file", "title": "New", "updated": true}),
        );
        let mut value = json!({"documents": [
            {"type": "file", "url": "/api/library/1/file", "title": "Kept"},
            {"type": "file", "url": "/api/library/2/file", "title": "Gone"},
            {"type": "file", "url": "/api/library/3/file", "title": "Old"}],
            "nested": {"files": [{"url": "/api/library/2/file"}]}});
        filter_value(&mut value, &view);
        assert_eq!(value["documents"].as_array().unwrap().len(), 2);
        assert_eq!(value["documents"][1]["title"], "New");
        assert_eq!(value["documents"][1]["updated"], true);
        assert_eq!(value["nested"]["files"], json!([]));
    }

    #[test]
    fn console_documents_join_the_attachments_of_the_products_they_name() {
        let mut view = LibraryView::default();
        view.shown
            .insert(100_000, json!({"url": "/api/library/100000/file"}));
        let mut value = json!({"attachments": [{"name": "IFU", "files": []}]});
        add_to_attachments(&mut value, &[100_000], &view);
        assert_eq!(value["attachments"][1]["name"], "Documents");
        add_to_attachments(&mut value, &[100_000], &view);
        assert_eq!(value["attachments"].as_array().unwrap().len(), 2);
    }
}
