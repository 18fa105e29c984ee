//! Reads of documents counted as they happen: per item and reader, how often it was opened and
//! downloaded and when last. History shows these counts without loading the item's events.

use async_trait::async_trait;
use events::documents::{ItemEvent, ITEM_TYPE};
use serde::Serialize;

use crate::{on_tx, Projection, ProjectionError, StoredEvent, TableSpec, Tx};

pub struct ItemReadsProjection;

const NAME: &str = "item_reads";

const TABLES: &[TableSpec] = &[TableSpec {
    name: "item_reads",
    order_by: "item_id, user_id",
}];

#[async_trait]
impl Projection for ItemReadsProjection {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [TableSpec] {
        TABLES
    }

    /// Reads and writes its own table only.
    fn rebuilds_alone(&self) -> bool {
        true
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        if !self.applies_to(event) {
            return Ok(());
        }
        let (user, opens, downloads) = match event
            .decode()
            .map_err(|e| ProjectionError::bad_event(event, e))?
        {
            ItemEvent::Opened { by } => (by, 1_i64, 0_i64),
            ItemEvent::Downloaded { by } => (by, 0, 1),
            _ => return Ok(()),
        };
        // The time recorded with the event, never the clock: a replay writes the same rows.
        on_tx!(tx, c => sqlx::query(
            "insert into item_reads (item_id, user_id, opens, downloads, last_at) values ($1, $2, $3, $4, $5)
             on conflict (item_id, user_id) do update set opens = item_reads.opens + excluded.opens,
                 downloads = item_reads.downloads + excluded.downloads,
                 last_at = case when excluded.last_at > item_reads.last_at then excluded.last_at else item_reads.last_at end")
            .bind(&event.aggregate_id).bind(&user).bind(opens).bind(downloads).bind(event.recorded_at)
            .execute(c).await.map(|r| r.rows_affected()))?;
        Ok(())
    }

    fn reads(&self, aggregate_type: &str) -> bool {
        aggregate_type == ITEM_TYPE
    }

    fn applies_to(&self, event: &StoredEvent) -> bool {
        event.aggregate_type == ITEM_TYPE
            && matches!(event.event_type.as_str(), "Opened" | "Downloaded")
    }
}

/// How often an item was read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema, sqlx::FromRow)]
pub struct ReadCounts {
    pub opens: i64,
    pub downloads: i64,
    /// How many people these reads came from.
    pub readers: i64,
    /// The last read, ms since the epoch; none when never read.
    pub last_at: Option<i64>,
}

/// The reads of `item`: by everyone, or by `user` only.
pub async fn counts(
    tx: &mut Tx,
    item: &str,
    user: Option<&str>,
) -> Result<ReadCounts, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_as(
        "select cast(coalesce(sum(opens), 0) as bigint) as opens,
                cast(coalesce(sum(downloads), 0) as bigint) as downloads,
                cast(count(*) as bigint) as readers, max(last_at) as last_at
         from item_reads where item_id = $1 and (cast($2 as text) is null or user_id = $2)")
        .bind(item).bind(user).fetch_one(c).await)
}
