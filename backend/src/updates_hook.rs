//! Where the session asks which app update a user has not seen yet.

use crate::error::AppResult;
use crate::state::AppState;

/// The newest published app update the user has not viewed. App updates are published by the
/// notifications feature; until one exists there is nothing pending.
pub async fn pending_update_id(_state: &AppState, _user_id: &str) -> AppResult<Option<i64>> {
    Ok(None)
}
