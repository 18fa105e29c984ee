//! One content file being read, and why a content folder is refused: the bottom of the import,
//! used by every reader.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

/// Why a content folder was refused. `Invalid` names the file, the field and the reason, e.g.
/// `content/catalogue/products.json: products[3].parent_id: category 999 does not exist`.
#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    #[error("{file}: {field}: {reason}")]
    Invalid {
        file: String,
        field: String,
        reason: String,
    },
    #[error("writing the content to the database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("recording library document {id}: {reason}")]
    Recording { id: i64, reason: String },
}

/// One content file being read: knows its path (for messages) and the name of its root value.
#[derive(Clone)]
pub struct ContentFile {
    pub path: PathBuf,
    /// The name of the top-level value in field paths (`products` in `products[3].name`).
    pub root: String,
}

impl ContentFile {
    pub fn new(content_dir: &Path, relative: &str) -> ContentFile {
        let root = Path::new(relative)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        ContentFile {
            path: content_dir.join(relative),
            root,
        }
    }

    /// An error about `field` (a path below the root, e.g. `[3].parent_id`) of this file.
    pub fn invalid(&self, field: impl AsRef<str>, reason: impl Into<String>) -> ContentError {
        let field = field.as_ref();
        let field = if field.is_empty() || field == "." {
            self.root.clone()
        } else if field.starts_with('[') {
            format!("{}{}", self.root, field)
        } else {
            format!("{}.{}", self.root, field)
        };
        ContentError::Invalid {
            file: self.path.display().to_string(),
            field,
            reason: reason.into(),
        }
    }

    /// Reads and parses the file; a shape error names the exact field.
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, ContentError> {
        let text = std::fs::read_to_string(&self.path).map_err(|e| ContentError::Invalid {
            file: self.path.display().to_string(),
            field: "-".into(),
            reason: format!("cannot be read: {e}"),
        })?;
        let mut de = serde_json::Deserializer::from_str(&text);
        serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let field = if path == "." { String::new() } else { path };
            self.invalid(field, inner.to_string())
        })
    }
}

/// A relative path that cannot leave its folder.
pub fn safe_relative(rel: &str) -> bool {
    !rel.is_empty() && !rel.split('/').any(|p| p == ".." || p.is_empty())
}

/// A small content folder written by unit tests: files by relative path, media made on demand.
#[cfg(test)]
pub(crate) struct TestContent {
    pub tmp: tempfile::TempDir,
}

#[cfg(test)]
impl TestContent {
    pub fn new() -> TestContent {
        TestContent {
            tmp: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn dir(&self) -> &Path {
        self.tmp.path()
    }

    pub fn write(&self, relative: &str, content: impl AsRef<[u8]>) -> &Self {
        let path = self.tmp.path().join(relative);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, content).expect("write");
        self
    }

    /// Creates the file behind a `/media/...` path.
    pub fn media(&self, path: &str) -> &Self {
        self.write(&path[1..], b"<svg/>")
    }

    /// The reason and field of a refusal, without the temporary folder.
    pub fn refusal(&self, err: ContentError) -> String {
        err.to_string()
            .replace(&format!("{}/", self.dir().display()), "")
    }
}
