-- Uploads (issue 17): files received as streams and kept on the local disk or in S3 under a random
-- storage_key, their sniffed type, size and SHA-256, and what they are attached to. A row is written
-- first as `receiving` (before any byte is stored) so that a crash mid-upload leaves a row the cron loop
-- finds and cleans; purged_at says when the bytes of an expired or deleted upload were removed.
-- Tickets and comments list the uploads attached to them (a JSON array of ids, so lists stay one read).
CREATE TABLE uploads (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	filename text COLLATE "C" NOT NULL,
	content_type text COLLATE "C" NOT NULL,
	size_bytes bigint NOT NULL,
	sha256 text COLLATE "C" NOT NULL,
	width bigint,
	height bigint,
	purpose text COLLATE "C" NOT NULL,
	status text COLLATE "C" NOT NULL,
	storage_key text COLLATE "C" NOT NULL,
	expires_at bigint NOT NULL,
	attached_type text COLLATE "C",
	attached_id text COLLATE "C",
	attached_at bigint,
	created_by text COLLATE "C",
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	deleted_at bigint,
	deleted_by text COLLATE "C",
	purged_at bigint,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (created_by) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX uploads_storage_key ON uploads (storage_key);
--> statement-breakpoint
CREATE INDEX uploads_org_created ON uploads (organization_id, created_at, id);
--> statement-breakpoint
CREATE INDEX uploads_org_size ON uploads (organization_id, size_bytes, id);
--> statement-breakpoint
CREATE INDEX uploads_status_expires ON uploads (status, expires_at);
--> statement-breakpoint
CREATE INDEX uploads_unpurged ON uploads (updated_at) WHERE purged_at IS NULL AND status IN ('expired', 'deleted');
--> statement-breakpoint
CREATE INDEX uploads_attached ON uploads (attached_type, attached_id);
--> statement-breakpoint
ALTER TABLE tickets ADD COLUMN upload_ids text COLLATE "C" NOT NULL DEFAULT '[]';
--> statement-breakpoint
ALTER TABLE ticket_comments ADD COLUMN upload_ids text COLLATE "C" NOT NULL DEFAULT '[]';
