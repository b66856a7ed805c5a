// `switchboard oauth-client create --org ORG_ID --name N --redirect-uri URI… [--public] [--grant G…] [--scope S…]`: registers an OAuth client as the operator and prints it as JSON, with a confidential client's secret (shown this once).
import { AppError } from '../errors.ts'
import { createOAuthClient, oauthClientJson } from '../modules/oauth-clients/index.ts'
import { findOrganization } from '../modules/organizations/index.ts'
import { EXIT, type Command } from './command.ts'
import { usage } from './org.ts'
import { noSuchOrganization, withDatabase } from './with-database.ts'

/** A repeatable option's values; each may also hold several, separated by spaces or commas. */
function list(value: unknown): string[] | undefined {
  if (value === undefined) return undefined
  const values = Array.isArray(value) ? (value as string[]) : [String(value)]
  return values.flatMap((v) => v.split(/[\s,]+/)).filter((v) => v !== '')
}

export const oauthClientCreateCommand: Command = {
  name: 'oauth-client create',
  params: [],
  summary:
    'Register an OAuth client (--org ORG_ID --name N --redirect-uri URI… [--public] [--grant G…] [--scope S…]); prints it as JSON, with its secret once',
  options: {
    org: { type: 'string' },
    name: { type: 'string' },
    'redirect-uri': { type: 'string', multiple: true },
    'post-logout-redirect-uri': { type: 'string', multiple: true },
    public: { type: 'boolean' },
    grant: { type: 'string', multiple: true },
    scope: { type: 'string', multiple: true },
  },
  async run({ config, options, io }) {
    const org = options.org
    const name = typeof options.name === 'string' ? options.name.trim() : ''
    if (typeof org !== 'string' || org === '' || name === '' || name.length > 100)
      return usage(io, 'oauth-client create needs --org ORG_ID and --name NAME (1 to 100 characters)')
    const input = {
      organization_id: org,
      name,
      client_type: options.public === true ? ('public' as const) : ('confidential' as const),
      redirect_uris: (options['redirect-uri'] as unknown as string[] | undefined) ?? [],
      post_logout_redirect_uris: (options['post-logout-redirect-uri'] as unknown as string[] | undefined) ?? [],
      grant_types: list(options.grant),
      scopes: list(options.scope),
    }
    return withDatabase(config, async (ctx) => {
      if (!(await findOrganization(ctx.db, org))) return noSuchOrganization(io, org)
      try {
        const { row, secret } = await createOAuthClient(ctx, input)
        io.stdout(JSON.stringify({ ...oauthClientJson(row), client_secret: secret }) + '\n')
        return EXIT.OK
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'VALIDATION_FAILED') throw error
        const flags: Record<string, string> = {
          redirect_uris: '--redirect-uri',
          post_logout_redirect_uris: '--post-logout-redirect-uri',
          grant_types: '--grant',
          scopes: '--scope',
        }
        const problems = (error.errors ?? []).map((e) => `${flags[e.field.split('.')[0]!] ?? e.field}: ${e.message}`)
        return usage(io, problems.join('; '))
      }
    })
  },
}
