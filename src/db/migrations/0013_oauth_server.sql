-- The authorization server (issue 15). Sessions gain a kind: `api` (a sign-in through /api/v1/auth),
-- `browser` (the authorization server's sign-in cookie: no tokens of its own; cookie_hash is the
-- SHA-256 of the cookie) and `oauth` (the tokens one client got through one authorization code:
-- client_id, the granted scope, and the browser session it came from). Consents are remembered per
-- user and client in oauth_grants; authorization codes are kept (hashed) until they expire, so a
-- replayed one is recognised and the tokens it minted revoked.
ALTER TABLE sessions ADD COLUMN kind text COLLATE "C" NOT NULL DEFAULT 'api';
--> statement-breakpoint
ALTER TABLE sessions ADD COLUMN client_id text COLLATE "C";
--> statement-breakpoint
ALTER TABLE sessions ADD COLUMN scope text COLLATE "C";
--> statement-breakpoint
ALTER TABLE sessions ADD COLUMN parent_session_id text COLLATE "C";
--> statement-breakpoint
ALTER TABLE sessions ADD COLUMN cookie_hash text COLLATE "C";
--> statement-breakpoint
CREATE UNIQUE INDEX sessions_cookie ON sessions (cookie_hash) WHERE cookie_hash IS NOT NULL;
--> statement-breakpoint
CREATE INDEX sessions_client_user ON sessions (client_id, user_id) WHERE client_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX sessions_parent ON sessions (parent_session_id) WHERE parent_session_id IS NOT NULL;
--> statement-breakpoint
CREATE TABLE oauth_grants (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	user_id text COLLATE "C" NOT NULL,
	client_id text COLLATE "C" NOT NULL,
	scope text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	revoked_at bigint,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX oauth_grants_user_client ON oauth_grants (user_id, client_id);
--> statement-breakpoint
CREATE INDEX oauth_grants_org_created ON oauth_grants (organization_id, created_at, id);
--> statement-breakpoint
CREATE TABLE oauth_codes (
	code_hash text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	client_id text COLLATE "C" NOT NULL,
	user_id text COLLATE "C" NOT NULL,
	redirect_uri text COLLATE "C" NOT NULL,
	scope text COLLATE "C" NOT NULL,
	code_challenge text COLLATE "C",
	nonce text COLLATE "C",
	browser_session_id text COLLATE "C" NOT NULL,
	auth_time bigint NOT NULL,
	auth_methods text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	expires_at bigint NOT NULL,
	consumed_at bigint,
	session_id text COLLATE "C"
);
--> statement-breakpoint
CREATE INDEX oauth_codes_expires ON oauth_codes (expires_at);
