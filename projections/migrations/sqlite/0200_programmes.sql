-- Congresses and events, sales training and medical-education courses: reference data imported
-- from content/ (backend::programmes::import). Each row keeps the item as the API serves it in
-- `data` and its list row in `item` (JSON text); the other columns are what the lists filter and sort on.

create table congresses (
    id bigint primary key,
    name text not null,
    -- 'event' or 'congress'
    type text not null,
    -- first and last day, yyyy-mm-dd
    start_date text not null,
    end_date text not null,
    year bigint not null,
    -- the row of the list, as served
    item text not null,
    data text not null
);
create index congresses_year on congresses(year, start_date);

create table congress_activities (
    id bigint primary key,
    congress_id bigint not null references congresses(id) on delete cascade,
    data text not null
);
create index congress_activities_congress on congress_activities(congress_id);

create table trainings (
    id bigint primary key,
    name text not null,
    start_date text not null,
    end_date text not null,
    year bigint not null,
    item text not null,
    data text not null
);
create index trainings_year on trainings(year, start_date);

create table courses (
    id bigint primary key,
    title text not null,
    start_date text not null,
    end_date text not null,
    year bigint not null,
    -- '01'..'12', month of the first day
    month text not null,
    -- category class: course, online, third, other
    category text not null,
    language text not null,
    typology text not null,
    show_register boolean not null,
    item text not null,
    data text not null
);
create index courses_year on courses(year, start_date);

create table course_segments (
    course_id bigint not null references courses(id) on delete cascade,
    segment_id bigint not null,
    primary key (course_id, segment_id)
);

create table course_speakers (
    course_id bigint not null references courses(id) on delete cascade,
    name text not null,
    primary key (course_id, name)
);

-- The agenda days of a course: the days a user can register to.
create table course_days (
    course_id bigint not null references courses(id) on delete cascade,
    day text not null,
    primary key (course_id, day)
);

-- Filter options of the lists, per list ('congresses', 'training', 'courses'), as JSON text.
create table programme_filters (
    kind text primary key,
    data text not null
);
