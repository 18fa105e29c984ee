//! The tracked links' handles inside [`super::operations::Documents`]: their event store, the
//! viewer's limits and the keyed hash that tells a device new to a link (never its address or
//! user agent).

use events::share_link::{Client, DeviceClass, ShareLink};
use hmac::{Hmac, Mac};
use projections::{on_db, Db, ProjectorHandle};
use sha2::Sha256;
use tokio::sync::OnceCell;

use crate::config::Config;
use crate::edge::limits::{PerUser, Quota};
use crate::edge::network::Prefixes;
use crate::error::{AppError, AppResult};
use crate::event_store::EventStore;

/// The name of the HMAC key of device hashes in `server_secrets`.
const DEVICE_SECRET: &str = "share-devices";
const DAY_MS: i64 = 86_400_000;

/// The tracked links' handles inside [`Documents`].
pub struct Tracking {
    pub(super) store: EventStore<ShareLink>,
    device_key: OnceCell<Vec<u8>>,
    /// `EXTERNAL_LINK_MAX_DAYS`.
    pub max_days: i64,
    pub(super) retention_ms: i64,
    pub(super) per_link: PerUser,
    pub(super) per_network: PerUser,
    pub(super) prefixes: Prefixes,
    pub(super) trust_proxy: bool,
}

impl Tracking {
    pub fn new(db: &Db, config: &Config, projector: ProjectorHandle) -> Self {
        Self {
            store: EventStore::new(db, (), projector),
            device_key: OnceCell::new(),
            max_days: config.external_link_max_days.max(1),
            retention_ms: config.share_analytics_retention_days.max(1) * DAY_MS,
            per_link: PerUser::pruned_by_owner(
                "share_viewer_link",
                Quota::per_minute(config.share_viewer_link_per_minute),
            ),
            per_network: PerUser::pruned_by_owner(
                "share_viewer_network",
                Quota::per_minute(config.share_viewer_network_per_minute),
            ),
            prefixes: Prefixes::from_config(config),
            trust_proxy: config.trust_proxy_headers,
        }
    }

    /// The client as an open records it: its device class and a keyed hash of its network and
    /// class (never the address or the user agent).
    pub(super) async fn client(
        &self,
        db: &Db,
        network: &str,
        user_agent: &str,
    ) -> AppResult<Client> {
        let key = self
            .device_key
            .get_or_try_init(|| async {
                let mut fresh = [0u8; 32];
                rand::RngCore::fill_bytes(&mut rand::thread_rng(), &mut fresh);
                // The first node to get here decides; the others read its key.
                on_db!(db, pool => sqlx::query(
                    "insert into server_secrets (name, value) values ($1, $2) on conflict (name) do nothing")
                    .bind(DEVICE_SECRET).bind(hex::encode(fresh))
                    .execute(pool).await.map(|r| r.rows_affected()))?;
                let stored: String = on_db!(db, pool => sqlx::query_scalar(
                    "select value from server_secrets where name = $1")
                    .bind(DEVICE_SECRET).fetch_one(pool).await)?;
                Ok::<_, sqlx::Error>(stored.into_bytes())
            })
            .await?;
        let device_class = DeviceClass::of(user_agent);
        let mut mac = Hmac::<Sha256>::new_from_slice(key)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("device key: {e}")))?;
        mac.update(network.as_bytes());
        mac.update(b"|");
        mac.update(device_class.as_str().as_bytes());
        let device = hex::encode(&mac.finalize().into_bytes()[..16]);
        Ok(Client {
            device_class,
            device,
        })
    }
}
