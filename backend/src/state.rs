//! The server's state: the handles of the foundation (database, configuration, projector) and
//! of each feature, assembled once. A handler names only the handles it uses (`State<Db>`,
//! `State<Auth>`, ...): each is got from this state through `FromRef`.

use std::sync::Arc;

use axum::extract::FromRef;
use projections::{Db, ProjectorHandle};

use crate::auth::Auth;
use crate::config::Config;
use crate::documents::Documents;
use crate::library::Library;
use crate::notifications::Notifications;
use crate::programmes::Programmes;
use crate::push::Push;
use crate::realtime::Realtime;
use crate::search::Search;

#[derive(Clone, FromRef)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    /// Wakes the projector after writes and waits for it (read-your-own-write).
    pub projector: ProjectorHandle,
    /// Tokens, sessions and single sign-on.
    pub auth: Auth,
    /// The WebSocket channel of this node (`GET /api/ws`).
    pub realtime: Realtime,
    /// Documents and folders: commands, reads, files.
    pub documents: Arc<Documents>,
    /// Library documents' lifecycle: console commands, reads, cascade, scheduler.
    pub library: Arc<Library>,
    /// The search index of this node.
    pub search: Arc<Search>,
    /// Notification, app-update and inbox commands.
    pub notifications: Notifications,
    /// Congresses, training, courses and course registration.
    pub programmes: Programmes,
    /// Web Push: keys, settings, and which sessions have the app open.
    pub push: Arc<Push>,
}
