-- The realtime channel: a global number for every feed row, so the hub scans new rows with one
-- cursor, and the feed's epoch, which changes when the database is created anew so clients
-- holding numbers from an older feed are told to reload instead of resuming.
-- SQLite cannot add an autoincrement column, so the table is rebuilt. AUTOINCREMENT keeps
-- numbers from being reused even after retention deletes the newest rows.
create table user_feed_new (
    feed_position integer primary key autoincrement,
    user_id text not null,
    seq bigint not null,
    kind text not null,
    payload text not null,
    created_at bigint not null,
    unique (user_id, seq)
);
insert into user_feed_new (user_id, seq, kind, payload, created_at)
    select user_id, seq, kind, payload, created_at from user_feed order by created_at, user_id, seq;
drop table user_feed;
alter table user_feed_new rename to user_feed;
create index user_feed_created on user_feed (created_at);

create table realtime_epoch (
    id integer primary key check (id = 1),
    epoch text not null
);
insert into realtime_epoch (id, epoch) values (1, lower(hex(randomblob(8))));
