//! `companion`: the server and its administration commands.

use clap::{Parser, Subcommand};
use tracing_subscriber::EnvFilter;

use backend::{http, notifications, Config, Server};

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
    /// Imports a content folder (catalogue, news, contacts, ...) into the database. Importing
    /// the same folder twice gives the same state; a bad file is refused and changes nothing.
    /// The folder is `--content-dir` (or `CONTENT_DIR`); the database as for `serve`.
    Import(Config),
    /// Publishes a notification or an app update (as the admin's API does).
    Publish {
        #[command(subcommand)]
        what: notifications::cli::PublishCommand,
    },
    /// Users' live feeds.
    #[command(subcommand)]
    Feed(FeedCommand),
    /// Accounts and sessions: list, add, disable, enable, set-role, set-password, sessions, revoke.
    #[command(subcommand)]
    Users(backend::auth::cli::UsersCommand),
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
        /// Message kind: badge, shared_arrival, shared_change, notification, app_update.
        #[arg(long)]
        kind: String,
        /// The message's JSON payload.
        #[arg(long, default_value = "{}")]
        payload: String,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info")),
        )
        .init();
    match Cli::parse().command {
        Command::Serve(config) => {
            let server = Server::bind(config).await?;
            tracing::info!("listening on http://{}", server.addr);
            server.run(http::shutdown_signal()).await
        }
        Command::Replay {
            config,
            projections,
        } => {
            let (state, _projector) = backend::prepare(config).await?;
            let report = backend::replay::run(&state.db, &state.config, &projections).await?;
            if !backend::replay::print(&report) {
                std::process::exit(1);
            }
            Ok(())
        }
        Command::Import(config) => {
            let content_dir = config.content_dir.clone();
            std::fs::create_dir_all(&config.data_dir)?;
            let db = projections::Db::connect(&config.database_url()).await?;
            let catalogue = backend::content::import_all(&db, &content_dir).await;
            let programmes = match &catalogue {
                Ok(_) => Some(backend::programmes::import(&db, &content_dir).await),
                Err(_) => None,
            };
            if catalogue.is_ok() {
                // Running servers reload their search index when they see the new version.
                backend::search::bump_content_version(&db).await?;
            }
            db.close().await;
            match (catalogue, programmes) {
                (Ok(report), Some(Ok(programmes))) => {
                    println!(
                        "Imported {}\n{report}\n{programmes:?}",
                        content_dir.display()
                    );
                    Ok(())
                }
                (Err(e), _) => {
                    eprintln!("Import refused, nothing was changed:\n{e}");
                    std::process::exit(1);
                }
                (Ok(_), programmes) => {
                    let reason = programmes
                        .and_then(Result::err)
                        .map(|e| e.to_string())
                        .unwrap_or_default();
                    eprintln!("Catalogue imported; congresses, training and courses refused and unchanged:\n{reason}");
                    std::process::exit(1);
                }
            }
        }
        Command::Publish { what } => match notifications::cli::run(what).await {
            Ok(published) => {
                println!("{published}");
                Ok(())
            }
            Err(e) => {
                // A refusal (empty title, bad link...) is the answer, not a crash.
                eprintln!("Not published: {e:#}");
                std::process::exit(1);
            }
        },
        Command::Users(command) => match backend::auth::cli::run(command).await {
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
        },
        Command::Feed(FeedCommand::Push {
            config,
            email,
            kind,
            payload,
        }) => {
            let payload: serde_json::Value = serde_json::from_str(&payload)
                .map_err(|e| anyhow::anyhow!("--payload is not JSON: {e}"))?;
            let db = projections::Db::connect(&config.database_url()).await?;
            let user = backend::users::find_by_email(&db, &email)
                .await?
                .ok_or_else(|| anyhow::anyhow!("no user with the e-mail {email}"))?;
            let seq = backend::realtime::push_direct(&db, &user.id, &kind, &payload).await?;
            println!("{seq}");
            db.close().await;
            Ok(())
        }
    }
}
