-- Course registrations are events (aggregate CourseRegistration). The event table is the one
-- postgres-es expects; it is shared by every aggregate, so it is created only if missing.
create table if not exists events (
    aggregate_type text not null,
    aggregate_id text not null,
    sequence bigint check (sequence >= 0) not null,
    event_type text not null,
    event_version text not null,
    payload json not null,
    metadata json not null,
    primary key (aggregate_type, aggregate_id, sequence)
);

-- Read model: one row per registered course day and user.
create table course_registrations (
    course_id bigint not null,
    user_id text not null,
    day text not null,
    name text not null,
    email text not null,
    hospital text,
    category text,
    newsletter boolean not null,
    registered_at bigint not null,
    primary key (course_id, user_id, day)
);
create index course_registrations_course on course_registrations(course_id, day, registered_at);
