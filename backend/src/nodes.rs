//! The nodes sharing one PostgreSQL database: each has an id (kept in its data folder) and a
//! row saying where it keeps its files, refreshed while it runs. A node with the local file
//! store refuses to join others: files uploaded through one would be missing on the rest.

use std::path::Path;
use std::time::Duration;

use anyhow::bail;
use sqlx::PgPool;

/// How often a running node refreshes its row.
const HEARTBEAT: Duration = Duration::from_secs(5);
/// Nodes not seen for this long no longer count as running.
const FORGET_AFTER_SECONDS: f64 = 600.0;

/// This node's id: made once and kept in `DATA_DIR/node-id` (a random one if that fails).
pub fn node_id(data_dir: &Path) -> String {
    let file = data_dir.join("node-id");
    if let Ok(id) = std::fs::read_to_string(&file) {
        let id = id.trim();
        if !id.is_empty() {
            return id.to_string();
        }
    }
    let id = uuid::Uuid::new_v4().to_string();
    if let Err(e) = std::fs::write(&file, &id) {
        tracing::warn!(error = %e, file = %file.display(), "cannot keep the node id");
    }
    id
}

/// Where a node keeps its files, as the registry records it.
pub fn store_label(local: bool, url: Option<&str>) -> String {
    if local {
        "local".into()
    } else {
        url.unwrap_or_default().to_string()
    }
}

/// Records this node; refuses (unless `allow_local`) a local file store when another node uses
/// the database, or a shared store when a running node keeps its files locally.
pub async fn register(
    pool: &PgPool,
    node_id: &str,
    data_dir: &Path,
    store: &str,
    allow_local: bool,
) -> anyhow::Result<()> {
    let others: Vec<(String, String, String)> = sqlx::query_as(
        "select node_id, data_dir, file_store from cluster_nodes
         where node_id <> $1 and last_seen > now() - make_interval(secs => $2)
         order by last_seen desc",
    )
    .bind(node_id)
    .bind(FORGET_AFTER_SECONDS)
    .fetch_all(pool)
    .await?;
    if !allow_local {
        if let Some((other, dir, _)) = others.first().filter(|_| store == "local") {
            bail!(
                "Another node ({other}, data folder {dir}) uses this database. Files uploaded \
                 through one node would be missing on the others: set FILE_STORE_URL=s3://bucket/prefix \
                 on every node (or ALLOW_LOCAL_FILE_STORE_WITH_NODES=true to start anyway)."
            );
        }
        if let Some((other, dir, _)) = others.iter().find(|(_, _, s)| s == "local") {
            bail!(
                "Another node ({other}, data folder {dir}) keeps its files in its own folder. \
                 Files uploaded there would be missing here: set FILE_STORE_URL on that node too \
                 (or ALLOW_LOCAL_FILE_STORE_WITH_NODES=true to start anyway)."
            );
        }
    }
    sqlx::query(
        "insert into cluster_nodes (node_id, data_dir, file_store) values ($1, $2, $3)
         on conflict (node_id) do update
            set data_dir = excluded.data_dir, file_store = excluded.file_store,
                started_at = now(), last_seen = now()",
    )
    .bind(node_id)
    .bind(data_dir.display().to_string())
    .bind(store)
    .execute(pool)
    .await?;
    Ok(())
}

/// Refreshes this node's row until the process ends.
pub fn keep_registered(pool: PgPool, node_id: String) {
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(HEARTBEAT).await;
            if let Err(e) =
                sqlx::query("update cluster_nodes set last_seen = now() where node_id = $1")
                    .bind(&node_id)
                    .execute(&pool)
                    .await
            {
                tracing::warn!(error = %e, "cannot refresh this node's registration");
            }
        }
    });
}
