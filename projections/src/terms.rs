//! Read model of the terms acceptances: one row per user and accepted version, which the server
//! checks against its current version and auditors read as the history.

use async_trait::async_trait;
use cqrs_es::Aggregate;
use events::terms::{TermsAcceptance, TermsEvent};

use crate::{on_tx, Projection, ProjectionError, StoredEvent, TableSpec, Tx};

pub struct TermsProjection;

const TABLES: &[TableSpec] = &[TableSpec {
    name: "terms_acceptances",
    order_by: "user_id, version",
}];

#[async_trait]
impl Projection for TermsProjection {
    fn name(&self) -> &'static str {
        "terms"
    }

    fn tables(&self) -> &'static [TableSpec] {
        TABLES
    }

    /// Reads and writes its own table only.
    fn rebuilds_alone(&self) -> bool {
        true
    }

    fn reads(&self, aggregate_type: &str) -> bool {
        aggregate_type == TermsAcceptance::TYPE
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        if event.aggregate_type != TermsAcceptance::TYPE {
            return Ok(());
        }
        let TermsEvent::Accepted {
            user_id,
            version,
            accepted_at,
        } = event
            .decode()
            .map_err(|e| ProjectionError::bad_event(event, e))?;
        on_tx!(tx, c => sqlx::query(
            "insert into terms_acceptances (user_id, version, accepted_at) values ($1, $2, $3)
             on conflict (user_id, version) do nothing")
            .bind(&user_id).bind(&version).bind(accepted_at)
            .execute(c).await.map(|r| r.rows_affected()))?;
        Ok(())
    }
}
