//! The withdrawal report: who held an ended document, how, on which devices, and which of those
//! devices confirmed the purge. JSON, or CSV with one line per holder and device.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use projections::library as model;
use projections::on_db;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::operations::Library;
use super::ReportReaders;
use crate::auth::Authorized;
use crate::documents::csv_field;
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody, Replacement};
use crate::ids::DocumentId;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HolderUser {
    pub id: String,
    pub name: String,
    pub email: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HolderDevice {
    pub device: String,
    /// What the device calls itself, when registered.
    pub name: Option<String>,
    pub purged_at: Option<i64>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Holder {
    pub user: HolderUser,
    /// `opened`, `downloaded`, `saved`, `pinned_offline`, `shared`, `sent_externally`.
    pub how: Vec<String>,
    pub devices: Vec<HolderDevice>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WithdrawalReport {
    pub id: i64,
    pub title: String,
    /// `withdrawn` or `expired`; none while the document is live.
    pub state: Option<String>,
    pub at: Option<i64>,
    pub reason: String,
    pub replacement: Option<Replacement>,
    pub holders: Vec<Holder>,
}

/// `(user, how)` for the company's items of an ended document and every copy of them:
/// `saved` (owners of copies in My Docs), `shared` (users they were shared with),
/// `sent_externally` (senders of external links).
async fn copy_holdings(
    library: &Library,
    items: &[String],
) -> AppResult<Vec<(String, &'static str)>> {
    let mut out = Vec::new();
    for chunk in items.chunks(500) {
        let list = (1..=chunk.len())
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ");
        let queries: [(&'static str, String); 3] = [
            (
                "saved",
                format!(
                    "select distinct owner_id from doc_item_versions
                where item_id in ({list}) and space = 'my' and owner_id is not null"
                ),
            ),
            (
                "shared",
                format!(
                    "select distinct user_id from doc_share_versions where item_id in ({list})"
                ),
            ),
            (
                "sent_externally",
                format!(
                    "select distinct created_by from doc_external_links where item_id in ({list})"
                ),
            ),
        ];
        for (how, sql) in queries {
            let users: Vec<String> = on_db!(&library.db, pool => {
                let mut q = sqlx::query_scalar(&sql);
                for id in chunk {
                    q = q.bind(id.as_str());
                }
                q.fetch_all(pool).await
            })?;
            out.extend(users.into_iter().map(|u| (u, how)));
        }
    }
    Ok(out)
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct ReportQuery {
    /// `csv` for CSV; JSON otherwise.
    pub format: Option<String>,
}

async fn report(library: &Library, id: i64) -> AppResult<WithdrawalReport> {
    let row = library.state(id).await?;
    let mut tx = library.tx().await?;
    let holdings = model::holders_of(&mut tx, id).await?;
    let purges = model::purges_of(&mut tx, id).await?;
    tx.rollback().await?;
    let purged: BTreeMap<String, i64> = purges.iter().map(|p| (p.device.clone(), p.at)).collect();
    // user -> (ways, devices)
    let mut by_user: BTreeMap<String, (Vec<String>, Vec<String>)> = BTreeMap::new();
    for h in holdings {
        let entry = by_user.entry(h.user_id).or_default();
        if !entry.0.contains(&h.how) {
            entry.0.push(h.how);
        }
        if !h.device.is_empty() && !entry.1.contains(&h.device) {
            entry.1.push(h.device);
        }
    }
    // Holders of the company's copies, as the cascade reported them, each with how they held
    // one: a copy of their own, a share to them, an external link they sent.
    let ways = copy_holdings(library, &row.ended_items()).await?;
    for user in row.ended_holders() {
        let mut found: Vec<&str> = ways
            .iter()
            .filter(|(u, _)| *u == user)
            .map(|(_, how)| *how)
            .collect();
        if found.is_empty() {
            // Not an owner, recipient or sender of the items themselves: a folder holding one
            // was shared with them.
            found.push("shared");
        }
        let entry = by_user.entry(user).or_default();
        for how in found {
            if !entry.0.iter().any(|h| h == how) {
                entry.0.push(how.into());
            }
        }
    }
    for p in &purges {
        let entry = by_user.entry(p.user_id.clone()).or_default();
        if !entry.1.contains(&p.device) {
            entry.1.push(p.device.clone());
        }
    }
    let mut holders = Vec::new();
    for (user_id, (how, pinned_devices)) in by_user {
        let account: Option<(String, String, String)> = on_db!(&library.db, pool => sqlx::query_as(
            "select first_name, last_name, email from users where id = $1")
            .bind(&user_id).fetch_optional(pool).await)?;
        let (name, email) = account
            .map(|(f, l, e)| (format!("{f} {l}").trim().to_string(), e))
            .unwrap_or_default();
        let registered: Vec<(Option<String>, Option<String>)> = on_db!(&library.db, pool => sqlx::query_as(
            "select uuid, device from devices where user_id = $1 and uuid is not null order by id")
            .bind(&user_id).fetch_all(pool).await)?;
        let mut devices: Vec<HolderDevice> = Vec::new();
        for (uuid, device_name) in registered {
            let Some(uuid) = uuid else { continue };
            devices.push(HolderDevice {
                purged_at: purged.get(&uuid).copied(),
                device: uuid,
                name: device_name,
            });
        }
        for device in pinned_devices {
            if !devices.iter().any(|d| d.device == device) {
                devices.push(HolderDevice {
                    purged_at: purged.get(&device).copied(),
                    device,
                    name: None,
                });
            }
        }
        holders.push(Holder {
            user: HolderUser {
                id: user_id,
                name,
                email,
            },
            how,
            devices,
        });
    }
    Ok(WithdrawalReport {
        id,
        title: row.title.clone(),
        state: row.ended_state.clone(),
        at: row.ended_at,
        reason: row.ended_reason.clone().unwrap_or_default(),
        replacement: library.replacement(row.replacement).await?,
        holders,
    })
}

fn csv(report: &WithdrawalReport) -> String {
    let mut out = String::from(
        "document,title,state,at,reason,replacement,user_id,name,email,how,device,device_name,purged_at\n",
    );
    let head = [
        report.id.to_string(),
        csv_field(&report.title),
        report.state.clone().unwrap_or_default(),
        report.at.map(|a| a.to_string()).unwrap_or_default(),
        csv_field(&report.reason),
        report
            .replacement
            .as_ref()
            .map(|r| r.id.to_string())
            .unwrap_or_default(),
    ]
    .join(",");
    for holder in &report.holders {
        let who = [
            csv_field(&holder.user.id),
            csv_field(&holder.user.name),
            csv_field(&holder.user.email),
            csv_field(&holder.how.join(" ")),
        ]
        .join(",");
        if holder.devices.is_empty() {
            out.push_str(&format!("{head},{who},,,\n"));
        }
        for d in &holder.devices {
            out.push_str(&format!(
                "{head},{who},{},{},{}\n",
                csv_field(&d.device),
                csv_field(d.name.as_deref().unwrap_or_default()),
                d.purged_at.map(|p| p.to_string()).unwrap_or_default()
            ));
        }
    }
    out
}

/// Who held the document, how, on which devices, and which devices confirmed the purge.
#[utoipa::path(get, path = "/admin/library/{id}/withdrawal-report", tag = "documents", security(("bearer" = [])),
    params(("id" = i64, Path), ReportQuery),
    responses((status = 200, body = WithdrawalReport), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn withdrawal_report(
    State(library): State<Arc<Library>>,
    _caller: Authorized<ReportReaders>,
    DocumentId(id): DocumentId,
    AppQuery(query): AppQuery<ReportQuery>,
) -> AppResult<Response> {
    let report = report(&library, id).await?;
    match query.format.as_deref() {
        Some("csv") => Ok((
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"withdrawal-{id}.csv\""),
                ),
            ],
            csv(&report),
        )
            .into_response()),
        None | Some("json") | Some("") => Ok(AppJson(report).into_response()),
        Some(_) => Err(AppError::bad_request("The format must be csv or json")),
    }
}
