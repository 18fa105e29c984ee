//! The OpenAPI document served at `/api/openapi.json` (and printed by `companion openapi`): the
//! info, tags and security scheme here, around the operations of the routers themselves
//! (`utoipa-axum`, gathered by `http::api_document`), so a route cannot be left out of it.

use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::idempotency::OpenApiHeader as IdempotencyKeyHeader;

#[derive(OpenApi)]
#[openapi(
    info(title = "Companion app API", description = "The API of the companion app. Every call is under `/api`; errors are `{\"message\": ...}`; a `jwt` field in any response replaces the client's token."),
    // `OtherTab` is only reached through a flattened map, which the routes do not collect.
    components(schemas(crate::realtime::protocol::ClientMessage, crate::realtime::protocol::ServerMessage,
        crate::programmes::items::OtherTab)),
    modifiers(&BearerAuth),
    tags((name = "session", description = "Sign-in, session and user"),
        (name = "admin", description = "Accounts and sessions, for administrators"),
        (name = "products", description = "Product segments, categories, products, in-depth pages and components"),
        (name = "documents", description = "Documents and folders (My Docs, Shared with me, US; files, shares, history) and library documents"),
        (name = "external viewer", description = "The recipient's viewer of an external link, without an account: /s/{token} (the page, outside /api), its information, file and beacon; opens, pages and downloads are recorded for the sender"),
        (name = "audit", description = "The auditor's search of every document and folder, deleted ones included, and the company's document activity"),
        (name = "content", description = "Home, news, contacts, useful links and multimedia"),
        (name = "programmes", description = "Congresses and events, sales training, medical-education courses, course registration and calendar files"),
        (name = "notifications", description = "Notifications, app updates, badges and their publication"),
        (name = "messages", description = "Survey-style messages and the users' answers"),
        (name = "search", description = "Search across products, components, news, congresses, activities, training, courses, contacts, useful links and the user's documents"),
        (name = "realtime", description = "The WebSocket channel that pushes each user's feed live (see docs/realtime.md)"),
        (name = "operations", description = "Liveness and readiness probes (see docs/operations.md)"))
)]
pub struct ApiDoc;

/// The whole document: the info, tags and security scheme above, and `operations`, the routed
/// operations relative to `/api`.
pub fn document(operations: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    let mut document = ApiDoc::openapi().nest("/api", operations);
    unique_operation_ids(&mut document);
    // After the routers' paths are in: the header goes on every command operation.
    IdempotencyKeyHeader.modify(&mut document);
    document
}

/// Operation ids are the handlers' names, which repeat across features (`list`, `detail`); the
/// specification wants them unique (and clients generated from it need them so), so a repeated
/// one is qualified by its path: `/api/courses/{id}` `detail` is `courses_id_detail`.
fn unique_operation_ids(document: &mut utoipa::openapi::OpenApi) {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    for item in document.paths.paths.values() {
        for operation in operations(item) {
            if let Some(id) = &operation.operation_id {
                *seen.entry(id.clone()).or_default() += 1;
            }
        }
    }
    for (path, item) in document.paths.paths.iter_mut() {
        let prefix: String = path
            .trim_start_matches("/api/")
            .split('/')
            .map(|segment| {
                segment
                    .chars()
                    .filter(|c| *c != '{' && *c != '}')
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("_");
        for operation in operations_mut(item) {
            if let Some(id) = operation.operation_id.as_mut() {
                if seen.get(id.as_str()).is_some_and(|n| *n > 1) {
                    *id = format!("{prefix}_{id}");
                }
            }
        }
    }
}

fn operations(item: &PathItem) -> impl Iterator<Item = &Operation> {
    [
        &item.get,
        &item.put,
        &item.post,
        &item.delete,
        &item.options,
        &item.head,
        &item.patch,
        &item.trace,
    ]
    .into_iter()
    .flatten()
}

fn operations_mut(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.options,
        &mut item.head,
        &mut item.patch,
        &mut item.trace,
    ]
    .into_iter()
    .flatten()
}

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}
