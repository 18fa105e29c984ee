//! The VAPID key pair (RFC 8292) this deployment signs its pushes with: made once, then kept
//! like the session signing keys: in `DATA_DIR/vapid-private-key` on SQLite, in the database
//! on PostgreSQL so every node signs with the same key. Browsers bind each subscription to the
//! public key, so a new key (`companion push rotate-keys`) ends every subscription.

use std::path::Path;
use std::sync::{Arc, RwLock};

use anyhow::Context;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use projections::Db;
use web_push_native::jwt_simple::algorithms::{ECDSAP256PublicKeyLike, ES256KeyPair};

/// The file holding the private key on SQLite (base64url of the 32-byte scalar).
pub const KEY_FILE: &str = "vapid-private-key";

#[derive(Clone)]
pub struct VapidKeys {
    pair: Arc<RwLock<Arc<ES256KeyPair>>>,
}

fn encode(pair: &ES256KeyPair) -> String {
    URL_SAFE_NO_PAD.encode(pair.to_bytes())
}

fn decode(text: &str) -> anyhow::Result<ES256KeyPair> {
    let bytes = URL_SAFE_NO_PAD
        .decode(text.trim())
        .context("the VAPID private key is not base64url")?;
    ES256KeyPair::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("the VAPID private key: {e}"))
}

impl VapidKeys {
    fn of(pair: ES256KeyPair) -> Self {
        Self {
            pair: Arc::new(RwLock::new(Arc::new(pair))),
        }
    }

    /// The deployment's key pair, made on the first start.
    pub async fn load_or_create(db: &Db, data_dir: &Path) -> anyhow::Result<Self> {
        Ok(Self::of(Self::stored(db, data_dir, true).await?))
    }

    async fn stored(db: &Db, data_dir: &Path, create: bool) -> anyhow::Result<ES256KeyPair> {
        match db {
            Db::Postgres { pool } => {
                if create {
                    sqlx::query(
                        "insert into push_vapid_keys (id, private_key) values (1, $1)
                         on conflict (id) do nothing",
                    )
                    .bind(encode(&ES256KeyPair::generate()))
                    .execute(pool)
                    .await
                    .context("creating the VAPID key")?;
                }
                let text: String =
                    sqlx::query_scalar("select private_key from push_vapid_keys where id = 1")
                        .fetch_one(pool)
                        .await
                        .context("reading the VAPID key")?;
                decode(&text)
            }
            Db::Sqlite { .. } => {
                let path = data_dir.join(KEY_FILE);
                match std::fs::read_to_string(&path) {
                    Ok(text) => decode(&text),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound && create => {
                        let pair = ES256KeyPair::generate();
                        write_private(&path, &encode(&pair))?;
                        Ok(pair)
                    }
                    Err(e) => {
                        Err(anyhow::Error::new(e).context(format!("reading {}", path.display())))
                    }
                }
            }
        }
    }

    /// Reads the stored key again (another node, or the rotate command, may have replaced it).
    pub async fn reload(&self, db: &Db, data_dir: &Path) -> anyhow::Result<()> {
        let pair = Self::stored(db, data_dir, false).await?;
        *self.pair.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(pair);
        Ok(())
    }

    pub fn pair(&self) -> Arc<ES256KeyPair> {
        self.pair.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The public key as browsers take it (`applicationServerKey`): base64url of the
    /// uncompressed point.
    pub fn public_key(&self) -> String {
        URL_SAFE_NO_PAD.encode(
            self.pair()
                .public_key()
                .public_key()
                .to_bytes_uncompressed(),
        )
    }

    /// A new key pair for the deployment; every subscription is deleted (browsers must
    /// subscribe again with the new public key, which the app does on its next start).
    pub async fn rotate(db: &Db, data_dir: &Path) -> anyhow::Result<u64> {
        let pair = ES256KeyPair::generate();
        let _guard = db.write_guard().await;
        let removed = match db {
            Db::Postgres { pool } => {
                let mut tx = pool.begin().await?;
                sqlx::query(
                    "insert into push_vapid_keys (id, private_key) values (1, $1)
                     on conflict (id) do update set private_key = excluded.private_key, created_at = now()",
                )
                .bind(encode(&pair))
                .execute(&mut *tx)
                .await?;
                sqlx::query("delete from push_queue")
                    .execute(&mut *tx)
                    .await?;
                let removed = sqlx::query("delete from push_subscriptions")
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                tx.commit().await?;
                removed
            }
            Db::Sqlite { pool, .. } => {
                write_private(&data_dir.join(KEY_FILE), &encode(&pair))?;
                let mut tx = pool.begin().await?;
                sqlx::query("delete from push_queue")
                    .execute(&mut *tx)
                    .await?;
                let removed = sqlx::query("delete from push_subscriptions")
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                tx.commit().await?;
                removed
            }
        };
        Ok(removed)
    }
}

/// Writes the private key readable by this user only.
fn write_private(path: &Path, text: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600))?;
    }
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
