-- Secrets the server keeps for itself, the same on every node (created on first use).
-- `idempotency`: the HMAC key of the Idempotency-Key fingerprints (backend/src/idempotency.rs),
-- so a fingerprint of a body that holds a password cannot be checked against guesses by whoever
-- reads the table alone.
create table server_secrets (
    name text primary key,
    value text not null
);

-- Fingerprints kept so far are plain SHA-256 of the request: removed. A retry of one of these keys
-- is matched on the key alone (the user's own, for the same command).
update idempotency_keys set fingerprint = '';
