//! Where the session asks which app update a user has not seen yet.

use crate::error::AppResult;
use crate::state::AppState;

/// The newest published app update, when the user has not viewed it yet (`update_id` of login
/// and welcome). Older updates the user skipped are not offered again once a newer one was seen:
/// the wizard shows what is new now, the What's New list keeps the rest.
pub async fn pending_update_id(state: &AppState, user_id: &str) -> AppResult<Option<i64>> {
    Ok(projections::notifications::latest_update_unviewed(&state.db, user_id).await?)
}
