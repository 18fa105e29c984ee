-- The content folder's entities are events (`content_entity` streams) from now on; the catalogue's
-- and programmes' tables are their read model. An entity may carry a window (milliseconds since
-- the epoch): reps do not see it before `release_at` nor from `expires_at` on.
alter table news add column release_at bigint;
alter table news add column expires_at bigint;
alter table catalogue_products add column release_at bigint;
alter table catalogue_products add column expires_at bigint;
