-- Calls and call recordings (issue 17), and each organization's call settings (recording retention, the
-- Twilio account whose status callbacks drive calls). Phone numbers are E.164; times are epoch ms;
-- wait and talk seconds are computed once when the times that define them are known. Active calls
-- (queued, ringing, in_progress) count in their agent's load: the agents module reads `calls` directly
-- by (organization_id, agent_id, status). Recordings keep their row when deleted (compliance: who and
-- when), only their bytes go.
CREATE TABLE calls (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	direction text COLLATE "C" NOT NULL,
	from_number text COLLATE "C" NOT NULL,
	to_number text COLLATE "C" NOT NULL,
	contact_id text COLLATE "C",
	agent_id text COLLATE "C",
	queue text COLLATE "C",
	status text COLLATE "C" NOT NULL,
	provider text COLLATE "C" NOT NULL,
	provider_call_id text COLLATE "C",
	initialized_at bigint NOT NULL,
	ringing_at bigint,
	answered_at bigint,
	ended_at bigint,
	wait_seconds bigint,
	talk_seconds bigint,
	end_reason text COLLATE "C",
	ticket_id text COLLATE "C",
	created_by text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (contact_id) REFERENCES contacts (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (agent_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (ticket_id) REFERENCES tickets (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX calls_org_provider_call ON calls (organization_id, provider, provider_call_id) WHERE provider_call_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX calls_org_agent_status ON calls (organization_id, agent_id, status);
--> statement-breakpoint
CREATE INDEX calls_org_created ON calls (organization_id, created_at, id);
--> statement-breakpoint
CREATE INDEX calls_org_initialized ON calls (organization_id, initialized_at, id);
--> statement-breakpoint
CREATE INDEX calls_org_updated ON calls (organization_id, updated_at, id);
--> statement-breakpoint
CREATE INDEX calls_org_status_created ON calls (organization_id, status, created_at, id);
--> statement-breakpoint
CREATE INDEX calls_org_agent_created ON calls (organization_id, agent_id, created_at, id);
--> statement-breakpoint
CREATE INDEX calls_org_contact_created ON calls (organization_id, contact_id, created_at, id);
--> statement-breakpoint
CREATE INDEX calls_org_queue_created ON calls (organization_id, queue, created_at, id);
--> statement-breakpoint
CREATE TABLE recordings (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	call_id text COLLATE "C" NOT NULL,
	upload_id text COLLATE "C" NOT NULL,
	status text COLLATE "C" NOT NULL,
	duration_ms bigint,
	content_type text COLLATE "C" NOT NULL,
	size_bytes bigint NOT NULL,
	sha256 text COLLATE "C" NOT NULL,
	failure_reason text COLLATE "C",
	retention_until bigint NOT NULL,
	ready_at bigint,
	deleted_at bigint,
	deleted_by text COLLATE "C",
	created_by text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (call_id) REFERENCES calls (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX recordings_org_call_created ON recordings (organization_id, call_id, created_at, id);
--> statement-breakpoint
CREATE INDEX recordings_status_updated ON recordings (status, updated_at);
--> statement-breakpoint
CREATE INDEX recordings_retention ON recordings (retention_until) WHERE deleted_at IS NULL;
--> statement-breakpoint
CREATE TABLE call_settings (
	organization_id text COLLATE "C" PRIMARY KEY NOT NULL,
	recording_retention_days bigint NOT NULL,
	twilio_account_sid text COLLATE "C",
	twilio_auth_token_encrypted text COLLATE "C",
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX call_settings_twilio_account ON call_settings (twilio_account_sid) WHERE twilio_account_sid IS NOT NULL;
