-- Search: the version of the reference content. Every import bumps it, and each node reloads
-- the reference content into its in-memory search index when it sees a new version.
create table search_content_version (
    id integer primary key,
    version bigint not null
);
insert into search_content_version (id, version) values (1, 0);
