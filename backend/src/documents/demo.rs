//! The demo documents (`content/documents/seed.json`, files under `content/files/`), imported on
//! first start as real commands, so their history shows who created and shared what.
//!
//! It runs when the event store holds no document event yet: Anna's and John's My Docs, the
//! items they share with each other, and the company's US set.

use std::path::{Component, Path};
use std::sync::Arc;

use anyhow::Context;
use events::documents::{Creator, ItemCommand, Labels, ShareVia, Upload};
use projections::documents::read;
use projections::{Db, Projection, Projector, ProjectorHandle, Tx};
use serde::Deserialize;

use super::history::SYSTEM_USER;
use super::operations::{new_id, Actor, Documents};
use crate::auth::User;
use crate::config::Config;
use crate::error::AppError;
use crate::event_store::Metadata;

#[derive(Deserialize)]
struct SeedFile {
    users: Vec<SeedUser>,
    #[serde(default)]
    us: Vec<Node>,
}

#[derive(Deserialize)]
struct SeedUser {
    email: String,
    #[serde(default)]
    my: Vec<Node>,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Node {
    Folder {
        key: String,
        name: String,
        #[serde(default)]
        shared_with: Vec<String>,
        #[serde(default)]
        children: Vec<Node>,
    },
    File(FileNode),
}

#[derive(Deserialize)]
struct FileNode {
    key: String,
    title: String,
    name: String,
    /// `/files/<folder>/<name>` under the content folder.
    file: String,
    #[serde(default)]
    subtitle: Option<String>,
    #[serde(default)]
    languages_in_file: Option<String>,
    #[serde(default)]
    code_points: Option<String>,
    #[serde(default)]
    for_internal_use: bool,
    #[serde(default)]
    controlled_release: bool,
    #[serde(default)]
    upon_request: bool,
    /// Allows an external share of a 'Controlled release' / 'Upon request' document.
    #[serde(default)]
    external_release: bool,
    #[serde(default)]
    shared_with: Vec<String>,
}

/// Loads the demo documents when no document was ever recorded.
pub async fn on_first_start(
    db: &Db,
    config: &Config,
    read_models: Vec<Arc<dyn Projection>>,
) -> anyhow::Result<()> {
    {
        let mut tx = Tx::begin(db).await?;
        if read::any_item_ever(&mut tx).await? {
            return Ok(());
        }
    }
    let path = config.content_dir.join("documents/seed.json");
    if !path.exists() {
        tracing::info!(path = %path.display(), "no demo documents to load");
        return Ok(());
    }
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let seed: SeedFile =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;

    // Each command's checks read the read model, so a projector follows the import.
    let projector = Projector::new(db.clone(), read_models);
    let handle = projector.handle();
    let docs = Documents::new(db, config, handle.clone())?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(projector.run(async {
        let _ = stopped.await;
    }));
    let result = import(db, &docs, &handle, &config.content_dir, &seed).await;
    let _ = stop.send(());
    let _ = running.await;
    result
}

/// Who a part of the seed belongs to.
#[derive(Clone)]
enum Owner {
    User(Actor),
    Company,
}

impl Owner {
    fn creator(&self) -> Creator {
        match self {
            Owner::User(actor) => Creator::User(events::documents::UserRef {
                id: actor.id.clone(),
                name: actor.name.clone(),
            }),
            Owner::Company => Creator::Company,
        }
    }

    fn metadata(&self) -> Metadata {
        match self {
            Owner::User(actor) => actor.metadata(),
            Owner::Company => Metadata::by(SYSTEM_USER),
        }
    }
}

/// A content path (`/files/users/x.pdf`) inside the content folder, never outside it.
fn content_file(content_dir: &Path, file: &str) -> anyhow::Result<std::path::PathBuf> {
    let relative = Path::new(file.trim_start_matches('/'));
    anyhow::ensure!(
        relative
            .components()
            .all(|c| matches!(c, Component::Normal(_))),
        "demo document path {file} leaves the content folder"
    );
    Ok(content_dir.join(relative))
}

async fn import(
    db: &Db,
    docs: &Documents,
    projector: &ProjectorHandle,
    content_dir: &Path,
    seed: &SeedFile,
) -> anyhow::Result<()> {
    let mut owners = Vec::new();
    for user in &seed.users {
        match User::find_by_email(db, &user.email).await? {
            Some(u) => owners.push((Owner::User(Actor::of(&u)), &user.my)),
            None => {
                tracing::warn!(email = %user.email, "demo documents of an unknown user skipped")
            }
        }
    }
    owners.push((Owner::Company, &seed.us));

    let mut items = 0;
    let mut shares: Vec<(Actor, String, String)> = Vec::new();
    for (owner, nodes) in owners {
        // Parents before children: a stack of (parent id, node).
        let mut stack: Vec<(Option<String>, &Node)> =
            nodes.iter().rev().map(|n| (None, n)).collect();
        while let Some((parent, node)) = stack.pop() {
            let id = new_id();
            let (command, shared_with) = match node {
                Node::Folder {
                    key,
                    name,
                    shared_with,
                    ..
                } => {
                    let command = ItemCommand::CreateFolder {
                        id: id.clone(),
                        by: owner.creator(),
                        parent,
                        name: name.clone(),
                        seed_key: Some(key.clone()),
                    };
                    (command, shared_with)
                }
                Node::File(file) => {
                    let source = content_file(content_dir, &file.file)?;
                    let stored = docs
                        .storage
                        .import(&source)
                        .await
                        .with_context(|| format!("copying {}", source.display()))?;
                    let command = ItemCommand::UploadFile {
                        id: id.clone(),
                        by: owner.creator(),
                        parent,
                        upload: Upload {
                            title: file.title.clone(),
                            file_name: Some(file.name.clone()),
                            original_name: file.name.clone(),
                            sniffed: stored.sniffed,
                            blob: stored.blob,
                            size: stored.size,
                            sha256: Some(stored.sha256),
                            subtitle: file.subtitle.clone(),
                            languages_in_file: file.languages_in_file.clone(),
                            code_points: file.code_points.clone(),
                            labels: Labels {
                                for_internal_use: file.for_internal_use,
                                controlled_release: file.controlled_release,
                                upon_request: file.upon_request,
                                external_release: file.external_release,
                            },
                        },
                        seed_key: Some(file.key.clone()),
                    };
                    (command, &file.shared_with)
                }
            };
            // A rule may refuse part of the demo (a lower MAX_FOLDER_DEPTH, say): that part is
            // left out, the rest still loads.
            match docs.run(&id, command, owner.metadata()).await {
                Ok(_) => {}
                Err(AppError::ProjectionsBehind(_)) => catch_up(db, projector).await?,
                Err(e) => {
                    tracing::warn!(error = %e, "a demo document was refused and left out, with what it holds");
                    continue;
                }
            }
            if let Node::Folder { children, .. } = node {
                stack.extend(children.iter().rev().map(|c| (Some(id.clone()), c)));
            }
            items += 1;
            if let Owner::User(actor) = &owner {
                for email in shared_with {
                    shares.push((actor.clone(), id.clone(), email.clone()));
                }
            }
        }
    }
    let shared = shares.len();
    for (actor, id, email) in shares {
        match docs
            .share(&actor, &id, Some(email.clone()), ShareVia::Internal)
            .await
        {
            Ok(_) => {}
            Err(AppError::ProjectionsBehind(_)) => catch_up(db, projector).await?,
            Err(e) => anyhow::bail!("sharing demo document {id} with {email}: {e}"),
        }
    }
    tracing::info!(items, shared, "demo documents loaded");
    Ok(())
}

/// How long seeding waits for the read models after a command whose own wait ran out.
const SEED_CATCH_UP: std::time::Duration = std::time::Duration::from_secs(300);

/// A command answered "not visible yet" (its events are stored, the projector is slower than the
/// command's wait, as on a loaded machine): the next commands read what it wrote, so seeding waits
/// for the read models to reach the end of the stream and goes on.
async fn catch_up(db: &Db, projector: &ProjectorHandle) -> anyhow::Result<()> {
    let Some(head) = projections::stream::head(db).await? else {
        return Ok(());
    };
    anyhow::ensure!(
        projector.wait_for(head, SEED_CATCH_UP).await,
        "the read models did not catch up with the demo documents within {} s",
        SEED_CATCH_UP.as_secs()
    );
    Ok(())
}
