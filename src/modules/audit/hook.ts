// The audit hook: every write calls audit() inside its transaction with what was done, by whom, to what.
// The audit-log issue gives it its table and hash chain; until then the calls are in place and record
// nothing (this is the single point that issue fills).
import type { Tx } from '../../db/tx.ts'

export interface AuditEntry {
  organizationId: string
  actor: { type: 'user' | 'system'; id: string }
  /** `resource.verb`, e.g. `ticket.update`. */
  action: string
  target: { type: string; id: string }
  /** Names of the fields a change touched. */
  changed?: string[]
}

export function audit(_tx: Tx, _entry: AuditEntry): void {}
