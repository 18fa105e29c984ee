-- Subtrees (a folder and everything below it) are read as a range of `path`, in byte order:
-- the "C" collation, whatever the database's own.
create index doc_items_path on doc_items (path collate "C");
