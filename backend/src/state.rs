//! What every handler can reach.

use std::sync::Arc;

use projections::{Db, ProjectorHandle};

use crate::auth::jwt::JwtKeys;
use crate::auth::sessions::SessionCache;
use crate::auth::sso::Sso;
use crate::config::Config;
use crate::documents::Documents;
use crate::notifications::services::Stores as NotificationStores;
use crate::realtime::Realtime;
use crate::search::Search;

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    pub jwt: JwtKeys,
    pub sso: Arc<Sso>,
    /// What recent requests read of their sessions (see `auth::sessions`).
    pub sessions: Arc<SessionCache>,
    /// Wakes the projector after writes and waits for it (read-your-own-write).
    pub projector: ProjectorHandle,
    /// The WebSocket channel of this node (`GET /api/ws`).
    pub realtime: Realtime,
    /// Documents and folders: commands, reads, files.
    pub documents: Arc<Documents>,
    /// The search index of this node.
    pub search: Arc<Search>,
    /// Notification, app-update and inbox commands.
    pub notifications: Arc<NotificationStores>,
}
