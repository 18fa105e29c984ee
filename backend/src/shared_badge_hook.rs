//! Where the badges ask how many new items were shared with a user.

use crate::error::AppResult;
use crate::state::AppState;

/// New items in the user's 'Shared with me' that they have not opened yet (the `shared` count of
/// `GET /badges`). The documents feature keeps that read model; until it replaces this body the
/// count is 0.
pub async fn shared_unread_count(_state: &AppState, _user_id: &str) -> AppResult<i64> {
    Ok(0)
}
