-- Stored files and who keeps them (projection "stored_files", from `document_item` events):
-- what the storage quota counts and what the retention of removed files reads.

-- Every item that holds a file: its stored file, its size and the user whose quota it counts
-- against (null: the company's US set); `removed_at` (ms) once the item is removed.
create table stored_file_items (
    item_id text primary key,
    blob text not null,
    size bigint not null,
    owner_id text,
    removed_at bigint
);
create index stored_file_items_blob on stored_file_items (blob);

-- Every stored file an event named, with how many live items name it; `released_at` (ms): when
-- the last of them was removed (null while one is live). Read a page at a time, by name.
create table stored_files (
    blob text primary key,
    live_items bigint not null,
    released_at bigint
);

-- Per user: the files they keep in My Docs and their bytes.
create table storage_usage (
    user_id text primary key,
    files bigint not null,
    bytes bigint not null
);
create index storage_usage_bytes on storage_usage (bytes);
