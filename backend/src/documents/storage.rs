//! Stored files: `DATA_DIR/files/<server-made name>`.
//!
//! Names are made here (a random UUID and the format's extension) and checked again whenever
//! a path is built, so nothing a client sends can reach a path outside the folder.

use std::path::{Path, PathBuf};

use events::documents::{is_safe_blob_name, FileFormat};
use tokio::io::AsyncWriteExt;

#[derive(Debug, Clone)]
pub struct Storage {
    dir: PathBuf,
}

/// A file written to storage, not yet part of any item.
#[derive(Debug)]
pub struct Stored {
    pub blob: String,
    pub size: i64,
    /// What the first bytes show.
    pub sniffed: Option<FileFormat>,
}

impl Storage {
    pub fn new(data_dir: &Path) -> std::io::Result<Storage> {
        let dir = data_dir.join("files");
        std::fs::create_dir_all(&dir)?;
        Ok(Storage { dir })
    }

    /// The path of a stored file; `None` for a name this storage would never have made.
    pub fn path_of(&self, blob: &str) -> Option<PathBuf> {
        is_safe_blob_name(blob).then(|| self.dir.join(blob))
    }

    /// A fresh name for a file of `format` (`part` while the format is unknown).
    pub fn new_blob_name(format: Option<FileFormat>) -> String {
        let ext = format.map_or("part", FileFormat::extension);
        format!("{}.{ext}", uuid::Uuid::new_v4().simple())
    }

    /// Starts writing a new file.
    pub async fn writer(&self) -> std::io::Result<BlobWriter> {
        let blob = Self::new_blob_name(None);
        let path = self.dir.join(&blob);
        let file = tokio::fs::File::create(&path).await?;
        Ok(BlobWriter {
            dir: self.dir.clone(),
            path,
            file,
            head: Vec::with_capacity(8),
            size: 0,
        })
    }

    /// Copies a file of the demo content into storage.
    pub async fn import(&self, source: &Path) -> std::io::Result<Stored> {
        let bytes = tokio::fs::read(source).await?;
        let sniffed = FileFormat::sniff(&bytes);
        let blob = Self::new_blob_name(sniffed);
        tokio::fs::write(self.dir.join(&blob), &bytes).await?;
        Ok(Stored {
            blob,
            size: i64::try_from(bytes.len()).unwrap_or(i64::MAX),
            sniffed,
        })
    }

    /// Removes a stored file nobody refers to (a refused upload).
    pub async fn discard(&self, blob: &str) {
        if let Some(path) = self.path_of(blob) {
            if let Err(e) = tokio::fs::remove_file(&path).await {
                tracing::warn!(error = %e, blob, "could not remove a refused upload");
            }
        }
    }
}

/// A file being written, counting its bytes and keeping its first ones.
pub struct BlobWriter {
    dir: PathBuf,
    path: PathBuf,
    file: tokio::fs::File,
    head: Vec<u8>,
    size: u64,
}

impl BlobWriter {
    pub fn size(&self) -> u64 {
        self.size
    }

    pub async fn write(&mut self, chunk: &[u8]) -> std::io::Result<()> {
        let missing = 8usize.saturating_sub(self.head.len()).min(chunk.len());
        self.head.extend_from_slice(&chunk[..missing]);
        self.size += chunk.len() as u64;
        self.file.write_all(chunk).await
    }

    /// Closes the file and names it by its content's format.
    pub async fn finish(mut self) -> std::io::Result<Stored> {
        self.file.flush().await?;
        self.file.sync_data().await?;
        let sniffed = FileFormat::sniff(&self.head);
        let blob = Storage::new_blob_name(sniffed);
        tokio::fs::rename(&self.path, self.dir.join(&blob)).await?;
        Ok(Stored {
            blob,
            size: i64::try_from(self.size).unwrap_or(i64::MAX),
            sniffed,
        })
    }

    /// Drops what was written.
    pub async fn abandon(self) {
        drop(self.file);
        let _ = tokio::fs::remove_file(&self.path).await;
    }
}
