//! The content folder as every importer reads it: the bottom of the import, which imports
//! nothing above it.
//!
//! [`file`] (one content file being read into its typed shape, and [`file::ContentError`], why a
//! folder is refused), [`dates`] (dates and times as content writes them), [`file_kind`] (what a
//! named document really is), [`library`] (`documents/library.json`, read once for every
//! feature), [`checks`] (the checks of the folder as a whole) and [`tables`] (the rows an import
//! writes, and the transaction that writes them). The feature readers (`catalogue::import`,
//! `programmes::import`) build on these, and `content::import_all` runs them all.

pub mod checks;
pub mod dates;
pub mod file;
pub mod file_kind;
pub mod library;
pub mod tables;
