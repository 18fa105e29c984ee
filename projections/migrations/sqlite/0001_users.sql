-- Accounts and sessions.
create table users (
    id text primary key,
    email text not null unique,
    first_name text not null,
    last_name text not null,
    password_hash text,
    role text not null default 'user',
    certificate text,
    teams text,
    -- null means "not yet decided", which the app treats as "must accept".
    terms_accepted_at bigint,
    onboarding_done_at bigint,
    created_at bigint not null
);

-- Failed sign-in attempts per e-mail, so repeated guessing is refused on every node.
create table login_failures (
    email text primary key,
    failures integer not null,
    window_started_at bigint not null
);

create table devices (
    id integer primary key autoincrement,
    user_id text not null references users(id) on delete cascade,
    push_id text,
    os text,
    uuid text,
    app_version text,
    browser text,
    device text,
    registered_at bigint not null
);
create index devices_user on devices(user_id);

-- Single sign-on logins in flight: the OpenID Connect state, nonce and PKCE verifier.
create table sso_logins (
    state text primary key,
    nonce text not null,
    pkce_verifier text not null,
    provider text not null,
    created_at bigint not null
);
