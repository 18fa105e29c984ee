//! Web Push: notifications on a device whose app is closed (RFC 8030, message encryption
//! RFC 8291, VAPID RFC 8292), through the crate `web-push-native` (see `docs/decisions.md`).
//!
//! - [`keys`] - the deployment's VAPID key pair (`DATA_DIR` on SQLite, the database on
//!   PostgreSQL); `GET /api/web-push/key` (`auth::devices`) hands out its public half.
//! - [`subscriptions`] - one subscription per device, from `POST /users/register-device`
//!   (`auth::devices`);
//!   deleted at sign-out, revocation, disabling, and when the push service says it is gone.
//! - [`message`] - what is pushed for which feed entry (title, short text, app link).
//! - [`consumer`] - the feed entries to the durable queue, once each (a checkpoint).
//! - [`delivery`] - the queue to the push services, with retries.
//! - [`presence`] - which sessions have the app open (a socket): they are not pushed to.

pub mod consumer;
pub mod delivery;
pub mod keys;
pub mod message;
pub mod presence;
pub mod subscriptions;

use std::sync::Arc;
use std::time::Duration;

use projections::{Db, ProjectorHandle};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::read_models::AFTER_BATCH;

pub use presence::{Presence, PresenceSync};
pub use subscriptions::{
    delete_for_session as delete_subscriptions_of_session,
    delete_for_user as delete_subscriptions_of_user, parse as parse_subscription,
    store as store_subscription, SubscriptionError,
};

/// The names of pushing's metrics.
pub use crate::metrics::push as metric_names;

/// What pushing needs from the configuration.
#[derive(Debug, Clone)]
pub struct Settings {
    pub enabled: bool,
    pub services: Vec<String>,
    pub contact: String,
    pub ttl: Duration,
    pub retry_base_ms: i64,
    pub max_attempts: i64,
    pub user_per_hour: i64,
    pub poll: Duration,
}

impl Settings {
    pub fn from_config(config: &Config) -> Self {
        Self {
            enabled: config.push_enabled,
            services: config
                .push_services
                .iter()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect(),
            contact: config.push_contact.trim().to_string(),
            ttl: Duration::from_secs(config.push_ttl_seconds.max(1)),
            retry_base_ms: config.push_retry_base_ms.max(1),
            max_attempts: config.push_max_attempts.max(1),
            user_per_hour: config.push_user_per_hour.max(0),
            poll: Duration::from_millis(config.feed_poll_ms.max(10)),
        }
    }
}

/// Pushing on this node.
pub struct Push {
    pub settings: Settings,
    pub keys: keys::VapidKeys,
    pub presence: Arc<Presence>,
    /// Wakes the delivery loop (a message queued).
    queued: Notify,
}

impl Push {
    pub async fn new(
        db: &Db,
        config: &Config,
        presence: Arc<Presence>,
    ) -> anyhow::Result<Arc<Self>> {
        let settings = Settings::from_config(config);
        if !settings.contact.starts_with("mailto:") && !settings.contact.starts_with("https:") {
            anyhow::bail!("PUSH_CONTACT must be a mailto: or https: address");
        }
        let keys = keys::VapidKeys::load_or_create(db, &config.data_dir).await?;
        consumer::init(db).await?;
        if !settings.enabled {
            consumer::skip_to_end(db).await?;
        }
        Ok(Arc::new(Self {
            settings,
            keys,
            presence,
            queued: Notify::new(),
        }))
    }

    /// Starts the consumer (feed to queue) and the delivery (queue to push services) of this
    /// node, and on PostgreSQL the presence sync; they stop with `stop`.
    pub fn start(
        self: &Arc<Self>,
        db: Db,
        data_dir: std::path::PathBuf,
        projector: ProjectorHandle,
        node_id: String,
        stop: CancellationToken,
    ) -> tokio::task::JoinHandle<()> {
        let push = self.clone();
        tokio::spawn(async move {
            let presence = tokio::spawn(push.presence.clone().sync(
                db.clone(),
                node_id,
                stop.clone(),
            ));
            if push.settings.enabled {
                tokio::join!(
                    push.consume(db.clone(), projector, stop.clone()),
                    push.deliver(db, data_dir, stop.clone()),
                );
            } else {
                tracing::info!("PUSH_ENABLED is false: nothing is pushed");
                stop.cancelled().await;
            }
            let _ = presence.await;
        })
    }

    /// Queues the pushes of new feed entries: [`AFTER_BATCH`] after each projector batch of
    /// this node that wrote feed rows, and every `poll`.
    async fn consume(&self, db: Db, projector: ProjectorHandle, stop: CancellationToken) {
        let mut batches = projector.subscribe_feed_batches();
        let mut open = true;
        loop {
            match consumer::run_once(&db, &self.presence, &self.settings).await {
                Ok(0) => {}
                Ok(_) => self.queued.notify_one(),
                Err(e) => tracing::warn!(error = %e, "cannot queue pushes; trying again"),
            }
            tokio::select! {
                _ = stop.cancelled() => return,
                changed = batches.changed(), if open => {
                    open = changed.is_ok();
                    if stop.run_until_cancelled(tokio::time::sleep(AFTER_BATCH)).await.is_none() {
                        return;
                    }
                }
                _ = tokio::time::sleep(self.settings.poll) => {}
            }
        }
    }

    async fn deliver(&self, db: Db, data_dir: std::path::PathBuf, stop: CancellationToken) {
        let http = match reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .redirect(reqwest::redirect::Policy::none())
            .build()
        {
            Ok(http) => http,
            Err(e) => {
                tracing::error!(error = %e, "cannot make the push client: nothing is pushed");
                return;
            }
        };
        let node = uuid::Uuid::new_v4().to_string();
        loop {
            if let Err(e) = self.keys.reload(&db, &data_dir).await {
                tracing::warn!(error = %e, "cannot read the VAPID key");
            }
            let queued = self.queued.notified();
            tokio::pin!(queued);
            queued.as_mut().enable();
            if let Err(e) = delivery::run_once(&db, &http, &self.keys, &self.settings, &node).await
            {
                tracing::warn!(error = %e, "push delivery round failed; trying again");
            }
            if let Ok(count) = queued_count(&db).await {
                metrics::gauge!(metric_names::QUEUED).set(count as f64);
            }
            // Sleeps until a message is queued, or the earliest retry is due (the poll at most).
            let wait = next_due_in(&db)
                .await
                .unwrap_or(self.settings.poll)
                .min(self.settings.poll);
            tokio::select! {
                _ = stop.cancelled() => return,
                _ = &mut queued => {}
                _ = tokio::time::sleep(wait) => {}
            }
        }
    }
}

async fn queued_count(db: &Db) -> Result<i64, sqlx::Error> {
    projections::on_db!(db, pool => sqlx::query_scalar("select count(*) from push_queue").fetch_one(pool).await)
}

async fn next_due_in(db: &Db) -> Result<Duration, sqlx::Error> {
    let next: Option<i64> = projections::on_db!(db, pool => sqlx::query_scalar(
        "select min(next_attempt_at) from push_queue").fetch_one(pool).await)?;
    Ok(match next {
        Some(at) => Duration::from_millis((at - projections::now_ms()).max(1) as u64),
        None => Duration::from_secs(3600),
    })
}
