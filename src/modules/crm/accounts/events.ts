// The account events (crm.account.created|updated|deleted): the full account under data.account (the
// last state for deleted), recorded with the audit record and webhook deliveries in the verb's transaction.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { recordChange } from '../../events/index.ts'
import { accountJson } from './account-json.ts'
import type { AccountRow } from './store.ts'

export type AccountEventType = 'crm.account.created' | 'crm.account.updated' | 'crm.account.deleted'

export async function recordAccountEvent(
  tx: Tx,
  ctx: Ctx,
  type: AccountEventType,
  account: AccountRow,
  now: number,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await recordChange(tx, ctx, {
    type,
    organizationId: account.organization_id,
    target: { type: 'account', id: account.id },
    data: { account: accountJson(account), ...extra },
    details: Array.isArray(extra.changed) ? { changed: extra.changed } : {},
    now,
  })
}
