// The operator's API tokens: made by `switchboard operator-token create` (the token is shown once),
// listed and revoked from the CLI, and checked on every operator route (`operator: true`). An operator
// token stands above every organization: it is for the people who run the installation.
import { type AppContext, contextFor, type Ctx, type SystemActor } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { appendAudit } from '../audit/index.ts'
import { unauthorized } from '../../credential.ts'
import { hashToken } from '../../lib/token-hash.ts'
import {
  findOperatorTokenByHash,
  insertOperatorToken,
  listOperatorTokenRows,
  type OperatorTokenRow,
  revokeOperatorTokenRow,
  touchOperatorToken,
} from './store.ts'

export const OPERATOR_TOKEN_PREFIX = 'sbo_'
const SHAPE = /^sbo_[A-Za-z0-9_-]{43}$/

/** An operator token as the CLI shows it: never the token or its hash. */
export interface OperatorTokenView {
  id: string
  name: string
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString())

function view(row: OperatorTokenRow): OperatorTokenView {
  return {
    id: row.id,
    name: row.name,
    created_at: iso(row.created_at)!,
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
  }
}

/** Makes a token named `name`; the token is returned here and never again. */
export async function createOperatorToken(
  ctx: Ctx,
  input: { name: string },
): Promise<{ token: string; operator_token: OperatorTokenView }> {
  const name = input.name.trim()
  if (name.length < 1 || name.length > 100) throw new AppError('VALIDATION_FAILED', 'The name must be 1 to 100 characters')
  const now = ctx.clock.now()
  const token = `${OPERATOR_TOKEN_PREFIX}${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`
  const row: OperatorTokenRow = {
    id: prefixedId('opt'),
    name,
    token_hash: hashToken(token),
    created_at: now,
    last_used_at: null,
    revoked_at: null,
  }
  await ctx.db.write('operator_token.create', async (tx) => {
    await insertOperatorToken(tx, row)
    await appendAudit(tx, {
      organizationId: null,
      actor: { type: 'system', id: 'cli' },
      event: 'operator_token.created',
      target: { type: 'operator_token', id: row.id },
      details: { name },
      now,
    })
  })
  return { token, operator_token: view(row) }
}

export async function listOperatorTokens(ctx: Ctx): Promise<OperatorTokenView[]> {
  return (await listOperatorTokenRows(ctx.db)).map(view)
}

/** Revokes token `id`; undefined when there is no such live token. */
export async function revokeOperatorToken(ctx: Ctx, id: string): Promise<OperatorTokenView | undefined> {
  const now = ctx.clock.now()
  return ctx.db.write('operator_token.revoke', async (tx) => {
    const row = await revokeOperatorTokenRow(tx, id, now)
    if (!row) return undefined
    await appendAudit(tx, {
      organizationId: null,
      actor: { type: 'system', id: 'cli' },
      event: 'operator_token.revoked',
      target: { type: 'operator_token', id },
      details: { name: row.name },
      now,
    })
    return view(row)
  })
}

/** The operator behind a request's `Authorization: Bearer sbo_…`, or 401. */
/** The 401 of an operator route's request that presents no token. */
export function missingOperatorToken(): AppError {
  return unauthorized('UNAUTHENTICATED', 'An operator token is required (Authorization: Bearer sbo_…)')
}

export async function authenticateOperator(app: AppContext, request: Request): Promise<Ctx<SystemActor>> {
  const header = request.headers.get('authorization')
  if (header === null) throw missingOperatorToken()
  const token = /^Bearer (\S+)$/i.exec(header)?.[1]
  if (token === undefined || !SHAPE.test(token)) throw unauthorized('TOKEN_INVALID', 'The operator token is malformed')
  const row = await findOperatorTokenByHash(app.db, hashToken(token))
  if (!row || row.revoked_at !== null) throw unauthorized('TOKEN_INVALID', 'The operator token is unknown or revoked')
  const now = app.clock.now()
  if (row.last_used_at === null || Number(row.last_used_at) < now - 60_000)
    await app.db.write('operator_token.touch', (tx) => touchOperatorToken(tx, row.id, now))
  return contextFor(app, { kind: 'system', id: 'operator', credentialId: row.id })
}
