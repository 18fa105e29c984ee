//! What a projection keeps of its rows from one live round to the next (see
//! [`super::Projection::keeps_rows`]): the state its last committed batch left, and the state of
//! the round in progress until the projector says whether that round's transaction committed.

use std::sync::{Mutex, MutexGuard};

use super::CheckpointState;

/// A projection's kept state `T`, each value with the checkpoint it stands for.
pub struct Kept<T> {
    inner: Mutex<Slots<T>>,
}

struct Slots<T> {
    /// Left by the last committed round.
    settled: Option<(CheckpointState, T)>,
    /// Left by the round in progress, until its transaction ends.
    pending: Option<(CheckpointState, T)>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Self {
            inner: Mutex::new(Slots {
                settled: None,
                pending: None,
            }),
        }
    }
}

impl<T> Kept<T> {
    fn slots(&self) -> MutexGuard<'_, Slots<T>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// For a round starting at `from`: what the last committed round left there, taken (the
    /// round changes it), or `None` when nothing was kept or it stands for another checkpoint.
    pub fn take_at(&self, from: CheckpointState) -> Option<T> {
        let mut slots = self.slots();
        slots.pending = None;
        match slots.settled.take() {
            Some((at, value)) if at == from => Some(value),
            _ => None,
        }
    }

    /// What the round in progress leaves, standing for the checkpoint `reached`.
    pub fn hold(&self, reached: CheckpointState, value: T) {
        self.slots().pending = Some((reached, value));
    }

    /// The round's transaction ended: what it left is kept only if it committed. What it
    /// started from was taken, so a round undone leaves nothing kept.
    pub fn settled(&self, committed: bool) {
        let mut slots = self.slots();
        if let Some(pending) = slots.pending.take() {
            if committed {
                slots.settled = Some(pending);
            }
        }
    }

    /// Drops everything kept: the rows were written another way.
    pub fn forget(&self) {
        let mut slots = self.slots();
        slots.settled = None;
        slots.pending = None;
    }
}
