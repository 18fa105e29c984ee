-- Notifications and app updates: read models of the `notifications` projection (rebuilt from
-- the events by `companion replay`), and the counters that hand out publication ids.

create table notifications (
    id bigint primary key,
    title text not null,
    -- Sanitised HTML.
    message text not null,
    preview text,
    link_type text,
    link_id bigint,
    -- true: addressed to every user; false: to the users in notification_recipients.
    everyone boolean not null,
    published_at bigint not null,
    published_by text not null
);
create index notifications_published on notifications (published_at, id);

create table notification_recipients (
    notification_id bigint not null,
    user_id text not null,
    primary key (notification_id, user_id)
);
create index notification_recipients_user on notification_recipients (user_id);

create table notification_reads (
    notification_id bigint not null,
    user_id text not null,
    read_at bigint not null,
    primary key (notification_id, user_id)
);
create index notification_reads_user on notification_reads (user_id);

create table app_updates (
    id bigint primary key,
    name text not null,
    release text not null,
    preview text,
    -- JSON array of {big, title}.
    gallery text not null,
    url text,
    published_at bigint not null,
    published_by text not null
);
create index app_updates_published on app_updates (published_at, id);

create table app_update_views (
    update_id bigint not null,
    user_id text not null,
    viewed_at bigint not null,
    primary key (update_id, user_id)
);
create index app_update_views_user on app_update_views (user_id);

-- Write side: the last id handed out per kind ('notification', 'update').
create table publication_counters (
    kind text primary key,
    last_id bigint not null
);
