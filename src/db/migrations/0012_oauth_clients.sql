-- OAuth clients (issue 15): the applications that may ask this authorization server for tokens. The
-- first table made by a portable migration: integers are bigint on both engines (INTEGER affinity on
-- SQLite); text is COLLATE "C" as on the PostgreSQL baseline, a clause the runner drops on SQLite,
-- whose default BINARY collation is the same byte order (src/db/migrate.ts).
CREATE TABLE oauth_clients (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	name text COLLATE "C" NOT NULL,
	client_type text COLLATE "C" NOT NULL,
	secret_hash text COLLATE "C",
	secret_hint text COLLATE "C",
	redirect_uris text COLLATE "C" NOT NULL,
	post_logout_redirect_uris text COLLATE "C" NOT NULL,
	grant_types text COLLATE "C" NOT NULL,
	scopes text COLLATE "C" NOT NULL,
	created_by text COLLATE "C",
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	secret_rotated_at bigint,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX oauth_clients_org_created ON oauth_clients (organization_id, created_at, id);
