//! One notification: published once, to everyone or to chosen users.
//!
//! Aggregate id: [`Notification::aggregate_id`] (`notification-{id}`).

use std::collections::BTreeSet;

use async_trait::async_trait;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::lookup::LookupError;

use super::{
    html, optional_url, required_text, validate_link, Audience, AudienceRequest, Link,
    PublishError, MAX_MESSAGE_LEN, MAX_RECIPIENTS, MAX_TITLE_LEN,
};

/// Finds users by e-mail for the audience; the server reads its users, tests use a list.
#[async_trait]
pub trait UserDirectory: Send + Sync {
    /// The id of the user with this (normalised, lower-case) e-mail. `Err` is a lookup failure.
    async fn user_id_by_email(&self, email: &str) -> Result<Option<String>, LookupError>;
}

/// The services of [`Notification`].
pub struct NotificationServices {
    pub directory: Box<dyn UserDirectory>,
}

impl NotificationServices {
    pub fn new(directory: impl UserDirectory + 'static) -> Self {
        Self {
            directory: Box::new(directory),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum NotificationCommand {
    /// Publishes the notification. `message` is HTML; it is sanitised here.
    Publish {
        id: i64,
        title: String,
        message: String,
        preview: Option<String>,
        link: Option<Link>,
        audience: AudienceRequest,
        /// Milliseconds since the epoch; the date shown with the notification.
        published_at: i64,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum NotificationEvent {
    /// Carries the whole notification as published (message already sanitised, audience resolved
    /// to user ids), so read models need nothing else.
    Published {
        id: i64,
        title: String,
        message: String,
        preview: Option<String>,
        link: Option<Link>,
        audience: Audience,
        published_at: i64,
    },
}

impl DomainEvent for NotificationEvent {
    fn event_type(&self) -> String {
        match self {
            NotificationEvent::Published { .. } => "NotificationPublished".to_string(),
        }
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Notification {
    pub id: Option<i64>,
    pub audience: Option<Audience>,
}

impl Notification {
    pub fn aggregate_id(id: i64) -> String {
        format!("notification-{id}")
    }
}

async fn resolve(
    audience: AudienceRequest,
    directory: &dyn UserDirectory,
) -> Result<Audience, PublishError> {
    let emails = match audience {
        AudienceRequest::Everyone => return Ok(Audience::Everyone),
        AudienceRequest::Emails(emails) => emails,
    };
    let emails: BTreeSet<String> = emails
        .iter()
        .map(|e| e.trim().to_lowercase())
        .filter(|e| !e.is_empty())
        .collect();
    if emails.is_empty() {
        return Err(PublishError::NoRecipient);
    }
    if emails.len() > MAX_RECIPIENTS {
        return Err(PublishError::TooManyRecipients);
    }
    let mut user_ids = BTreeSet::new();
    for email in emails {
        match directory
            .user_id_by_email(&email)
            .await
            .map_err(PublishError::Directory)?
        {
            Some(id) => {
                user_ids.insert(id);
            }
            None => return Err(PublishError::UnknownRecipient(email)),
        }
    }
    Ok(Audience::Users {
        user_ids: user_ids.into_iter().collect(),
    })
}

impl Aggregate for Notification {
    const TYPE: &'static str = "Notification";
    type Command = NotificationCommand;
    type Event = NotificationEvent;
    type Error = PublishError;
    type Services = NotificationServices;

    async fn handle(
        &mut self,
        command: Self::Command,
        services: &Self::Services,
        sink: &cqrs_es::event_sink::EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let NotificationCommand::Publish {
            id,
            title,
            message,
            preview,
            link,
            audience,
            published_at,
        } = command;
        if self.id.is_some() {
            return Err(PublishError::AlreadyPublished);
        }
        let title = required_text(&title, MAX_TITLE_LEN, PublishError::TitleRequired, "title")?;
        if message.len() > MAX_MESSAGE_LEN {
            return Err(PublishError::TooLong("message"));
        }
        let message = html::sanitize(&message);
        if !html::has_text(&message) {
            return Err(PublishError::MessageRequired);
        }
        let preview = optional_url(preview, "preview")?;
        let link = validate_link(link)?;
        let audience = resolve(audience, services.directory.as_ref()).await?;
        sink.write(
            NotificationEvent::Published {
                id,
                title,
                message,
                preview,
                link,
                audience,
                published_at,
            },
            self,
        )
        .await;
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        let NotificationEvent::Published { id, audience, .. } = event;
        self.id = Some(id);
        self.audience = Some(audience);
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    struct Users;

    #[async_trait]
    impl UserDirectory for Users {
        async fn user_id_by_email(&self, email: &str) -> Result<Option<String>, LookupError> {
            Ok(match email {
                "anna@example.com" => Some("u-anna".into()),
                "john@example.com" => Some("u-john".into()),
                "broken@example.com" => return Err("database down".into()),
                _ => None,
            })
        }
    }

    fn framework() -> TestFramework<Notification> {
        TestFramework::with(NotificationServices::new(Users))
    }

    fn publish(audience: AudienceRequest) -> NotificationCommand {
        NotificationCommand::Publish {
            id: 7,
            title: "  New knee system ".into(),
            message: "<p>Now in the <strong>catalogue</strong>.</p>".into(),
            preview: Some("/media/notifications/n.svg".into()),
            link: Some(Link {
                kind: "Products".into(),
                id: Some(163),
            }),
            audience,
            published_at: 1_000,
        }
    }

    fn published(audience: Audience) -> NotificationEvent {
        NotificationEvent::Published {
            id: 7,
            title: "New knee system".into(),
            message: "<p>Now in the <strong>catalogue</strong>.</p>".into(),
            preview: Some("/media/notifications/n.svg".into()),
            link: Some(Link {
                kind: "products".into(),
                id: Some(163),
            }),
            audience,
            published_at: 1_000,
        }
    }

    fn with<F: FnOnce(&mut NotificationCommand)>(change: F) -> NotificationCommand {
        let mut command = publish(AudienceRequest::Everyone);
        change(&mut command);
        command
    }

    #[test]
    fn publishes_to_everyone() {
        framework()
            .given_no_previous_events()
            .when(publish(AudienceRequest::Everyone))
            .then_expect_events(vec![published(Audience::Everyone)]);
    }

    #[test]
    fn resolves_chosen_recipients_by_email_once_each() {
        framework()
            .given_no_previous_events()
            .when(publish(AudienceRequest::Emails(vec![
                " John@Example.com".into(),
                "anna@example.com".into(),
                "john@example.com".into(),
            ])))
            .then_expect_events(vec![published(Audience::Users {
                user_ids: vec!["u-anna".into(), "u-john".into()],
            })]);
    }

    #[test]
    fn refuses_an_unknown_recipient() {
        framework()
            .given_no_previous_events()
            .when(publish(AudienceRequest::Emails(vec![
                "anna@example.com".into(),
                "nobody@example.com".into(),
            ])))
            .then_expect_error(PublishError::UnknownRecipient("nobody@example.com".into()));
    }

    #[test]
    fn refuses_an_empty_recipient_list() {
        framework()
            .given_no_previous_events()
            .when(publish(AudienceRequest::Emails(vec![" ".into()])))
            .then_expect_error(PublishError::NoRecipient);
    }

    #[test]
    fn reports_a_directory_failure() {
        framework()
            .given_no_previous_events()
            .when(publish(AudienceRequest::Emails(vec![
                "broken@example.com".into()
            ])))
            .then_expect_error(PublishError::Directory("database down".into()));
    }

    #[test]
    fn refuses_an_empty_title() {
        framework()
            .given_no_previous_events()
            .when(with(|c| {
                let NotificationCommand::Publish { title, .. } = c;
                *title = "   ".into();
            }))
            .then_expect_error(PublishError::TitleRequired);
    }

    #[test]
    fn refuses_a_title_over_200_characters() {
        framework()
            .given_no_previous_events()
            .when(with(|c| {
                let NotificationCommand::Publish { title, .. } = c;
                *title = "é".repeat(201);
            }))
            .then_expect_error(PublishError::TooLong("title"));
    }

    #[test]
    fn sanitises_the_message() {
        let events = framework()
            .given_no_previous_events()
            .when(with(|c| {
                let NotificationCommand::Publish { message, .. } = c;
                *message =
                    "<p onmouseover=\"x()\">Hello</p><script>alert('x')</script><iframe src=\"https://evil.example\"></iframe>"
                        .into();
            }))
            .inspect_result()
            .expect("published");
        let NotificationEvent::Published { message, .. } = &events[0];
        assert_eq!(message, "<p>Hello</p>");
    }

    #[test]
    fn refuses_a_message_that_is_empty_once_sanitised() {
        framework()
            .given_no_previous_events()
            .when(with(|c| {
                let NotificationCommand::Publish { message, .. } = c;
                *message = "<script>alert(1)</script><p>&nbsp;</p>".into();
            }))
            .then_expect_error(PublishError::MessageRequired);
    }

    #[test]
    fn refuses_a_bad_link_type() {
        framework()
            .given_no_previous_events()
            .when(with(|c| {
                let NotificationCommand::Publish { link, .. } = c;
                *link = Some(Link {
                    kind: "javascript:alert(1)".into(),
                    id: None,
                });
            }))
            .then_expect_error(PublishError::BadLinkType("javascript:alert(1)".into()));
    }

    #[test]
    fn refuses_an_unsafe_preview() {
        framework()
            .given_no_previous_events()
            .when(with(|c| {
                let NotificationCommand::Publish { preview, .. } = c;
                *preview = Some("javascript:alert(1)".into());
            }))
            .then_expect_error(PublishError::BadUrl("preview"));
    }

    #[test]
    fn is_published_only_once() {
        framework()
            .given(vec![published(Audience::Everyone)])
            .when(publish(AudienceRequest::Everyone))
            .then_expect_error(PublishError::AlreadyPublished);
    }
}
