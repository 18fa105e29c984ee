//! A rebuild's rounds that write nothing but their checkpoints.
//!
//! A projection that rebuilds in memory (the resident documents projection on PostgreSQL) writes
//! nothing in a round's transaction once it has started: its state waits for the end, its
//! spills go on connections of their own. Such a round's transaction holds one statement, the
//! checkpoint's compare-and-set, and costs five round trips around it (the checkpoints' read,
//! the pool's connection, `BEGIN`, the update, `COMMIT`), each a wait for a core on a machine
//! the rebuild keeps busy. A light round instead takes the checkpoints the last round reached
//! from memory, applies the batch with a connection held for the rebuild, then moves the
//! checkpoints in one statement that commits on its own: one round trip.
//!
//! What stays: the checkpoint in the database is where the projection's state is after every
//! round, as before (the projection wrote nothing else). A part refused on a poison event has
//! applied nothing (see [`crate::Projection::rebuild_round_writes_nothing`]) and is done again
//! the usual way (its transaction, the quarantine). A checkpoint that could not be written
//! after its events were applied in memory stops the rebuild: rounds after it would apply those
//! events a second time.

use std::collections::BTreeSet;

use super::{Behind, Projector, Round};
use crate::db::{Db, Tx};
use crate::projector::ProjectionError;
use crate::stream::Position;

/// Every projection's checkpoint, in the projector's order, and the projections stopped.
type Checkpoints = (Vec<Position>, BTreeSet<String>);

/// What a light round leaves for the next one.
#[derive(Default)]
pub(super) struct LightRounds {
    /// The connection the light rounds hand to the projections (nothing is written through it).
    held: Option<sqlx::pool::PoolConnection<sqlx::Postgres>>,
    /// Every projection's checkpoint after the last light round, with the projections stopped
    /// then: the next round starts from them instead of reading them.
    reached: Option<Checkpoints>,
    /// A checkpoint failed to be written after its events were applied in memory.
    broken: bool,
}

impl Projector {
    /// The light rounds' state (a panic elsewhere while it was held leaves it as it was).
    fn light_state(&self) -> std::sync::MutexGuard<'_, LightRounds> {
        self.light.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The checkpoints the last round reached when it was a light one (taken: a round that is
    /// not light reads them again).
    pub(super) fn light_checkpoints(&self) -> Result<Option<Checkpoints>, ProjectionError> {
        let mut light = self.light_state();
        if light.broken {
            return Err(unrecorded());
        }
        Ok(light.reached.take())
    }

    /// Keeps where a light round left every checkpoint, for the next round.
    pub(super) fn light_reached(&self, checkpoints: Vec<Position>, stopped: BTreeSet<String>) {
        let mut light = self.light_state();
        light.reached = Some((checkpoints, stopped));
    }

    /// The round as a light one, when it can be (see the module's comment; `None` when it
    /// cannot). A part that held a poison event applied nothing: it is returned among the
    /// failed parts, which the caller applies the careful way.
    pub(super) async fn light_round<'a, 'e>(
        &self,
        behind: &'a [Behind<'a, 'e>],
    ) -> Result<Option<Round<'a, 'e>>, ProjectionError> {
        let Db::Postgres { pool } = &self.target else {
            return Ok(None);
        };
        if self.stop_at.is_none()
            || self.fence.is_some()
            || behind.is_empty()
            || !behind
                .iter()
                .all(|b| b.projection.rebuild_round_writes_nothing())
        {
            return Ok(None);
        }
        let held = self.light_state().held.take();
        let conn = match held {
            Some(conn) => conn,
            None => pool.acquire().await?,
        };
        let mut tx = Tx::PostgresReads(conn);
        let mut failed = Vec::new();
        let mut applied = 0;
        for b in behind {
            // A part none of whose events the projection applies only moves its checkpoint.
            let applies = b.pending.iter().any(|e| b.projection.applies_to(e));
            if applies {
                if let Err(failure) = b.projection.apply_all(&mut tx, &b.pending).await {
                    if !failure.error.is_poison() {
                        // It may have failed halfway, its state ahead of its checkpoint.
                        self.light_state().broken = true;
                        return Err(failure.error);
                    }
                    // Nothing of it applied: done again the careful way, as a round's part is.
                    failed.push(b);
                    continue;
                }
            }
            let to = b.pending.last().map_or(b.checkpoint, |e| e.at);
            if !self.record_checkpoint(&mut tx, b, to).await {
                return Err(unrecorded());
            }
            applied += self.applied(b.projection, b.pending.len()).await?;
        }
        self.keep_held(tx);
        Ok(Some(Round {
            applied,
            moved_all: failed.is_empty(),
            failed,
        }))
    }

    /// Moves `b`'s checkpoint to `to` in one statement of its own; false (and the rounds
    /// broken) when it could not.
    async fn record_checkpoint(&self, tx: &mut Tx, b: &Behind<'_, '_>, to: Position) -> bool {
        let name = b.projection.name();
        match super::move_checkpoint(tx, name, b.checkpoint, to).await {
            Ok(true) => true,
            outcome => {
                tracing::error!(
                    projection = name,
                    outcome = ?outcome,
                    "a rebuild's checkpoint could not be moved past events applied in memory"
                );
                self.light_state().broken = true;
                false
            }
        }
    }

    fn keep_held(&self, tx: Tx) {
        if let Tx::PostgresReads(conn) = tx {
            self.light_state().held = Some(conn);
        }
    }

    /// Gives back the connection the light rounds held (at the rebuild's end).
    pub(super) fn end_light_rounds(&self) {
        let mut light = self.light_state();
        light.held = None;
        light.reached = None;
    }
}

fn unrecorded() -> ProjectionError {
    ProjectionError::Database(sqlx::Error::Protocol(
        "a rebuild's checkpoint could not be recorded after its events were applied; \
         the rebuild must start again"
            .into(),
    ))
}
