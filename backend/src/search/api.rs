//! `GET /search-new?term=`: results grouped by type.

use std::sync::Arc;

use axum::extract::FromRef;
use axum::extract::State;
use projections::documents::ItemView;
use projections::Db;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::index::PUBLIC;
use super::kinds::Kind;
use super::Search;
use crate::auth::Auth;
use crate::documents::{Actor, Documents};
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody};

/// The shortest term searched (spec 5: "Search term must be at least 2 characters").
pub const MIN_TERM_CHARS: usize = 2;
pub const TERM_TOO_SHORT: &str = "Search at least 2 characters";
/// Results per type.
pub const PER_KIND: usize = 20;

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Db: FromRef<S>,
    Arc<Search>: FromRef<S>,
    Arc<Documents>: FromRef<S>,
    Auth: FromRef<S>,
{
    OpenApiRouter::new().routes(routes!(search))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct SearchQuery {
    /// What to look for: at least 2 characters; words may be incomplete or have one typo.
    pub term: Option<String>,
}

/// One result (spec 3 "Search results").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SearchItem {
    pub id: String,
    pub name: String,
    pub subtitle: Option<String>,
    /// An image of the item, when it has one.
    pub preview: Option<String>,
    /// yyyy-mm-dd
    pub date: Option<String>,
    /// Documents: the item as its list shows it, with what the user may do with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<ItemView>,
    /// Documents: the list it is in (`my`, `shared` or `us`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
}

/// Results grouped by type, best first; a type without results is left out.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct SearchResults {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub products: Vec<SearchItem>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub components: Vec<SearchItem>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub news: Vec<SearchItem>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub congresses: Vec<SearchItem>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub activities: Vec<SearchItem>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub training: Vec<SearchItem>,
    /// Medical-education courses.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub learn: Vec<SearchItem>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub contacts: Vec<SearchItem>,
    /// Useful links.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<SearchItem>,
    /// Library documents every rep may open (`id` is the library id; the file is
    /// `/api/library/{id}/file`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub library: Vec<SearchItem>,
    /// Documents and folders of My Docs, Shared with me and (when the account shows it) US.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub documents: Vec<SearchItem>,
}

impl SearchResults {
    fn group(&mut self, kind: Kind) -> &mut Vec<SearchItem> {
        match kind {
            Kind::Products => &mut self.products,
            Kind::Components => &mut self.components,
            Kind::News => &mut self.news,
            Kind::Congresses => &mut self.congresses,
            Kind::Activities => &mut self.activities,
            Kind::Training => &mut self.training,
            Kind::Learn => &mut self.learn,
            Kind::Contacts => &mut self.contacts,
            Kind::Links => &mut self.links,
            Kind::Library => &mut self.library,
            Kind::Documents => &mut self.documents,
        }
    }
}

/// Search across everything the signed-in user may see.
///
/// Words are matched whole, by their beginning (while typing) and, from five letters on,
/// with one typo; case and accents do not matter, and query syntax characters are plain text.
#[utoipa::path(get, path = "/search-new", tag = "search", params(SearchQuery),
    security(("bearer" = [])),
    responses((status = 200, body = SearchResults),
        (status = 400, description = "Search at least 2 characters", body = ErrorBody),
        (status = 401, body = ErrorBody)))]
pub async fn search(
    State(db): State<Db>,
    State(index): State<Arc<Search>>,
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    AppQuery(query): AppQuery<SearchQuery>,
) -> AppResult<AppJson<SearchResults>> {
    let term = query.term.unwrap_or_default();
    let term = term.trim();
    if term.chars().count() < MIN_TERM_CHARS {
        return Err(AppError::bad_request(TERM_TOO_SHORT));
    }
    let mut acl = vec![PUBLIC.to_string()];
    acl.extend(super::documents::keys_of(&db, &actor.id, actor.shows_us).await?);

    let text = term.to_string();
    let hits = tokio::task::spawn_blocking(move || index.index().search(&text, &acl, PER_KIND))
        .await
        .map_err(super::SearchError::from)?
        .map_err(super::SearchError::from)?;

    let mut results = SearchResults::default();
    let document_ids: Vec<String> = hits
        .iter()
        .filter(|h| h.kind == Kind::Documents)
        .map(|h| h.id.clone())
        .collect();
    // The index's filter already keeps other users' documents out; the read model decides.
    let mut views = documents.visible_views(&actor, &document_ids).await?;
    for hit in hits {
        let mut item = SearchItem {
            id: hit.id,
            name: hit.name,
            subtitle: hit.subtitle,
            preview: hit.preview,
            date: hit.date,
            document: None,
            list: None,
        };
        if hit.kind == Kind::Documents {
            let Some(at) = views.iter().position(|(view, _)| view.id == item.id) else {
                continue;
            };
            let (view, list) = views.swap_remove(at);
            item.name = view.title.clone();
            item.subtitle = view.subtitle.clone();
            item.list = Some(list.as_str().to_string());
            item.document = Some(view);
        }
        results.group(hit.kind).push(item);
    }
    Ok(AppJson(results))
}
