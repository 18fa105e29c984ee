-- The console's view of every news item written there (`news_item` streams): its status, the
-- latest version's title and author, when the scheduler must act (`due_at`: release or expiry),
-- and the whole lifecycle state as JSON (versions, decisions, end).
create table news_admin (
    id bigint primary key,
    title text not null,
    category text not null,
    status text not null,
    version bigint not null,
    released_version bigint,
    release_at bigint,
    expires_at bigint,
    due_at bigint,
    author_id text not null,
    updated_at bigint not null,
    state text not null
);
create index news_admin_due on news_admin(due_at);
create index news_admin_status on news_admin(status, updated_at);
