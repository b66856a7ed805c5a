// `switchboard operator-token create NAME` (prints the token once, with its id), `operator-token list`
// and `operator-token revoke ID`: the operator's API tokens (Authorization: Bearer sbo_… on the
// /api/v1/operator routes). Each prints JSON.
import { createOperatorToken, listOperatorTokens, revokeOperatorToken } from '../modules/operators/index.ts'
import { EXIT, type Command } from './command.ts'
import { usage } from './org.ts'
import { withDatabase } from './with-database.ts'

export const operatorTokenCreateCommand: Command = {
  name: 'operator-token create',
  params: ['<name>'],
  summary: 'Make an operator API token named NAME (for the /api/v1/operator routes); prints it as JSON with the token, shown this once',
  async run({ config, args, io }) {
    const name = args[0]!.trim()
    if (name.length < 1 || name.length > 100) return usage(io, 'the name must be 1 to 100 characters')
    return withDatabase(config, async (ctx) => {
      const { token, operator_token } = await createOperatorToken(ctx, { name })
      io.stdout(JSON.stringify({ ...operator_token, token }) + '\n')
      return EXIT.OK
    })
  },
}

export const operatorTokenListCommand: Command = {
  name: 'operator-token list',
  params: [],
  summary: 'Print the operator tokens (never the tokens themselves) as JSON',
  async run({ config, io }) {
    return withDatabase(config, async (ctx) => {
      io.stdout(JSON.stringify({ operator_tokens: await listOperatorTokens(ctx) }) + '\n')
      return EXIT.OK
    })
  },
}

export const operatorTokenRevokeCommand: Command = {
  name: 'operator-token revoke',
  params: ['<id>'],
  summary: 'Revoke an operator token: refused from its next request; prints it as JSON',
  async run({ config, args, io }) {
    const id = args[0]!
    return withDatabase(config, async (ctx) => {
      const revoked = await revokeOperatorToken(ctx, id)
      if (!revoked) {
        io.stderr(`switchboard: no live operator token ${id}\n`)
        return EXIT.FAILED
      }
      io.stdout(JSON.stringify(revoked) + '\n')
      return EXIT.OK
    })
  },
}
