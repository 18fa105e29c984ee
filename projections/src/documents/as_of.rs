//! A folder's contents as they were at a past time: the documents projection replayed, into an
//! empty scratch database, over the document events recorded until then.

use events::documents::{Kind, ITEM_TYPE};

use super::projection::DocumentsProjection;
use super::read::{self, ItemRow};
use crate::db::{Db, Tx};
use crate::projector::{Projection, ProjectionError};
use crate::stream::{self, Position};

/// Events applied per scratch transaction.
const BATCH: i64 = 1000;

/// The folder's name and contents at `until_ms`, or `None` when it did not exist then.
/// `scratch` must be an empty, migrated database; the caller throws it away afterwards.
pub async fn folder_as_of(
    live: &Db,
    scratch: &Db,
    folder: &str,
    until_ms: i64,
) -> Result<Option<(String, Vec<ItemRow>)>, ProjectionError> {
    let projection = DocumentsProjection;
    let mut after = Position::default();
    loop {
        let events = stream::read_type_until(live, ITEM_TYPE, until_ms, after, BATCH).await?;
        let Some(last) = events.last() else { break };
        after = last.at;
        let mut tx = Tx::begin(scratch).await?;
        for event in &events {
            projection.apply(&mut tx, event).await?;
        }
        tx.commit().await?;
    }
    let mut tx = Tx::begin(scratch).await?;
    let Some(row) = read::item(&mut tx, "", folder).await? else {
        return Ok(None);
    };
    if row.kind() != Kind::Folder {
        return Ok(None);
    }
    let children = read::children(&mut tx, "", folder).await?;
    Ok(Some((row.title, children)))
}
