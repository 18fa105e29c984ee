//! The documents read model (spec 2.16): per-user My Docs / Shared with me / US lists and
//! folder contents with unread marks, labels and each user's actions; the folder tree of the
//! move dialog; external links; and the live feed messages about shared items.
//!
//! - [`projection`] - [`DocumentsProjection`], fed by `document_item` events, a batch at a time
//!   ([`batch`]: the rows a batch reads and writes, in memory until its end).
//! - [`resident`] - the same projection for a rebuild into an empty database: the whole state in
//!   memory, never read back, written once at the end.
//! - [`read`] - the queries and the item JSON ([`ItemView`]) built from the tables.
//! - [`temporal`] - every version of the rows with its validity: a folder and its shares as of
//!   a past time.

mod batch;
mod key;
mod out;
pub mod projection;
pub mod read;
pub mod resident;
pub mod temporal;

pub use projection::{DocumentsProjection, LiveDocumentsProjection};
pub use read::{ItemRow, ItemView, Viewer};
pub use resident::ResidentDocumentsProjection;
