//! The company's documents in the documents area: a released library document for the US
//! audience is a file item of the US set (`Creator::Company`, `seed_key = "library:{id}"`), so
//! the US tab, save to My Docs, storage shares, external links, offline pins and the item's
//! history work as for any item. A new version replaces the item's file in place (same item id,
//! same links); a withdrawal (or expiry) withdraws the item and every copy of it.
//!
//! Both operations are idempotent and safe to re-run after a crash: the item's id follows from
//! the library id, the aggregate makes a repeated version or withdrawal a no-op, and the copies
//! are found again from the read model.

use std::collections::{BTreeSet, HashSet};

use events::documents::{
    Creator, FileFormat, ItemCommand, Labels, ReplacementRef, Upload, UserRef, WithdrawalFacts,
};
use events::share_link::RevokeReason;
use projections::documents::read::{self, path_ids, placeholders};
use projections::{on_db, Tx};
use sha2::{Digest, Sha256};

use super::operations::Documents;
use crate::error::{AppError, AppResult, Replacement, WithdrawnBody};
use crate::event_store::Metadata;

pub use events::documents::WithdrawnState;

/// A released version of a library document, as its US item carries it.
#[derive(Debug, Clone)]
pub struct CompanyFile {
    pub library_id: i64,
    pub version: u32,
    pub title: String,
    /// The name offered on download.
    pub file_name: String,
    /// The stored file's name in the blob storage.
    pub blob: String,
    pub size: i64,
    pub sha256: Option<String>,
    pub format: FileFormat,
    pub labels: Labels,
    pub subtitle: Option<String>,
}

/// Why and since when a library document left the app, and what replaces it.
#[derive(Debug, Clone)]
pub struct Withdrawal {
    pub state: WithdrawnState,
    pub reason: String,
    /// Milliseconds since the epoch.
    pub at: i64,
    pub replacement: Option<Replacement>,
}

/// What a withdrawal reached.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WithdrawnItems {
    /// The US item and every copy of it (saved or moved, copies of copies).
    pub items: Vec<String>,
    /// Users who held any of them: owners of copies, share recipients (of the items or of a
    /// folder holding them), senders of external links.
    pub holders: Vec<String>,
}

/// The seed key of a library document's US item.
pub fn seed_key(library_id: i64) -> String {
    format!("library:{library_id}")
}

/// The item id of a library document's US item: derived from the library id, so two nodes
/// releasing the same document at once create one item (the second finds it there).
pub fn company_item_id(library_id: i64) -> String {
    let digest = Sha256::digest(seed_key(library_id).as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    // A version 8 (custom) UUID: a valid id wherever the API parses one.
    bytes[6] = (bytes[6] & 0x0f) | 0x80;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    uuid::Uuid::from_bytes(bytes).to_string()
}

/// The 410 of a withdrawn or expired item: why, since when, and what replaces it.
pub fn withdrawn_error(facts: &WithdrawalFacts) -> AppError {
    AppError::Withdrawn(Box::new(WithdrawnBody {
        message: facts.state.message().to_string(),
        state: facts.state.as_str(),
        reason: facts.reason.clone(),
        at: facts.at,
        replacement: facts.replacement.as_ref().map(|r| Replacement {
            id: r.id,
            title: r.title.clone(),
            url: r.url.clone(),
        }),
    }))
}

impl Documents {
    /// Creates the US item of a released library document, or replaces its file in place (new
    /// version: same item id, same links, an unread dot for everyone who sees it). Returns the
    /// item id. Releasing the same version again changes nothing.
    pub async fn release_company_file(&self, by: &UserRef, file: CompanyFile) -> AppResult<String> {
        let id = company_item_id(file.library_id);
        let metadata = Metadata::by(by.id.clone());
        let upload = Upload {
            title: file.title,
            // The content's format decides the extension (the aggregate checks they agree).
            original_name: file.format.file_name_for(&file.file_name),
            file_name: Some(file.file_name),
            sniffed: Some(file.format),
            blob: file.blob,
            size: file.size,
            sha256: file.sha256,
            subtitle: file.subtitle,
            languages_in_file: None,
            code_points: None,
            labels: file.labels,
        };
        let exists = {
            let mut tx = Tx::read(self.db()).await?;
            read::item(&mut tx, "", &id).await?.is_some()
        };
        if !exists {
            let created = self
                .run(
                    &id,
                    ItemCommand::UploadFile {
                        id: id.clone(),
                        by: Creator::Company,
                        parent: None,
                        upload: upload.clone(),
                        seed_key: Some(seed_key(file.library_id)),
                    },
                    metadata.clone(),
                )
                .await;
            match created {
                Ok(()) => return Ok(id),
                // Another node created it first: this release is then a version of it.
                Err(AppError::Conflict(_)) => {}
                Err(e) => return Err(e),
            }
        }
        self.run(
            &id,
            ItemCommand::ReplaceFile {
                by: by.clone(),
                upload,
                version: file.version,
                note: None,
            },
            metadata,
        )
        .await?;
        Ok(id)
    }

    /// Withdraws the US item of `library_id` (if any) and every copy of it (saved or moved,
    /// copies of copies), ends their external links (they answer 410 with the replacement),
    /// removes them from every Shared with me; copies stay in their owners' My Docs, marked
    /// withdrawn. Running it again changes nothing and answers the same.
    pub async fn withdraw_company_file(
        &self,
        by: &str,
        library_id: i64,
        withdrawal: Withdrawal,
    ) -> AppResult<WithdrawnItems> {
        let root = company_item_id(library_id);
        if !self.ever_existed(&root).await? {
            return Ok(WithdrawnItems::default());
        }
        let replacement = withdrawal.replacement.as_ref().map(|r| ReplacementRef {
            id: r.id,
            title: r.title.clone(),
            url: r.url.clone(),
        });
        let command = || ItemCommand::Withdraw {
            by: by.to_string(),
            state: withdrawal.state,
            reason: withdrawal.reason.clone(),
            at: withdrawal.at,
            replacement: replacement.clone(),
        };
        let replacement_title = withdrawal.replacement.as_ref().map(|r| r.title.clone());
        // The original first: from then on no new copy of it can be made; then its copies, a
        // generation at a time (a copy of a copy is found from its withdrawn parent).
        let mut items = vec![root.clone()];
        let mut seen: HashSet<String> = HashSet::from([root.clone()]);
        let mut generation = vec![root];
        while !generation.is_empty() {
            for item in &generation {
                self.end_links_of_item(
                    item,
                    by,
                    RevokeReason::Withdrawn,
                    replacement_title.clone(),
                )
                .await?;
                self.run(item, command(), Metadata::by(by)).await?;
            }
            let next: Vec<String> = self
                .copies_of(&generation)
                .await?
                .into_iter()
                .filter(|c| seen.insert(c.clone()))
                .collect();
            items.extend(next.iter().cloned());
            generation = next;
        }
        let holders = self.holders_of(&items).await?;
        tracing::info!(
            library_id,
            items = items.len(),
            holders = holders.len(),
            state = withdrawal.state.as_str(),
            "company document withdrawn"
        );
        Ok(WithdrawnItems { items, holders })
    }

    /// Whether the read model ever held the item (also after it was removed).
    async fn ever_existed(&self, id: &str) -> AppResult<bool> {
        let n: i64 = on_db!(self.db(), pool => sqlx::query_scalar(
            "select count(*) from doc_item_versions where item_id = $1")
            .bind(id).fetch_one(pool).await)?;
        Ok(n > 0)
    }

    /// Every item ever made as a copy of one of `items` (also those removed since: a copy of a
    /// copy outlives the copy it was made from).
    async fn copies_of(&self, items: &[String]) -> AppResult<Vec<String>> {
        let mut out = BTreeSet::new();
        for chunk in items.chunks(500) {
            let sql = format!(
                "select distinct item_id from doc_item_versions where copied_from in ({})",
                placeholders(1, chunk.len())
            );
            let rows: Vec<String> = on_db!(self.db(), pool => {
                let mut q = sqlx::query_scalar(&sql);
                for id in chunk {
                    q = q.bind(id.as_str());
                }
                q.fetch_all(pool).await
            })?;
            out.extend(rows);
        }
        Ok(out.into_iter().collect())
    }

    /// Who held any of `items`: the owners of copies, the users they (or a folder holding
    /// them) were shared with at any time, and the senders of their external links.
    async fn holders_of(&self, items: &[String]) -> AppResult<Vec<String>> {
        let mut holders = BTreeSet::new();
        let mut folders: BTreeSet<String> = BTreeSet::new();
        let mut tx = Tx::read(self.db()).await?;
        for id in items {
            if let Some(row) = read::item(&mut tx, "", id).await? {
                if let Some(owner) = row.owner_id.clone().filter(|_| row.space == "my") {
                    holders.insert(owner);
                }
                folders.extend(path_ids(&row.path).into_iter().map(String::from));
            }
        }
        let on_path: Vec<&str> = folders.iter().map(String::as_str).collect();
        holders.extend(
            read::shares_on(&mut tx, &on_path)
                .await?
                .into_iter()
                .map(|(user, _)| user),
        );
        drop(tx);
        for chunk in items.chunks(500) {
            let list = placeholders(1, chunk.len());
            let sql = format!(
                "select owner_id from doc_item_versions where item_id in ({list}) and space = 'my' and owner_id is not null
                 union select user_id from doc_share_versions where item_id in ({list})
                 union select created_by from doc_external_links where item_id in ({list})"
            );
            let rows: Vec<String> = on_db!(self.db(), pool => {
                let mut q = sqlx::query_scalar(&sql);
                for id in chunk {
                    q = q.bind(id.as_str());
                }
                q.fetch_all(pool).await
            })?;
            holders.extend(rows);
        }
        holders.retain(|h| !h.is_empty());
        Ok(holders.into_iter().collect())
    }
}
