//! The write side of the companion app: aggregates, their commands, events and rules.
//!
//! Nothing here knows about HTTP or SQL. Every change a user makes to a document, a folder,
//! a notification-read mark, an app-update view or a course registration is a command handled
//! by an aggregate, which checks the product's rules and records events.

pub mod content;
pub mod course_registration;
pub mod documents;
pub mod email;
pub mod library;
pub mod lookup;
pub mod news;
pub mod notifications;
pub mod share_link;
pub mod terms;
