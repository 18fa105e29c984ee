//! The wire format of `GET /api/ws`: JSON text frames, one message each, with a `type` field.
//! `docs/realtime.md` and the OpenAPI document describe the same; keep the three in step.

use axum::extract::ws::{CloseFrame, Utf8Bytes};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What a client sends.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// First message of every socket (within `REALTIME_AUTH_SECONDS`), and again whenever the
    /// app's token is replaced, so the socket lives as long as the session.
    Auth {
        /// The session token, as sent in the API's `Authorization: Bearer` header.
        token: String,
        /// The last feed number the client has seen; absent on a first connection.
        #[serde(default)]
        last_seq: Option<i64>,
        /// The last broadcast number the client has seen (from `ready` or `broadcast`); absent
        /// on a first connection: broadcasts are then replayed from none.
        #[serde(default)]
        last_broadcast_seq: Option<i64>,
        /// The feed epoch of `last_seq` (from `ready`). A different epoch means `reload`.
        #[serde(default)]
        epoch: Option<String>,
    },
    /// The answer to `ping`. Any message counts as a sign of life.
    Pong,
}

/// What the server sends.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// One entry of the user's feed. `seq` numbers the user's feed (1, 2, 3...; never reused);
    /// `kind` is `badge`, `shared_arrival`, `shared_change`, `notification`, `app_update` (more
    /// may come: ignore kinds you do not know); `at` is when it happened (ms since the epoch).
    Message {
        seq: i64,
        kind: String,
        #[schema(value_type = Object)]
        payload: serde_json::Value,
        at: i64,
    },
    /// One entry that is the same for every user (a notification to everyone, an app update, a
    /// change of published content). `seq` numbers the broadcast stream (1, 2, 3...; never
    /// reused), apart from the user's own `message` numbers; kinds and payloads as `message`.
    Broadcast {
        seq: i64,
        kind: String,
        #[schema(value_type = Object)]
        payload: serde_json::Value,
        at: i64,
    },
    /// Sent after the missed entries were replayed: from now on messages are live. `seq` and
    /// `broadcast_seq` are the numbers to resume from next time, with this `epoch`.
    Ready {
        seq: i64,
        broadcast_seq: i64,
        epoch: String,
    },
    /// The client is too far behind (its `last_seq` is older than what is kept, or from another
    /// epoch): reload every list, then carry on with the live messages that follow.
    Reload,
    /// Heartbeat, every `REALTIME_PING_SECONDS`; answer `{"type":"pong"}`.
    Ping,
}

impl ServerMessage {
    pub fn to_text(&self) -> Utf8Bytes {
        // Serialising these plain structures cannot fail.
        Utf8Bytes::from(serde_json::to_string(self).unwrap_or_default())
    }
}

/// A feed row as a `message` frame, encoded once and shared by every socket of the user.
/// `payload` is stored as JSON text written by `projections::feed::push`, so it is embedded as is.
pub fn feed_message(seq: i64, kind: &str, payload: &str, at: i64) -> Utf8Bytes {
    frame("message", seq, kind, payload, at)
}

/// A broadcast row as a `broadcast` frame, encoded once and shared by every socket of the node.
pub fn broadcast_message(seq: i64, kind: &str, payload: &str, at: i64) -> Utf8Bytes {
    frame("broadcast", seq, kind, payload, at)
}

fn frame(kind_of_frame: &str, seq: i64, kind: &str, payload: &str, at: i64) -> Utf8Bytes {
    let kind = serde_json::to_string(kind).unwrap_or_else(|_| "\"\"".into());
    let payload = if payload.trim().is_empty() {
        "null"
    } else {
        payload
    };
    Utf8Bytes::from(format!(
        r#"{{"type":"{kind_of_frame}","seq":{seq},"kind":{kind},"payload":{payload},"at":{at}}}"#
    ))
}

/// Why the server closes a socket: a close code and a reason the app can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Close {
    /// 1001: the server is shutting down; reconnect (to another node).
    ShuttingDown,
    /// 1011: the server could not read the feed; reconnect later.
    ServerError,
    /// 1013 "slow": the client fell `REALTIME_QUEUE` messages behind; reconnect and resume.
    Slow,
    /// 4400: the first message was not an `auth` message.
    BadRequest,
    /// 4401: the token expired (also while connected); the app signs out.
    Expired,
    /// 4401: the token is not valid (forged, or for another user than the socket's).
    InvalidToken,
    /// 4401: the session was signed out, revoked or unused for `SESSION_IDLE_SECONDS`, or its
    /// account disabled.
    Revoked,
    /// 4403: the user has not accepted the current terms (the API answers 403
    /// `terms_not_accepted`); the app shows the terms and connects again once they are accepted.
    TermsNotAccepted,
    /// 4408: no `auth` within the deadline, or nothing received for `REALTIME_IDLE_SECONDS`.
    Timeout,
}

pub const CLOSE_UNAUTHORIZED: u16 = 4401;

impl Close {
    pub fn code(self) -> u16 {
        match self {
            Close::ShuttingDown => 1001,
            Close::ServerError => 1011,
            Close::Slow => 1013,
            Close::BadRequest => 4400,
            Close::TermsNotAccepted => 4403,
            Close::Expired | Close::InvalidToken | Close::Revoked => CLOSE_UNAUTHORIZED,
            Close::Timeout => 4408,
        }
    }

    pub fn reason(self) -> &'static str {
        match self {
            Close::ShuttingDown => "Server shutting down",
            Close::ServerError => "Server error",
            Close::Slow => "slow",
            Close::BadRequest => "Expected an auth message",
            Close::Expired => "Your session has expired. Please sign in again.",
            Close::InvalidToken => "Invalid session. Please sign in again.",
            Close::Revoked => crate::auth::SESSION_ENDED,
            Close::TermsNotAccepted => crate::auth::TERMS_REQUIRED,
            Close::Timeout => "Timed out",
        }
    }

    pub fn frame(self) -> CloseFrame {
        CloseFrame {
            code: self.code(),
            reason: Utf8Bytes::from_static(self.reason()),
        }
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn feed_message_is_valid_json_with_the_payload_embedded() {
        let text = feed_message(7, "badge", r#"{"name":"shared","count":2}"#, 1234);
        let v: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"type":"message","seq":7,"kind":"badge",
                "payload":{"name":"shared","count":2},"at":1234})
        );
    }

    #[test]
    fn server_messages_have_the_documented_shape() {
        assert_eq!(ServerMessage::Ping.to_text().as_str(), r#"{"type":"ping"}"#);
        assert_eq!(
            ServerMessage::Reload.to_text().as_str(),
            r#"{"type":"reload"}"#
        );
        assert_eq!(
            ServerMessage::Ready {
                seq: 3,
                broadcast_seq: 9,
                epoch: "e".into()
            }
            .to_text()
            .as_str(),
            r#"{"type":"ready","seq":3,"broadcast_seq":9,"epoch":"e"}"#
        );
    }

    #[test]
    fn broadcast_frames_are_their_own_type() {
        let text = broadcast_message(2, "notification", r#"{"notification":{"id":5}}"#, 99);
        let v: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"type":"broadcast","seq":2,"kind":"notification",
                "payload":{"notification":{"id":5}},"at":99})
        );
    }

    #[test]
    fn client_messages_parse() {
        let auth: ClientMessage = serde_json::from_str(
            r#"{"type":"auth","token":"t","last_seq":4,"last_broadcast_seq":6,"epoch":"e"}"#,
        )
        .unwrap();
        assert!(matches!(
            auth,
            ClientMessage::Auth { last_seq: Some(4), last_broadcast_seq: Some(6), epoch: Some(ref e), .. } if e == "e"
        ));
        let first: ClientMessage = serde_json::from_str(r#"{"type":"auth","token":"t"}"#).unwrap();
        assert!(matches!(
            first,
            ClientMessage::Auth {
                last_seq: None,
                last_broadcast_seq: None,
                epoch: None,
                ..
            }
        ));
        assert!(matches!(
            serde_json::from_str(r#"{"type":"pong"}"#).unwrap(),
            ClientMessage::Pong
        ));
    }
}
