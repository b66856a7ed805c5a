// Every migration, in order, embedded in the binary. 0000-0010 are the SQLite schema as drizzle-kit wrote it
// (kept byte for byte: their checksums are recorded in existing databases). From 0011 on, migrations are
// written once for both engines: portable SQL in `NNNN_what.sql` (statements separated by
// `--> statement-breakpoint`). Never edit one that has landed.
//
// PostgreSQL never ran 0000-0010: a PostgreSQL database starts from `postgres/0010_baseline.sql` (the
// schema those produce, in PostgreSQL's types; its own tag, so the two engines' histories never mix),
// then runs the same portable migrations from 0011 on.
import type { Engine } from '../database.ts'
import { type Migration, sqlMigration } from '../migrate.ts'
import m0 from './0000_init.sql' with { type: 'text' }
import m1 from './0001_identity.sql' with { type: 'text' }
import m2 from './0002_tickets.sql' with { type: 'text' }
import m3 from './0003_user_name_key.sql' with { type: 'text' }
import m4 from './0004_auth_complete.sql' with { type: 'text' }
import m5 from './0005_audit_no_overwrite.sql' with { type: 'text' }
import m6 from './0006_rate_limits.sql' with { type: 'text' }
import m7 from './0007_webhooks.sql' with { type: 'text' }
import m8 from './0008_webhook_due_per_webhook.sql' with { type: 'text' }
import m9 from './0009_webhook_allowed_cidrs.sql' with { type: 'text' }
import m10 from './0010_audit_no_overwrite_indexed.sql' with { type: 'text' }
import m11 from './0011_audit_chain_index.sql' with { type: 'text' }
import m12 from './0012_oauth_clients.sql' with { type: 'text' }
import m13 from './0013_oauth_server.sql' with { type: 'text' }
import m14 from './0014_crm.sql' with { type: 'text' }
import m15 from './0015_idempotency_keys.sql' with { type: 'text' }
import m16 from './0016_uploads.sql' with { type: 'text' }
import m17 from './0017_agents.sql' with { type: 'text' }
import m18 from './0018_calls.sql' with { type: 'text' }
import m19 from './0019_billing.sql' with { type: 'text' }
import m20 from './0020_engagements.sql' with { type: 'text' }
import m21 from './0021_reference_indexes.sql' with { type: 'text' }
import m22 from './0022_billing_concurrency.sql' with { type: 'text' }
import m23 from './0023_reports.sql' with { type: 'text' }
import m24 from './0024_report_totals.sql' with { type: 'text' }
import m25 from './0025_auth_state_notify.sql' with { type: 'text' }
import pgBaseline from './postgres/0010_baseline.sql' with { type: 'text' }

/** The SQLite list: every migration since the first. */
export const MIGRATIONS: readonly Migration[] = [
  sqlMigration('0000_init', m0),
  sqlMigration('0001_identity', m1),
  sqlMigration('0002_tickets', m2),
  sqlMigration('0003_user_name_key', m3),
  sqlMigration('0004_auth_complete', m4),
  sqlMigration('0005_audit_no_overwrite', m5),
  sqlMigration('0006_rate_limits', m6),
  sqlMigration('0007_webhooks', m7),
  sqlMigration('0008_webhook_due_per_webhook', m8),
  sqlMigration('0009_webhook_allowed_cidrs', m9),
  sqlMigration('0010_audit_no_overwrite_indexed', m10),
  sqlMigration('0011_audit_chain_index', m11),
  sqlMigration('0012_oauth_clients', m12),
  sqlMigration('0013_oauth_server', m13),
  sqlMigration('0014_crm', m14),
  sqlMigration('0015_idempotency_keys', m15),
  sqlMigration('0016_uploads', m16),
  sqlMigration('0017_agents', m17),
  sqlMigration('0018_calls', m18),
  sqlMigration('0019_billing', m19),
  sqlMigration('0020_engagements', m20),
  sqlMigration('0021_reference_indexes', m21),
  sqlMigration('0022_billing_concurrency', m22),
  sqlMigration('0023_reports', m23),
  sqlMigration('0024_report_totals', m24),
  sqlMigration('0025_auth_state_notify', m25),
]

/** Where the portable migrations begin: every migration from here on runs on both engines. */
const FIRST_PORTABLE = MIGRATIONS.findIndex((m) => m.tag === '0011_audit_chain_index')

/** PostgreSQL: the baseline in place of 0000-0010, then the portable migrations. */
const POSTGRES_MIGRATIONS: readonly Migration[] = [sqlMigration('0010_postgres_baseline', pgBaseline), ...MIGRATIONS.slice(FIRST_PORTABLE)]

/** The migrations of an engine, in order. */
export function migrationsFor(engine: Engine): readonly Migration[] {
  return engine === 'postgres' ? POSTGRES_MIGRATIONS : MIGRATIONS
}
