//! The read side of the companion app: read models built from the global event stream, and the
//! database handle shared by the whole server.
//!
//! Each projection consumes events in global order with its own checkpoint, stored in the same
//! transaction as its rows, so a crash can neither lose nor double-apply an event.

pub mod db;

pub use db::{now_ms, Db, DbKind};
