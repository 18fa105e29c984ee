//! `companion`: the server and its administration commands.

use backend::{http, notifications, operations, Config, Server};
use clap::{Parser, Subcommand};
use tracing_subscriber::EnvFilter;

/// mimalloc rather than the system's allocator: a rebuild makes and frees millions of small rows,
/// and spent a third of its time in glibc's malloc and free (`docs/BENCHMARKS.md`). Without the
/// `mimalloc` feature the system's allocator serves, for heap profilers that only see it.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "companion", about = "The companion app server", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serves the web app, the API and the realtime channel.
    Serve(Config),
    /// Rebuilds projections from the first event into a fresh database and compares them with
    /// the live read models, printing every difference (exit code 1 when any).
    Replay {
        #[command(flatten)]
        config: Config,
        /// Projections to rebuild (all when none is named).
        #[arg(long = "projection")]
        projections: Vec<String>,
    },
    /// Rebuilds projections from the first event beside the running server (into a database of
    /// its own, independent projections side by side), then puts each in place of its live
    /// tables in one transaction: for a projection whose code or tables changed. Readers keep
    /// the old rows until then; the live projector pauses only for the swap.
    Rebuild {
        #[command(flatten)]
        config: Config,
        /// Projections to rebuild (all when none is named).
        #[arg(long = "projection")]
        projections: Vec<String>,
    },
    /// Imports a content folder (catalogue, news, contacts, ...) into the database. Importing
    /// the same folder twice gives the same state; a bad file is refused and changes nothing.
    /// The folder is `--content-dir` (or `CONTENT_DIR`); the database as for `serve`. Every new,
    /// changed or removed entity is recorded as an event by `--actor` (`operator:<name>`).
    Import {
        #[command(flatten)]
        config: Config,
        /// Who imports, recorded as `operator:<name>` (default: the OS user).
        #[arg(long)]
        actor: Option<String>,
    },
    /// Publishes a notification or an app update (as the admin's API does).
    Publish {
        #[command(subcommand)]
        what: notifications::cli::PublishCommand,
    },
    /// Users' live feeds.
    #[command(subcommand)]
    Feed(FeedCommand),
    /// The read models: their progress and the events they could not apply.
    #[command(subcommand)]
    Projections(ProjectionsCommand),
    /// Outgoing e-mail.
    #[command(subcommand)]
    Outbox(OutboxCommand),
    /// Uploaded files in the file store (`FILE_STORE_URL`, or `DATA_DIR/files`).
    #[command(subcommand)]
    Files(FilesCommand),
    /// The session signing keys every node shares (PostgreSQL without `JWT_SECRET`).
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Web Push to devices whose app is closed.
    #[command(subcommand)]
    Push(PushCommand),
    /// Accounts and sessions: list, add, disable, enable, set-role, set-password, sessions, revoke.
    #[command(subcommand)]
    Users(backend::auth::cli::UsersCommand),
    /// Copies the embedded SQLite database (consistently, while the server runs), the uploaded
    /// files and the signing secret into the new folder PATH. On PostgreSQL it refuses and prints
    /// the pg_dump line to use instead.
    Backup {
        #[command(flatten)]
        config: Config,
        /// A folder that does not exist yet (or is empty).
        path: std::path::PathBuf,
    },
    /// Puts a backup made by `companion backup` in place of DATA_DIR's database and files. The
    /// server must be stopped; the feed gets a new epoch, so open apps reload their lists.
    Restore {
        #[command(flatten)]
        config: Config,
        /// The backup folder.
        path: std::path::PathBuf,
        /// Replace a database already in DATA_DIR.
        #[arg(long)]
        force: bool,
    },
    /// Prints the API's OpenAPI document (as served at `/api/openapi.json`), without a database
    /// or a running server; the web app's API types are generated from it.
    Openapi,
}

#[derive(Subcommand)]
enum KeysCommand {
    /// Adds a new signing key: nodes sign with it after a few seconds; the previous keys check
    /// tokens until the last ones they signed expire (`JWT_TTL_SECONDS`), then are removed.
    Rotate(Config),
}

#[derive(Subcommand)]
enum PushCommand {
    /// Replaces the deployment's VAPID key pair and deletes every push subscription (browsers
    /// bind a subscription to the key): each device subscribes again the next time its app
    /// starts. Running servers pick the new key up within seconds.
    RotateKeys(Config),
}

#[derive(Subcommand)]
enum FilesCommand {
    /// Reports files history refers to that are missing from the store (exit code 1 when any),
    /// removed files past `DELETED_FILE_RETENTION_DAYS`, and orphans: stored files no event
    /// refers to.
    Check {
        #[command(flatten)]
        config: Config,
        /// Also delete the orphans older than an hour and the removed files past their
        /// retention.
        #[arg(long)]
        collect: bool,
        #[arg(long)]
        json: bool,
    },
    /// Lists users by the size of the files they keep in My Docs, largest first (what
    /// `USER_STORAGE_QUOTA_MB` counts): e-mail, files, size.
    Usage(Config),
}

#[derive(Subcommand)]
enum ProjectionsCommand {
    /// Each projection's checkpoint, lag and state, and the dead letters (events a projection
    /// could not apply).
    Status {
        #[command(flatten)]
        config: Config,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Makes a stopped projection apply its failed event again (after a fix).
    Retry {
        #[command(flatten)]
        config: Config,
        /// The projection's name (see `status`).
        name: String,
    },
    /// Marks a stopped projection's failed event skipped; the projection carries on after it.
    Skip {
        #[command(flatten)]
        config: Config,
        /// The projection's name (see `status`).
        name: String,
    },
}

#[derive(Subcommand)]
enum OutboxCommand {
    /// E-mail not sent yet (queued, held for its event, failed), oldest first. Bodies are never
    /// shown: they hold secret links.
    List {
        #[command(flatten)]
        config: Config,
        /// Include the messages already sent (with the SMTP server's answer).
        #[arg(long)]
        all: bool,
        #[arg(long, default_value_t = 200)]
        limit: i64,
    },
    /// Queues failed messages again (after fixing SMTP_URL, say): the ones named, or all.
    Retry {
        #[command(flatten)]
        config: Config,
        /// Outbox ids (see `list`); none: every failed message.
        ids: Vec<i64>,
    },
}

#[derive(Subcommand)]
enum FeedCommand {
    /// Writes one message into a user's feed; their open apps receive it at once (on SQLite
    /// within FEED_POLL_MS), e.g. `--kind badge --payload '{"name":"notifications","count":1}'`.
    /// For support and tests; the projections are what normally writes feeds.
    Push {
        #[command(flatten)]
        config: Config,
        /// The user's e-mail.
        #[arg(long)]
        email: String,
        /// Message kind.
        #[arg(long, value_enum)]
        kind: backend::feed::FeedKind,
        /// The message's JSON payload.
        #[arg(long, default_value = "{}")]
        payload: String,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    init_logging();
    match Cli::parse().command {
        Command::Openapi => {
            println!("{}", http::api_document().to_pretty_json()?);
            Ok(())
        }
        Command::Serve(config) => {
            backend::allocator::keep_freed_memory();
            serve(config).await
        }
        Command::Replay {
            config,
            projections,
        } => {
            backend::allocator::keep_freed_memory_a_second();
            replay(config, &projections).await
        }
        Command::Rebuild {
            config,
            projections,
        } => {
            backend::allocator::keep_freed_memory_a_second();
            rebuild(config, &projections).await
        }
        Command::Import { config, actor } => import(config, actor).await,
        Command::Publish { what } => publish(what).await,
        Command::Users(command) => users(command).await,
        Command::Feed(FeedCommand::Push {
            config,
            email,
            kind,
            payload,
        }) => feed_push(config, &email, kind, &payload).await,
        Command::Projections(command) => projections_command(command).await,
        Command::Outbox(OutboxCommand::List { config, all, limit }) => {
            let db = connect_existing(&config).await?;
            let result = operations::print_outbox(&db, all, limit).await;
            db.close().await;
            refusal(result)
        }
        Command::Outbox(OutboxCommand::Retry { config, ids }) => {
            let db = connect_existing(&config).await?;
            let result = operations::retry_outbox(&db, &ids).await;
            db.close().await;
            refusal(result.map(|done| println!("{done}")))
        }
        Command::Files(FilesCommand::Check {
            config,
            collect,
            json,
        }) => {
            let db = connect_existing(&config).await?;
            let result = files_check(&db, &config, collect, json).await;
            db.close().await;
            match result {
                Ok(true) => Ok(()),
                Ok(false) => std::process::exit(1),
                Err(e) => refusal(Err(e)),
            }
        }
        Command::Files(FilesCommand::Usage(config)) => {
            let db = connect_existing(&config).await?;
            let result = backend::documents::usage::print_usage(&db).await;
            db.close().await;
            refusal(result)
        }
        Command::Keys(KeysCommand::Rotate(config)) => rotate_signing_keys(config).await,
        Command::Push(PushCommand::RotateKeys(config)) => rotate_vapid_keys(config).await,
        Command::Backup { config, path } => refusal(
            operations::backup(&config, &path)
                .await
                .map(|done| println!("{done}")),
        ),
        Command::Restore {
            config,
            path,
            force,
        } => refusal(
            operations::restore(&config, &path, force)
                .await
                .map(|done| println!("{done}")),
        ),
    }
}

/// Logs to stderr, filtered by `RUST_LOG`. `LOG_FORMAT=json`: one JSON object per line, with the
/// request's span fields (request id, route, user id) on every line logged while it is handled.
fn init_logging() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    if std::env::var("LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json")) {
        tracing_subscriber::fmt()
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .with_env_filter(filter)
            .init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }
}

/// `companion serve`.
async fn serve(config: Config) -> anyhow::Result<()> {
    let server = Server::bind(config).await?;
    tracing::info!("listening on http://{}", server.addr);
    server.run(http::shutdown_signal()).await
}

/// `companion replay`: exits with 1 when a rebuilt projection differs.
async fn replay(config: Config, projections: &[String]) -> anyhow::Result<()> {
    let (state, _projector) = backend::prepare(config).await?;
    let report = backend::replay::run(&state.db, &state.config, projections).await?;
    if !backend::replay::print(&report) {
        std::process::exit(1);
    }
    Ok(())
}

/// `companion rebuild`: exits with an error when a rebuild or a swap fails; a failed swap leaves
/// its projection's live tables as they were.
async fn rebuild(config: Config, projections: &[String]) -> anyhow::Result<()> {
    let (state, _projector) = backend::prepare(config).await?;
    let (report, swaps) = backend::replay::rebuild(&state.db, &state.config, projections).await?;
    backend::replay::print_swaps(&report, &swaps);
    Ok(())
}

/// `companion import`: the whole content folder, checked before anything is written; a refusal
/// exits with 1.
async fn import(config: Config, actor: Option<String>) -> anyhow::Result<()> {
    let content_dir = config.content_dir.clone();
    std::fs::create_dir_all(&config.data_dir)?;
    let db = projections::Db::connect(&config.database_url()).await?;
    let actor = actor.map_or_else(backend::content::default_actor, |a| {
        backend::content::operator(&a)
    });
    let imported = backend::content::import_as(&db, &content_dir, &actor).await;
    if imported.is_ok() {
        // Running servers reload their search index when they see the new version.
        backend::search::bump_content_version(&db).await?;
    }
    db.close().await;
    match imported {
        Ok(report) => {
            println!("Imported {}\n{report}", content_dir.display());
            Ok(())
        }
        Err(e) => {
            eprintln!("Import refused, nothing was changed:\n{e}");
            std::process::exit(1);
        }
    }
}

/// `companion publish`.
async fn publish(what: notifications::cli::PublishCommand) -> anyhow::Result<()> {
    match notifications::cli::run(what).await {
        Ok(published) => {
            println!("{published}");
            Ok(())
        }
        Err(e) => {
            // A refusal (empty title, bad link...) is the answer, not a crash.
            eprintln!("Not published: {e:#}");
            std::process::exit(1);
        }
    }
}

/// `companion users`.
async fn users(command: backend::auth::cli::UsersCommand) -> anyhow::Result<()> {
    match backend::auth::cli::run(command).await {
        Ok(out) => {
            if !out.is_empty() {
                println!("{out}");
            }
            Ok(())
        }
        Err(e) => {
            // A refusal (unknown account, weak password, last admin...) is the answer.
            eprintln!("Refused: {e:#}");
            std::process::exit(1);
        }
    }
}

/// `companion feed push`: prints the message's number in the user's feed.
async fn feed_push(
    config: Config,
    email: &str,
    kind: backend::feed::FeedKind,
    payload: &str,
) -> anyhow::Result<()> {
    let payload: serde_json::Value =
        serde_json::from_str(payload).map_err(|e| anyhow::anyhow!("--payload is not JSON: {e}"))?;
    let db = projections::Db::connect(&config.database_url()).await?;
    let user = backend::auth::User::find_by_email(&db, email)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no user with the e-mail {email}"))?;
    let seq = backend::feed::push_direct(&db, &user.id, kind, &payload).await?;
    println!("{seq}");
    db.close().await;
    Ok(())
}

/// `companion projections status|retry|skip`.
async fn projections_command(command: ProjectionsCommand) -> anyhow::Result<()> {
    let (config, action) = match command {
        ProjectionsCommand::Status { config, json } => (config, Action::Status(json)),
        ProjectionsCommand::Retry { config, name } => (config, Action::Retry(name)),
        ProjectionsCommand::Skip { config, name } => (config, Action::Skip(name)),
    };
    let db = connect_existing(&config).await?;
    let result = match action {
        Action::Status(json) => operations::projections_status(&db, &config)
            .await
            .map(|report| {
                if json {
                    println!(
                        "{}",
                        serde_json::to_string_pretty(&report).unwrap_or_default()
                    );
                } else {
                    operations::print_projections(&report);
                }
            }),
        Action::Retry(name) => operations::retry_projection(&db, &name)
            .await
            .map(|done| println!("{done}")),
        Action::Skip(name) => operations::skip_projection(&db, &name)
            .await
            .map(|done| println!("{done}")),
    };
    db.close().await;
    refusal(result)
}

/// `companion keys rotate`: PostgreSQL only; on SQLite the secret is a file.
async fn rotate_signing_keys(config: Config) -> anyhow::Result<()> {
    let db = connect_existing(&config).await?;
    let result = match &db {
        projections::Db::Postgres { pool } => {
            backend::auth::jwt::JwtKeys::rotate(pool, config.jwt_ttl_seconds)
                .await
                .map(|done| println!("{done}"))
        }
        projections::Db::Sqlite { .. } => Err(anyhow::anyhow!(
            "On SQLite the signing secret is DATA_DIR/jwt-secret (or JWT_SECRET): replace \
             it and restart the server (every session then signs in again)"
        )),
    };
    db.close().await;
    refusal(result)
}

/// `companion push rotate-keys`.
async fn rotate_vapid_keys(config: Config) -> anyhow::Result<()> {
    let db = connect_existing(&config).await?;
    let result = backend::push::keys::VapidKeys::rotate(&db, &config.data_dir)
        .await
        .map(|removed| {
            println!(
                "New VAPID key pair. {removed} push subscriptions deleted: each device \
                 subscribes again when its app next starts."
            )
        });
    db.close().await;
    refusal(result)
}

/// `companion files check`; false when files are missing.
async fn files_check(
    db: &projections::Db,
    config: &Config,
    collect: bool,
    json: bool,
) -> anyhow::Result<bool> {
    use backend::documents::{orphans, storage::Storage};
    let storage = Storage::from_config(&config.data_dir, config.file_store_url.as_deref())?;
    let report = orphans::check(db, &storage, orphans::retention(config)).await?;
    let collected = if collect {
        Some(orphans::collect(&storage, &report).await?)
    } else {
        None
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        orphans::print(&report, collected);
    }
    Ok(report.missing.is_empty())
}

enum Action {
    Status(bool),
    Retry(String),
    Skip(String),
}

/// Opens the configured database, refusing to create an empty SQLite file by mistake.
async fn connect_existing(config: &Config) -> anyhow::Result<projections::Db> {
    if config.database_url.as_deref().is_none_or(str::is_empty)
        && !config.data_dir.join(operations::DATABASE_FILE).is_file()
    {
        eprintln!(
            "No database in {} (set DATA_DIR or DATABASE_URL)",
            config.data_dir.display()
        );
        std::process::exit(1);
    }
    Ok(projections::Db::connect(&config.database_url()).await?)
}

/// An operator's command that was refused prints why and exits with 1.
fn refusal(result: anyhow::Result<()>) -> anyhow::Result<()> {
    if let Err(e) = result {
        eprintln!("{e:#}");
        std::process::exit(1);
    }
    Ok(())
}
