-- Survey-style messages addressed to users (GET/POST /messages): reference data loaded from
-- content/notifications/messages.json, and each user's answer. Not event-sourced: the design
-- card keeps events for documents, folders, read marks, update views and registrations.

create table messages (
    id bigint primary key,
    round_id bigint,
    title text not null,
    -- Sanitised HTML.
    body text not null,
    -- A question the user may answer with a free-text reply; null for plain messages.
    question text,
    everyone boolean not null,
    sent_at bigint not null
);
create index messages_round on messages (round_id);

create table message_recipients (
    message_id bigint not null references messages(id) on delete cascade,
    user_id text not null references users(id) on delete cascade,
    primary key (message_id, user_id)
);
create index message_recipients_user on message_recipients (user_id);

create table message_responses (
    message_id bigint not null references messages(id) on delete cascade,
    user_id text not null references users(id) on delete cascade,
    -- 0 new, 1 seen (the default the app sends), 2 answered; the app may send other codes.
    status bigint not null,
    reply text,
    updated_at bigint not null,
    primary key (message_id, user_id)
);
