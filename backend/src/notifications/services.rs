//! What the notification aggregates look up, and the stores that run their commands.
//!
//! The inbox asks whether a notification exists and whom it is for. The answer is read from the
//! notification's own events, not from a read model, so a read mark recorded right after a
//! publication (the demo seed does this before the projector runs) never sees a stale answer.

use async_trait::async_trait;
use cqrs_es::Aggregate;
use events::lookup::LookupError;
use events::notifications::{
    Addressed, AppUpdate, Inbox, InboxServices, Notification, NotificationEvent,
    NotificationServices, Publications, UserDirectory,
};
use projections::stream::events_of;
use projections::{Db, ProjectorHandle};

use crate::auth::User;
use crate::event_store::EventStore;

/// Users by e-mail, from the `users` table.
pub struct DbDirectory(pub Db);

#[async_trait]
impl UserDirectory for DbDirectory {
    async fn user_id_by_email(&self, email: &str) -> Result<Option<String>, LookupError> {
        User::find_by_email(&self.0, email)
            .await
            .map(|u| u.map(|u| u.id))
            .map_err(LookupError::new)
    }
}

/// Publications, from the event store.
pub struct StoredPublications(pub Db);

#[async_trait]
impl Publications for StoredPublications {
    async fn notification_for(&self, id: i64, user_id: &str) -> Result<Addressed, LookupError> {
        let events = events_of(&self.0, Notification::TYPE, &Notification::aggregate_id(id))
            .await
            .map_err(LookupError::new)?;
        let Some(first) = events.first() else {
            return Ok(Addressed::Unknown);
        };
        let NotificationEvent::Published { audience, .. } =
            first.decode().map_err(LookupError::new)?;
        Ok(if audience.includes(user_id) {
            Addressed::ToUser
        } else {
            Addressed::ToOthers
        })
    }

    async fn update_exists(&self, id: i64) -> Result<bool, LookupError> {
        let events = events_of(&self.0, AppUpdate::TYPE, &AppUpdate::aggregate_id(id))
            .await
            .map_err(LookupError::new)?;
        Ok(!events.is_empty())
    }
}

pub fn notification_services(db: &Db) -> NotificationServices {
    NotificationServices::new(DbDirectory(db.clone()))
}

pub fn inbox_services(db: &Db) -> InboxServices {
    InboxServices::new(StoredPublications(db.clone()))
}

/// The notification command stores. The server builds them once (in [`super::Notifications`]);
/// building them per request would rebuild their frameworks and services every time.
pub struct Stores {
    pub notifications: EventStore<Notification>,
    pub updates: EventStore<AppUpdate>,
    pub inboxes: EventStore<Inbox>,
}

impl Stores {
    /// Stores whose commands answer after the projections caught up (HTTP requests).
    pub fn live(db: &Db, projector: &ProjectorHandle) -> Self {
        Self {
            notifications: EventStore::new(db, notification_services(db), projector.clone()),
            updates: EventStore::new(db, (), projector.clone()),
            inboxes: EventStore::new(db, inbox_services(db), projector.clone()),
        }
    }

    /// Stores that only append (start-up seed, command line): see [`EventStore::append_only`].
    pub fn append_only(db: &Db) -> Self {
        Self {
            notifications: EventStore::append_only(db, notification_services(db)),
            updates: EventStore::append_only(db, ()),
            inboxes: EventStore::append_only(db, inbox_services(db)),
        }
    }
}
