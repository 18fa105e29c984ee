//! Where the badges ask how many new items were shared with a user.

use projections::documents::read;
use projections::Tx;

use crate::error::AppResult;
use crate::state::AppState;

/// New items in the user's 'Shared with me' that they have not opened yet (the `shared` count of
/// `GET /badges`). The same query as the `shared` badge the documents projection pushes to the
/// feed, so the two always agree.
pub async fn shared_unread_count(state: &AppState, user_id: &str) -> AppResult<i64> {
    let mut tx = Tx::begin(&state.db).await?;
    let count = read::shared_unread(&mut tx, user_id).await?;
    tx.commit().await?;
    Ok(count)
}
