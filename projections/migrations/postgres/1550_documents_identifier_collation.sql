-- The documents' and feeds' identifiers (ids, user ids, paths of ids, link tokens) compare in
-- byte order. They are only ever compared for equality or read as ranges of `path`, never
-- sorted for a person, so the database's language collation bought nothing; it cost every key
-- comparison a call into the C library's collation, and it keeps PostgreSQL from sorting by
-- abbreviated keys. Building these tables' keys and indexes (a rebuild builds them all at the
-- end) takes about half the time in byte order, and every lookup through them is cheaper.
-- Names, titles and other text shown to people keep the database's collation (case folding
-- and any sort by name stay as they were). Only the indexes are built again; rows do not move.
alter table doc_items
    alter column id type text collate "C",
    alter column parent_id type text collate "C",
    alter column owner_id type text collate "C",
    alter column space type text collate "C",
    alter column path type text collate "C",
    alter column seed_key type text collate "C",
    alter column copied_from type text collate "C";

alter table doc_item_versions
    alter column item_id type text collate "C",
    alter column parent_id type text collate "C",
    alter column owner_id type text collate "C",
    alter column space type text collate "C",
    alter column path type text collate "C",
    alter column copied_from type text collate "C";

alter table doc_shares
    alter column item_id type text collate "C",
    alter column user_id type text collate "C",
    alter column shared_by type text collate "C";

alter table doc_share_versions
    alter column item_id type text collate "C",
    alter column user_id type text collate "C";

alter table doc_unread
    alter column user_id type text collate "C",
    alter column item_id type text collate "C";

alter table doc_seen
    alter column user_id type text collate "C",
    alter column item_id type text collate "C";

alter table doc_badges
    alter column user_id type text collate "C";

alter table doc_external_links
    alter column token_hash type text collate "C",
    alter column item_id type text collate "C",
    alter column created_by type text collate "C";

alter table user_feed
    alter column user_id type text collate "C";
