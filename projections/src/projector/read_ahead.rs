//! A rebuild's reader: reads and prepares the batches of the stream one after the other, in a
//! task of its own, up to two batches ahead of the round that applies them.
//!
//! One batch ahead, read while the previous one is applied, leaves a core idle whenever the
//! read ends before the apply (until the next round starts the next read), and has the read
//! compete with the applying thread at the start of every round. Kept going, the reader takes
//! the idle moments as they come.

use std::sync::Arc;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::{Projection, ProjectionError};
use crate::db::Db;
use crate::stream::{self, Position, StoredEvent};

/// A batch read ahead, with the position it follows.
type ReadBatch = Result<(Position, Vec<StoredEvent>), ProjectionError>;

/// The reader of a rebuild, stopped when dropped.
pub(super) struct ReadAhead {
    batches: mpsc::Receiver<ReadBatch>,
    task: JoinHandle<()>,
}

impl Drop for ReadAhead {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl ReadAhead {
    /// Starts reading the batches of `batch` events after `after`, each prepared by every
    /// projection ([`Projection::prepare_ahead`]), until a batch is not full or passes `stop`.
    pub(super) fn start(
        source: Db,
        after: Position,
        batch: i64,
        stop: Position,
        projections: Vec<Arc<dyn Projection>>,
    ) -> Self {
        let projections: Arc<[Arc<dyn Projection>]> = projections.into();
        // One batch waiting, one being read: two ahead of the round being applied.
        let (send, batches) = mpsc::channel(1);
        let task = tokio::spawn(async move {
            let mut after = after;
            loop {
                let read = read_prepared(&source, after, batch, projections.clone()).await;
                let next = read
                    .as_ref()
                    .ok()
                    .and_then(|events| read_after_batch(events, batch, stop));
                if send.send(read.map(|events| (after, events))).await.is_err() {
                    return;
                }
                match next {
                    Some(last) => after = last,
                    None => return,
                }
            }
        });
        Self { batches, task }
    }

    /// The next batch, if it is the one after `after`: `None` when it is another, or when the
    /// reader failed or ended (the round then reads the batch itself, and the reader is not
    /// to be asked again).
    pub(super) async fn next_after(&mut self, after: Position) -> Option<Vec<StoredEvent>> {
        match self.batches.recv().await? {
            Ok((from, events)) if from == after => Some(events),
            Ok(_) => None,
            Err(error) => {
                tracing::debug!(%error, "a rebuild's batch read ahead failed; read again");
                None
            }
        }
    }
}

/// Where a rebuild reads on after `events`, a batch of at most `batch` events read before
/// `stop`: after its last event, unless the batch is not full (the stream ends there) or it
/// reached `stop`.
pub(super) fn read_after_batch(
    events: &[StoredEvent],
    batch: i64,
    stop: Position,
) -> Option<Position> {
    let last = events.last().map(|e| e.at)?;
    (events.len() as i64 == batch && last < stop).then_some(last)
}

/// The batch after `after`, prepared off the runtime's threads (a server's requests go on
/// meanwhile).
async fn read_prepared(
    source: &Db,
    after: Position,
    batch: i64,
    projections: Arc<[Arc<dyn Projection>]>,
) -> Result<Vec<StoredEvent>, ProjectionError> {
    let events = stream::read_after(source, after, batch).await?;
    tokio::task::spawn_blocking(move || {
        for projection in projections.iter() {
            projection.prepare_ahead(&events);
        }
        events
    })
    .await
    .map_err(|e| {
        ProjectionError::Database(sqlx::Error::Protocol(format!(
            "preparing a batch read ahead: {e}"
        )))
    })
}
