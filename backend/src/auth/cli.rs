//! `companion users ...`: accounts and sessions from the command line, on the database the server
//! uses (`DATABASE_URL` / `DATA_DIR`). Passwords are read from standard input, never from flags
//! (which end up in shell history and process lists).

use std::io::BufRead;

use anyhow::Context;
use clap::Subcommand;
use projections::Db;

use super::accounts::{self, NewAccount, User};
use super::sessions;
use crate::config::Config;

#[derive(Subcommand)]
pub enum UsersCommand {
    /// Lists every account: e-mail, role, password or single sign-on, disabled.
    List {
        #[command(flatten)]
        config: Config,
    },
    /// Creates an account. Its password is read from standard input (one line), unless `--sso`:
    /// then it signs in through single sign-on only. E.g. the first administrator:
    /// `companion users add --email it@company.com --first-name Ida --role admin`.
    Add {
        #[command(flatten)]
        config: Config,
        #[arg(long)]
        email: String,
        #[arg(long)]
        first_name: String,
        #[arg(long, default_value = "")]
        last_name: String,
        /// user, admin, auditor, publisher or approver.
        #[arg(long, default_value = "user")]
        role: String,
        /// No password: the account signs in through single sign-on.
        #[arg(long)]
        sso: bool,
    },
    /// Disables an account (by e-mail or id) and ends its sessions on every node.
    Disable {
        #[command(flatten)]
        config: Config,
        account: String,
    },
    /// Enables a disabled account again.
    Enable {
        #[command(flatten)]
        config: Config,
        account: String,
    },
    /// Changes an account's role (user, admin, auditor, publisher, approver); its next request uses the new one.
    SetRole {
        #[command(flatten)]
        config: Config,
        account: String,
        role: String,
    },
    /// Sets a password account's password (read from standard input) and ends its sessions.
    SetPassword {
        #[command(flatten)]
        config: Config,
        account: String,
    },
    /// Lists an account's sessions, newest first.
    Sessions {
        #[command(flatten)]
        config: Config,
        account: String,
    },
    /// Ends one session (by id), or with `--all` every session of an account.
    Revoke {
        #[command(flatten)]
        config: Config,
        /// A session id, or with `--all` an account's e-mail or id.
        target: String,
        #[arg(long)]
        all: bool,
    },
}

async fn open(config: &Config) -> anyhow::Result<Db> {
    std::fs::create_dir_all(&config.data_dir)
        .with_context(|| format!("creating data folder {}", config.data_dir.display()))?;
    Db::connect(&config.database_url())
        .await
        .context("connecting to the database")
}

fn read_password() -> anyhow::Result<String> {
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .context("reading the password from standard input")?;
    let password = line.trim_end_matches(['\r', '\n']).to_string();
    anyhow::ensure!(!password.is_empty(), "no password on standard input");
    Ok(password)
}

fn config_of(command: &UsersCommand) -> &Config {
    match command {
        UsersCommand::List { config }
        | UsersCommand::Add { config, .. }
        | UsersCommand::Disable { config, .. }
        | UsersCommand::Enable { config, .. }
        | UsersCommand::SetRole { config, .. }
        | UsersCommand::SetPassword { config, .. }
        | UsersCommand::Sessions { config, .. }
        | UsersCommand::Revoke { config, .. } => config,
    }
}

/// Runs the command and returns what to print.
pub async fn run(command: UsersCommand) -> anyhow::Result<String> {
    let db = open(config_of(&command)).await?;
    let out = run_on(&db, command).await;
    db.close().await;
    out
}

async fn run_on(db: &Db, command: UsersCommand) -> anyhow::Result<String> {
    let line = |u: &User| {
        let info = accounts::AccountInfo::from(u);
        format!(
            "{}\t{}\t{}\t{}{}",
            info.id,
            info.email,
            info.role,
            info.sign_in,
            if info.disabled { "\tdisabled" } else { "" }
        )
    };
    Ok(match command {
        UsersCommand::List { .. } => accounts::list(db)
            .await?
            .iter()
            .map(|a| {
                format!(
                    "{}\t{}\t{}\t{}{}",
                    a.id,
                    a.email,
                    a.role,
                    a.sign_in,
                    if a.disabled { "\tdisabled" } else { "" }
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
        UsersCommand::Add {
            email,
            first_name,
            last_name,
            role,
            sso,
            ..
        } => {
            let password = if sso { None } else { Some(read_password()?) };
            let user = accounts::add(
                db,
                NewAccount {
                    email,
                    first_name,
                    last_name,
                    role,
                    password,
                },
            )
            .await?;
            format!("Created {}", line(&user))
        }
        UsersCommand::Disable { account, .. } => {
            format!(
                "Disabled {}",
                line(&accounts::set_disabled(db, &account, true).await?)
            )
        }
        UsersCommand::Enable { account, .. } => {
            format!(
                "Enabled {}",
                line(&accounts::set_disabled(db, &account, false).await?)
            )
        }
        UsersCommand::SetRole { account, role, .. } => {
            format!(
                "Changed {}",
                line(&accounts::set_role(db, &account, &role).await?)
            )
        }
        UsersCommand::SetPassword { account, .. } => {
            let password = read_password()?;
            let user = accounts::set_password(db, &account, password).await?;
            format!("Password set, sessions ended: {}", line(&user))
        }
        UsersCommand::Sessions { account, .. } => {
            let user = accounts::find(db, &account).await?;
            sessions::list(db, &user.id)
                .await?
                .iter()
                .map(|s| {
                    format!(
                        "{}\tcreated {}\tlast seen {}\t{}\t{}{}",
                        s.id,
                        s.created_at,
                        s.last_seen_at,
                        s.client_address.as_deref().unwrap_or("-"),
                        s.device.as_deref().unwrap_or("-"),
                        if s.revoked_at.is_some() {
                            "\trevoked"
                        } else {
                            ""
                        }
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        }
        UsersCommand::Revoke { target, all, .. } => {
            if all {
                let user = accounts::find(db, &target).await?;
                let ended = sessions::revoke_all(db, &user.id).await?;
                format!("Ended {ended} session(s) of {}", user.email)
            } else if sessions::revoke(db, &target).await? {
                format!("Ended session {target}")
            } else {
                anyhow::bail!("no open session with the id {target}");
            }
        }
    })
}
