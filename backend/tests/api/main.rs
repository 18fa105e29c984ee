//! Integration tests: each starts the real server on a random port against a fresh SQLite file
//! and, where PostgreSQL can be reached, a fresh PostgreSQL database.

mod access_as_of;
mod as_of;
mod backup;
mod catalogue;
mod documents;
mod documents_load;
mod edge;
mod event_store;
mod guide;
mod helpers;
mod idempotency;
mod identity;
mod item_snapshots;
mod mail;
mod nodes;
mod notifications;
mod oidc_provider;
mod openapi;
mod poison;
mod programmes;
mod realtime;
mod registrations_crash;
mod search;
mod session;
mod sso;
