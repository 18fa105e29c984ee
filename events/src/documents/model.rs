//! The values documents and folders are made of: kinds, spaces, labels, file facts, names.

use serde::{Deserialize, Serialize};

use super::DocumentError;

/// An item's id: a UUID as text, chosen by the server when the item is created.
pub type ItemId = String;

/// Longest folder or file name accepted, in characters.
pub const MAX_NAME_LEN: usize = 200;

/// Depth of the folder tree when nothing else is configured (`MAX_FOLDER_DEPTH`).
pub const DEFAULT_MAX_FOLDER_DEPTH: u32 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Folder,
    File,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Folder => "folder",
            Kind::File => "file",
        }
    }
}

/// Where an item lives: a user's My Docs, or the company's US set (read-only, no owner).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Space {
    #[default]
    My,
    Us,
}

impl Space {
    pub fn as_str(self) -> &'static str {
        match self {
            Space::My => "my",
            Space::Us => "us",
        }
    }
}

/// A user as events record them: the id, and the name at the time (feeds and history show it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserRef {
    pub id: String,
    pub name: String,
}

/// A folder as events record it: the id, and its name at the time (history shows "from"/"to").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemRef {
    pub id: ItemId,
    pub name: String,
}

/// The labels of spec 2.16. `external_release` is the exception the brief allows: a
/// 'Controlled release' or 'Upon request' document whose publisher allows external sharing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Labels {
    pub for_internal_use: bool,
    pub controlled_release: bool,
    pub upon_request: bool,
    #[serde(default)]
    pub external_release: bool,
}

impl Labels {
    /// 'For internal use' never leaves the company; 'Controlled release' and 'Upon request'
    /// only when the document says so.
    pub fn allow_external_share(&self) -> bool {
        !self.for_internal_use
            && (!(self.controlled_release || self.upon_request) || self.external_release)
    }

    /// The label shown on the tile: the first that applies, as the documents print it.
    pub fn label(&self) -> Option<&'static str> {
        if self.for_internal_use {
            Some("For internal use")
        } else if self.controlled_release {
            Some("Controlled release")
        } else if self.upon_request {
            Some("Upon request")
        } else {
            None
        }
    }
}

/// Why a company document left the app: withdrawn by the company, or past its expiry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WithdrawnState {
    Withdrawn,
    Expired,
}

impl WithdrawnState {
    pub fn as_str(self) -> &'static str {
        match self {
            WithdrawnState::Withdrawn => "withdrawn",
            WithdrawnState::Expired => "expired",
        }
    }

    pub fn parse(raw: &str) -> Option<WithdrawnState> {
        match raw {
            "withdrawn" => Some(WithdrawnState::Withdrawn),
            "expired" => Some(WithdrawnState::Expired),
            _ => None,
        }
    }

    /// What every refusal and every 410 of such a document says.
    pub fn message(self) -> &'static str {
        match self {
            WithdrawnState::Withdrawn => "This document was withdrawn.",
            WithdrawnState::Expired => "This document has expired.",
        }
    }
}

/// The library document that replaces a withdrawn one: its id, title and where it opens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplacementRef {
    pub id: i64,
    pub title: String,
    pub url: String,
}

/// Why, since when and by what a withdrawn item is replaced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WithdrawalFacts {
    pub state: WithdrawnState,
    pub reason: String,
    /// Milliseconds since the epoch.
    pub at: i64,
    pub replacement: Option<ReplacementRef>,
}

/// The two file types the app accepts (spec 5, 9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileFormat {
    Pdf,
    Xls,
}

/// The OLE2 compound-file header that starts every legacy Excel workbook.
const OLE2_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

impl FileFormat {
    /// The format the first bytes of a file reveal, whatever its name says.
    pub fn sniff(head: &[u8]) -> Option<FileFormat> {
        if head.starts_with(b"%PDF-") {
            Some(FileFormat::Pdf)
        } else if head.starts_with(&OLE2_MAGIC) {
            Some(FileFormat::Xls)
        } else {
            None
        }
    }

    /// The format a file name's extension claims.
    pub fn from_file_name(name: &str) -> Option<FileFormat> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "pdf" => Some(FileFormat::Pdf),
            "xls" => Some(FileFormat::Xls),
            _ => None,
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            FileFormat::Pdf => "pdf",
            FileFormat::Xls => "xls",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            FileFormat::Pdf => "application/pdf",
            FileFormat::Xls => "application/vnd.ms-excel",
        }
    }

    /// `title` as a file name: the title itself when it already ends with the extension.
    pub fn file_name_for(self, title: &str) -> String {
        if FileFormat::from_file_name(title) == Some(self) {
            title.to_string()
        } else {
            format!("{title}.{}", self.extension())
        }
    }
}

/// Everything a file item carries besides its place in the tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileFacts {
    /// What the lists show (spec "title"); a rename changes it.
    pub title: String,
    /// The file name offered on download (spec "name"); follows the title on rename.
    pub name: String,
    /// The stored file's name inside the server's storage folder, chosen by the server.
    pub blob: String,
    /// Bytes.
    pub size: i64,
    /// Lower-case hex SHA-256 of the content (recorded since files moved to object storage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    pub format: FileFormat,
    pub subtitle: Option<String>,
    pub languages_in_file: Option<String>,
    pub code_points: Option<String>,
    pub labels: Labels,
}

/// A name as typed, checked: required, at most [`MAX_NAME_LEN`] characters, no control
/// characters. Surrounding spaces are dropped.
pub fn valid_name(raw: &str) -> Result<String, DocumentError> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(DocumentError::NameRequired);
    }
    if name.chars().count() > MAX_NAME_LEN {
        return Err(DocumentError::NameTooLong);
    }
    if name.chars().any(char::is_control) {
        return Err(DocumentError::NameInvalid);
    }
    Ok(name.to_string())
}

/// A plausible e-mail address (for external shares, whose recipient has no account).
pub use crate::email::is_valid as is_valid_email;
