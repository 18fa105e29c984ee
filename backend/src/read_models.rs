//! Every projection the server runs. Each feature that keeps a read model adds it here.

use std::sync::Arc;

use projections::notifications::NotificationsProjection;
use projections::Projection;

pub fn all() -> Vec<Arc<dyn Projection>> {
    vec![
        Arc::new(NotificationsProjection),
        Arc::new(projections::documents::DocumentsProjection),
        Arc::new(projections::terms::TermsProjection),
        Arc::new(crate::programmes::registration::RegistrationsProjection),
    ]
}
