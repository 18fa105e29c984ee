//! Stored files, in one of two stores behind the `object_store` interface:
//! - the local folder `DATA_DIR/files` (the default: one node, or nodes that share nothing);
//! - S3-compatible object storage (`FILE_STORE_URL=s3://bucket/prefix`), which every node of a
//!   cluster reads and writes.
//!
//! Names are made here (a random UUID and the format's extension) and checked again whenever
//! an object is addressed, so nothing a client sends can reach another object.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use events::documents::{is_safe_blob_name, FileFormat};
use futures::stream::BoxStream;
use futures::{StreamExt, TryStreamExt};
use object_store::aws::AmazonS3Builder;
use object_store::buffered::BufWriter;
use object_store::local::LocalFileSystem;
use object_store::path::Path as ObjectPath;
use object_store::prefix::PrefixStore;
use object_store::{GetOptions, GetRange, ObjectMeta, ObjectStore};
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;

/// Bytes of a file's start kept to tell its format.
const HEAD: usize = 8;

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("FILE_STORE_URL must look like s3://bucket or s3://bucket/prefix, not {0:?}")]
    BadUrl(String),
    #[error("the file store: {0}")]
    Store(#[from] object_store::Error),
    #[error("the file store: {0}")]
    Io(#[from] std::io::Error),
}

/// Which store the files are in, as `/api/ready` and the start-up checks say it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreKind {
    Local,
    S3 { url: String },
}

#[derive(Clone)]
pub struct Storage {
    store: Arc<dyn ObjectStore>,
    kind: StoreKind,
    /// The folder of the local store, whose files are flushed to disk before their event.
    local_dir: Option<PathBuf>,
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Storage").field("kind", &self.kind).finish()
    }
}

/// A file written to storage, not yet part of any item.
#[derive(Debug)]
pub struct Stored {
    pub blob: String,
    pub size: i64,
    /// What the first bytes show.
    pub sniffed: Option<FileFormat>,
    /// Lower-case hex SHA-256 of the content.
    pub sha256: String,
}

/// A stored object's description, for the response headers.
#[derive(Debug, Clone)]
pub struct ObjectInfo {
    pub size: u64,
    pub last_modified: chrono::DateTime<chrono::Utc>,
    pub e_tag: Option<String>,
}

impl From<ObjectMeta> for ObjectInfo {
    fn from(meta: ObjectMeta) -> Self {
        ObjectInfo {
            size: meta.size,
            last_modified: meta.last_modified,
            e_tag: meta.e_tag,
        }
    }
}

/// One stored object, as a listing shows it.
#[derive(Debug, Clone)]
pub struct Listed {
    pub blob: String,
    pub size: u64,
    pub last_modified: chrono::DateTime<chrono::Utc>,
}

/// Splits `s3://bucket/some/prefix` into the bucket and the prefix.
fn parse_s3_url(url: &str) -> Result<(String, String), StorageError> {
    let rest = url
        .strip_prefix("s3://")
        .ok_or_else(|| StorageError::BadUrl(url.into()))?;
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    if bucket.is_empty() || prefix.contains("..") {
        return Err(StorageError::BadUrl(url.into()));
    }
    Ok((bucket.to_string(), prefix.trim_matches('/').to_string()))
}

impl Storage {
    /// The local folder `DATA_DIR/files`.
    pub fn new(data_dir: &Path) -> Result<Storage, StorageError> {
        let dir = data_dir.join("files");
        std::fs::create_dir_all(&dir)?;
        let store = LocalFileSystem::new_with_prefix(&dir)?;
        Ok(Storage {
            store: Arc::new(store),
            kind: StoreKind::Local,
            local_dir: Some(dir),
        })
    }

    /// The store `FILE_STORE_URL` names (S3-compatible; endpoint, region and keys from the
    /// usual `AWS_*` variables), or the local folder when it is unset.
    pub fn from_config(data_dir: &Path, url: Option<&str>) -> Result<Storage, StorageError> {
        let Some(url) = url.filter(|u| !u.trim().is_empty()) else {
            return Self::new(data_dir);
        };
        let (bucket, prefix) = parse_s3_url(url)?;
        let s3 = AmazonS3Builder::from_env()
            .with_bucket_name(bucket)
            .build()?;
        let store: Arc<dyn ObjectStore> = if prefix.is_empty() {
            Arc::new(s3)
        } else {
            Arc::new(PrefixStore::new(s3, prefix.as_str()))
        };
        Ok(Storage {
            store,
            kind: StoreKind::S3 { url: url.into() },
            local_dir: None,
        })
    }

    pub fn kind(&self) -> &StoreKind {
        &self.kind
    }

    /// The object of a stored file; `None` for a name this storage would never have made.
    fn object(blob: &str) -> Option<ObjectPath> {
        is_safe_blob_name(blob).then(|| ObjectPath::from(blob))
    }

    /// A fresh name for a file of `format` (`part` while the format is unknown).
    pub fn new_blob_name(format: Option<FileFormat>) -> String {
        let ext = format.map_or("part", FileFormat::extension);
        // Time-ordered, as item ids are (the stored files are keyed by it).
        format!("{}.{ext}", uuid::Uuid::now_v7().simple())
    }

    /// Starts writing a new file; nothing reaches the store before its format is known.
    pub fn writer(&self) -> BlobWriter {
        BlobWriter {
            store: self.store.clone(),
            local_dir: self.local_dir.clone(),
            upload: None,
            head: Vec::with_capacity(HEAD),
            size: 0,
            hash: Sha256::new(),
        }
    }

    /// Copies a file of the demo content into storage.
    pub async fn import(&self, source: &Path) -> Result<Stored, StorageError> {
        let bytes = tokio::fs::read(source).await?;
        let mut writer = self.writer();
        writer.write(&bytes).await?;
        writer.finish().await
    }

    /// Size, date and tag of a stored file.
    pub async fn head(&self, blob: &str) -> Result<ObjectInfo, StorageError> {
        let object = Self::object(blob).ok_or_else(|| {
            StorageError::Store(object_store::Error::NotFound {
                path: blob.into(),
                source: "not a stored file's name".into(),
            })
        })?;
        Ok(self.store.head(&object).await?.into())
    }

    /// The bytes of `range` (the whole file when `None`) as a stream.
    pub async fn read(
        &self,
        blob: &str,
        range: Option<Range<u64>>,
    ) -> Result<BoxStream<'static, Result<Bytes, StorageError>>, StorageError> {
        let object = Self::object(blob).ok_or_else(|| {
            StorageError::Store(object_store::Error::NotFound {
                path: blob.into(),
                source: "not a stored file's name".into(),
            })
        })?;
        let options = GetOptions {
            range: range.map(GetRange::Bounded),
            ..Default::default()
        };
        let result = self.store.get_opts(&object, options).await?;
        Ok(result.into_stream().map_err(StorageError::from).boxed())
    }

    /// Every stored object, as the store lists them (for `companion files check` and the
    /// collection), one at a time.
    pub fn listing(&self) -> BoxStream<'static, Result<Listed, StorageError>> {
        self.store
            .list(None)
            .map(|meta| {
                let meta = meta?;
                Ok(Listed {
                    blob: meta.location.to_string(),
                    size: meta.size,
                    last_modified: meta.last_modified,
                })
            })
            .boxed()
    }

    /// Bytes free for this server on the local store's volume; `None` for object storage,
    /// whose room is not ours to measure.
    pub fn free_bytes(&self) -> Result<Option<u64>, StorageError> {
        let Some(dir) = &self.local_dir else {
            return Ok(None);
        };
        let stats = rustix::fs::statvfs(dir).map_err(std::io::Error::from)?;
        Ok(Some(stats.f_bavail.saturating_mul(stats.f_frsize)))
    }

    /// Removes a stored file nobody refers to (a refused upload, an orphan).
    pub async fn delete(&self, blob: &str) -> Result<(), StorageError> {
        let Some(object) = Self::object(blob) else {
            return Ok(());
        };
        match self.store.delete(&object).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// Like [`Storage::delete`], logging a failure (the orphan collection retries later).
    pub async fn discard(&self, blob: &str) {
        if let Err(e) = self.delete(blob).await {
            tracing::warn!(error = %e, blob, "could not remove a refused upload");
        }
    }
}

/// A file being written: counts and hashes its bytes; the object is created (multipart where
/// the file is large) once the first bytes have told the format, which names it.
pub struct BlobWriter {
    store: Arc<dyn ObjectStore>,
    local_dir: Option<PathBuf>,
    upload: Option<(String, BufWriter)>,
    head: Vec<u8>,
    size: u64,
    hash: Sha256,
}

impl BlobWriter {
    pub fn size(&self) -> u64 {
        self.size
    }

    fn start(&mut self) -> &mut BufWriter {
        let (_, upload) = self.upload.get_or_insert_with(|| {
            let blob = Storage::new_blob_name(FileFormat::sniff(&self.head));
            let upload = BufWriter::new(self.store.clone(), ObjectPath::from(blob.as_str()));
            (blob, upload)
        });
        upload
    }

    pub async fn write(&mut self, chunk: &[u8]) -> Result<(), StorageError> {
        self.size += chunk.len() as u64;
        self.hash.update(chunk);
        if self.upload.is_none() {
            let missing = HEAD.saturating_sub(self.head.len()).min(chunk.len());
            self.head.extend_from_slice(&chunk[..missing]);
            if self.head.len() < HEAD {
                return Ok(());
            }
            // The head is complete: write it, then the rest of this chunk.
            let head = self.head.clone();
            self.start().write_all(&head).await?;
            self.start().write_all(&chunk[missing..]).await?;
            return Ok(());
        }
        self.start().write_all(chunk).await?;
        Ok(())
    }

    /// Completes the object.
    pub async fn finish(mut self) -> Result<Stored, StorageError> {
        if self.upload.is_none() {
            // Shorter than the head: write what there is.
            let head = self.head.clone();
            self.start().write_all(&head).await?;
        }
        let sniffed = FileFormat::sniff(&self.head);
        let Some((blob, mut upload)) = self.upload.take() else {
            return Err(StorageError::Io(std::io::Error::other("no upload started")));
        };
        if let Err(e) = upload.shutdown().await {
            let _ = upload.abort().await;
            return Err(e.into());
        }
        // A local file must be on disk before an event names it (S3 acknowledges durably).
        // Opened and flushed in one trip to a blocking thread, not one for each.
        if let Some(dir) = &self.local_dir {
            let path = dir.join(&blob);
            tokio::task::spawn_blocking(move || std::fs::File::open(path)?.sync_all())
                .await
                .map_err(std::io::Error::other)??;
        }
        Ok(Stored {
            blob,
            size: i64::try_from(self.size).unwrap_or(i64::MAX),
            sniffed,
            sha256: hex::encode(self.hash.finalize()),
        })
    }

    /// Drops what was written (a multipart upload is aborted).
    pub async fn abandon(mut self) {
        if let Some((blob, mut upload)) = self.upload.take() {
            if let Err(e) = upload.abort().await {
                tracing::warn!(error = %e, blob, "could not abort an upload");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_s3_url, FileFormat, Storage};

    #[test]
    fn store_urls_name_a_bucket_and_a_prefix() {
        assert_eq!(
            parse_s3_url("s3://docs").unwrap(),
            ("docs".into(), String::new())
        );
        assert_eq!(
            parse_s3_url("s3://docs/eu/prod/").unwrap(),
            ("docs".into(), "eu/prod".into())
        );
        assert!(parse_s3_url("https://docs").is_err());
        assert!(parse_s3_url("s3:///x").is_err());
        assert!(parse_s3_url("s3://docs/../x").is_err());
    }

    #[test]
    fn blob_names_are_safe_and_follow_one_another_in_byte_order() {
        let names: Vec<String> = (0..1_000)
            .map(|_| Storage::new_blob_name(Some(FileFormat::Pdf)))
            .collect();
        for pair in names.windows(2) {
            assert!(pair[0] < pair[1], "{} then {}", pair[0], pair[1]);
        }
        for name in &names {
            assert!(Storage::object(name).is_some(), "{name} is a safe name");
            let (id, ext) = name.split_once('.').unwrap();
            assert_eq!(ext, "pdf");
            assert_eq!(uuid::Uuid::parse_str(id).unwrap().get_version_num(), 7);
        }
    }
}
