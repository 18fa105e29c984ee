//! The OpenAPI document served at `/api/openapi.json`.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::auth::session;

#[derive(OpenApi)]
#[openapi(
    info(title = "Companion app API", description = "The API of the companion app. Every call is under `/api`; errors are `{\"message\": ...}`; a `jwt` field in any response replaces the client's token."),
    paths(
        session::check_domain, session::login, session::welcome, session::get_data,
        session::accept_terms, session::onboarding_slides, session::onboarding_done,
        session::register_device, crate::auth::sso::start, crate::auth::sso::callback,
        crate::realtime::upgrade,
    ),
    components(schemas(crate::realtime::protocol::ClientMessage, crate::realtime::protocol::ServerMessage)),
    modifiers(&BearerAuth),
    tags((name = "session", description = "Sign-in, session and user"),
        (name = "realtime", description = "The WebSocket channel that pushes each user's feed live (see docs/realtime.md)"))
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
