-- The realtime channel: a global number for every feed row, so each node's hub scans new rows
-- with one cursor, and the feed's epoch, which changes when the database is created anew so
-- clients holding numbers from an older feed are told to reload instead of resuming.
-- Feed writers are serialised (see projections/src/feed.rs), so feed_position order is commit
-- order and a cursor over it never skips a row.
alter table user_feed add column feed_position bigint generated always as identity;
create unique index user_feed_position on user_feed (feed_position);

create table realtime_epoch (
    id integer primary key check (id = 1),
    epoch text not null
);
insert into realtime_epoch (id, epoch) values (1, substr(md5(random()::text || clock_timestamp()::text), 1, 16));
