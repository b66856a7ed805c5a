-- Agents (issue 17): each user's agent profile in its organization (its id is the user's id), the
-- organization's custom activities (statuses with an immutable `available` flag), the profile's skills
-- and teams as an index table for the list's filters, and agent sessions (one per login to logout).
-- `available` is kept beside `status`: an activity's flag never changes, so the copy never goes stale.
-- `resume_status` is the activity a capacity `busy` returns to. The agents module counts an assignee's
-- open tickets for its load: tickets get an index by (organization_id, assignee_id, status).
CREATE TABLE agents (
	id text COLLATE "C" NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	status text COLLATE "C" NOT NULL,
	available boolean NOT NULL,
	status_reason text COLLATE "C",
	resume_status text COLLATE "C",
	status_changed_at bigint NOT NULL,
	session_id text COLLATE "C",
	max_concurrent bigint,
	current_load bigint NOT NULL,
	auto_offline boolean NOT NULL,
	skills text COLLATE "C" NOT NULL,
	teams text COLLATE "C" NOT NULL,
	last_seen_at bigint,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	PRIMARY KEY (organization_id, id),
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX agents_org_created ON agents (organization_id, created_at, id);
--> statement-breakpoint
CREATE INDEX agents_org_status_changed ON agents (organization_id, status_changed_at, id);
--> statement-breakpoint
CREATE INDEX agents_org_load ON agents (organization_id, current_load, id);
--> statement-breakpoint
CREATE INDEX agents_org_status_created ON agents (organization_id, status, created_at, id);
--> statement-breakpoint
CREATE INDEX agents_logged_in ON agents (id) WHERE session_id IS NOT NULL;
--> statement-breakpoint
CREATE TABLE agent_labels (
	agent_id text COLLATE "C" NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	kind text COLLATE "C" NOT NULL,
	value text COLLATE "C" NOT NULL,
	PRIMARY KEY (agent_id, kind, value),
	FOREIGN KEY (organization_id, agent_id) REFERENCES agents (organization_id, id) ON UPDATE NO ACTION ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX agent_labels_org_kind_value ON agent_labels (organization_id, kind, value, agent_id);
--> statement-breakpoint
CREATE TABLE agent_activities (
	organization_id text COLLATE "C" NOT NULL,
	activity_key text COLLATE "C" NOT NULL,
	name text COLLATE "C" NOT NULL,
	available boolean NOT NULL,
	created_at bigint NOT NULL,
	PRIMARY KEY (organization_id, activity_key),
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE TABLE agent_sessions (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	agent_id text COLLATE "C" NOT NULL,
	login_at bigint NOT NULL,
	logout_at bigint,
	logout_reason text COLLATE "C",
	ip text COLLATE "C",
	user_agent text COLLATE "C",
	FOREIGN KEY (organization_id, agent_id) REFERENCES agents (organization_id, id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX agent_sessions_org_agent_login ON agent_sessions (organization_id, agent_id, login_at, id);
--> statement-breakpoint
CREATE INDEX tickets_org_assignee_status ON tickets (organization_id, assignee_id, status);
