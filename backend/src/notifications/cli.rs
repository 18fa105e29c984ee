//! `companion publish notification|update`: publishes from the command line, through the same
//! commands and rules as `POST /api/admin/notifications` and `POST /api/admin/updates`.
//!
//! Fields come from flags, or from `--file` (JSON shaped like the API's request body; flags given
//! as well replace the file's values). The events are stored at once; a running server's
//! projector (or the next start) updates the lists, badges and live feeds.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use projections::Db;

use super::publish::{
    self, AudienceInput, GalleryInput, LinkRequest, NotificationRequest, UpdateRequest,
};
use super::services::Stores;
use crate::config::Config;
use crate::event_store::Metadata;

/// Who command-line publications are recorded as.
pub const CLI_ACTOR: &str = "cli";

#[derive(Debug, Subcommand)]
pub enum PublishCommand {
    /// Publishes a notification to everyone, or to the users given with --to.
    Notification(NotificationArgs),
    /// Publishes an app update to everyone.
    Update(UpdateArgs),
}

#[derive(Debug, Args)]
pub struct NotificationArgs {
    #[command(flatten)]
    pub config: Config,
    /// JSON file: {"title", "message", "preview", "link": {"type", "id"}, "audience"}.
    #[arg(long)]
    pub file: Option<PathBuf>,
    #[arg(long)]
    pub title: Option<String>,
    /// HTML; sanitised before it is stored.
    #[arg(long)]
    pub message: Option<String>,
    /// Preview image (/media/... or an http(s) address).
    #[arg(long)]
    pub preview: Option<String>,
    /// products, training, learn, congress, news, or a section such as useful or documents.
    #[arg(long = "link-type")]
    pub link_type: Option<String>,
    #[arg(long = "link-id")]
    pub link_id: Option<i64>,
    /// A recipient's e-mail (repeat for several); without it the notification is for everyone.
    #[arg(long = "to")]
    pub to: Vec<String>,
}

#[derive(Debug, Args)]
pub struct UpdateArgs {
    #[command(flatten)]
    pub config: Config,
    /// JSON file: {"name", "release", "preview", "gallery": [...], "url"}.
    #[arg(long)]
    pub file: Option<PathBuf>,
    #[arg(long)]
    pub name: Option<String>,
    /// e.g. 2.7.0
    #[arg(long)]
    pub release: Option<String>,
    #[arg(long)]
    pub preview: Option<String>,
    /// A big image of the wizard (repeat, in order); replaces the file's gallery.
    #[arg(long = "image")]
    pub images: Vec<String>,
    /// Where 'Discover more' leads.
    #[arg(long)]
    pub url: Option<String>,
}

fn read_file<T: serde::de::DeserializeOwned + Default>(
    file: Option<&PathBuf>,
) -> anyhow::Result<T> {
    let Some(path) = file else {
        return Ok(T::default());
    };
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| format!("parsing {}", path.display()))
}

impl NotificationArgs {
    pub fn request(&self) -> anyhow::Result<NotificationRequest> {
        let mut request: NotificationRequest = read_file(self.file.as_ref())?;
        if let Some(title) = &self.title {
            request.title = title.clone();
        }
        if let Some(message) = &self.message {
            request.message = message.clone();
        }
        if self.preview.is_some() {
            request.preview = self.preview.clone();
        }
        if self.link_type.is_some() || self.link_id.is_some() {
            request.link = Some(LinkRequest {
                kind: self.link_type.clone().unwrap_or_default(),
                id: self.link_id,
            });
        }
        if !self.to.is_empty() {
            request.audience = Some(AudienceInput::Emails(self.to.clone()));
        }
        Ok(request)
    }
}

impl UpdateArgs {
    pub fn request(&self) -> anyhow::Result<UpdateRequest> {
        let mut request: UpdateRequest = read_file(self.file.as_ref())?;
        if let Some(name) = &self.name {
            request.name = name.clone();
        }
        if let Some(release) = &self.release {
            request.release = release.clone();
        }
        if self.preview.is_some() {
            request.preview = self.preview.clone();
        }
        if !self.images.is_empty() {
            request.gallery = self.images.iter().cloned().map(GalleryInput::Url).collect();
        }
        if self.url.is_some() {
            request.url = self.url.clone();
        }
        Ok(request)
    }
}

/// What was published.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Publication {
    Notification(i64),
    Update(i64),
}

impl std::fmt::Display for Publication {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Publication::Notification(id) => write!(f, "Published notification {id}"),
            Publication::Update(id) => write!(f, "Published app update {id}"),
        }
    }
}

async fn open(config: &Config) -> anyhow::Result<Db> {
    std::fs::create_dir_all(&config.data_dir)
        .with_context(|| format!("creating data folder {}", config.data_dir.display()))?;
    let db = Db::connect(&config.database_url())
        .await
        .context("connecting to the database")?;
    // The same first-start content as `serve --demo`, so a publication on a fresh demo database
    // comes after the demo items rather than taking their ids.
    if config.demo {
        crate::auth::claim_demo_database(&db).await?;
        crate::auth::demo_accounts(&db, &config.terms_version).await?;
        super::demo::seed(&db, &config.content_dir).await?;
    }
    Ok(db)
}

/// Runs `companion publish ...`.
pub async fn run(command: PublishCommand) -> anyhow::Result<Publication> {
    enum Request {
        Notification(NotificationRequest),
        Update(UpdateRequest),
    }
    // Read the flags and the file before touching the database.
    let (config, request) = match &command {
        PublishCommand::Notification(args) => {
            (&args.config, Request::Notification(args.request()?))
        }
        PublishCommand::Update(args) => (&args.config, Request::Update(args.request()?)),
    };
    let db = open(config).await?;
    let stores = Stores::append_only(&db);
    let now = projections::now_ms();
    let metadata = Metadata::by(CLI_ACTOR);
    let published = match request {
        Request::Notification(request) => {
            publish::notification(&db, &stores, request, None, now, metadata)
                .await
                .map(|(id, _)| Publication::Notification(id))
        }
        Request::Update(request) => publish::update(&db, &stores, request, None, now, metadata)
            .await
            .map(|(id, _)| Publication::Update(id)),
    };
    db.close().await;
    published.map_err(|e| anyhow::anyhow!("{e}"))
}
