-- Subtrees (a folder and everything below it) are read as a range of `path`, in byte order.
create index doc_items_path on doc_items (path);
