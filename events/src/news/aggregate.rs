use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

/// What a rep reads of a news item; `body_html` is already sanitised.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewsContent {
    pub title: String,
    pub category: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    pub preview: String,
    pub body_html: String,
    pub image: Option<String>,
}

/// When the item shows: released at `release_at` (at approval when none), expired at
/// `expires_at` (never when none). Milliseconds since the epoch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    pub release_at: Option<i64>,
    pub expires_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum NewsCommand {
    Create {
        id: i64,
        content: NewsContent,
        window: Window,
        by: String,
        at: i64,
    },
    /// A new draft version; fields left `None` keep the latest version's.
    Revise {
        content: NewsContent,
        window: Window,
        by: String,
        at: i64,
    },
    Submit {
        by: String,
        at: i64,
    },
    Approve {
        by: String,
        at: i64,
        comment: Option<String>,
    },
    Reject {
        by: String,
        at: i64,
        comment: Option<String>,
    },
    /// The scheduler: releases an approved version whose time has come.
    ReleaseDue {
        at: i64,
    },
    /// The scheduler: expires a released item whose time has come.
    ExpireDue {
        at: i64,
    },
    Withdraw {
        by: String,
        at: i64,
        reason: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum NewsEvent {
    Created {
        id: i64,
        content: NewsContent,
        window: Window,
        by: String,
        at: i64,
    },
    VersionDrafted {
        version: u32,
        content: NewsContent,
        window: Window,
        by: String,
        at: i64,
    },
    Submitted {
        version: u32,
        by: String,
        at: i64,
    },
    Approved {
        version: u32,
        by: String,
        at: i64,
        comment: Option<String>,
    },
    Rejected {
        version: u32,
        by: String,
        at: i64,
        comment: Option<String>,
    },
    Released {
        version: u32,
        at: i64,
    },
    Expired {
        at: i64,
    },
    Withdrawn {
        by: String,
        at: i64,
        reason: String,
    },
}

impl DomainEvent for NewsEvent {
    fn event_type(&self) -> String {
        match self {
            NewsEvent::Created { .. } => "Created",
            NewsEvent::VersionDrafted { .. } => "VersionDrafted",
            NewsEvent::Submitted { .. } => "Submitted",
            NewsEvent::Approved { .. } => "Approved",
            NewsEvent::Rejected { .. } => "Rejected",
            NewsEvent::Released { .. } => "Released",
            NewsEvent::Expired { .. } => "Expired",
            NewsEvent::Withdrawn { .. } => "Withdrawn",
        }
        .to_string()
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NewsError {
    #[error("This news item does not exist.")]
    NotFound,
    #[error("This news item already exists.")]
    Exists,
    #[error("{0}")]
    Invalid(String),
    #[error("You cannot approve a version you wrote: another approver must.")]
    OwnVersion,
    #[error("{0}")]
    WrongState(String),
}

/// The lifecycle state of one version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VersionStatus {
    Draft,
    InReview,
    Approved,
    Released,
    /// An earlier release, replaced by a later version.
    Superseded,
}

impl VersionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            VersionStatus::Draft => "draft",
            VersionStatus::InReview => "in_review",
            VersionStatus::Approved => "approved",
            VersionStatus::Released => "released",
            VersionStatus::Superseded => "superseded",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewsVersion {
    pub version: u32,
    pub content: NewsContent,
    pub author: String,
    pub created_at: i64,
    pub status: VersionStatus,
    pub submitted_at: Option<i64>,
    pub decided_by: Option<String>,
    pub decided_at: Option<i64>,
    pub comment: Option<String>,
    pub released_at: Option<i64>,
}

/// The item's end, when it has one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ended {
    Expired { at: i64 },
    Withdrawn { by: String, at: i64, reason: String },
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewsItem {
    pub id: i64,
    pub window: Window,
    pub versions: Vec<NewsVersion>,
    pub released_version: Option<u32>,
    pub ended: Option<Ended>,
}

/// Longest title, category and withdrawal reason.
pub const MAX_TEXT: usize = 300;

impl NewsItem {
    pub const TYPE: &'static str = "news_item";
    /// Console news ids start here; the content folder's keep theirs below.
    pub const FIRST_CONSOLE_ID: i64 = 100_000;

    pub fn aggregate_id(id: i64) -> String {
        id.to_string()
    }

    pub fn latest(&self) -> Option<&NewsVersion> {
        self.versions.last()
    }

    /// The released version reps read, if any and not ended.
    pub fn live(&self) -> Option<&NewsVersion> {
        if self.ended.is_some() {
            return None;
        }
        let v = self.released_version?;
        self.versions.iter().find(|x| x.version == v)
    }

    /// The API's status word: the end when there is one, else the latest version's state when it
    /// is not released yet, else `released`.
    pub fn status(&self) -> &'static str {
        match &self.ended {
            Some(Ended::Expired { .. }) => "expired",
            Some(Ended::Withdrawn { .. }) => "withdrawn",
            None => match self.latest().map(|v| v.status) {
                Some(VersionStatus::Released) | None => "released",
                Some(VersionStatus::Superseded) => "released",
                Some(s) => s.as_str(),
            },
        }
    }

    fn check_content(content: &NewsContent) -> Result<(), NewsError> {
        if content.title.trim().is_empty() {
            return Err(NewsError::Invalid("A news item needs a title.".into()));
        }
        if content.category.trim().is_empty() {
            return Err(NewsError::Invalid("A news item needs a category.".into()));
        }
        if content.title.chars().count() > MAX_TEXT || content.category.chars().count() > MAX_TEXT {
            return Err(NewsError::Invalid(format!(
                "Title and category must be at most {MAX_TEXT} characters."
            )));
        }
        if content.body_html.trim().is_empty() {
            return Err(NewsError::Invalid("A news item needs a body.".into()));
        }
        Ok(())
    }

    fn check_window(window: Window, now: i64) -> Result<(), NewsError> {
        if let Some(expires) = window.expires_at {
            let after = window.release_at.unwrap_or(now).max(now);
            if expires <= after {
                return Err(NewsError::Invalid(
                    "expires_at must be after release_at and after now.".into(),
                ));
            }
        }
        Ok(())
    }

    fn not_ended(&self) -> Result<(), NewsError> {
        match &self.ended {
            Some(Ended::Withdrawn { .. }) => Err(NewsError::WrongState(
                "This news item was withdrawn.".into(),
            )),
            Some(Ended::Expired { .. }) => {
                Err(NewsError::WrongState("This news item has expired.".into()))
            }
            None => Ok(()),
        }
    }

    fn latest_in(&self, status: VersionStatus, what: &str) -> Result<&NewsVersion, NewsError> {
        let latest = self.latest().ok_or(NewsError::NotFound)?;
        if latest.status != status {
            return Err(NewsError::WrongState(format!(
                "Only a {} version can be {what}; the latest version is {}.",
                status.as_str().replace('_', " "),
                latest.status.as_str().replace('_', " ")
            )));
        }
        Ok(latest)
    }

    /// Whether an approved version may be released at `at`.
    fn release_due(&self, at: i64) -> bool {
        self.window.release_at.is_none_or(|r| r <= at)
    }

    /// The events a command records, without I/O.
    pub fn decide(&self, command: NewsCommand) -> Result<Vec<NewsEvent>, NewsError> {
        let exists = !self.versions.is_empty();
        if !exists && !matches!(command, NewsCommand::Create { .. }) {
            return Err(NewsError::NotFound);
        }
        match command {
            NewsCommand::Create {
                id,
                content,
                window,
                by,
                at,
            } => {
                if exists {
                    return Err(NewsError::Exists);
                }
                Self::check_content(&content)?;
                Self::check_window(window, at)?;
                Ok(vec![NewsEvent::Created {
                    id,
                    content,
                    window,
                    by,
                    at,
                }])
            }
            NewsCommand::Revise {
                content,
                window,
                by,
                at,
            } => {
                self.not_ended()?;
                if self
                    .latest()
                    .is_some_and(|v| v.status == VersionStatus::InReview)
                {
                    return Err(NewsError::WrongState(
                        "The latest version is in review: approve or reject it first.".into(),
                    ));
                }
                Self::check_content(&content)?;
                Self::check_window(window, at)?;
                let version = self.latest().map_or(1, |v| v.version + 1);
                Ok(vec![NewsEvent::VersionDrafted {
                    version,
                    content,
                    window,
                    by,
                    at,
                }])
            }
            NewsCommand::Submit { by, at } => {
                self.not_ended()?;
                let v = self.latest_in(VersionStatus::Draft, "submitted")?;
                Ok(vec![NewsEvent::Submitted {
                    version: v.version,
                    by,
                    at,
                }])
            }
            NewsCommand::Approve { by, at, comment } => {
                self.not_ended()?;
                let v = self.latest_in(VersionStatus::InReview, "approved")?;
                if v.author == by {
                    return Err(NewsError::OwnVersion);
                }
                let mut events = vec![NewsEvent::Approved {
                    version: v.version,
                    by,
                    at,
                    comment,
                }];
                if self.release_due(at) {
                    events.push(NewsEvent::Released {
                        version: v.version,
                        at,
                    });
                }
                Ok(events)
            }
            NewsCommand::Reject { by, at, comment } => {
                self.not_ended()?;
                let v = self.latest_in(VersionStatus::InReview, "rejected")?;
                Ok(vec![NewsEvent::Rejected {
                    version: v.version,
                    by,
                    at,
                    comment,
                }])
            }
            NewsCommand::ReleaseDue { at } => Ok(match self.latest() {
                Some(v)
                    if self.ended.is_none()
                        && v.status == VersionStatus::Approved
                        && self.release_due(at) =>
                {
                    vec![NewsEvent::Released {
                        version: v.version,
                        at,
                    }]
                }
                _ => vec![],
            }),
            NewsCommand::ExpireDue { at } => Ok(
                match (self.released_version, &self.ended, self.window.expires_at) {
                    (Some(_), None, Some(expires)) if expires <= at => {
                        vec![NewsEvent::Expired { at: expires }]
                    }
                    _ => vec![],
                },
            ),
            NewsCommand::Withdraw { by, at, reason } => {
                if matches!(self.ended, Some(Ended::Withdrawn { .. })) {
                    return Err(NewsError::WrongState(
                        "This news item was already withdrawn.".into(),
                    ));
                }
                let reason = reason.trim().to_string();
                if reason.is_empty() {
                    return Err(NewsError::Invalid(
                        "Say why the news item is withdrawn (reason).".into(),
                    ));
                }
                if reason.chars().count() > MAX_TEXT {
                    return Err(NewsError::Invalid(format!(
                        "The reason must be at most {MAX_TEXT} characters."
                    )));
                }
                Ok(vec![NewsEvent::Withdrawn { by, at, reason }])
            }
        }
    }

    fn version_mut(&mut self, version: u32) -> Option<&mut NewsVersion> {
        self.versions.iter_mut().find(|v| v.version == version)
    }
}

impl Aggregate for NewsItem {
    const TYPE: &'static str = NewsItem::TYPE;
    type Command = NewsCommand;
    type Event = NewsEvent;
    type Error = NewsError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &cqrs_es::event_sink::EventSink<Self>,
    ) -> Result<(), Self::Error> {
        for event in self.decide(command)? {
            sink.write(event, self).await;
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            NewsEvent::Created {
                id,
                content,
                window,
                by,
                at,
            } => {
                self.id = id;
                self.window = window;
                self.versions.push(NewsVersion::draft(1, content, by, at));
            }
            NewsEvent::VersionDrafted {
                version,
                content,
                window,
                by,
                at,
            } => {
                self.window = window;
                // An unsubmitted draft is replaced by the newer one.
                self.versions
                    .retain(|v| v.status != VersionStatus::Draft || v.version == version);
                self.versions
                    .push(NewsVersion::draft(version, content, by, at));
            }
            NewsEvent::Submitted { version, at, .. } => {
                if let Some(v) = self.version_mut(version) {
                    v.status = VersionStatus::InReview;
                    v.submitted_at = Some(at);
                }
            }
            NewsEvent::Approved {
                version,
                by,
                at,
                comment,
            } => {
                if let Some(v) = self.version_mut(version) {
                    v.status = VersionStatus::Approved;
                    v.decided_by = Some(by);
                    v.decided_at = Some(at);
                    v.comment = comment;
                }
            }
            NewsEvent::Rejected {
                version,
                by,
                at,
                comment,
            } => {
                if let Some(v) = self.version_mut(version) {
                    v.status = VersionStatus::Draft;
                    v.decided_by = Some(by);
                    v.decided_at = Some(at);
                    v.comment = comment;
                }
            }
            NewsEvent::Released { version, at } => {
                if let Some(old) = self.released_version {
                    if let Some(v) = self.version_mut(old) {
                        v.status = VersionStatus::Superseded;
                    }
                }
                if let Some(v) = self.version_mut(version) {
                    v.status = VersionStatus::Released;
                    v.released_at = Some(at);
                }
                self.released_version = Some(version);
            }
            NewsEvent::Expired { at } => self.ended = Some(Ended::Expired { at }),
            NewsEvent::Withdrawn { by, at, reason } => {
                self.ended = Some(Ended::Withdrawn { by, at, reason })
            }
        }
    }
}

impl NewsVersion {
    fn draft(version: u32, content: NewsContent, author: String, at: i64) -> Self {
        NewsVersion {
            version,
            content,
            author,
            created_at: at,
            status: VersionStatus::Draft,
            submitted_at: None,
            decided_by: None,
            decided_at: None,
            comment: None,
            released_at: None,
        }
    }
}
