//! The users' feeds as the server writes them outside the projector: the kinds of message
//! (`user_feed.kind`), writing one message directly, and poking the realtime hub so open sockets
//! see it at once. The projections write their feed rows themselves (`projections::feed`); the
//! realtime channel (`crate::realtime`) only reads them.

use std::sync::Arc;

use projections::Db;
use tokio::sync::Notify;

/// The kind of the message a course registration writes to the user's feed.
pub const COURSE_REGISTERED: &str = projections::course_registrations::REGISTERED_KIND;

/// The kinds of feed message. The projections write the first five as they apply events; the
/// server writes `session_revoked` itself when a session ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum FeedKind {
    /// `{name: notifications|updates|shared, count}`: a badge changed.
    Badge,
    /// `{item}`: a document or folder was shared with the user.
    SharedArrival,
    /// A shared item changed.
    SharedChange,
    /// A notification was published to the user.
    Notification,
    /// An app update was published.
    AppUpdate,
    /// `{session}` or `{all: true}`: the user's session(s) ended; their sockets close with 4401.
    SessionRevoked,
    /// `{course: {id, title}, days}`: the user's course registration was recorded.
    CourseRegistered,
    /// `{share, item, title, recipient, at, first}`: an external link the user sent (or of
    /// their item) was opened.
    ShareOpened,
    /// `{share, item}`: an external link's figures changed (pages, download, revocation, expiry).
    ShareEngagement,
    /// `{kind: products|news|..., ids}`: company content changed; open apps refresh it.
    ContentChanged,
}

impl FeedKind {
    /// The kind as stored in `user_feed.kind` and sent in `message` frames.
    pub fn as_str(self) -> &'static str {
        match self {
            FeedKind::Badge => "badge",
            FeedKind::SharedArrival => "shared_arrival",
            FeedKind::SharedChange => "shared_change",
            FeedKind::Notification => "notification",
            FeedKind::AppUpdate => "app_update",
            FeedKind::SessionRevoked => "session_revoked",
            FeedKind::CourseRegistered => COURSE_REGISTERED,
            FeedKind::ShareOpened => projections::share_engagement::OPENED_KIND,
            FeedKind::ShareEngagement => projections::share_engagement::ENGAGEMENT_KIND,
            FeedKind::ContentChanged => projections::content::CONTENT_CHANGED_KIND,
        }
    }
}

/// Makes the realtime hub look for new feed rows now (after a change it would otherwise see only
/// at its next poll). Cloning shares the hub's signal.
#[derive(Clone, Default)]
pub struct Poke(Arc<Notify>);

impl Poke {
    pub fn poke(&self) {
        self.0.notify_one();
    }

    /// Waits for the next poke.
    pub async fn poked(&self) {
        self.0.notified().await;
    }
}

/// Writes one message into a user's feed outside the projector (the `companion feed push`
/// command) and tells the nodes. Returns its number in the user's feed.
///
/// On SQLite the running server notices it within `FEED_POLL_MS`; on PostgreSQL at once.
pub async fn push_direct(
    db: &Db,
    user_id: &str,
    kind: FeedKind,
    payload: &serde_json::Value,
) -> Result<i64, sqlx::Error> {
    let _guard = db.write_guard().await;
    let mut tx = projections::Tx::begin(db).await?;
    // Write first, so SQLite takes its write lock before the read inside `push` (another
    // process may be writing the same file).
    projections::on_tx!(&mut tx, c => sqlx::query("update realtime_epoch set epoch = epoch where id = 1")
        .execute(c).await.map(|r| r.rows_affected()))?;
    let seq = projections::feed::push(
        &mut tx,
        user_id,
        kind.as_str(),
        payload,
        projections::now_ms(),
    )
    .await?;
    tx.commit().await?;
    // The feed holds this row now: its end is past 0, and told.
    projections::feed::announce_past(db, 0).await?;
    Ok(seq)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feed_kinds_are_written_and_typed_the_same_way() {
        use clap::ValueEnum;
        for kind in FeedKind::value_variants() {
            let name = kind.to_possible_value().expect("named");
            assert_eq!(name.get_name(), kind.as_str());
            assert_eq!(FeedKind::from_str(kind.as_str(), false), Ok(*kind));
        }
        assert!(FeedKind::from_str("bagde", false).is_err());
    }
}
