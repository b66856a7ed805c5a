-- Reports. The event log says who acted (a person, or an automation: a personal access token, an OAuth
-- client's own token, the system), so a first response can be a person's. The reports module folds the
-- log, in each organization's stream order, into facts (one row per counted thing, with its value and
-- dimensions: what `GET /reports/records` lists) and 15-minute UTC buckets of those facts (counts, sums
-- and duration histograms, per dimension value), which any time zone re-aggregates. Times are epoch ms.
ALTER TABLE events ADD COLUMN actor_kind text COLLATE "C";
--> statement-breakpoint
CREATE TABLE report_facts (
	organization_id text COLLATE "C" NOT NULL,
	metric text COLLATE "C" NOT NULL,
	at bigint NOT NULL,
	record_type text COLLATE "C" NOT NULL,
	record_id text COLLATE "C" NOT NULL,
	seq bigint NOT NULL,
	value double precision,
	started_at bigint,
	business_value double precision,
	dims text COLLATE "C" NOT NULL,
	PRIMARY KEY (organization_id, metric, at, seq, record_id)
);
--> statement-breakpoint
CREATE INDEX report_facts_record ON report_facts (organization_id, record_id, metric);
--> statement-breakpoint
CREATE TABLE report_buckets (
	organization_id text COLLATE "C" NOT NULL,
	metric text COLLATE "C" NOT NULL,
	dim text COLLATE "C" NOT NULL,
	dim_value text COLLATE "C" NOT NULL,
	bucket_start bigint NOT NULL,
	n bigint NOT NULL,
	total double precision NOT NULL,
	business_total double precision NOT NULL,
	hist text COLLATE "C" NOT NULL,
	business_hist text COLLATE "C" NOT NULL,
	-- bucket_start before dim_value: a report reads a time range of one dimension (all its values).
	PRIMARY KEY (organization_id, metric, dim, bucket_start, dim_value)
);
--> statement-breakpoint
CREATE TABLE report_state (
	organization_id text COLLATE "C" NOT NULL,
	state_key text COLLATE "C" NOT NULL,
	value text COLLATE "C" NOT NULL,
	PRIMARY KEY (organization_id, state_key)
);
--> statement-breakpoint
CREATE TABLE report_progress (
	organization_id text COLLATE "C" PRIMARY KEY NOT NULL,
	folded_seq bigint NOT NULL,
	folded_at bigint NOT NULL,
	-- A rebuild from a date: the facts before keep_before stay, so reading the log again up to
	-- keep_until_seq rebuilds only the state from them and the facts from keep_before on.
	keep_before bigint,
	keep_until_seq bigint,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
-- Records deleted since they were counted (a deleted ticket): the next fold takes their facts out of
-- the buckets; until then a report leaves them out itself.
CREATE TABLE report_deletions (
	organization_id text COLLATE "C" NOT NULL,
	record_id text COLLATE "C" NOT NULL,
	deleted_at bigint NOT NULL,
	folded boolean NOT NULL,
	PRIMARY KEY (organization_id, record_id)
);
--> statement-breakpoint
CREATE INDEX report_deletions_pending ON report_deletions (organization_id) WHERE folded = false;
--> statement-breakpoint
CREATE TABLE report_settings (
	organization_id text COLLATE "C" PRIMARY KEY NOT NULL,
	time_zone text COLLATE "C" NOT NULL,
	business_hours text COLLATE "C",
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
