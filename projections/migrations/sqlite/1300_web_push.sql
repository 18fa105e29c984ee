-- Web Push (RFC 8030/8291/8292): one subscription per device of a user, tied to the session that
-- registered it (sign-out, revocation and disabling delete it); the push consumer's place in the
-- users' feeds; the queue of messages to send, which survives restarts; and the per-user rate.
-- The VAPID key pair of a SQLite deployment is kept in DATA_DIR/vapid-private-key.
create table push_subscriptions (
    id text primary key,
    user_id text not null,
    session_id text not null,
    device_uuid text not null,
    endpoint text not null unique,
    p256dh text not null,
    auth text not null,
    created_at bigint not null,
    unique (user_id, device_uuid)
);
create index push_subscriptions_user on push_subscriptions (user_id);
create index push_subscriptions_session on push_subscriptions (session_id);

create table push_checkpoint (
    consumer text primary key,
    position bigint not null
);

create table push_queue (
    id integer primary key autoincrement,
    subscription_id text not null,
    user_id text not null,
    feed_position bigint not null,
    payload text not null,
    urgency text not null,
    attempts bigint not null default 0,
    next_attempt_at bigint not null,
    claimed_by text,
    claimed_until bigint,
    created_at bigint not null,
    unique (subscription_id, feed_position)
);
create index push_queue_due on push_queue (next_attempt_at);

create table push_rate (
    user_id text primary key,
    window_start bigint not null,
    sent bigint not null
);
