//! One user's inbox: which notifications they have read and which app updates they have seen.
//!
//! Rules: a notification is marked read only once, only in the reader's own inbox, and only when
//! it was addressed to them; an app update's view is recorded once, only for a published update.
//! Whether a notification exists and whom it is for comes from outside through [`Publications`].
//!
//! Aggregate id: [`Inbox::aggregate_id`] (`inbox-{user id}`).

use std::collections::BTreeSet;

use async_trait::async_trait;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::lookup::LookupError;

/// Whether a notification is for a given user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Addressed {
    /// No notification has this id.
    Unknown,
    /// It exists, but is for other users.
    ToOthers,
    /// It is for this user (directly or as one of everyone).
    ToUser,
}

/// What the inbox needs to know about published notifications and updates. The server answers
/// from the event store itself, so the answer never lags behind a publication.
#[async_trait]
pub trait Publications: Send + Sync {
    async fn notification_for(
        &self,
        notification_id: i64,
        user_id: &str,
    ) -> Result<Addressed, LookupError>;
    async fn update_exists(&self, update_id: i64) -> Result<bool, LookupError>;
}

/// The services of [`Inbox`].
pub struct InboxServices {
    pub publications: Box<dyn Publications>,
}

impl InboxServices {
    pub fn new(publications: impl Publications + 'static) -> Self {
        Self {
            publications: Box::new(publications),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum InboxCommand {
    /// `user_id` is the owner of the inbox, the signed-in reader.
    MarkNotificationRead {
        user_id: String,
        notification_id: i64,
        at: i64,
    },
    MarkUpdateViewed {
        user_id: String,
        update_id: i64,
        at: i64,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum InboxEvent {
    NotificationRead {
        user_id: String,
        notification_id: i64,
        at: i64,
    },
    UpdateViewed {
        user_id: String,
        update_id: i64,
        at: i64,
    },
}

impl DomainEvent for InboxEvent {
    fn event_type(&self) -> String {
        match self {
            InboxEvent::NotificationRead { .. } => "NotificationRead".to_string(),
            InboxEvent::UpdateViewed { .. } => "UpdateViewed".to_string(),
        }
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InboxError {
    #[error("Notification not found")]
    NotificationNotFound,
    /// Shown to the client as "not found" too: others' notifications are not revealed.
    #[error("This notification is not addressed to you")]
    NotAddressed,
    #[error("This notification is already read")]
    AlreadyRead,
    #[error("App update not found")]
    UpdateNotFound,
    #[error("This app update was already viewed")]
    AlreadyViewed,
    #[error("This inbox belongs to another user")]
    WrongInbox,
    #[error("The publications could not be read: {0}")]
    Lookup(LookupError),
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Inbox {
    pub user_id: Option<String>,
    pub read: BTreeSet<i64>,
    pub viewed: BTreeSet<i64>,
}

impl Inbox {
    pub fn aggregate_id(user_id: &str) -> String {
        format!("inbox-{user_id}")
    }

    fn check_owner(&self, user_id: &str) -> Result<(), InboxError> {
        match &self.user_id {
            Some(owner) if owner != user_id => Err(InboxError::WrongInbox),
            _ => Ok(()),
        }
    }
}

impl Aggregate for Inbox {
    const TYPE: &'static str = "Inbox";
    type Command = InboxCommand;
    type Event = InboxEvent;
    type Error = InboxError;
    type Services = InboxServices;

    async fn handle(
        &mut self,
        command: Self::Command,
        services: &Self::Services,
        sink: &cqrs_es::event_sink::EventSink<Self>,
    ) -> Result<(), Self::Error> {
        match command {
            InboxCommand::MarkNotificationRead {
                user_id,
                notification_id,
                at,
            } => {
                self.check_owner(&user_id)?;
                if self.read.contains(&notification_id) {
                    return Err(InboxError::AlreadyRead);
                }
                match services
                    .publications
                    .notification_for(notification_id, &user_id)
                    .await
                    .map_err(InboxError::Lookup)?
                {
                    Addressed::Unknown => return Err(InboxError::NotificationNotFound),
                    Addressed::ToOthers => return Err(InboxError::NotAddressed),
                    Addressed::ToUser => {}
                }
                sink.write(
                    InboxEvent::NotificationRead {
                        user_id,
                        notification_id,
                        at,
                    },
                    self,
                )
                .await;
            }
            InboxCommand::MarkUpdateViewed {
                user_id,
                update_id,
                at,
            } => {
                self.check_owner(&user_id)?;
                if self.viewed.contains(&update_id) {
                    return Err(InboxError::AlreadyViewed);
                }
                if !services
                    .publications
                    .update_exists(update_id)
                    .await
                    .map_err(InboxError::Lookup)?
                {
                    return Err(InboxError::UpdateNotFound);
                }
                sink.write(
                    InboxEvent::UpdateViewed {
                        user_id,
                        update_id,
                        at,
                    },
                    self,
                )
                .await;
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            InboxEvent::NotificationRead {
                user_id,
                notification_id,
                ..
            } => {
                self.user_id.get_or_insert(user_id);
                self.read.insert(notification_id);
            }
            InboxEvent::UpdateViewed {
                user_id, update_id, ..
            } => {
                self.user_id.get_or_insert(user_id);
                self.viewed.insert(update_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    /// Notification 1 is for everyone, 2 only for John, 3 cannot be looked up; update 1 exists.
    struct Published;

    #[async_trait]
    impl Publications for Published {
        async fn notification_for(&self, id: i64, user_id: &str) -> Result<Addressed, LookupError> {
            Ok(match (id, user_id) {
                (1, _) => Addressed::ToUser,
                (2, "john") => Addressed::ToUser,
                (2, _) => Addressed::ToOthers,
                (3, _) => return Err("database down".into()),
                _ => Addressed::Unknown,
            })
        }
        async fn update_exists(&self, id: i64) -> Result<bool, LookupError> {
            Ok(id == 1)
        }
    }

    fn framework() -> TestFramework<Inbox> {
        TestFramework::with(InboxServices::new(Published))
    }

    fn read(user: &str, id: i64) -> InboxCommand {
        InboxCommand::MarkNotificationRead {
            user_id: user.into(),
            notification_id: id,
            at: 10,
        }
    }

    fn was_read(user: &str, id: i64) -> InboxEvent {
        InboxEvent::NotificationRead {
            user_id: user.into(),
            notification_id: id,
            at: 10,
        }
    }

    fn view(user: &str, id: i64) -> InboxCommand {
        InboxCommand::MarkUpdateViewed {
            user_id: user.into(),
            update_id: id,
            at: 20,
        }
    }

    fn was_viewed(user: &str, id: i64) -> InboxEvent {
        InboxEvent::UpdateViewed {
            user_id: user.into(),
            update_id: id,
            at: 20,
        }
    }

    #[test]
    fn marks_a_notification_for_everyone_read() {
        framework()
            .given_no_previous_events()
            .when(read("anna", 1))
            .then_expect_events(vec![was_read("anna", 1)]);
    }

    #[test]
    fn marks_a_notification_for_the_chosen_user_read() {
        framework()
            .given_no_previous_events()
            .when(read("john", 2))
            .then_expect_events(vec![was_read("john", 2)]);
    }

    #[test]
    fn marks_a_notification_read_only_once() {
        framework()
            .given(vec![was_read("anna", 1)])
            .when(read("anna", 1))
            .then_expect_error(InboxError::AlreadyRead);
    }

    #[test]
    fn refuses_a_notification_addressed_to_others() {
        framework()
            .given_no_previous_events()
            .when(read("anna", 2))
            .then_expect_error(InboxError::NotAddressed);
    }

    #[test]
    fn refuses_an_unknown_notification() {
        framework()
            .given_no_previous_events()
            .when(read("anna", 99))
            .then_expect_error(InboxError::NotificationNotFound);
    }

    #[test]
    fn refuses_marks_in_someone_elses_inbox() {
        framework()
            .given(vec![was_read("anna", 1)])
            .when(read("john", 2))
            .then_expect_error(InboxError::WrongInbox);
    }

    #[test]
    fn reports_a_lookup_failure() {
        framework()
            .given_no_previous_events()
            .when(read("anna", 3))
            .then_expect_error(InboxError::Lookup("database down".into()));
    }

    #[test]
    fn records_an_update_view_once() {
        framework()
            .given_no_previous_events()
            .when(view("anna", 1))
            .then_expect_events(vec![was_viewed("anna", 1)]);
        framework()
            .given(vec![was_viewed("anna", 1)])
            .when(view("anna", 1))
            .then_expect_error(InboxError::AlreadyViewed);
    }

    #[test]
    fn refuses_the_view_of_an_unknown_update() {
        framework()
            .given_no_previous_events()
            .when(view("anna", 2))
            .then_expect_error(InboxError::UpdateNotFound);
    }

    #[test]
    fn reads_and_views_are_independent() {
        framework()
            .given(vec![was_viewed("anna", 1)])
            .when(read("anna", 1))
            .then_expect_events(vec![was_read("anna", 1)]);
    }
}
