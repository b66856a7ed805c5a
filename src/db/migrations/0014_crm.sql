-- CRM (issue 16): accounts (companies), contacts (people) and leads, each with the folded keys its
-- prefix search and sorts use (`name_key`: searchKey(name); e-mail lowercased; phone E.164), tag index
-- tables as tickets have, and tickets' optional contact. Contacts merged into another keep a row
-- (merged_into_id) so that the merged id is recorded; they leave every list.
CREATE TABLE accounts (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	name text COLLATE "C" NOT NULL,
	name_key text COLLATE "C" NOT NULL,
	domain text COLLATE "C",
	industry text COLLATE "C",
	size text COLLATE "C",
	owner_id text COLLATE "C",
	tags text COLLATE "C" NOT NULL,
	custom_fields text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (owner_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX accounts_org_domain ON accounts (organization_id, domain) WHERE domain IS NOT NULL;
--> statement-breakpoint
CREATE INDEX accounts_org_created ON accounts (organization_id, created_at, id);
--> statement-breakpoint
CREATE INDEX accounts_org_updated ON accounts (organization_id, updated_at, id);
--> statement-breakpoint
CREATE INDEX accounts_org_name ON accounts (organization_id, name_key, id);
--> statement-breakpoint
CREATE INDEX accounts_org_owner_created ON accounts (organization_id, owner_id, created_at, id);
--> statement-breakpoint
CREATE TABLE account_tags (
	account_id text COLLATE "C" NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	tag text COLLATE "C" NOT NULL,
	PRIMARY KEY (account_id, tag),
	FOREIGN KEY (account_id) REFERENCES accounts (id) ON UPDATE NO ACTION ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX account_tags_org_tag ON account_tags (organization_id, tag, account_id);
--> statement-breakpoint
CREATE TABLE contacts (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	name text COLLATE "C" NOT NULL,
	name_key text COLLATE "C" NOT NULL,
	email text COLLATE "C",
	phone text COLLATE "C",
	external_id text COLLATE "C",
	contact_type text COLLATE "C" NOT NULL,
	account_id text COLLATE "C",
	owner_id text COLLATE "C",
	blocked boolean NOT NULL,
	consent text COLLATE "C" NOT NULL,
	tags text COLLATE "C" NOT NULL,
	custom_fields text COLLATE "C" NOT NULL,
	last_activity_at bigint NOT NULL,
	merged_into_id text COLLATE "C",
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (account_id) REFERENCES accounts (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (owner_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX contacts_org_email ON contacts (organization_id, email) WHERE email IS NOT NULL AND merged_into_id IS NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX contacts_org_phone ON contacts (organization_id, phone) WHERE phone IS NOT NULL AND merged_into_id IS NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX contacts_org_external ON contacts (organization_id, external_id) WHERE external_id IS NOT NULL AND merged_into_id IS NULL;
--> statement-breakpoint
CREATE INDEX contacts_org_created ON contacts (organization_id, created_at, id);
--> statement-breakpoint
CREATE INDEX contacts_org_updated ON contacts (organization_id, updated_at, id);
--> statement-breakpoint
CREATE INDEX contacts_org_name ON contacts (organization_id, name_key, id);
--> statement-breakpoint
CREATE INDEX contacts_org_activity ON contacts (organization_id, last_activity_at, id);
--> statement-breakpoint
CREATE INDEX contacts_org_account_created ON contacts (organization_id, account_id, created_at, id);
--> statement-breakpoint
CREATE INDEX contacts_org_owner_created ON contacts (organization_id, owner_id, created_at, id);
--> statement-breakpoint
CREATE TABLE contact_tags (
	contact_id text COLLATE "C" NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	tag text COLLATE "C" NOT NULL,
	PRIMARY KEY (contact_id, tag),
	FOREIGN KEY (contact_id) REFERENCES contacts (id) ON UPDATE NO ACTION ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX contact_tags_org_tag ON contact_tags (organization_id, tag, contact_id);
--> statement-breakpoint
CREATE TABLE leads (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	name text COLLATE "C" NOT NULL,
	name_key text COLLATE "C" NOT NULL,
	email text COLLATE "C",
	phone text COLLATE "C",
	company_name text COLLATE "C",
	source text COLLATE "C",
	score bigint NOT NULL,
	status text COLLATE "C" NOT NULL,
	owner_id text COLLATE "C",
	converted_at bigint,
	converted_contact_id text COLLATE "C",
	converted_account_id text COLLATE "C",
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (owner_id) REFERENCES users (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX leads_org_created ON leads (organization_id, created_at, id);
--> statement-breakpoint
CREATE INDEX leads_org_updated ON leads (organization_id, updated_at, id);
--> statement-breakpoint
CREATE INDEX leads_org_score ON leads (organization_id, score, id);
--> statement-breakpoint
CREATE INDEX leads_org_status_created ON leads (organization_id, status, created_at, id);
--> statement-breakpoint
CREATE INDEX leads_org_owner_created ON leads (organization_id, owner_id, created_at, id);
--> statement-breakpoint
CREATE INDEX leads_org_source_created ON leads (organization_id, source, created_at, id);
--> statement-breakpoint
CREATE INDEX leads_org_name ON leads (organization_id, name_key, id);
--> statement-breakpoint
CREATE INDEX leads_converted_contact ON leads (converted_contact_id) WHERE converted_contact_id IS NOT NULL;
--> statement-breakpoint
ALTER TABLE tickets ADD COLUMN contact_id text COLLATE "C";
--> statement-breakpoint
CREATE INDEX tickets_org_contact_created ON tickets (organization_id, contact_id, created_at, id) WHERE contact_id IS NOT NULL;
