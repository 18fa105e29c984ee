//! The OpenAPI document served at `/api/openapi.json`.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::auth::session;
use crate::catalogue;
use crate::documents::api as docs;
use crate::documents::files as doc_files;
use crate::notifications;
use crate::programmes;

#[derive(OpenApi)]
#[openapi(
    info(title = "Companion app API", description = "The API of the companion app. Every call is under `/api`; errors are `{\"message\": ...}`; a `jwt` field in any response replaces the client's token."),
    paths(
        session::check_domain, session::login, session::welcome, session::get_data,
        session::accept_terms, session::onboarding_slides, session::onboarding_done,
        session::register_device, session::logout, crate::auth::sso::start, crate::auth::sso::callback,
        crate::auth::sso::exchange, crate::auth::admin::list_users, crate::auth::admin::add_user,
        crate::auth::admin::set_role, crate::auth::admin::disable, crate::auth::admin::enable,
        crate::auth::admin::user_sessions, crate::auth::admin::revoke_session,
        crate::auth::terms::history, crate::auth::reset::request, crate::auth::reset::confirm,
        catalogue::home::home,
        catalogue::products::categories, catalogue::products::overview, catalogue::products::segment,
        catalogue::products::category, catalogue::products::details, catalogue::products::attachments,
        catalogue::products::indepth, catalogue::products::components, catalogue::products::component,
        catalogue::library::file,
        catalogue::news::list, catalogue::news::detail, catalogue::news::home,
        catalogue::contacts::sections, catalogue::contacts::subsidiary,
        catalogue::useful::links,
        catalogue::multimedia::videos, catalogue::multimedia::images,
        programmes::congresses::list, programmes::congresses::home, programmes::congresses::detail,
        programmes::congresses::activity, programmes::training::list, programmes::training::detail,
        programmes::courses::list, programmes::courses::detail, programmes::registration::register,
        programmes::registration::list, programmes::registration::export_csv,
        programmes::calendar::calendar_file,
        notifications::api::list_notifications, notifications::api::open_notification,
        notifications::api::list_updates, notifications::api::open_update, notifications::api::badges,
        notifications::admin::publish_notification, notifications::admin::publish_update,
        notifications::messages::list_messages, notifications::messages::set_status,
        notifications::messages::reply, notifications::cta::url_cta, crate::guide::tour,
        crate::realtime::upgrade,
        docs::list_my, docs::list_shared, docs::list_us, docs::list_by_type, docs::folder, docs::tree,
        docs::create_folder, docs::rename, docs::delete_folder, docs::remove_file, docs::move_folder,
        docs::move_file, docs::share_folder, docs::share_file, docs::storage_share, docs::external_share,
        docs::save_to_mydocs, docs::move_to_mydocs, docs::share_list, docs::history, docs::folder_as_of,
        docs::access_as_of,
        doc_files::upload, doc_files::file, doc_files::shared_link, doc_files::history_csv,
        crate::search::api::search,
        crate::health::health, crate::health::ready,
    ),
    components(schemas(crate::realtime::protocol::ClientMessage, crate::realtime::protocol::ServerMessage)),
    modifiers(&BearerAuth),
    tags((name = "session", description = "Sign-in, session and user"),
        (name = "admin", description = "Accounts and sessions, for administrators"),
        (name = "products", description = "Product segments, categories, products, in-depth pages and components"),
        (name = "documents", description = "Documents and folders (My Docs, Shared with me, US; files, shares, history) and library documents"),
        (name = "content", description = "Home, news, contacts, useful links and multimedia"),
        (name = "programmes", description = "Congresses and events, sales training, medical-education courses, course registration and calendar files"),
        (name = "notifications", description = "Notifications, app updates, badges and their publication"),
        (name = "messages", description = "Survey-style messages and the users' answers"),
        (name = "search", description = "Search across products, components, news, congresses, activities, training, courses, contacts, useful links and the user's documents"),
        (name = "realtime", description = "The WebSocket channel that pushes each user's feed live (see docs/realtime.md)"),
        (name = "operations", description = "Liveness and readiness probes (see docs/operations.md)"))
)]
pub struct ApiDoc;

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
