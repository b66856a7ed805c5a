// For tests whose receivers listen on loopback: the operator's allowance of internal ranges for one
// organization, written by the same code as `switchboard org webhook-cidrs ORG_ID --set CIDRS`.
import { write } from '../../../src/db/tx.ts'
import { parseAllowedCidrs, setAllowedCidrs } from '../../../src/modules/webhooks/allowed-cidrs.ts'
import type { TestApp } from '../../helpers/app.ts'

/** Sets the organization's list (`''`: clears it, like `--clear`); returns the list in force. */
export function allowWebhookCidrs(app: TestApp, organizationId: string, text = '127.0.0.0/8'): string[] {
  const parsed = text === '' ? { cidrs: [] } : parseAllowedCidrs(text)
  if ('problem' in parsed) throw new Error(`test setup: ${text} ${parsed.problem}`)
  return write(app.deps.db, (tx) => setAllowedCidrs(tx, organizationId, parsed.cidrs, { type: 'system', id: 'cli' }, app.clock.now()))
}
