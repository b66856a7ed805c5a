-- Engagement sessions (conversations) and their messages, survey responses (CSAT, NPS, CES) with their
-- one-time public links, each organization's survey settings (issue 19), and the events' stream order.
-- JSON columns are text; times are epoch ms.
CREATE TABLE engagements (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	contact_id text COLLATE "C" NOT NULL,
	channel text COLLATE "C" NOT NULL,
	status text COLLATE "C" NOT NULL,
	assignee_id text COLLATE "C",
	team text COLLATE "C",
	required_skill text COLLATE "C",
	priority text COLLATE "C" NOT NULL,
	subject text COLLATE "C",
	first_reply_at bigint,
	waiting_since bigint,
	last_activity_at bigint NOT NULL,
	snoozed_until bigint,
	closed_at bigint,
	close_reason text COLLATE "C",
	labels text COLLATE "C" NOT NULL,
	custom_fields text COLLATE "C" NOT NULL,
	ticket_id text COLLATE "C",
	call_id text COLLATE "C",
	escalated_at bigint,
	escalation_level bigint,
	escalated_to text COLLATE "C",
	escalation_reason text COLLATE "C",
	created_by text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (contact_id) REFERENCES contacts (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (assignee_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (ticket_id) REFERENCES tickets (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (call_id) REFERENCES calls (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX engagements_org_created ON engagements (organization_id, created_at, id);
--> statement-breakpoint
CREATE INDEX engagements_org_status_created ON engagements (organization_id, status, created_at, id);
--> statement-breakpoint
CREATE INDEX engagements_org_assignee_status ON engagements (organization_id, assignee_id, status);
--> statement-breakpoint
CREATE INDEX engagements_org_contact_created ON engagements (organization_id, contact_id, created_at, id);
--> statement-breakpoint
CREATE INDEX engagements_snoozed ON engagements (snoozed_until, id) WHERE snoozed_until IS NOT NULL;
--> statement-breakpoint
CREATE INDEX engagements_status_activity ON engagements (status, last_activity_at, id);
--> statement-breakpoint
-- direction in|out; author_type contact|agent (author_id the contact's or the user's id).
CREATE TABLE engagement_messages (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	engagement_id text COLLATE "C" NOT NULL,
	direction text COLLATE "C" NOT NULL,
	author_type text COLLATE "C" NOT NULL,
	author_id text COLLATE "C" NOT NULL,
	body text COLLATE "C" NOT NULL,
	upload_ids text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (engagement_id) REFERENCES engagements (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX engagement_messages_engagement ON engagement_messages (engagement_id, created_at, id);
--> statement-breakpoint
-- One survey per subject and type; the public link's token is kept as its SHA-256.
CREATE TABLE survey_responses (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	survey_type text COLLATE "C" NOT NULL,
	subject_type text COLLATE "C" NOT NULL,
	subject_id text COLLATE "C" NOT NULL,
	contact_id text COLLATE "C",
	agent_id text COLLATE "C",
	team text COLLATE "C",
	channel text COLLATE "C",
	status text COLLATE "C" NOT NULL,
	score bigint,
	comment text COLLATE "C",
	reason_code text COLLATE "C",
	questions text COLLATE "C" NOT NULL,
	answers text COLLATE "C" NOT NULL,
	token_hash text COLLATE "C" NOT NULL,
	offered_at bigint NOT NULL,
	responded_at bigint,
	expires_at bigint NOT NULL,
	created_by text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (contact_id) REFERENCES contacts (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (agent_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX survey_responses_subject ON survey_responses (organization_id, subject_type, subject_id, survey_type);
--> statement-breakpoint
CREATE UNIQUE INDEX survey_responses_token ON survey_responses (token_hash);
--> statement-breakpoint
CREATE INDEX survey_responses_org_offered ON survey_responses (organization_id, offered_at, id);
--> statement-breakpoint
CREATE INDEX survey_responses_org_agent_offered ON survey_responses (organization_id, agent_id, offered_at, id);
--> statement-breakpoint
CREATE INDEX survey_responses_expiring ON survey_responses (expires_at, id) WHERE status = 'offered';
--> statement-breakpoint
-- Which surveys are offered automatically: JSON objects of survey types by ticket (solved) and by
-- engagement channel (closed).
CREATE TABLE survey_settings (
	organization_id text COLLATE "C" PRIMARY KEY NOT NULL,
	on_ticket_solved text COLLATE "C" NOT NULL,
	on_engagement_closed text COLLATE "C" NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
-- The events' order per organization, given in the writing transaction (writes are serialized, on
-- PostgreSQL by an advisory lock across instances): the live stream's Last-Event-ID resumes after it.
-- Events written before this migration have none and are not replayed.
ALTER TABLE events ADD COLUMN stream_seq bigint;
--> statement-breakpoint
CREATE UNIQUE INDEX events_org_stream ON events (organization_id, stream_seq) WHERE stream_seq IS NOT NULL;
