// The request guards the HTTP layer reaches the auth, access, operators, rate-limits and idempotency
// modules through (ports.ts's RequestGuards): wired here, at the composition root, so that src/http/
// imports no module and the modules' routes can import src/http/ without an import cycle.
import { requirePermission, requireSession } from './modules/access/index.ts'
import { authenticate, missingCredential } from './modules/auth/index.ts'
import { beginIdempotentRequest, finishIdempotentRequest, isWellFormedKey, requestHash } from './modules/idempotency/index.ts'
import { authenticateOperator, missingOperatorToken } from './modules/operators/index.ts'
import { endpointLimitFor, rateLimiterOf } from './modules/rate-limits/index.ts'
import { normalizeEmail } from './modules/users/index.ts'
import type { RequestGuards } from './ports.ts'

export const REQUEST_GUARDS: RequestGuards = {
  authenticate: (app, request, meta) => authenticate(app, request, meta),
  missingCredential,
  authenticateOperator,
  missingOperatorToken,
  requirePermission,
  requireSession,
  rateLimiter: rateLimiterOf,
  endpointLimitFor,
  normalizeEmail,
  idempotency: { isWellFormedKey, requestHash, begin: beginIdempotentRequest, finish: finishIdempotentRequest },
}
