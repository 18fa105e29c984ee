//! Integration tests: each starts the real server on a random port against a fresh SQLite file
//! and, where PostgreSQL can be reached, a fresh PostgreSQL database.

mod access_as_of;
mod as_of;
mod audit;
mod backup;
mod catalogue;
mod content;
mod courses_in_time;
mod documents;
mod documents_load;
mod edge;
mod event_store;
mod guide;
mod helpers;
mod history_privacy;
mod idempotency;
mod identity;
mod item_snapshots;
mod mail;
mod nodes;
mod notifications;
mod oidc_provider;
mod openapi;
mod poison;
mod privacy_edge;
mod programmes;
mod push;
mod realtime;
mod registrations_crash;
mod search;
mod session;
mod sessions_end;
mod sso;
mod storage_quota;
mod tracked_shares;
