//! The lifecycle of a news item written in the console: one stream per item, aggregate type
//! `news_item`, id the decimal news id (console news from 100000 up).
//!
//! A version is drafted, submitted, then approved (by someone other than its author) or
//! rejected. An approved version is released at once, or at its `release_at` by the server's
//! scheduler; a released item expires at its `expires_at`; it can be withdrawn from any state
//! but withdrawn. Scheduled steps repeated (two nodes, a retry) record nothing the second time.

mod aggregate;
#[cfg(test)]
mod tests;

pub use aggregate::*;
