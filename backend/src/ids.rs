//! Ids read from a request path, one type per kind, each with one parser and one message: an id
//! that cannot be one names nothing, so it is answered like a missing one (404), never with a
//! parse error that would tell the two apart.

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;

use crate::error::{AppError, AppResult};

/// A positive whole number, as every numeric id of the content and of the feeds is.
fn positive(raw: &str) -> Option<i64> {
    raw.parse::<i64>().ok().filter(|id| *id > 0)
}

/// The one path parameter of a route (`/congresses/{id}`, `/courses/{id}/register`).
async fn path_param<S: Send + Sync>(parts: &mut Parts, state: &S) -> Option<String> {
    Path::<String>::from_request_parts(parts, state)
        .await
        .ok()
        .map(|Path(raw)| raw)
}

macro_rules! numeric_ids {
    ($($(#[$doc:meta])* $name:ident => $not_found:literal;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name(pub i64);

        impl $name {
            /// The answer to an id that names nothing.
            pub const NOT_FOUND: &'static str = $not_found;

            pub fn parse(raw: &str) -> AppResult<Self> {
                positive(raw)
                    .map(Self)
                    .ok_or_else(|| AppError::not_found(Self::NOT_FOUND))
            }
        }

        impl<S: Send + Sync> FromRequestParts<S> for $name {
            type Rejection = AppError;

            async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
                match path_param(parts, state).await {
                    Some(raw) => Self::parse(&raw),
                    None => Err(AppError::not_found(Self::NOT_FOUND)),
                }
            }
        }
    )*};
}

numeric_ids! {
    /// A congress or event.
    CongressId => "Congress not found";
    /// A congress activity.
    ActivityId => "Activity not found";
    /// A sales training.
    TrainingId => "Training not found";
    /// A medical-education course.
    CourseId => "Course not found";
    /// A notification.
    NotificationId => "Notification not found";
    /// An app update.
    UpdateId => "App update not found";
    /// A product segment.
    SegmentId => "Segment not found";
    /// A product category.
    CategoryId => "Category not found";
    /// A product.
    ProductId => "Product not found";
    /// A product component.
    ComponentId => "Component not found";
    /// A subsidiary of the contacts.
    ContactId => "Contact not found";
    /// A news item.
    NewsId => "News not found";
    /// A library document.
    DocumentId => "Document not found";
}

/// A folder or file of the documents area: a UUID, in its canonical lowercase form.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ItemId(pub String);

impl ItemId {
    pub const NOT_FOUND: &'static str = "The folder or file was not found";

    pub fn parse(raw: &str) -> AppResult<Self> {
        uuid::Uuid::parse_str(raw.trim())
            .map(|u| Self(u.to_string()))
            .map_err(|_| AppError::not_found(Self::NOT_FOUND))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ItemId {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        match path_param(parts, state).await {
            Some(raw) => Self::parse(&raw),
            None => Err(AppError::not_found(Self::NOT_FOUND)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(e: AppError) -> (u16, String) {
        (e.status().as_u16(), e.to_string())
    }

    #[test]
    fn numeric_ids_are_positive_numbers_else_not_found() {
        assert_eq!(CourseId::parse("12").ok(), Some(CourseId(12)));
        for bad in ["0", "-3", "abc", "", " 7", "1.5", "99999999999999999999"] {
            let err = CourseId::parse(bad).expect_err(bad);
            assert_eq!(message(err), (404, "Course not found".to_string()), "{bad}");
        }
        let err = NewsId::parse("x").expect_err("x");
        assert_eq!(message(err), (404, "News not found".to_string()));
    }

    #[test]
    fn item_ids_are_uuids_in_canonical_form() {
        let id = ItemId::parse("6F9619FF-8B86-D011-B42D-00C04FC964FF").expect("a uuid");
        assert_eq!(id.0, "6f9619ff-8b86-d011-b42d-00c04fc964ff");
        let err = ItemId::parse("../etc").expect_err("no uuid");
        assert_eq!(
            message(err),
            (404, "The folder or file was not found".to_string())
        );
    }
}
