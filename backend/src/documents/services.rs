//! The item aggregate's services, answered from the documents read model and the users table.

use async_trait::async_trait;
use events::documents::{Access, DocumentServices, ItemInfo, Kind, ServiceError, SourceItem};
use projections::documents::read::{self, path_ids, ItemRow};
use projections::{Db, Tx};

use crate::auth::User;

pub struct DbServices {
    pub db: Db,
    pub max_folder_depth: u32,
}

fn failed(e: sqlx::Error) -> ServiceError {
    ServiceError(e.to_string())
}

impl DbServices {
    async fn row(&self, id: &str) -> Result<Option<ItemRow>, ServiceError> {
        let mut tx = Tx::read(&self.db).await.map_err(failed)?;
        read::item_for_checks(&mut tx, id).await.map_err(failed)
    }

    async fn subtree_of(&self, id: &str) -> Result<Vec<read::NodeRow>, ServiceError> {
        let mut tx = Tx::read(&self.db).await.map_err(failed)?;
        read::subtree_of_item(&mut tx, id).await.map_err(failed)
    }
}

/// A user's full name as the app shows it.
pub fn full_name(user: &User) -> String {
    full_name_of(&user.first_name, &user.last_name)
}

/// The full name of a first and a last name.
pub fn full_name_of(first_name: &str, last_name: &str) -> String {
    format!("{first_name} {last_name}").trim().to_string()
}

#[async_trait]
impl DocumentServices for DbServices {
    fn max_folder_depth(&self) -> u32 {
        self.max_folder_depth
    }

    async fn item(&self, id: &str) -> Result<Option<ItemInfo>, ServiceError> {
        Ok(self.row(id).await?.map(|r| r.info()))
    }

    async fn source(&self, id: &str) -> Result<Option<SourceItem>, ServiceError> {
        Ok(self.row(id).await?.map(|r| SourceItem {
            info: r.info(),
            file: r.file_facts(),
            withdrawn: r.withdrawal(),
        }))
    }

    async fn access(&self, user: &str, id: &str) -> Result<Access, ServiceError> {
        let mut tx = Tx::read(&self.db).await.map_err(failed)?;
        let Some(row) = read::item_for_checks(&mut tx, id).await.map_err(failed)? else {
            return Ok(Access::default());
        };
        let shares = read::shares_of(&mut tx, user).await.map_err(failed)?;
        let viewer = read::Viewer {
            id: user.to_string(),
            shows_us: self.sees_us(user).await?,
        };
        Ok(row.access(&viewer, &shares))
    }

    async fn shared_through(&self, user: &str, folder: &str) -> Result<bool, ServiceError> {
        let mut tx = Tx::read(&self.db).await.map_err(failed)?;
        let Some(row) = read::item_for_checks(&mut tx, folder)
            .await
            .map_err(failed)?
        else {
            return Ok(false);
        };
        let shares = read::shares_on(&mut tx, &path_ids(&row.path))
            .await
            .map_err(failed)?;
        Ok(shares.iter().any(|(u, _)| u == user))
    }

    async fn sees_us(&self, user: &str) -> Result<bool, ServiceError> {
        Ok(User::find_by_id(&self.db, user)
            .await
            .map_err(failed)?
            .is_some_and(|u| u.shows_us()))
    }

    async fn descendants(&self, folder: &str) -> Result<Vec<String>, ServiceError> {
        Ok(self
            .subtree_of(folder)
            .await?
            .into_iter()
            .filter(|n| n.id != folder)
            .map(|n| n.id)
            .collect())
    }

    async fn subtree_height(&self, folder: &str) -> Result<u32, ServiceError> {
        let nodes = self.subtree_of(folder).await?;
        let Some(top) = nodes.iter().find(|n| n.id == folder) else {
            return Ok(1);
        };
        let deepest = nodes
            .iter()
            .filter(|n| n.kind == Kind::Folder.as_str())
            .map(|n| n.depth)
            .max()
            .unwrap_or(top.depth);
        Ok(u32::try_from(deepest - top.depth + 1).unwrap_or(1))
    }
}
