-- Server-side sessions: the session token carries the id of one of these rows. Role and account
-- state are read from `users` on each request, so a revocation or demotion acts at once.
create table sessions (
    id text primary key,
    user_id text not null references users(id) on delete cascade,
    created_at bigint not null,
    last_seen_at bigint not null,
    -- Absolute end: renewal never goes past it.
    expires_at bigint not null,
    device text,
    client_address text,
    revoked_at bigint
);
create index sessions_user on sessions(user_id);

-- An account can be disabled: it cannot sign in and its sessions are revoked.
alter table users add column disabled_at bigint;

-- Single sign-on identities, linked to an account by the provider's (issuer, subject), never by
-- the e-mail claim alone.
create table sso_identities (
    issuer text not null,
    subject text not null,
    user_id text not null references users(id) on delete cascade,
    email text not null,
    created_at bigint not null,
    last_used_at bigint not null,
    primary key (issuer, subject)
);
create index sso_identities_user on sso_identities(user_id);

-- The browser that started a sign-in: hash of the value of its binding cookie.
alter table sso_logins add column binding_hash text;

-- Single-use codes the app exchanges for its session after single sign-on (hashes only).
create table sso_codes (
    code_hash text primary key,
    user_id text not null references users(id) on delete cascade,
    binding_hash text not null,
    created_at bigint not null
);

-- Sign-in throttling per key (account and client address, or client address alone): failures
-- are recorded before the password is checked, with an exponential back-off once over the limit.
create table login_throttle (
    key text primary key,
    failures integer not null,
    last_failure_at bigint not null,
    blocked_until bigint not null,
    prev_blocked_until bigint not null
);

-- Password reset links (hashes only), single-use.
create table password_resets (
    token_hash text primary key,
    user_id text not null references users(id) on delete cascade,
    created_at bigint not null,
    used_at bigint
);

-- Settings of this deployment, e.g. whether its database holds the demo.
create table instance_settings (
    name text primary key,
    value text not null
);
