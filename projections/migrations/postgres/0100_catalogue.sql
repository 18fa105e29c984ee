-- Catalogue reference data (products, library documents, news, contacts, useful links,
-- multimedia), loaded from content/ by `companion import`; not event-sourced.
-- Each row keeps the JSON the API answers with, built and sanitised once at import time,
-- plus the plain columns the calls filter and sort on.

create table library_documents (
    id bigint primary key,
    category text,
    position integer not null,
    item text not null,
    file_name text not null,
    content_type text not null,
    bytes bytea not null
);

create table catalogue_segments (
    id bigint primary key,
    position integer not null,
    item text not null,
    page text not null
);

create table catalogue_categories (
    id bigint primary key,
    parent_id bigint not null,
    position integer not null,
    item text not null,
    page text not null
);
create index catalogue_categories_parent on catalogue_categories(parent_id);

create table catalogue_products (
    id bigint primary key,
    parent_id bigint not null,
    subcategory text,
    sort_order integer not null,
    release_date text not null,
    name text not null,
    item text not null,
    details text not null,
    attachments text not null,
    indepth text,
    components text not null
);
create index catalogue_products_parent on catalogue_products(parent_id);

create table catalogue_components (
    id bigint primary key,
    parent_id bigint not null,
    position integer not null,
    details text not null
);

-- Small documents of one kind each: filter option lists, the catalogue document list.
create table catalogue_meta (
    key text primary key,
    data text not null
);

create table news (
    id bigint primary key,
    date text not null,
    year integer not null,
    category text not null,
    item text not null,
    details text not null
);
create index news_year on news(year, date);

create table contact_sections (
    id bigint primary key,
    position integer not null,
    data text not null
);

create table contact_subsidiaries (
    id bigint primary key,
    data text not null
);

create table useful_links (
    id bigint primary key,
    position integer not null,
    data text not null
);

create table multimedia_videos (
    id bigint primary key,
    position integer not null,
    segment bigint not null,
    category text not null,
    year integer not null,
    hero boolean not null,
    data text not null
);

create table multimedia_images (
    id bigint primary key,
    position integer not null,
    segment bigint not null,
    category text not null,
    year integer not null,
    data text not null
);
