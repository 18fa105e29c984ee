//! Every projection the server runs. Each feature that keeps a read model adds it here.

use std::sync::Arc;

use projections::notifications::NotificationsProjection;
use projections::Projection;

pub fn all() -> Vec<Arc<dyn Projection>> {
    vec![
        Arc::new(NotificationsProjection),
        Arc::new(projections::documents::DocumentsProjection),
        Arc::new(projections::terms::TermsProjection),
        Arc::new(projections::content::ContentProjection),
        Arc::new(projections::course_registrations::RegistrationsProjection),
        Arc::new(crate::audit::AuditProjection),
        Arc::new(projections::stored_files::StoredFilesProjection),
        Arc::new(projections::item_reads::ItemReadsProjection),
        Arc::new(projections::share_engagement::ShareEngagementProjection),
        Arc::new(projections::library::LibraryProjection),
    ]
}
