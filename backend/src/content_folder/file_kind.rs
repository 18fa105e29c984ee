//! The one check of what a content document really is, shared by every importer that reads
//! files named in the content folder (the catalogue's library, the programmes' documents).
//!
//! A name ending in `.pdf` must hold a PDF, one ending in `.xls` an Excel 97-2003 workbook.
//! Excel, Word and PowerPoint all write the same OLE2 compound-file container, so its magic
//! bytes alone say nothing: a compound file is a workbook only when it holds the `Workbook`
//! stream (Excel 97 and later) or the `Book` stream (Excel 5/95). A renamed `.doc` or `.ppt` is
//! refused.

use std::io::Cursor;
use std::path::Path;

/// The kinds of document the content may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Pdf,
    Xls,
}

/// Why a document named in the content was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FileKindError {
    #[error("only .pdf and .xls documents are accepted")]
    UnknownExtension,
    #[error("file {0} does not exist")]
    Missing(String),
    #[error("{path} is not a valid {kind} file")]
    Mismatch { path: String, kind: &'static str },
}

impl FileKind {
    /// The kind a file name announces by its extension.
    pub fn from_name(name: &str) -> Option<FileKind> {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".pdf") {
            Some(FileKind::Pdf)
        } else if lower.ends_with(".xls") {
            Some(FileKind::Xls)
        } else {
            None
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            FileKind::Pdf => "application/pdf",
            FileKind::Xls => "application/vnd.ms-excel",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            FileKind::Pdf => "PDF",
            FileKind::Xls => "XLS",
        }
    }

    /// True when `bytes` really are a file of this kind.
    pub fn matches(self, bytes: &[u8]) -> bool {
        match self {
            FileKind::Pdf => bytes.starts_with(b"%PDF-"),
            FileKind::Xls => is_xls_workbook(bytes),
        }
    }
}

/// An OLE2 compound file holding an Excel workbook stream.
fn is_xls_workbook(bytes: &[u8]) -> bool {
    if !bytes.starts_with(&OLE2_MAGIC) {
        return false;
    }
    let Ok(file) = cfb::CompoundFile::open(Cursor::new(bytes)) else {
        return false;
    };
    ["/Workbook", "/Book"].iter().any(|s| file.is_stream(s))
}

const OLE2_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// Reads the document at `relative` (below `files_dir`, as `shown` in messages) and checks that
/// its content is the kind its name announces.
pub fn read_document(
    files_dir: &Path,
    relative: &str,
    shown: &str,
) -> Result<(FileKind, Vec<u8>), FileKindError> {
    let kind = FileKind::from_name(relative).ok_or(FileKindError::UnknownExtension)?;
    let bytes = std::fs::read(files_dir.join(relative))
        .map_err(|_| FileKindError::Missing(shown.to_string()))?;
    if !kind.matches(&bytes) {
        return Err(FileKindError::Mismatch {
            path: shown.to_string(),
            kind: kind.label(),
        });
    }
    Ok((kind, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A tiny compound file with the given streams, written by the `cfb` crate.
    fn compound_file(streams: &[&str]) -> Vec<u8> {
        let mut file = cfb::CompoundFile::create(Cursor::new(Vec::new())).expect("create");
        for name in streams {
            let mut s = file.create_stream(name).expect("stream");
            s.write_all(b"\x09\x08\x10\x00\x00\x06\x05\x00")
                .expect("write");
        }
        file.flush().expect("flush");
        file.into_inner().into_inner()
    }

    #[test]
    fn a_compound_file_with_a_workbook_stream_is_xls() {
        assert!(FileKind::Xls.matches(&compound_file(&["/Workbook"])));
        assert!(FileKind::Xls.matches(&compound_file(&["/Book"])));
    }

    #[test]
    fn word_and_powerpoint_files_renamed_xls_are_refused() {
        let word = compound_file(&["/WordDocument", "/1Table"]);
        let powerpoint = compound_file(&["/PowerPoint Document", "/Current User"]);
        assert!(word.starts_with(&OLE2_MAGIC), "a real OLE2 file");
        assert!(!FileKind::Xls.matches(&word));
        assert!(!FileKind::Xls.matches(&powerpoint));
    }

    #[test]
    fn truncated_or_foreign_bytes_are_refused() {
        assert!(!FileKind::Xls.matches(&OLE2_MAGIC));
        assert!(!FileKind::Xls.matches(b"%PDF-1.4"));
        assert!(!FileKind::Pdf.matches(&compound_file(&["/Workbook"])));
        assert!(FileKind::Pdf.matches(b"%PDF-1.4\n%%EOF"));
    }

    #[test]
    fn the_extension_names_the_kind() {
        assert_eq!(FileKind::from_name("a/b.PDF"), Some(FileKind::Pdf));
        assert_eq!(FileKind::from_name("sizes.xls"), Some(FileKind::Xls));
        assert_eq!(FileKind::from_name("sizes.xlsx"), None);
        assert_eq!(FileKind::from_name("notes.doc"), None);
    }

    #[test]
    fn read_document_refuses_a_renamed_word_file() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::write(
            dir.path().join("sizes.xls"),
            compound_file(&["/WordDocument"]),
        )
        .unwrap();
        let err = read_document(dir.path(), "sizes.xls", "/files/sizes.xls").expect_err("refused");
        assert_eq!(err.to_string(), "/files/sizes.xls is not a valid XLS file");
        std::fs::write(dir.path().join("ok.xls"), compound_file(&["/Workbook"])).unwrap();
        let (kind, _) = read_document(dir.path(), "ok.xls", "/files/ok.xls").expect("accepted");
        assert_eq!(kind, FileKind::Xls);
        let err = read_document(dir.path(), "gone.pdf", "/files/gone.pdf").expect_err("missing");
        assert_eq!(err, FileKindError::Missing("/files/gone.pdf".into()));
    }
}
