//! Storage quotas: what each user's files in My Docs add up to (the `stored_files` read model),
//! the room an upload has under `USER_STORAGE_QUOTA_MB` and on the file store's volume
//! (`MIN_FREE_DISK_MB`), `GET /api/documents/usage` and `companion files usage`.

use std::sync::Arc;

use axum::extract::State;
use projections::stored_files::{usage_by_user, usage_of};
use projections::{on_db, Db};
use serde::Serialize;
use utoipa::ToSchema;

use super::operations::{Actor, Documents};
use crate::error::{AppError, AppJson, AppResult, ErrorBody};

const MB: u64 = 1024 * 1024;

/// A size as people read it: `512 B`, `1.5 KB`, `1.9 GB`, `2 GB` (powers of 1024, one
/// decimal at most).
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    // Rounded to one decimal first, so 1023.96 KB reads 1 MB, not 1024 KB.
    while unit + 1 < UNITS.len() && (value * 10.0).round() / 10.0 >= 1024.0 {
        value /= 1024.0;
        unit += 1;
    }
    let rounded = (value * 10.0).round() / 10.0;
    if rounded.fract() == 0.0 {
        format!("{rounded:.0} {}", UNITS[unit])
    } else {
        format!("{rounded:.1} {}", UNITS[unit])
    }
}

/// The refusal of an upload that would pass the quota (product wording).
pub fn over_quota(used: u64, quota: u64) -> AppError {
    AppError::PayloadTooLarge(format!(
        "Your documents use {} of {}. Remove some to upload more.",
        human_size(used),
        human_size(quota)
    ))
}

/// The room one upload has, measured before its body is read.
#[derive(Debug, Clone, Copy)]
pub struct Room {
    pub used: u64,
    pub quota: u64,
}

impl Room {
    /// Bytes the user may still add.
    pub fn left(&self) -> u64 {
        self.quota.saturating_sub(self.used)
    }

    pub fn refusal(&self) -> AppError {
        over_quota(self.used, self.quota)
    }
}

impl Documents {
    /// Bytes of the files `user_id` keeps in My Docs.
    pub async fn used_bytes(&self, user_id: &str) -> AppResult<u64> {
        let usage = usage_of(self.db(), user_id).await?;
        Ok(u64::try_from(usage.bytes).unwrap_or(0))
    }

    pub fn quota_bytes(&self) -> u64 {
        self.storage_quota_mb.saturating_mul(MB)
    }

    /// Whether `size` more bytes fit `user_id`'s quota now: 413 when they do not. Asked with
    /// the owner's tree lock held, so that no other upload of theirs is recorded between the
    /// check and the upload's own record (two uploads that each fit, not both, are not both
    /// kept).
    pub(super) async fn check_fits(&self, user_id: &str, size: i64) -> AppResult<()> {
        let used = self.used_bytes(user_id).await?;
        let quota = self.quota_bytes();
        let size = u64::try_from(size).unwrap_or(u64::MAX);
        if used.saturating_add(size) > quota {
            return Err(over_quota(used, quota));
        }
        Ok(())
    }

    /// The room for a new upload of `actor`: 507 while the file store's volume is short of
    /// room, 413 when they are at their quota already.
    pub async fn upload_room(&self, actor: &Actor) -> AppResult<Room> {
        match self.storage.free_bytes() {
            Ok(Some(free)) if free < self.min_free_disk_mb.saturating_mul(MB) => {
                tracing::warn!(
                    free_bytes = free,
                    "uploads refused: the file store's volume is short of room"
                );
                return Err(AppError::InsufficientStorage(
                    "The server is short of storage space, so uploads are paused. Please try \
                     again later."
                        .into(),
                ));
            }
            Ok(_) => {}
            // Not knowing the free room is no reason to refuse an upload.
            Err(e) => tracing::warn!(error = %e, "cannot read the file store's free room"),
        }
        let room = Room {
            used: self.used_bytes(&actor.id).await?,
            quota: self.quota_bytes(),
        };
        if room.left() == 0 {
            return Err(room.refusal());
        }
        Ok(room)
    }
}

/// What the user's documents take of their quota.
#[derive(Debug, Serialize, ToSchema)]
pub struct StorageUsage {
    /// Bytes of the files the user keeps in My Docs (uploads, saved copies); removed files no
    /// longer count.
    pub used_bytes: u64,
    /// What they may keep (`USER_STORAGE_QUOTA_MB`).
    pub quota_bytes: u64,
}

/// The caller's storage usage and quota.
#[utoipa::path(get, path = "/documents/usage", tag = "documents", security(("bearer" = [])),
    responses((status = 200, body = StorageUsage), (status = 401, body = ErrorBody)))]
pub async fn usage(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
) -> AppResult<AppJson<StorageUsage>> {
    Ok(AppJson(StorageUsage {
        used_bytes: documents.used_bytes(&actor.id).await?,
        quota_bytes: documents.quota_bytes(),
    }))
}

/// `companion files usage`: users by usage, largest first.
pub async fn print_usage(db: &Db) -> anyhow::Result<()> {
    let usage = usage_by_user(db).await?;
    let emails: Vec<(String, String)> = on_db!(db, pool => sqlx::query_as(
        "select id, email from users").fetch_all(pool).await)?;
    let emails: std::collections::HashMap<String, String> = emails.into_iter().collect();
    println!("{:<40} {:>7} {:>10}", "user", "files", "size");
    for (user, usage) in &usage {
        let email = emails.get(user).map_or(user.as_str(), String::as_str);
        println!(
            "{email:<40} {:>7} {:>10}",
            usage.files,
            human_size(u64::try_from(usage.bytes).unwrap_or(0))
        );
    }
    if usage.is_empty() {
        println!("no user keeps files");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{human_size, over_quota, MB};

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(human_size(0), "0 B");
        assert_eq!(human_size(1023), "1023 B");
        assert_eq!(human_size(1024), "1 KB");
        assert_eq!(human_size(1536), "1.5 KB");
        assert_eq!(human_size(600 * 1024), "600 KB");
        assert_eq!(human_size(1024 * 1024 - 20), "1 MB");
        assert_eq!(human_size(1_288_490_189), "1.2 GB");
        assert_eq!(human_size(2048 * MB), "2 GB");
        assert_eq!(human_size(1946 * MB), "1.9 GB");
        assert_eq!(human_size(3 * 1024 * 1024 * MB), "3 TB");
    }

    #[test]
    fn the_quota_refusal_says_what_is_used_of_what() {
        assert_eq!(
            over_quota(1946 * MB, 2048 * MB).to_string(),
            "Your documents use 1.9 GB of 2 GB. Remove some to upload more."
        );
    }
}
