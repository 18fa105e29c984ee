//! Acceptance of the terms and conditions: one aggregate per user, one event per version the
//! user accepted. The server asks again whenever its current terms version is one the user has
//! not accepted; auditors read the history.
//!
//! Aggregate id: [`TermsAcceptance::aggregate_id`] (`terms:user-{uuid}`).

use std::collections::BTreeSet;

use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

/// Longest terms version accepted (e.g. `2021-01`).
pub const MAX_VERSION_LEN: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum TermsCommand {
    /// The user accepts this version of the terms.
    Accept {
        user_id: String,
        version: String,
        /// When the request arrived, in milliseconds since the epoch.
        accepted_at: i64,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TermsEvent {
    Accepted {
        user_id: String,
        version: String,
        accepted_at: i64,
    },
}

impl DomainEvent for TermsEvent {
    fn event_type(&self) -> String {
        match self {
            TermsEvent::Accepted { .. } => "Accepted".to_string(),
        }
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TermsError {
    #[error("The terms version is missing or too long")]
    BadVersion,
    #[error("These acceptances belong to another user")]
    WrongUser,
}

/// The versions a user accepted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TermsAcceptance {
    pub user_id: Option<String>,
    pub versions: BTreeSet<String>,
}

impl TermsAcceptance {
    pub fn aggregate_id(user_id: &str) -> String {
        format!("terms:user-{user_id}")
    }
}

impl Aggregate for TermsAcceptance {
    const TYPE: &'static str = "TermsAcceptance";
    type Command = TermsCommand;
    type Event = TermsEvent;
    type Error = TermsError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &cqrs_es::event_sink::EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let TermsCommand::Accept {
            user_id,
            version,
            accepted_at,
        } = command;
        let version = version.trim().to_string();
        if version.is_empty() || version.len() > MAX_VERSION_LEN {
            return Err(TermsError::BadVersion);
        }
        if self.user_id.as_ref().is_some_and(|u| *u != user_id) {
            return Err(TermsError::WrongUser);
        }
        // Accepting a version again records nothing: the first acceptance is the one that counts.
        if self.versions.contains(&version) {
            return Ok(());
        }
        sink.write(
            TermsEvent::Accepted {
                user_id,
                version,
                accepted_at,
            },
            self,
        )
        .await;
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        let TermsEvent::Accepted {
            user_id, version, ..
        } = event;
        self.user_id = Some(user_id);
        self.versions.insert(version);
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    fn accept(version: &str) -> TermsCommand {
        TermsCommand::Accept {
            user_id: "u-1".into(),
            version: version.into(),
            accepted_at: 5,
        }
    }

    fn accepted(version: &str) -> TermsEvent {
        TermsEvent::Accepted {
            user_id: "u-1".into(),
            version: version.into(),
            accepted_at: 5,
        }
    }

    #[test]
    fn a_version_is_accepted_once() {
        TestFramework::<TermsAcceptance>::with(())
            .given_no_previous_events()
            .when(accept("2021-01"))
            .then_expect_events(vec![accepted("2021-01")]);
        TestFramework::<TermsAcceptance>::with(())
            .given(vec![accepted("2021-01")])
            .when(accept("2021-01"))
            .then_expect_events(vec![]);
        TestFramework::<TermsAcceptance>::with(())
            .given(vec![accepted("2021-01")])
            .when(accept("2026-02"))
            .then_expect_events(vec![accepted("2026-02")]);
    }

    #[test]
    fn bad_versions_and_other_users_are_refused() {
        TestFramework::<TermsAcceptance>::with(())
            .given_no_previous_events()
            .when(accept(" "))
            .then_expect_error(TermsError::BadVersion);
        TestFramework::<TermsAcceptance>::with(())
            .given_no_previous_events()
            .when(accept(&"v".repeat(65)))
            .then_expect_error(TermsError::BadVersion);
        TestFramework::<TermsAcceptance>::with(())
            .given(vec![accepted("2021-01")])
            .when(TermsCommand::Accept {
                user_id: "u-2".into(),
                version: "2026-02".into(),
                accepted_at: 1,
            })
            .then_expect_error(TermsError::WrongUser);
    }
}
