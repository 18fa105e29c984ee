//! Every projection the server runs. Each feature that keeps a read model adds it here.

use std::sync::Arc;
use std::time::Duration;

use projections::notifications::NotificationsProjection;
use projections::Projection;

pub fn all() -> Vec<Arc<dyn Projection>> {
    vec![
        Arc::new(NotificationsProjection),
        Arc::new(projections::documents::LiveDocumentsProjection::default()),
        Arc::new(projections::terms::TermsProjection),
        Arc::new(projections::content::ContentProjection),
        Arc::new(projections::course_registrations::RegistrationsProjection),
        Arc::new(crate::audit::AuditProjection::default()),
        Arc::new(projections::stored_files::StoredFilesProjection),
        Arc::new(projections::item_reads::ItemReadsProjection),
        Arc::new(projections::share_engagement::ShareEngagementProjection),
        Arc::new(projections::library::LibraryProjection),
    ]
}

/// How long what follows the projector's batches off a user's path (the search index, the push
/// consumer) waits after a batch before reading it: the batch's sockets and its command's answer
/// go first (those followers compete with them for the cores), and a burst of batches is read in
/// one round. Search results, and pushes to apps that are closed, follow a change this much
/// later.
pub const AFTER_BATCH: Duration = Duration::from_millis(100);
