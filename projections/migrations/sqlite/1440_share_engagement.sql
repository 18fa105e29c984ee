-- Tracked external links: one row per external share (the item's `SharedExternally`) with its
-- engagement (the `share_link` stream: opens, downloads, devices, revocation, expiry), and the
-- seconds each page was viewed. Rebuilt from the events; `notified_at` is the time (from the
-- events) of the last `share_engagement` feed message, so the coalescing replays the same way.
create table share_engagement (
    share_id text primary key,
    token_hash text not null unique,
    item_id text not null,
    sender_id text not null,
    owner_id text,
    recipient text not null,
    title text not null,
    sent_at bigint not null,
    expires_at bigint not null,
    allow_download bigint not null,
    max_opens bigint,
    opens bigint not null default 0,
    last_opened_at bigint,
    downloads bigint not null default 0,
    devices bigint not null default 0,
    revoked_at bigint,
    revoked_by text,
    revoked_reason text,
    expired_at bigint,
    notified_at bigint not null default 0,
    replacement text
);
create index share_engagement_item on share_engagement (item_id, sent_at);
create index share_engagement_sender on share_engagement (sender_id, sent_at);

create table share_engagement_pages (
    share_id text not null,
    page bigint not null,
    millis bigint not null,
    primary key (share_id, page)
);
