//! What happened to a library document. Events carry the resulting values, so the read models
//! and the history need nothing else.

use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};

use super::model::{DocMetadata, VersionFile};
use crate::documents::UserRef;

/// What a cascade propagates: a released version (to the company's copy, lists, devices) or the
/// document's end (withdrawal or expiry, to every copy, link and device).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CascadeStep {
    Release { version: u32 },
    End,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum LibraryEvent {
    Created {
        id: i64,
        by: UserRef,
        metadata: DocMetadata,
        at: i64,
    },
    VersionUploaded {
        version: u32,
        file: VersionFile,
        note: Option<String>,
        by: UserRef,
        at: i64,
    },
    MetadataChanged {
        by: UserRef,
        metadata: DocMetadata,
        changed: Vec<String>,
        at: i64,
    },
    Submitted {
        version: u32,
        by: UserRef,
        at: i64,
    },
    Approved {
        version: u32,
        by: UserRef,
        comment: Option<String>,
        at: i64,
    },
    Rejected {
        version: u32,
        by: UserRef,
        comment: Option<String>,
        at: i64,
    },
    /// `by` is none when the server released it at its time.
    Released {
        version: u32,
        by: Option<UserRef>,
        at: i64,
    },
    Expired {
        at: i64,
    },
    Withdrawn {
        by: UserRef,
        reason: String,
        replacement: Option<i64>,
        at: i64,
    },
    Read {
        by: String,
        version: u32,
        download: bool,
        at: i64,
    },
    PinnedOffline {
        by: String,
        device: String,
        at: i64,
    },
    PurgeConfirmed {
        by: String,
        device: String,
        at: i64,
    },
    CascadeCompleted {
        step: CascadeStep,
        /// The company's items the cascade changed (the US item and every copy of it).
        #[serde(default)]
        items: Vec<String>,
        /// The users who held any of those items (copy owners, share recipients, senders).
        #[serde(default)]
        holders: Vec<String>,
        at: i64,
    },
}

impl DomainEvent for LibraryEvent {
    fn event_type(&self) -> String {
        match self {
            LibraryEvent::Created { .. } => "Created",
            LibraryEvent::VersionUploaded { .. } => "VersionUploaded",
            LibraryEvent::MetadataChanged { .. } => "MetadataChanged",
            LibraryEvent::Submitted { .. } => "Submitted",
            LibraryEvent::Approved { .. } => "Approved",
            LibraryEvent::Rejected { .. } => "Rejected",
            LibraryEvent::Released { .. } => "Released",
            LibraryEvent::Expired { .. } => "Expired",
            LibraryEvent::Withdrawn { .. } => "Withdrawn",
            LibraryEvent::Read { .. } => "Read",
            LibraryEvent::PinnedOffline { .. } => "PinnedOffline",
            LibraryEvent::PurgeConfirmed { .. } => "PurgeConfirmed",
            LibraryEvent::CascadeCompleted { .. } => "CascadeCompleted",
        }
        .to_string()
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}
