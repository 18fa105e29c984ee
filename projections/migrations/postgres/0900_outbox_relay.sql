-- The outbox relay: each message is claimed with a lease (so two nodes never send the same one at
-- the same time), retried with back-off, and marked sent with the SMTP server's answer.
-- `link_token_hash` holds a message back until the external link it carries is recorded: the
-- message is written before the share's event and released only once the event exists.
alter table outbox add column state text not null default 'queued';
alter table outbox add column attempts bigint not null default 0;
alter table outbox add column next_attempt_at bigint not null default 0;
alter table outbox add column claimed_by text;
alter table outbox add column claimed_until bigint;
alter table outbox add column smtp_response text;
alter table outbox add column last_error text;
alter table outbox add column link_token_hash text;
update outbox set state = 'sent' where sent_at is not null;
create index outbox_due on outbox (state, next_attempt_at);
