-- Idempotency-Key on every POST (issue 16; Stripe's rules): the first answer to a key is kept 24 h and
-- replayed to the same caller's retries. `scope` is who may replay it (the credential's user id: the
-- routes without a credential take no key); `request_hash` an HMAC-SHA256 of method, path and body, so the
-- same key with other parameters is refused; `status` is `in_progress` while the first request runs.
CREATE TABLE idempotency_keys (
	scope text COLLATE "C" NOT NULL,
	idempotency_key text COLLATE "C" NOT NULL,
	organization_id text COLLATE "C",
	request_hash text COLLATE "C" NOT NULL,
	status text COLLATE "C" NOT NULL,
	response_status bigint,
	response_headers text COLLATE "C",
	response_body text COLLATE "C",
	created_at bigint NOT NULL,
	expires_at bigint NOT NULL,
	PRIMARY KEY (scope, idempotency_key)
);
--> statement-breakpoint
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);
