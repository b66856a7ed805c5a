// For tests whose receivers listen on loopback: the operator's allowance of internal ranges for one
// organization, written by the same code as `switchboard org webhook-cidrs ORG_ID --set CIDRS`.
import { contextFor } from '../../../src/context.ts'
import { changeAllowedCidrs, parseAllowedCidrs } from '../../../src/modules/webhooks/index.ts'
import type { TestApp } from '../../helpers/app.ts'

/** Sets the organization's list (`''`: clears it, like `--clear`); returns the list in force. */
export async function allowWebhookCidrs(app: TestApp, organizationId: string, text = '127.0.0.0/8'): Promise<string[]> {
  const parsed = text === '' ? { cidrs: [] } : parseAllowedCidrs(text)
  if ('problem' in parsed) throw new Error(`test setup: ${text} ${parsed.problem}`)
  return changeAllowedCidrs(contextFor(app.context, { kind: 'system', id: 'cli' }), { organizationId, cidrs: parsed.cidrs })
}
