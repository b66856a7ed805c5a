// The newest record of an audit chain by (organization_id, seq) on both engines: the chain's unique
// index on SQLite is on ifnull(organization_id, ''), an expression PostgreSQL spells differently.
import type { Tx } from '../database.ts'

export async function up(tx: Tx): Promise<void> {
  await tx.kysely.schema.createIndex('audit_logs_org_seq').on('audit_logs').columns(['organization_id', 'seq']).execute()
}
