//! A handler that panics answers 500 in the API's error shape; the panic is logged in the
//! request's span and counted. The connection stays usable.

use std::any::Any;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::error::ErrorBody;

pub fn response_for_panic(err: Box<dyn Any + Send + 'static>) -> Response {
    let detail = if let Some(s) = err.downcast_ref::<String>() {
        s.as_str()
    } else if let Some(s) = err.downcast_ref::<&str>() {
        s
    } else {
        "(no message)"
    };
    tracing::error!(panic = detail, "request handler panicked");
    metrics::counter!(crate::metrics::HTTP_PANICS).increment(1);
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        Json(ErrorBody {
            message: "An error occurred while getting all the informations".into(),
            code: None,
        }),
    )
        .into_response()
}
