-- How often each reader opened and downloaded each document (events `Opened` and `Downloaded`
-- of the `Item` aggregate), so history counts reads without loading them.
create table item_reads (
    item_id text not null,
    user_id text not null,
    opens bigint not null,
    downloads bigint not null,
    last_at bigint not null,
    primary key (item_id, user_id)
);
