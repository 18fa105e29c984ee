//! The values a library document is made of.

use serde::{Deserialize, Serialize};

use crate::documents::{FileFormat, Labels, UserRef};

/// Where a document stands. A document's status is that of its latest version while that
/// version is not released yet, else the document's own (released, expired, withdrawn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Draft,
    InReview,
    Approved,
    Released,
    Expired,
    Withdrawn,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Draft => "draft",
            Status::InReview => "in_review",
            Status::Approved => "approved",
            Status::Released => "released",
            Status::Expired => "expired",
            Status::Withdrawn => "withdrawn",
        }
    }
}

/// Who may see a released document: everyone, or only the users of the US set (then it is
/// also a file of the company's US documents).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Audience {
    #[default]
    All,
    Us,
}

impl Audience {
    pub fn as_str(self) -> &'static str {
        match self {
            Audience::All => "all",
            Audience::Us => "us",
        }
    }
}

/// What describes a document besides its file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocMetadata {
    pub title: String,
    pub audience: Audience,
    pub labels: Labels,
    /// Catalogue product ids the document belongs to.
    #[serde(default)]
    pub products: Vec<i64>,
    /// Programme ids (congresses, trainings, courses) it belongs to.
    #[serde(default)]
    pub programmes: Vec<i64>,
    #[serde(default)]
    pub category: Option<String>,
    /// When an approved version is released (ms); none: at approval.
    #[serde(default)]
    pub release_at: Option<i64>,
    /// When the released document expires (ms); none: never.
    #[serde(default)]
    pub expires_at: Option<i64>,
}

impl DocMetadata {
    /// The names of the fields that differ between `self` and `other`.
    pub fn changed_fields(&self, other: &DocMetadata) -> Vec<&'static str> {
        let mut changed = Vec::new();
        if self.title != other.title {
            changed.push("title");
        }
        if self.audience != other.audience {
            changed.push("audience");
        }
        if self.labels != other.labels {
            changed.push("labels");
        }
        if self.products != other.products {
            changed.push("products");
        }
        if self.programmes != other.programmes {
            changed.push("programmes");
        }
        if self.category != other.category {
            changed.push("category");
        }
        if self.release_at != other.release_at {
            changed.push("release_at");
        }
        if self.expires_at != other.expires_at {
            changed.push("expires_at");
        }
        changed
    }
}

/// A version's stored file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionFile {
    /// The name offered on download.
    pub file_name: String,
    /// The stored file in the blob storage; empty for documents of the content folder, whose
    /// bytes live in `library_documents`.
    pub blob: String,
    pub size: i64,
    #[serde(default)]
    pub sha256: Option<String>,
    pub format: FileFormat,
}

/// One version as the stream has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// From 1.
    pub number: u32,
    pub file: VersionFile,
    pub note: Option<String>,
    pub author: UserRef,
    pub uploaded_at: i64,
    /// `draft`, `in_review`, `approved` or `released` (a version never ends by itself).
    pub status: Status,
    pub submitted_at: Option<i64>,
    pub decided_by: Option<UserRef>,
    pub decided_at: Option<i64>,
    pub comment: Option<String>,
    pub released_at: Option<i64>,
}

/// How a document ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EndState {
    Withdrawn,
    Expired,
}

impl EndState {
    pub fn as_str(self) -> &'static str {
        match self {
            EndState::Withdrawn => "withdrawn",
            EndState::Expired => "expired",
        }
    }
}

/// The end of a document: expired at its time, or withdrawn by someone with a reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    pub state: EndState,
    /// None for an expiry.
    pub by: Option<UserRef>,
    /// Empty for an expiry.
    pub reason: String,
    pub at: i64,
    /// The released library document that replaces it.
    pub replacement: Option<i64>,
}
