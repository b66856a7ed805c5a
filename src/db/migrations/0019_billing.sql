-- Billing (issue 18), mirroring Stripe's objects: the plans (their request rates) and their prices,
-- each organization's billing account (tax rate, dunning choice, invoice numbering, credit balance),
-- subscriptions, invoices with their lines, payments (PaymentIntents) and refunds, the Stripe events
-- already received, and the operator's API tokens. Money is integer minor units (bigint) with a
-- lowercase ISO 4217 currency, never a float; times are epoch ms.
CREATE TABLE plans (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	name text COLLATE "C" NOT NULL,
	rate_limit_per_minute bigint NOT NULL,
	rate_limit_per_day bigint NOT NULL,
	updated_at bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO plans (id, name, rate_limit_per_minute, rate_limit_per_day, updated_at) VALUES
	('free', 'Free', 60, 1000, 0),
	('starter', 'Starter', 300, 10000, 0),
	('professional', 'Professional', 1000, 100000, 0),
	('enterprise', 'Enterprise', 1000, 100000, 0);
--> statement-breakpoint
-- A price never changes (as Stripe's): setting a plan's price for a currency and interval makes a new
-- row and deactivates the old one (deactivated_at), which the subscriptions already on it keep until they change. An
-- Enterprise price may belong to one organization (its custom price).
CREATE TABLE plan_prices (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	plan_id text COLLATE "C" NOT NULL,
	organization_id text COLLATE "C",
	currency text COLLATE "C" NOT NULL,
	billing_interval text COLLATE "C" NOT NULL,
	unit_amount bigint NOT NULL,
	created_at bigint NOT NULL,
	deactivated_at bigint,
	FOREIGN KEY (plan_id) REFERENCES plans (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX plan_prices_active_public ON plan_prices (plan_id, currency, billing_interval) WHERE deactivated_at IS NULL AND organization_id IS NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX plan_prices_active_org ON plan_prices (plan_id, organization_id, currency, billing_interval) WHERE deactivated_at IS NULL AND organization_id IS NOT NULL;
--> statement-breakpoint
-- One row per organization that has ever been billed (made on first use). The tax rate is in basis
-- points (2000 = 20 %). Invoice numbers come from next_invoice_number, taken in the finalizing
-- transaction, so they have no gaps. credit_balance is what the organization is owed (a downgrade's
-- credit), in balance_currency, taken off its next invoices.
CREATE TABLE billing_accounts (
	organization_id text COLLATE "C" PRIMARY KEY NOT NULL,
	tax_rate_bps bigint NOT NULL,
	on_retries_exhausted text COLLATE "C" NOT NULL,
	days_until_due bigint NOT NULL,
	next_invoice_number bigint NOT NULL,
	credit_balance bigint NOT NULL,
	balance_currency text COLLATE "C",
	billing_email text COLLATE "C",
	billing_name text COLLATE "C",
	billing_address text COLLATE "C",
	provider_customer_id text COLLATE "C",
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
-- An organization's current subscription is its one row without ended_at (canceled and
-- incomplete_expired end one). unit_amount, currency and billing_interval are the price's, copied.
CREATE TABLE subscriptions (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	plan_id text COLLATE "C" NOT NULL,
	price_id text COLLATE "C" NOT NULL,
	currency text COLLATE "C" NOT NULL,
	billing_interval text COLLATE "C" NOT NULL,
	unit_amount bigint NOT NULL,
	quantity bigint NOT NULL,
	status text COLLATE "C" NOT NULL,
	collection_method text COLLATE "C" NOT NULL,
	current_period_start bigint NOT NULL,
	current_period_end bigint NOT NULL,
	billing_cycle_anchor bigint NOT NULL,
	trial_start bigint,
	trial_end bigint,
	cancel_at_period_end boolean NOT NULL,
	canceled_at bigint,
	ended_at bigint,
	cancellation_reason text COLLATE "C",
	default_payment_method_id text COLLATE "C",
	latest_invoice_id text COLLATE "C",
	past_due_since bigint,
	metadata text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (plan_id) REFERENCES plans (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (price_id) REFERENCES plan_prices (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX subscriptions_org_current ON subscriptions (organization_id) WHERE ended_at IS NULL;
--> statement-breakpoint
CREATE INDEX subscriptions_period_end ON subscriptions (current_period_end, id) WHERE ended_at IS NULL;
--> statement-breakpoint
CREATE INDEX subscriptions_org_created ON subscriptions (organization_id, created_at, id);
--> statement-breakpoint
CREATE TABLE invoices (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	subscription_id text COLLATE "C",
	number text COLLATE "C",
	status text COLLATE "C" NOT NULL,
	billing_reason text COLLATE "C" NOT NULL,
	collection_method text COLLATE "C" NOT NULL,
	currency text COLLATE "C" NOT NULL,
	subtotal bigint NOT NULL,
	tax_rate_bps bigint NOT NULL,
	tax bigint NOT NULL,
	total bigint NOT NULL,
	applied_balance bigint NOT NULL,
	amount_due bigint NOT NULL,
	amount_paid bigint NOT NULL,
	amount_remaining bigint NOT NULL,
	period_start bigint,
	period_end bigint,
	due_date bigint,
	attempt_count bigint NOT NULL,
	next_payment_attempt bigint,
	first_failed_at bigint,
	customer_name text COLLATE "C",
	customer_email text COLLATE "C",
	customer_address text COLLATE "C",
	description text COLLATE "C",
	finalized_at bigint,
	paid_at bigint,
	voided_at bigint,
	marked_uncollectible_at bigint,
	metadata text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (subscription_id) REFERENCES subscriptions (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX invoices_org_number ON invoices (organization_id, number) WHERE number IS NOT NULL;
--> statement-breakpoint
CREATE INDEX invoices_org_created ON invoices (organization_id, created_at, id);
--> statement-breakpoint
CREATE INDEX invoices_org_status_created ON invoices (organization_id, status, created_at, id);
--> statement-breakpoint
CREATE INDEX invoices_subscription ON invoices (subscription_id, created_at, id);
--> statement-breakpoint
CREATE INDEX invoices_next_attempt ON invoices (next_payment_attempt, id) WHERE next_payment_attempt IS NOT NULL;
--> statement-breakpoint
CREATE INDEX invoices_open_due ON invoices (due_date, id) WHERE status = 'open' AND due_date IS NOT NULL;
--> statement-breakpoint
-- kind: subscription (a period of the plan), proration (a plan or quantity change), manual (the operator's).
CREATE TABLE invoice_lines (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	invoice_id text COLLATE "C" NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	line_number bigint NOT NULL,
	kind text COLLATE "C" NOT NULL,
	description text COLLATE "C" NOT NULL,
	plan_id text COLLATE "C",
	price_id text COLLATE "C",
	quantity bigint NOT NULL,
	unit_amount bigint NOT NULL,
	amount bigint NOT NULL,
	period_start bigint,
	period_end bigint,
	FOREIGN KEY (invoice_id) REFERENCES invoices (id) ON UPDATE NO ACTION ON DELETE CASCADE,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX invoice_lines_invoice ON invoice_lines (invoice_id, line_number);
--> statement-breakpoint
-- A payment is a PaymentIntent: one per invoice collection, retried in place; attempts is a JSON array
-- of {attempted_at, outcome, error}, last_error and payment_method JSON objects or null.
CREATE TABLE payments (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	invoice_id text COLLATE "C",
	amount bigint NOT NULL,
	currency text COLLATE "C" NOT NULL,
	status text COLLATE "C" NOT NULL,
	provider text COLLATE "C" NOT NULL,
	provider_payment_id text COLLATE "C",
	payment_method text COLLATE "C",
	reference text COLLATE "C",
	last_error text COLLATE "C",
	attempts text COLLATE "C" NOT NULL,
	amount_refunded bigint NOT NULL,
	recorded_by text COLLATE "C",
	succeeded_at bigint,
	canceled_at bigint,
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (invoice_id) REFERENCES invoices (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE UNIQUE INDEX payments_provider_id ON payments (provider, provider_payment_id) WHERE provider_payment_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX payments_org_created ON payments (organization_id, created_at, id);
--> statement-breakpoint
CREATE INDEX payments_invoice ON payments (invoice_id, created_at, id);
--> statement-breakpoint
CREATE TABLE refunds (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	organization_id text COLLATE "C" NOT NULL,
	payment_id text COLLATE "C" NOT NULL,
	amount bigint NOT NULL,
	currency text COLLATE "C" NOT NULL,
	status text COLLATE "C" NOT NULL,
	reason text COLLATE "C",
	provider_refund_id text COLLATE "C",
	created_at bigint NOT NULL,
	updated_at bigint NOT NULL,
	FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE NO ACTION ON DELETE NO ACTION,
	FOREIGN KEY (payment_id) REFERENCES payments (id) ON UPDATE NO ACTION ON DELETE NO ACTION
);
--> statement-breakpoint
CREATE INDEX refunds_payment ON refunds (payment_id, created_at, id);
--> statement-breakpoint
-- Stripe's events already handled, by Stripe's id: a replayed event changes nothing.
CREATE TABLE stripe_events (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	type text COLLATE "C" NOT NULL,
	organization_id text COLLATE "C",
	received_at bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX stripe_events_received ON stripe_events (received_at);
--> statement-breakpoint
-- The operator's API tokens (`switchboard operator-token create`), kept as SHA-256 hashes.
CREATE TABLE operator_tokens (
	id text COLLATE "C" PRIMARY KEY NOT NULL,
	name text COLLATE "C" NOT NULL,
	token_hash text COLLATE "C" NOT NULL,
	created_at bigint NOT NULL,
	last_used_at bigint,
	revoked_at bigint
);
--> statement-breakpoint
CREATE UNIQUE INDEX operator_tokens_hash ON operator_tokens (token_hash);
