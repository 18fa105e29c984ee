-- Read model of the terms acceptances (events of the `TermsAcceptance` aggregate).
create table terms_acceptances (
    user_id text not null,
    version text not null,
    accepted_at bigint not null,
    primary key (user_id, version)
);
