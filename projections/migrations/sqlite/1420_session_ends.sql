-- A successful password reset ends the account's other outstanding links: found by account.
create index password_resets_user on password_resets(user_id);
