//! From the users' feeds to the push queue.
//!
//! The consumer keeps its place in the feed (`push_checkpoint`, a `feed_position`) and moves it
//! in the same transaction as the queue rows it writes, so each feed entry is queued once:
//! a restart resumes from the checkpoint, and when two nodes read the same entries only the
//! first to move the checkpoint commits (the other's conditional update finds it moved and
//! rolls back). Queue rows are unique per subscription and feed entry as well.
//!
//! Feed writers are serialised (see `projections::feed`), so everything up to the end read
//! first is visible: the checkpoint never passes an entry not yet seen.

use std::collections::BTreeSet;

use projections::documents::read::placeholders;
use projections::{now_ms, on_tx, Db, Tx};

use super::message::{for_feed, PushMessage, PUSHED_KINDS};
use super::metric_names;
use super::presence::Presence;
use super::Settings;

const CONSUMER: &str = "web-push";
/// Feed rows read per transaction.
const PAGE: i64 = 200;

/// Starts the checkpoint at the feed's current end on the first start: what happened before
/// push existed is not pushed.
pub async fn init(db: &Db) -> Result<(), sqlx::Error> {
    let _guard = db.write_guard().await;
    projections::on_db!(db, pool => sqlx::query(
        "insert into push_checkpoint (consumer, position)
         select $1, cast(coalesce(max(feed_position), 0) as bigint) from user_feed where true
         on conflict (consumer) do nothing")
        .bind(CONSUMER).execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(())
}

/// With pushing off, the checkpoint follows the feed's end: turning it on later pushes only
/// what happens from then on.
pub async fn skip_to_end(db: &Db) -> Result<(), sqlx::Error> {
    let _guard = db.write_guard().await;
    projections::on_db!(db, pool => sqlx::query(
        "update push_checkpoint set position = (select cast(coalesce(max(feed_position), 0) as bigint) from user_feed)
         where consumer = $1")
        .bind(CONSUMER).execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct FeedRow {
    feed_position: i64,
    user_id: String,
    kind: String,
    payload: String,
}

#[derive(sqlx::FromRow)]
struct Target {
    id: String,
    user_id: String,
    session_id: String,
}

/// Queues what the feed holds past the checkpoint; returns how many messages were queued.
pub async fn run_once(
    db: &Db,
    presence: &Presence,
    settings: &Settings,
) -> Result<u64, sqlx::Error> {
    let mut queued = 0;
    loop {
        let (page_queued, more) = page(db, presence, settings).await?;
        queued += page_queued;
        if !more {
            return Ok(queued);
        }
    }
}

/// One page in one transaction; true when more may follow.
async fn page(
    db: &Db,
    presence: &Presence,
    settings: &Settings,
) -> Result<(u64, bool), sqlx::Error> {
    let end = projections::feed::latest_position(db).await?;
    let _guard = db.write_guard().await;
    let mut tx = Tx::begin(db).await?;
    let from: i64 = on_tx!(&mut tx, c => sqlx::query_scalar(
        "select position from push_checkpoint where consumer = $1")
        .bind(CONSUMER).fetch_one(c).await)?;
    if from >= end {
        tx.rollback().await?;
        return Ok((0, false));
    }
    let kinds = PUSHED_KINDS
        .iter()
        .map(|k| format!("'{k}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "select feed_position, user_id, kind, payload from user_feed
         where feed_position > $1 and feed_position <= $2 and kind in ({kinds})
         order by feed_position limit $3"
    );
    let rows: Vec<FeedRow> = on_tx!(&mut tx, c => sqlx::query_as(&sql)
        .bind(from).bind(end).bind(PAGE).fetch_all(c).await)?;
    let full = rows.len() as i64 == PAGE;
    let to = match rows.last() {
        Some(last) if full => last.feed_position,
        _ => end,
    };
    let now = now_ms();
    let pushed: Vec<(&FeedRow, _)> = rows
        .iter()
        .filter_map(|row| for_feed(&row.kind, &row.payload).map(|message| (row, message)))
        .collect();
    let subscriptions = subscriptions_of(&mut tx, &pushed, now).await?;
    let mut queued = 0;
    for (row, message) in pushed {
        // A broadcast goes to every user's subscriptions; the message is built once.
        let targets: Vec<&Target> = subscriptions
            .iter()
            .filter(|t| row.user_id == projections::feed::BROADCAST || t.user_id == row.user_id)
            .collect();
        let payload =
            serde_json::to_string(&message).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        for user_targets in targets.chunk_by(|a, b| a.user_id == b.user_id) {
            let mut closed = Vec::new();
            for target in user_targets {
                // The app is open on that device: its live dot is enough.
                if presence.is_open(db, &target.session_id).await? {
                    metrics::counter!(metric_names::SKIPPED_OPEN_TOTAL).increment(1);
                } else {
                    closed.push(*target);
                }
            }
            let Some(user_id) = closed.first().map(|t| t.user_id.as_str()) else {
                continue;
            };
            if !within_rate(&mut tx, user_id, now, settings.user_per_hour).await? {
                metrics::counter!(metric_names::RATE_LIMITED_TOTAL).increment(1);
                tracing::info!(user = %user_id, kind = %row.kind, "push not sent: the user's hourly limit is reached");
                continue;
            }
            for target in closed {
                queued += on_tx!(&mut tx, c => sqlx::query(
                    "insert into push_queue (subscription_id, user_id, feed_position, payload, urgency, next_attempt_at, created_at)
                     values ($1, $2, $3, $4, $5, $6, $6)
                     on conflict (subscription_id, feed_position) do nothing")
                    .bind(&target.id).bind(&target.user_id).bind(row.feed_position).bind(&payload)
                    .bind(message.urgency).bind(now)
                    .execute(c).await.map(|r| r.rows_affected()))?;
            }
        }
    }
    let moved = on_tx!(&mut tx, c => sqlx::query(
        "update push_checkpoint set position = $1 where consumer = $2 and position = $3")
        .bind(to).bind(CONSUMER).bind(from).execute(c).await.map(|r| r.rows_affected()))?;
    if moved != 1 {
        // Another node queued these entries first.
        tx.rollback().await?;
        return Ok((0, true));
    }
    tx.commit().await?;
    Ok((queued, full))
}

/// The live subscriptions (their session open, their user enabled) of the users the `pushed`
/// rows are for, every user's when one of them is a broadcast: one statement for a page, in
/// the order of their users.
async fn subscriptions_of(
    tx: &mut Tx,
    pushed: &[(&FeedRow, PushMessage)],
    now: i64,
) -> Result<Vec<Target>, sqlx::Error> {
    if pushed.is_empty() {
        return Ok(Vec::new());
    }
    let users: BTreeSet<&str> = pushed.iter().map(|(row, _)| row.user_id.as_str()).collect();
    let everyone = users.contains(projections::feed::BROADCAST);
    let whose = if everyone {
        String::new()
    } else {
        format!("and p.user_id in ({})", placeholders(2, users.len()))
    };
    let sql = format!(
        "select p.id, p.user_id, p.session_id from push_subscriptions p
         join sessions s on s.id = p.session_id
         join users u on u.id = p.user_id
         where s.revoked_at is null and s.expires_at > $1 and u.disabled_at is null {whose}
         order by p.user_id, p.id"
    );
    on_tx!(tx, c => {
        let mut query = sqlx::query_as(&sql).bind(now);
        if !everyone {
            for user in &users {
                query = query.bind(*user);
            }
        }
        query.fetch_all(c).await
    })
}

/// Counts one push for `user_id` in the current hour; false when the hour's limit is reached.
async fn within_rate(
    tx: &mut Tx,
    user_id: &str,
    now: i64,
    per_hour: i64,
) -> Result<bool, sqlx::Error> {
    const HOUR_MS: i64 = 3_600_000;
    let row: Option<(i64, i64)> = on_tx!(tx, c => sqlx::query_as(
        "select window_start, sent from push_rate where user_id = $1")
        .bind(user_id).fetch_optional(c).await)?;
    let (start, sent) = match row {
        Some((start, sent)) if now - start < HOUR_MS => (start, sent),
        _ => (now, 0),
    };
    if sent >= per_hour {
        return Ok(false);
    }
    on_tx!(tx, c => sqlx::query(
        "insert into push_rate (user_id, window_start, sent) values ($1, $2, $3)
         on conflict (user_id) do update set window_start = excluded.window_start, sent = excluded.sent")
        .bind(user_id).bind(start).bind(sent + 1).execute(c).await.map(|r| r.rows_affected()))?;
    Ok(true)
}
