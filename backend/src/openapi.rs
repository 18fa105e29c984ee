//! The OpenAPI document served at `/api/openapi.json`.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::auth::session;
use crate::documents::api as docs;
use crate::documents::files as doc_files;

#[derive(OpenApi)]
#[openapi(
    info(title = "Companion app API", description = "The API of the companion app. Every call is under `/api`; errors are `{\"message\": ...}`; a `jwt` field in any response replaces the client's token."),
    paths(
        session::check_domain, session::login, session::welcome, session::get_data,
        session::accept_terms, session::onboarding_slides, session::onboarding_done,
        session::register_device, crate::auth::sso::start, crate::auth::sso::callback,
        docs::list_my, docs::list_shared, docs::list_us, docs::list_by_type, docs::folder, docs::tree,
        docs::create_folder, docs::rename, docs::delete_folder, docs::remove_file, docs::move_folder,
        docs::move_file, docs::share_folder, docs::share_file, docs::storage_share, docs::external_share,
        docs::save_to_mydocs, docs::move_to_mydocs, docs::share_list, docs::history, docs::folder_as_of,
        doc_files::upload, doc_files::file, doc_files::shared_link, doc_files::history_csv,
    ),
    modifiers(&BearerAuth),
    tags((name = "session", description = "Sign-in, session and user"),
        (name = "documents", description = "Documents and folders: My Docs, Shared with me, US; files, shares, history"))
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
