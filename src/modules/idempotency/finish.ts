// The last step of a request that claimed an Idempotency-Key: keep its answer for the retries, or, when
// it failed on our side (5xx), free the key so that a retry runs the request anew.
import type { AppContext } from '../../context.ts'
import type { FinishInput } from '../../ports.ts'
import { deleteClaim, saveAnswer } from './store.ts'

export type { FinishInput } from '../../ports.ts'

/** False when the claim was no longer this request's (taken over as abandoned): nothing was written. */
export async function finishIdempotentRequest(app: Pick<AppContext, 'db'>, input: FinishInput): Promise<boolean> {
  const { claim, answer } = input
  return app.db.write('idempotency.finish', (tx) => (answer ? saveAnswer(tx, claim, answer) : deleteClaim(tx, claim)))
}
