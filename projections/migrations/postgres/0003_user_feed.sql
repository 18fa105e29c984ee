-- Each user's numbered feed of live messages, written by projections in the same transaction as
-- the read-model rows the message describes. The realtime channel replays and pushes it.
create table user_feed (
    user_id text not null,
    seq bigint not null,
    kind text not null,
    payload text not null,
    created_at bigint not null,
    primary key (user_id, seq)
);
create index user_feed_created on user_feed (created_at);
