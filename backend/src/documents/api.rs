//! The JSON calls of spec section 7 "Documents and folders", plus history and recipients.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use events::documents::ShareVia;
use projections::documents::ItemView;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::history::History;
use super::operations::{
    Actor, Documents, ExternalShare, ExternalShareOptions, FolderContents, FolderNode, ListType,
};
use crate::auth::AuthUser;
use crate::auth::User;
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody};
use crate::ids::ItemId;

/// A list of items (`GET /documents/my`, `/documents/shared`, `/usadocs`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ItemList {
    pub list: Vec<ItemView>,
    /// `my`, `shared` or `us`.
    #[serde(rename = "type")]
    pub kind: String,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct TypeQuery {
    /// `my`, `shared` or `us`.
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub kind: Option<String>,
}

/// An item id given as text (a body field, or a path read after other checks): see [`ItemId`].
pub fn item_id(raw: &str) -> AppResult<String> {
    ItemId::parse(raw).map(|ItemId(id)| id)
}

/// A required id field of a body.
fn required_id(raw: Option<String>, field: &str) -> AppResult<String> {
    match raw.as_deref().map(str::trim) {
        None | Some("") => Err(AppError::bad_request(format!("The {field} is required"))),
        Some(id) => item_id(id),
    }
}

/// A destination folder: an id, or null / empty for the root 'My docs'.
pub fn destination(raw: Option<String>) -> AppResult<Option<String>> {
    match raw.as_deref().map(str::trim) {
        None | Some("") | Some("null") => Ok(None),
        Some(id) => uuid::Uuid::parse_str(id)
            .map(|u| Some(u.to_string()))
            .map_err(|_| AppError::not_found("The destination folder was not found")),
    }
}

async fn list_of(
    documents: &Documents,
    actor: &Actor,
    list: ListType,
) -> AppResult<AppJson<ItemList>> {
    Ok(AppJson(ItemList {
        list: documents.list(actor, list).await?,
        kind: list.as_str().to_string(),
    }))
}

/// The root of My Docs.
#[utoipa::path(get, path = "/documents/my", tag = "documents", security(("bearer" = [])),
    responses((status = 200, body = ItemList), (status = 401, body = ErrorBody)))]
pub async fn list_my(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
) -> AppResult<AppJson<ItemList>> {
    list_of(&documents, &actor, ListType::My).await
}

/// The root of Shared with me.
#[utoipa::path(get, path = "/documents/shared", tag = "documents", security(("bearer" = [])),
    responses((status = 200, body = ItemList), (status = 401, body = ErrorBody)))]
pub async fn list_shared(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
) -> AppResult<AppJson<ItemList>> {
    list_of(&documents, &actor, ListType::Shared).await
}

/// The root of the US set (users whose certificate is US; 403 for others).
#[utoipa::path(get, path = "/usadocs", tag = "documents", security(("bearer" = [])),
    responses((status = 200, body = ItemList), (status = 403, body = ErrorBody)))]
pub async fn list_us(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
) -> AppResult<AppJson<ItemList>> {
    list_of(&documents, &actor, ListType::Us).await
}

/// Any of the three lists by `type` (also served at `GET /api/folders?type=`).
#[utoipa::path(get, path = "/documents", tag = "documents", params(TypeQuery), security(("bearer" = [])),
    responses((status = 200, body = ItemList), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn list_by_type(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppQuery(query): AppQuery<TypeQuery>,
) -> AppResult<AppJson<ItemList>> {
    let list = ListType::parse(query.kind.as_deref())?;
    list_of(&documents, &actor, list).await
}

/// The same lists by `type`, at the folders' address.
#[utoipa::path(get, path = "/folders", tag = "documents", params(TypeQuery), security(("bearer" = [])),
    responses((status = 200, body = ItemList), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn list_folders(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    query: AppQuery<TypeQuery>,
) -> AppResult<AppJson<ItemList>> {
    list_by_type(State(documents), actor, query).await
}

/// A folder's contents in one list; 404 when the user does not see it there.
#[utoipa::path(get, path = "/folders/{id}", tag = "documents", params(("id" = String, Path), TypeQuery),
    security(("bearer" = [])),
    responses((status = 200, body = FolderContents), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn folder(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    Path(id): Path<String>,
    AppQuery(query): AppQuery<TypeQuery>,
) -> AppResult<AppJson<FolderContents>> {
    let list = ListType::parse(query.kind.as_deref())?;
    let id = item_id(&id)?;
    Ok(AppJson(documents.folder(&actor, &id, list).await?))
}

/// The user's My Docs folders as a tree (move dialog).
#[utoipa::path(get, path = "/folders/list", tag = "documents", security(("bearer" = [])),
    responses((status = 200, body = [FolderNode])))]
pub async fn tree(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
) -> AppResult<AppJson<Vec<FolderNode>>> {
    Ok(AppJson(documents.tree(&actor).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateFolderBody {
    pub name: Option<String>,
    /// Always `my`: folders are added only in My Docs.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The folder to create it in; null for the root.
    pub parent: Option<String>,
}

/// Creates a folder in My Docs.
#[utoipa::path(post, path = "/folders", tag = "documents", request_body = CreateFolderBody,
    security(("bearer" = [])),
    responses((status = 201, body = ItemView), (status = 400, body = ErrorBody, description = "no name, too long, or past the max depth"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn create_folder(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppJson(body): AppJson<CreateFolderBody>,
) -> AppResult<(StatusCode, AppJson<ItemView>)> {
    if body.kind.as_deref().is_some_and(|t| t.trim() != "my") {
        return Err(events::documents::DocumentError::ReadOnly.into());
    }
    let parent = destination(body.parent)?;
    let item = documents
        .create_folder(&actor, parent, body.name.unwrap_or_default())
        .await?;
    Ok((StatusCode::CREATED, AppJson(item)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RenameBody {
    pub name: Option<String>,
}

/// Renames a folder or a file.
#[utoipa::path(post, path = "/folders/{id}", tag = "documents", params(("id" = String, Path)),
    request_body = RenameBody, security(("bearer" = [])),
    responses((status = 200, body = ItemView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn rename(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    ItemId(id): ItemId,
    AppJson(body): AppJson<RenameBody>,
) -> AppResult<AppJson<ItemView>> {
    let item = documents
        .rename(&actor, &id, body.name.unwrap_or_default())
        .await?;
    Ok(AppJson(item))
}

/// What a deletion removed.
#[derive(Debug, Serialize, ToSchema)]
pub struct Deleted {
    pub id: String,
    /// The items that went with a folder, at every level.
    pub removed: Vec<String>,
}

/// Deletes a folder and everything in it.
#[utoipa::path(post, path = "/folders/{id}/delete", tag = "documents", params(("id" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, body = Deleted), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete_folder(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    ItemId(id): ItemId,
) -> AppResult<AppJson<Deleted>> {
    let removed = documents.delete(&actor, &id).await?;
    Ok(AppJson(Deleted { id, removed }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RemoveBody {
    pub id: Option<String>,
}

/// Removes a file from My Docs.
#[utoipa::path(post, path = "/documents/remove", tag = "documents", request_body = RemoveBody,
    security(("bearer" = [])),
    responses((status = 200, body = Deleted), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn remove_file(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppJson(body): AppJson<RemoveBody>,
) -> AppResult<AppJson<Deleted>> {
    let id = required_id(body.id, "id")?;
    let removed = documents.delete(&actor, &id).await?;
    Ok(AppJson(Deleted { id, removed }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MoveFolderBody {
    /// The folder to move it into; null for the root 'My docs'.
    pub destination: Option<String>,
    pub folder: Option<String>,
}

/// Moves a folder into another folder or to the root.
#[utoipa::path(post, path = "/folders/move", tag = "documents", request_body = MoveFolderBody,
    security(("bearer" = [])),
    responses((status = 200, body = ItemView), (status = 400, body = ErrorBody, description = "into itself or below itself, or past the max depth"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn move_folder(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppJson(body): AppJson<MoveFolderBody>,
) -> AppResult<AppJson<ItemView>> {
    let id = required_id(body.folder, "folder")?;
    let to = destination(body.destination)?;
    Ok(AppJson(documents.move_item(&actor, &id, to).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MoveFileBody {
    /// The folder to move it into; null for the root 'My docs'.
    pub folder: Option<String>,
    pub file: Option<String>,
}

/// Moves a file into a folder or to the root.
#[utoipa::path(post, path = "/documents/move", tag = "documents", request_body = MoveFileBody,
    security(("bearer" = [])),
    responses((status = 200, body = ItemView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn move_file(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppJson(body): AppJson<MoveFileBody>,
) -> AppResult<AppJson<ItemView>> {
    let id = required_id(body.file, "file")?;
    let to = destination(body.folder)?;
    Ok(AppJson(documents.move_item(&actor, &id, to).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ShareFolderBody {
    pub email: Option<String>,
    pub folder: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ShareFileBody {
    pub email: Option<String>,
    pub file: Option<String>,
}

/// A successful internal share.
#[derive(Debug, Serialize, ToSchema)]
pub struct Shared {
    pub recipient: String,
    pub item: ItemView,
}

async fn share(
    documents: &Documents,
    actor: &Actor,
    id: Option<String>,
    field: &str,
    email: Option<String>,
    via: ShareVia,
) -> AppResult<AppJson<Shared>> {
    let id = required_id(id, field)?;
    let (recipient, item) = documents.share(actor, &id, email, via).await?;
    Ok(AppJson(Shared { recipient, item }))
}

/// Shares a folder (and what it holds) with a colleague.
#[utoipa::path(post, path = "/folders/share", tag = "documents", request_body = ShareFolderBody,
    security(("bearer" = [])),
    responses((status = 200, body = Shared), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "no such item, or 'The user associated with that e-mail was not found. Check again the e-mail or try an external share.'")))]
pub async fn share_folder(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppJson(body): AppJson<ShareFolderBody>,
) -> AppResult<AppJson<Shared>> {
    share(
        &documents,
        &actor,
        body.folder,
        "folder",
        body.email,
        ShareVia::Internal,
    )
    .await
}

/// Shares a file of My Docs with a colleague (`internal_share`).
#[utoipa::path(post, path = "/documents/share", tag = "documents", request_body = ShareFileBody,
    security(("bearer" = [])),
    responses((status = 200, body = Shared), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn share_file(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppJson(body): AppJson<ShareFileBody>,
) -> AppResult<AppJson<Shared>> {
    share(
        &documents,
        &actor,
        body.file,
        "file",
        body.email,
        ShareVia::Internal,
    )
    .await
}

/// Shares a document of the company storage (US set) with a colleague (`storage_internal_share`).
#[utoipa::path(post, path = "/documents/storage-share", tag = "documents", request_body = ShareFileBody,
    security(("bearer" = [])),
    responses((status = 200, body = Shared), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn storage_share(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppJson(body): AppJson<ShareFileBody>,
) -> AppResult<AppJson<Shared>> {
    share(
        &documents,
        &actor,
        body.file,
        "file",
        body.email,
        ShareVia::Storage,
    )
    .await
}

/// The body of an external share.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ExternalShareBody {
    pub email: Option<String>,
    pub file: Option<String>,
    /// 1 to `EXTERNAL_LINK_MAX_DAYS` (30); default 7.
    pub expires_in_days: Option<i64>,
    /// Default true; false: view only.
    pub allow_download: Option<bool>,
    /// 1 to 1000 opens, then the link answers 410; default no limit.
    pub max_opens: Option<i64>,
}

/// Sends someone outside the app an expiring link to the tracked viewer (`/s/{token}`): its
/// opens, pages and downloads reach the sender (`GET /api/documents/{id}/shares`). Without an
/// SMTP server the e-mail is kept in the outbox table and logged.
#[utoipa::path(post, path = "/documents/external-share", tag = "documents", request_body = ExternalShareBody,
    security(("bearer" = [])),
    responses((status = 200, body = ExternalShare), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "not allowed, 'For internal use', or internal-only labels"), (status = 404, body = ErrorBody)))]
pub async fn external_share(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppJson(body): AppJson<ExternalShareBody>,
) -> AppResult<AppJson<ExternalShare>> {
    let id = required_id(body.file, "file")?;
    let options = ExternalShareOptions {
        expires_in_days: body.expires_in_days,
        allow_download: body.allow_download,
        max_opens: body.max_opens,
    };
    Ok(AppJson(
        documents
            .share_externally(&actor, &id, body.email, options)
            .await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FavoriteBody {
    /// A folder of the user's My Docs; null for the root.
    pub folder: Option<String>,
    pub file: Option<String>,
}

/// Saves a copy of a shared or US file in My Docs (`save_to_mydocs`).
#[utoipa::path(post, path = "/documents/favorite", tag = "documents", request_body = FavoriteBody,
    security(("bearer" = [])),
    responses((status = 201, body = ItemView, description = "the copy"), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn save_to_mydocs(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppJson(body): AppJson<FavoriteBody>,
) -> AppResult<(StatusCode, AppJson<ItemView>)> {
    let id = required_id(body.file, "file")?;
    let folder = destination(body.folder)?;
    let copy = documents.save_to_mydocs(&actor, &id, folder).await?;
    Ok((StatusCode::CREATED, AppJson(copy)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MyDocsBody {
    /// The item's type (`folder`/`file`) or its list (`shared`); informative only.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub source: Option<String>,
}

/// Moves an item shared with the user into My Docs (`move_to_mydocs`): a copy (a folder with
/// its contents) at the root, and the original leaves Shared with me.
#[utoipa::path(post, path = "/folders/mydocs", tag = "documents", request_body = MyDocsBody,
    security(("bearer" = [])),
    responses((status = 201, body = ItemView, description = "the copy"), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn move_to_mydocs(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppJson(body): AppJson<MyDocsBody>,
) -> AppResult<(StatusCode, AppJson<ItemView>)> {
    if let Some(kind) = body.kind.as_deref().map(str::trim) {
        if !["folder", "file", "shared", "us", "my", ""].contains(&kind) {
            return Err(AppError::bad_request(
                "The type must be folder, file, shared or us",
            ));
        }
    }
    let id = required_id(body.source, "source")?;
    let copy = documents.move_to_mydocs(&actor, &id).await?;
    Ok((StatusCode::CREATED, AppJson(copy)))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct ShareListQuery {
    /// Part of an e-mail (at least 1 character).
    pub search: Option<String>,
}

/// Most results of the share dialog's recipient list.
const SHARE_LIST_MAX: i64 = 20;

/// E-mails containing `search` of the other accounts a document can be shared with (enabled
/// users; never administrators, auditors or disabled accounts), for the share dialog. Limited
/// per user (`RECIPIENT_LOOKUPS_PER_MINUTE`), and only once the terms are accepted.
#[utoipa::path(get, path = "/users/share-list", tag = "documents", params(ShareListQuery),
    security(("bearer" = [])),
    responses((status = 200, body = [String]), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn share_list(
    State(documents): State<Arc<Documents>>,
    auth: AuthUser,
    limit: Option<axum::Extension<crate::edge::limits::PerUser>>,
    AppQuery(query): AppQuery<ShareListQuery>,
) -> AppResult<AppJson<Vec<String>>> {
    if let Some(axum::Extension(limit)) = limit {
        limit.check(&auth.id)?;
    }
    let search = query.search.unwrap_or_default();
    let search = search.trim();
    if search.is_empty() {
        return Err(AppError::bad_request("Type at least 1 character to search"));
    }
    if search.chars().count() > 254 {
        return Err(AppError::bad_request("The search is too long"));
    }
    Ok(AppJson(
        User::search_emails(documents.db(), search, &auth.id, SHARE_LIST_MAX).await?,
    ))
}

/// A page of a history.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    /// Entries per page, 1 to 200 (default 200).
    pub limit: Option<i64>,
    /// The `next` of the previous page (absent: the newest entries).
    pub before: Option<String>,
}

/// What happened to a document or folder, newest first, in pages of at most 200 (walk them by
/// passing `next` as `before`); for whoever sees it, and the auditor. Auditors and the owner
/// read every entry; anyone else the item's own facts, shares made to them and their own
/// actions, with folders they cannot see named 'a private folder'.
#[utoipa::path(get, path = "/documents/{id}/history", tag = "documents", params(("id" = String, Path), HistoryQuery),
    security(("bearer" = [])),
    responses((status = 200, body = History),
        (status = 400, body = ErrorBody, description = "A bad limit or cursor"),
        (status = 404, body = ErrorBody)))]
pub async fn history(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    ItemId(id): ItemId,
    AppQuery(query): AppQuery<HistoryQuery>,
) -> AppResult<AppJson<History>> {
    let limit = super::history::limit_of(query.limit)?;
    let before = query
        .before
        .as_deref()
        .map(super::history::parse_cursor)
        .transpose()?;
    Ok(AppJson(
        documents.history(&actor, &id, before, limit).await?,
    ))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct AsOfQuery {
    /// RFC 3339, e.g. `2026-11-20T10:00:00Z`.
    pub at: Option<String>,
}

/// A folder's contents at a past time.
#[derive(Debug, Serialize, ToSchema)]
pub struct FolderAsOf {
    pub list: Vec<ItemView>,
    pub name: String,
}

/// A folder's contents as they were at `at`, read from the temporal tables of the read model.
/// Auditors see any folder; others a folder they see now, as far as they could see it at `at`.
#[utoipa::path(get, path = "/folders/{id}/as-of", tag = "documents", params(("id" = String, Path), AsOfQuery),
    security(("bearer" = [])),
    responses((status = 200, body = FolderAsOf), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "'You could not see this folder at that time'"),
        (status = 404, body = ErrorBody)))]
pub async fn folder_as_of(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    Path(id): Path<String>,
    AppQuery(query): AppQuery<AsOfQuery>,
) -> AppResult<AppJson<FolderAsOf>> {
    let at = at_of(&query)?;
    let id = item_id(&id)?;
    let (name, list) = documents.folder_as_of(&actor, &id, at).await?;
    Ok(AppJson(FolderAsOf { list, name }))
}

/// Someone who could see an item at a past time.
#[derive(Debug, Serialize, ToSchema)]
pub struct PersonThen {
    /// User id.
    pub id: String,
    /// Their name (now; the owner's as recorded on the item); none for an account since removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

/// A share valid at the time asked about.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShareThenView {
    pub user: PersonThen,
    /// The item the share was on: the item itself, or a folder above it then.
    pub through: String,
    /// True when the share was on the item itself.
    pub direct: bool,
    /// `internal` or `storage`.
    pub via: String,
    /// When that share began, milliseconds since the epoch.
    pub since: i64,
}

/// Who could see a document or folder at a past time (`GET /api/items/{id}/access-as-of`).
#[derive(Debug, Serialize, ToSchema)]
pub struct AccessAsOf {
    pub id: String,
    /// `folder` or `file`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The title then.
    pub title: String,
    /// The time asked about, milliseconds since the epoch.
    pub at: i64,
    /// The owner (none for the company's US set).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<PersonThen>,
    /// The item was in the US set: every user with a US certificate could see it.
    pub us_set: bool,
    /// The users it was shared with then, directly or through a folder above it, by user id.
    pub shared_with: Vec<ShareThenView>,
}

/// Who could see a document or folder at `at`: its owner and everyone it was shared with then,
/// directly or through a shared folder above it (the folders as they were then), read from the
/// temporal tables. For auditors, and owners for their own items.
#[utoipa::path(get, path = "/items/{id}/access-as-of", tag = "documents", params(("id" = String, Path), AsOfQuery),
    security(("bearer" = [])),
    responses((status = 200, body = AccessAsOf), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "'Only auditors and the item's owner can see who could see it'"),
        (status = 404, body = ErrorBody, description = "Unknown item, or 'The item did not exist at that time'")))]
pub async fn access_as_of(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    Path(id): Path<String>,
    AppQuery(query): AppQuery<AsOfQuery>,
) -> AppResult<AppJson<AccessAsOf>> {
    let at = at_of(&query)?;
    let id = item_id(&id)?;
    let (item, shares) = documents.access_as_of(&actor, &id, at).await?;
    let owner = item.owner_id.as_ref().map(|owner| PersonThen {
        id: owner.clone(),
        name: item.owner_name.clone(),
        email: None,
    });
    let mut shared_with = Vec::with_capacity(shares.len());
    for share in shares {
        let user = User::find_by_id(documents.db(), &share.user_id).await?;
        shared_with.push(ShareThenView {
            user: PersonThen {
                id: share.user_id,
                name: user.as_ref().map(super::services::full_name),
                email: user.map(|u| u.email),
            },
            direct: share.through == item.id,
            through: share.through,
            via: share.via,
            since: share.since,
        });
    }
    Ok(AppJson(AccessAsOf {
        id: item.id.clone(),
        us_set: item.space == "us",
        kind: item.kind,
        title: item.title,
        at,
        owner,
        shared_with,
    }))
}

/// The `at` of an as-of query in milliseconds since the epoch (400 when missing or not RFC 3339).
fn at_of(query: &AsOfQuery) -> AppResult<i64> {
    query
        .at
        .as_deref()
        .and_then(|t| chrono::DateTime::parse_from_rfc3339(t.trim()).ok())
        .map(|at| at.timestamp_millis())
        .ok_or_else(|| {
            AppError::bad_request("Give the time as RFC 3339, e.g. 2026-11-20T10:00:00Z")
        })
}
