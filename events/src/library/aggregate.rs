//! The `LibraryDocument` aggregate: every rule of a library document's lifecycle.
//!
//! A version goes draft → in review → approved → released; a rejection sends it back to draft.
//! The approver of a version is never its author. An approved version whose `release_at` is
//! still ahead waits for the server's scheduler, which sends `Release` at that time; `Expire`
//! at `expires_at`. Both are no-ops when repeated, so a scheduler running twice (a retry, a
//! node taking over) records each step once. A new version of a released document replaces it
//! only when it is released in turn; until then the old one stays released.

use std::collections::BTreeSet;

use cqrs_es::event_sink::EventSink;
use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use super::commands::LibraryCommand;
use super::error::LibraryError;
use super::events::{CascadeStep, LibraryEvent};
use super::model::{DocMetadata, EndState, Ending, Status, Version, VersionFile};
use crate::documents::{FileFormat, UserRef, MAX_NAME_LEN};

/// The aggregate type in the event store; the aggregate id is the document's decimal id.
pub const LIBRARY_TYPE: &str = "library_document";

/// One library document as its stream has it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LibraryDocument {
    /// `None` until created.
    pub id: Option<i64>,
    pub metadata: DocMetadata,
    pub versions: Vec<Version>,
    /// The version reps see.
    pub released_version: Option<u32>,
    pub ending: Option<Ending>,
    /// A release or end whose cascade has not recorded its completion yet.
    pub cascade_due: Option<CascadeStep>,
    /// `(user, version, download)` already recorded.
    pub reads: BTreeSet<(String, u32, bool)>,
    /// `(user, device)` already recorded.
    pub pins: BTreeSet<(String, String)>,
    /// Devices whose purge is recorded.
    pub purges: BTreeSet<String>,
}

impl LibraryDocument {
    /// The document's status as the API words it (see [`Status`]).
    pub fn status(&self) -> Status {
        if let Some(ending) = &self.ending {
            return match ending.state {
                EndState::Withdrawn => Status::Withdrawn,
                EndState::Expired => Status::Expired,
            };
        }
        match self.versions.last() {
            Some(latest) if latest.status != Status::Released => latest.status,
            Some(_) => Status::Released,
            None => Status::Draft,
        }
    }

    fn live(&self) -> Result<&Version, LibraryError> {
        if self.id.is_none() {
            return Err(LibraryError::NotFound);
        }
        match self.ending.as_ref().map(|e| e.state) {
            Some(EndState::Withdrawn) => return Err(LibraryError::Withdrawn),
            Some(EndState::Expired) => return Err(LibraryError::Expired),
            None => {}
        }
        self.versions.last().ok_or(LibraryError::NotFound)
    }

    fn latest_number(&self) -> u32 {
        self.versions.last().map_or(0, |v| v.number)
    }

    /// Whether the latest version may be released at `at`.
    fn releasable(&self, at: i64) -> bool {
        self.metadata.release_at.is_none_or(|t| t <= at)
    }
}

fn check_metadata(metadata: &DocMetadata, at: i64) -> Result<(), LibraryError> {
    let title = metadata.title.trim();
    if title.is_empty() {
        return Err(LibraryError::TitleRequired);
    }
    if title.chars().count() > MAX_NAME_LEN {
        return Err(LibraryError::TitleTooLong);
    }
    if let Some(expires) = metadata.expires_at {
        let start = metadata.release_at.unwrap_or(at).max(at);
        if expires <= start {
            return Err(LibraryError::ExpiryBeforeRelease);
        }
    }
    Ok(())
}

fn check_file(file: &VersionFile) -> Result<(), LibraryError> {
    if FileFormat::from_file_name(&file.file_name) != Some(file.format) || file.size < 0 {
        return Err(LibraryError::UnsupportedType);
    }
    Ok(())
}

fn uploaded(
    number: u32,
    file: VersionFile,
    note: Option<String>,
    by: UserRef,
    at: i64,
) -> LibraryEvent {
    LibraryEvent::VersionUploaded {
        version: number,
        file,
        note,
        by,
        at,
    }
}

impl Aggregate for LibraryDocument {
    const TYPE: &'static str = LIBRARY_TYPE;
    type Command = LibraryCommand;
    type Event = LibraryEvent;
    type Error = LibraryError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        match command {
            LibraryCommand::Create {
                id,
                by,
                metadata,
                file,
                note,
                at,
            } => {
                if self.id.is_some() {
                    return Err(LibraryError::AlreadyExists);
                }
                check_metadata(&metadata, at)?;
                check_file(&file)?;
                let created = LibraryEvent::Created {
                    id,
                    by: by.clone(),
                    metadata,
                    at,
                };
                sink.write(created, self).await;
                sink.write(uploaded(1, file, note, by, at), self).await;
            }
            LibraryCommand::AddVersion { by, file, note, at } => {
                let latest = self.live()?;
                if matches!(latest.status, Status::InReview | Status::Approved) {
                    return Err(LibraryError::VersionPending);
                }
                check_file(&file)?;
                let number = self.latest_number() + 1;
                sink.write(uploaded(number, file, note, by, at), self).await;
            }
            LibraryCommand::ChangeMetadata { by, metadata, at } => {
                self.live()?;
                check_metadata(&metadata, at)?;
                let changed: Vec<String> = self
                    .metadata
                    .changed_fields(&metadata)
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                if !changed.is_empty() {
                    let event = LibraryEvent::MetadataChanged {
                        by,
                        metadata,
                        changed,
                        at,
                    };
                    sink.write(event, self).await;
                }
            }
            LibraryCommand::Submit { by, at } => {
                let latest = self.live()?;
                if latest.status != Status::Draft {
                    return Err(LibraryError::NotDraft);
                }
                let version = latest.number;
                sink.write(LibraryEvent::Submitted { version, by, at }, self)
                    .await;
            }
            LibraryCommand::Approve { by, comment, at } => {
                let latest = self.live()?;
                if latest.status != Status::InReview {
                    return Err(LibraryError::NotInReview);
                }
                if latest.author.id == by.id {
                    return Err(LibraryError::OwnVersion);
                }
                let version = latest.number;
                let approved = LibraryEvent::Approved {
                    version,
                    by: by.clone(),
                    comment,
                    at,
                };
                sink.write(approved, self).await;
                if self.releasable(at) {
                    let released = LibraryEvent::Released {
                        version,
                        by: Some(by),
                        at,
                    };
                    sink.write(released, self).await;
                }
            }
            LibraryCommand::Reject { by, comment, at } => {
                let latest = self.live()?;
                if latest.status != Status::InReview {
                    return Err(LibraryError::NotInReview);
                }
                if latest.author.id == by.id {
                    return Err(LibraryError::OwnVersion);
                }
                let version = latest.number;
                let event = LibraryEvent::Rejected {
                    version,
                    by,
                    comment,
                    at,
                };
                sink.write(event, self).await;
            }
            LibraryCommand::Release { at } => {
                let latest = self.live()?;
                match latest.status {
                    // Released already (a repeat): nothing to record.
                    Status::Released => {}
                    Status::Approved if self.releasable(at) => {
                        let version = latest.number;
                        let released = LibraryEvent::Released {
                            version,
                            by: None,
                            at,
                        };
                        sink.write(released, self).await;
                    }
                    Status::Approved => return Err(LibraryError::TooEarly),
                    _ => return Err(LibraryError::NotApproved),
                }
            }
            LibraryCommand::Expire { at } => {
                if self.id.is_none() {
                    return Err(LibraryError::NotFound);
                }
                // Ended already (a repeat, or withdrawn first): nothing to record.
                if self.ending.is_some() {
                    return Ok(());
                }
                if self.released_version.is_none() {
                    return Err(LibraryError::NotReleased);
                }
                if self.metadata.expires_at.is_some_and(|t| t <= at) {
                    sink.write(LibraryEvent::Expired { at }, self).await;
                }
            }
            LibraryCommand::Withdraw {
                by,
                reason,
                replacement,
                at,
            } => {
                if self.id.is_none() {
                    return Err(LibraryError::NotFound);
                }
                if self.ending.as_ref().map(|e| e.state) == Some(EndState::Withdrawn) {
                    return Err(LibraryError::Withdrawn);
                }
                let reason = reason.trim().to_string();
                if reason.is_empty() {
                    return Err(LibraryError::ReasonRequired);
                }
                if let Some((replacement, released)) = replacement {
                    if Some(replacement) == self.id {
                        return Err(LibraryError::ReplacementIsSelf);
                    }
                    if !released {
                        return Err(LibraryError::ReplacementNotReleased);
                    }
                }
                let event = LibraryEvent::Withdrawn {
                    by,
                    reason,
                    replacement: replacement.map(|(id, _)| id),
                    at,
                };
                sink.write(event, self).await;
            }
            LibraryCommand::Import {
                id,
                by,
                metadata,
                file,
                at,
            } => {
                if self.ending.is_some() {
                    // A withdrawn or expired document stays ended whatever the folder says.
                    return Ok(());
                }
                check_file(&file)?;
                if metadata.title.trim().is_empty() {
                    return Err(LibraryError::TitleRequired);
                }
                if self.id.is_none() {
                    let created = LibraryEvent::Created {
                        id,
                        by: by.clone(),
                        metadata,
                        at,
                    };
                    sink.write(created, self).await;
                } else {
                    let changed: Vec<String> = self
                        .metadata
                        .changed_fields(&metadata)
                        .into_iter()
                        .map(str::to_string)
                        .collect();
                    if !changed.is_empty() {
                        let event = LibraryEvent::MetadataChanged {
                            by: by.clone(),
                            metadata,
                            changed,
                            at,
                        };
                        sink.write(event, self).await;
                    }
                }
                let same_file = self
                    .released_version
                    .and_then(|n| self.versions.iter().find(|v| v.number == n))
                    .is_some_and(|v| v.file == file);
                if !same_file {
                    let number = self.latest_number() + 1;
                    // A folder file is not in the blob storage, so it never has a company copy:
                    // its release has nothing to propagate and is complete at once.
                    let folder_file = file.blob.is_empty();
                    sink.write(uploaded(number, file, None, by.clone(), at), self)
                        .await;
                    let released = LibraryEvent::Released {
                        version: number,
                        by: Some(by),
                        at,
                    };
                    sink.write(released, self).await;
                    if folder_file {
                        let completed = LibraryEvent::CascadeCompleted {
                            step: CascadeStep::Release { version: number },
                            items: vec![],
                            holders: vec![],
                            at,
                        };
                        sink.write(completed, self).await;
                    }
                }
            }
            LibraryCommand::RecordRead { by, download, at } => {
                let Some(version) = self.released_version else {
                    return Err(LibraryError::NotFound);
                };
                if !self.reads.contains(&(by.clone(), version, download)) {
                    let event = LibraryEvent::Read {
                        by,
                        version,
                        download,
                        at,
                    };
                    sink.write(event, self).await;
                }
            }
            LibraryCommand::RecordPin { by, device, at } => {
                if self.id.is_none() {
                    return Err(LibraryError::NotFound);
                }
                if !self.pins.contains(&(by.clone(), device.clone())) {
                    sink.write(LibraryEvent::PinnedOffline { by, device, at }, self)
                        .await;
                }
            }
            LibraryCommand::ConfirmPurge { by, device, at } => {
                if self.id.is_none() {
                    return Err(LibraryError::NotFound);
                }
                if !self.purges.contains(&device) {
                    sink.write(LibraryEvent::PurgeConfirmed { by, device, at }, self)
                        .await;
                }
            }
            LibraryCommand::CompleteCascade { items, holders, at } => {
                if let Some(step) = self.cascade_due {
                    let event = LibraryEvent::CascadeCompleted {
                        step,
                        items,
                        holders,
                        at,
                    };
                    sink.write(event, self).await;
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            LibraryEvent::Created { id, metadata, .. } => {
                self.id = Some(id);
                self.metadata = metadata;
            }
            LibraryEvent::VersionUploaded {
                version,
                file,
                note,
                by,
                at,
            } => self.versions.push(Version {
                number: version,
                file,
                note,
                author: by,
                uploaded_at: at,
                status: Status::Draft,
                submitted_at: None,
                decided_by: None,
                decided_at: None,
                comment: None,
                released_at: None,
            }),
            LibraryEvent::MetadataChanged { metadata, .. } => self.metadata = metadata,
            LibraryEvent::Submitted { version, at, .. } => {
                if let Some(v) = self.version_mut(version) {
                    v.status = Status::InReview;
                    v.submitted_at = Some(at);
                }
            }
            LibraryEvent::Approved {
                version,
                by,
                comment,
                at,
            } => {
                if let Some(v) = self.version_mut(version) {
                    v.status = Status::Approved;
                    v.decided_by = Some(by);
                    v.decided_at = Some(at);
                    v.comment = comment;
                }
            }
            LibraryEvent::Rejected {
                version,
                by,
                comment,
                at,
            } => {
                if let Some(v) = self.version_mut(version) {
                    v.status = Status::Draft;
                    v.decided_by = Some(by);
                    v.decided_at = Some(at);
                    v.comment = comment;
                }
            }
            LibraryEvent::Released { version, at, .. } => {
                if let Some(v) = self.version_mut(version) {
                    v.status = Status::Released;
                    v.released_at = Some(at);
                }
                self.released_version = Some(version);
                self.cascade_due = Some(CascadeStep::Release { version });
            }
            LibraryEvent::Expired { at } => {
                self.ending = Some(Ending {
                    state: EndState::Expired,
                    by: None,
                    reason: String::new(),
                    at,
                    replacement: None,
                });
                self.cascade_due = Some(CascadeStep::End);
            }
            LibraryEvent::Withdrawn {
                by,
                reason,
                replacement,
                at,
            } => {
                self.ending = Some(Ending {
                    state: EndState::Withdrawn,
                    by: Some(by),
                    reason,
                    at,
                    replacement,
                });
                self.cascade_due = Some(CascadeStep::End);
            }
            LibraryEvent::Read {
                by,
                version,
                download,
                ..
            } => {
                self.reads.insert((by, version, download));
            }
            LibraryEvent::PinnedOffline { by, device, .. } => {
                self.pins.insert((by, device));
            }
            LibraryEvent::PurgeConfirmed { device, .. } => {
                self.purges.insert(device);
            }
            LibraryEvent::CascadeCompleted { step, .. } => {
                if self.cascade_due == Some(step) {
                    self.cascade_due = None;
                }
            }
        }
    }
}

impl LibraryDocument {
    fn version_mut(&mut self, number: u32) -> Option<&mut Version> {
        self.versions.iter_mut().find(|v| v.number == number)
    }
}
