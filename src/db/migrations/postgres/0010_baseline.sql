-- PostgreSQL baseline: the schema SQLite migrations 0000-0010 produce, in one migration (tag
-- 0010_postgres_baseline). A PostgreSQL database runs this instead of 0000-0010, then the portable
-- migrations from 0011 on, like SQLite. Same tables, columns in the same order with the same
-- nullability and defaults, the same primary and foreign keys (same ON DELETE), the same index names.
-- audit_logs_org_seq is not here: portable migration 0011 creates it on both engines.
--
-- Types:
-- * text: text COLLATE "C". SQLite compares text byte by byte (BINARY); "C" does the same whatever
--   the locale the cluster or database was created with, so ORDER BY, keyset seeks and unique keys
--   behave as on SQLite, and LIKE 'prefix%' can use the btree indexes. lower() and ILIKE then fold
--   ASCII only, as SQLite's lower() and LIKE do.
-- * Integers (epoch milliseconds, counts, numbers, seq, codes, durations): bigint, so nothing overflows
--   (epoch milliseconds do not fit in a 32-bit integer). The dialect hands int8 back as numbers.
-- * The four 0/1 flags are boolean: organizations.mfa_required, sessions.mfa_enrollment_only,
--   ticket_comments.public, webhooks.enabled. Every writer binds a JS boolean (Kysely inserts and
--   updates, the raw UPDATE of disableWebhookRow): bun:sqlite stores it as 0/1, Bun.SQL sends a
--   PostgreSQL boolean, which an integer column refuses (and an integer is refused by a boolean one).
--   Every reader goes through Boolean() or truthiness, true for 1 and for true alike; the one flag used
--   inside SQL, NOT mfa_required in the API-key lookup, needs a boolean on PostgreSQL and works on
--   SQLite's 0/1. DEFAULT false is what the SQLite migrations say as well.
--
-- Append-only audit log: one trigger function refuses UPDATE, DELETE and TRUNCATE of audit_logs
-- (SQLite has no TRUNCATE: its DELETE without WHERE fires the delete trigger) and an INSERT that reuses
-- an id or a chain position (coalesce(organization_id, ''), seq), with the SQLite triggers' message.
-- An upsert on PostgreSQL meets the insert check first, like SQLite's. Two transactions inserting the
-- same id or position at once do not see each other in the check: the primary key and the unique
-- index audit_logs_chain_seq refuse the second (a unique violation, not the append-only message).
--
-- This file must contain no question mark: the raw-SQL helper numbers those as placeholders.
CREATE TABLE system_kv (
	key text COLLATE "C" PRIMARY KEY NOT NULL,
	value text COLLATE "C" NOT NULL,
	updated_at bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE organizations (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	name text COLLATE "C" NOT NULL,
	plan text COLLATE "C" NOT NULL,
	settings text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	allowed_ips text COLLATE "C" DEFAULT '[]' NOT NULL,
	max_concurrent_sessions bigint,
	session_limit_policy text COLLATE "C" DEFAULT 'evict_oldest' NOT NULL,
	mfa_required boolean DEFAULT false NOT NULL,
	rate_limit_per_minute bigint,
	rate_limit_per_day bigint
);
--> statement-breakpoint
CREATE TABLE users (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	email text COLLATE "C" NOT NULL,
	name text COLLATE "C" NOT NULL,
	role text COLLATE "C" NOT NULL,
	status text COLLATE "C" NOT NULL,
	password_hash text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	name_key text COLLATE "C" DEFAULT '' NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX users_email_unique ON users (email);
--> statement-breakpoint
CREATE INDEX users_org_created ON users (organization_id, created_at, id);
--> statement-breakpoint
CREATE INDEX users_org_name_key ON users (organization_id, name_key, id);
--> statement-breakpoint
CREATE TABLE events (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	type text COLLATE "C" NOT NULL,
	body text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX events_org_created ON events (organization_id, created_at, id);
--> statement-breakpoint
CREATE TABLE sessions (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	user_id text COLLATE "C" NOT NULL,
	ip text COLLATE "C",
	user_agent text COLLATE "C",
	created_at bigint NOT NULL,
	last_used_at bigint NOT NULL,
	access_expires_at bigint NOT NULL,
	revoked_at bigint,
	revoked_reason text COLLATE "C",
	expires_at bigint DEFAULT 0 NOT NULL,
	auth_methods text COLLATE "C" DEFAULT '[]' NOT NULL,
	mfa_enrollment_only boolean DEFAULT false NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (user_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX sessions_user ON sessions (user_id, created_at, id);
--> statement-breakpoint
CREATE INDEX sessions_revoked ON sessions (revoked_at);
--> statement-breakpoint
CREATE TABLE refresh_tokens (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	session_id text COLLATE "C" NOT NULL,
	token_hash text COLLATE "C" NOT NULL,
	generation bigint NOT NULL,
	created_at bigint NOT NULL,
	expires_at bigint NOT NULL,
	consumed_at bigint,
	FOREIGN KEY (session_id) REFERENCES sessions (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX refresh_tokens_token_hash_unique ON refresh_tokens (token_hash);
--> statement-breakpoint
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);
--> statement-breakpoint
CREATE INDEX refresh_tokens_expires ON refresh_tokens (expires_at);
--> statement-breakpoint
CREATE TABLE revoked_tokens (
	jti text COLLATE "C" PRIMARY KEY NOT NULL,
	expires_at bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX revoked_tokens_expires ON revoked_tokens (expires_at);
--> statement-breakpoint
CREATE TABLE signing_keys (
	kid text COLLATE "C" PRIMARY KEY NOT NULL,
	alg text COLLATE "C" NOT NULL,
	public_jwk text COLLATE "C" NOT NULL,
	private_key_encrypted text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	activates_at bigint NOT NULL,
	max_token_expires_at bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE tickets (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	number bigint NOT NULL,
	subject text COLLATE "C" NOT NULL,
	description text COLLATE "C" NOT NULL,
	status text COLLATE "C" NOT NULL,
	priority bigint NOT NULL,
	type text COLLATE "C",
	channel text COLLATE "C" NOT NULL,
	requester_name text COLLATE "C",
	requester_email text COLLATE "C",
	assignee_id text COLLATE "C",
	tags text COLLATE "C" NOT NULL,
	custom_fields text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	solved_at bigint,
	closed_at bigint,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (assignee_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX tickets_org_number ON tickets (organization_id, number);
--> statement-breakpoint
CREATE INDEX tickets_org_created ON tickets (organization_id, created_at, id);
--> statement-breakpoint
CREATE INDEX tickets_org_updated ON tickets (organization_id, updated_at, id);
--> statement-breakpoint
CREATE INDEX tickets_org_priority ON tickets (organization_id, priority, id);
--> statement-breakpoint
CREATE INDEX tickets_org_status_created ON tickets (organization_id, status, created_at, id);
--> statement-breakpoint
CREATE INDEX tickets_org_assignee_created ON tickets (organization_id, assignee_id, created_at, id);
--> statement-breakpoint
CREATE INDEX tickets_status_solved ON tickets (status, solved_at);
--> statement-breakpoint
CREATE TABLE ticket_comments (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	ticket_id text COLLATE "C" NOT NULL,
	author_id text COLLATE "C" NOT NULL,
	body text COLLATE "C" NOT NULL,
	public boolean NOT NULL,
	created_at bigint NOT NULL,
	FOREIGN KEY (ticket_id) REFERENCES tickets (id) ON UPDATE NO ACTION ON DELETE CASCADE,
	FOREIGN KEY (author_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX ticket_comments_ticket_created ON ticket_comments (ticket_id, created_at, id);
--> statement-breakpoint
CREATE TABLE ticket_counters (
	organization_id text COLLATE "C" PRIMARY KEY NOT NULL,
	last_number bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE TABLE ticket_tags (
	ticket_id text COLLATE "C" NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	tag text COLLATE "C" NOT NULL,
	PRIMARY KEY (ticket_id, tag),
	FOREIGN KEY (ticket_id) REFERENCES tickets (id) ON UPDATE NO ACTION ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX ticket_tags_org_tag ON ticket_tags (organization_id, tag, ticket_id);
--> statement-breakpoint
CREATE TABLE api_keys (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	user_id text COLLATE "C" NOT NULL,
	name text COLLATE "C" NOT NULL,
	token_hash text COLLATE "C" NOT NULL,
	prefix text COLLATE "C" NOT NULL,
	permissions text COLLATE "C",
	created_at bigint NOT NULL,
	expires_at bigint NOT NULL,
	last_used_at bigint,
	last_used_ip text COLLATE "C",
	revoked_at bigint,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (user_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX api_keys_token_hash_unique ON api_keys (token_hash);
--> statement-breakpoint
CREATE INDEX api_keys_user_created ON api_keys (user_id, created_at, id);
--> statement-breakpoint
CREATE TABLE audit_logs (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C",
	seq bigint NOT NULL,
	created_at bigint NOT NULL,
	actor_type text COLLATE "C" NOT NULL,
	actor_id text COLLATE "C",
	credential_id text COLLATE "C",
	event text COLLATE "C" NOT NULL,
	outcome text COLLATE "C" NOT NULL,
	reason text COLLATE "C",
	ip text COLLATE "C",
	user_agent text COLLATE "C",
	request_id text COLLATE "C",
	target_type text COLLATE "C",
	target_id text COLLATE "C",
	details text COLLATE "C" NOT NULL,
	prev_hash text COLLATE "C" NOT NULL,
	hash text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX audit_logs_chain_seq ON audit_logs ((coalesce(organization_id, '')), seq);
--> statement-breakpoint
CREATE INDEX audit_logs_org_created ON audit_logs (organization_id, created_at, id);
--> statement-breakpoint
CREATE FUNCTION audit_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		-- Two EXISTS, each an equality on a unique index (the primary key, audit_logs_chain_seq).
		IF EXISTS (SELECT 1 FROM audit_logs WHERE id = NEW.id)
			OR EXISTS (SELECT 1 FROM audit_logs WHERE coalesce(organization_id, '') = coalesce(NEW.organization_id, '') AND seq = NEW.seq) THEN
			RAISE EXCEPTION 'audit_logs is append-only';
		END IF;
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'audit_logs is append-only';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_logs_no_update BEFORE UPDATE ON audit_logs FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_logs_no_delete BEFORE DELETE ON audit_logs FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_logs_no_overwrite BEFORE INSERT ON audit_logs FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_logs_no_truncate BEFORE TRUNCATE ON audit_logs FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_append_only();
--> statement-breakpoint
CREATE TABLE mfa_challenges (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	token_hash text COLLATE "C" NOT NULL,
	user_id text COLLATE "C" NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	methods text COLLATE "C" NOT NULL,
	attempts bigint DEFAULT 0 NOT NULL,
	created_at bigint NOT NULL,
	expires_at bigint NOT NULL,
	consumed_at bigint,
	sms_code_hash text COLLATE "C",
	sms_expires_at bigint,
	FOREIGN KEY (user_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX mfa_challenges_token_hash_unique ON mfa_challenges (token_hash);
--> statement-breakpoint
CREATE INDEX mfa_challenges_expires ON mfa_challenges (expires_at);
--> statement-breakpoint
CREATE TABLE mfa_factors (
	user_id text COLLATE "C" NOT NULL,
	method text COLLATE "C" NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	secret_encrypted text COLLATE "C",
	phone text COLLATE "C",
	confirmed_at bigint,
	last_step bigint,
	pending_secret_encrypted text COLLATE "C",
	pending_phone text COLLATE "C",
	pending_code_hash text COLLATE "C",
	pending_expires_at bigint,
	pending_attempts bigint DEFAULT 0 NOT NULL,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	PRIMARY KEY (user_id, method),
	FOREIGN KEY (user_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE TABLE mfa_recovery_codes (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	user_id text COLLATE "C" NOT NULL,
	code_hash text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	used_at bigint,
	FOREIGN KEY (user_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX mfa_recovery_codes_user ON mfa_recovery_codes (user_id);
--> statement-breakpoint
CREATE TABLE sms_messages (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	user_id text COLLATE "C" NOT NULL,
	purpose text COLLATE "C" NOT NULL,
	sent_at bigint NOT NULL,
	FOREIGN KEY (user_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX sms_messages_user_sent ON sms_messages (user_id, sent_at);
--> statement-breakpoint
CREATE TABLE rate_limit_counters (
	key text COLLATE "C" PRIMARY KEY NOT NULL,
	window_ms bigint NOT NULL,
	window_start bigint NOT NULL,
	current bigint NOT NULL,
	previous bigint NOT NULL,
	updated_at bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE webhooks (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	url text COLLATE "C" NOT NULL,
	events text COLLATE "C" NOT NULL,
	secret_sealed text COLLATE "C" NOT NULL,
	description text COLLATE "C",
	enabled boolean NOT NULL,
	disabled_reason text COLLATE "C",
	disabled_at bigint,
	consecutive_failures bigint NOT NULL,
	failing_since bigint,
	last_success_at bigint,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX webhooks_org_created ON webhooks (organization_id, created_at, id);
--> statement-breakpoint
CREATE TABLE webhook_deliveries (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	webhook_id text COLLATE "C" NOT NULL,
	event_id text COLLATE "C" NOT NULL,
	event_type text COLLATE "C" NOT NULL,
	attempt bigint NOT NULL,
	trigger text COLLATE "C" NOT NULL,
	status text COLLATE "C" NOT NULL,
	next_attempt_at bigint,
	lease_until bigint,
	response_code bigint,
	response_time_ms bigint,
	response_body text COLLATE "C",
	error_class text COLLATE "C",
	error_message text COLLATE "C",
	delivered_at bigint,
	created_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (webhook_id) REFERENCES webhooks (id) ON UPDATE NO ACTION ON DELETE CASCADE,
	FOREIGN KEY (event_id) REFERENCES events (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX webhook_deliveries_webhook_created ON webhook_deliveries (webhook_id, created_at, id);
--> statement-breakpoint
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
--> statement-breakpoint
CREATE INDEX webhook_deliveries_due_first ON webhook_deliveries (webhook_id, next_attempt_at, lease_until) WHERE status = 'pending' AND attempt = 1;
--> statement-breakpoint
CREATE INDEX webhook_deliveries_due_retry ON webhook_deliveries (webhook_id, next_attempt_at, lease_until) WHERE status = 'pending' AND attempt > 1;
--> statement-breakpoint
CREATE TABLE webhook_allowed_cidrs (
	organization_id text COLLATE "C" PRIMARY KEY NOT NULL,
	cidrs text COLLATE "C" NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
