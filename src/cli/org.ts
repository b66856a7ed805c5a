// Organization commands: `org create --name NAME [--plan PLAN]` prints the new organization as JSON;
// `org clear-allowlist ORG_ID` is the break-glass for a lockout.
import {
  applySecurity,
  createOrganization,
  findOrganization,
  organizationJson,
  PLANS,
  type Plan,
  securityJson,
} from '../modules/organizations/index.ts'
import { EXIT, type Command } from './command.ts'
import { noSuchOrganization, withDatabase } from './with-database.ts'

export const orgCreateCommand: Command = {
  name: 'org create',
  params: [],
  summary: `Create an organization (--name NAME [--plan ${PLANS.join('|')}], default free); prints it as JSON`,
  options: { name: { type: 'string' }, plan: { type: 'string' } },
  async run({ config, options, io }) {
    const name = typeof options.name === 'string' ? options.name.trim() : ''
    const plan = (options.plan ?? 'free') as string
    if (name === '' || name.length > 200) return usage(io, 'org create needs --name NAME (1 to 200 characters)')
    if (!(PLANS as readonly string[]).includes(plan)) return usage(io, `--plan must be one of: ${PLANS.join(', ')}`)
    return withDatabase(config, async (ctx) => {
      const now = ctx.clock.now()
      const org = await ctx.db.write('organization.create', (tx) => createOrganization(tx, { name, plan: plan as Plan }, now))
      io.stdout(JSON.stringify(organizationJson(org)) + '\n')
      return EXIT.OK
    })
  },
}

export function usage(io: { stderr(text: string): void }, message: string): number {
  io.stderr(`switchboard: ${message} (see switchboard --help)\n`)
  return EXIT.USAGE
}

// `switchboard org clear-allowlist ORG_ID`: the break-glass for an organization locked out by its own
// IP allowlist. Empties allowed_ips (recorded in the audit log as done by the operator).
export const orgClearAllowlistCommand: Command = {
  name: 'org clear-allowlist',
  params: ['<org_id>'],
  summary: "Empty an organization's IP allowlist (when it locked everyone out); prints its security settings",
  async run({ config, args, io }) {
    const id = args[0]!
    return withDatabase(config, async (ctx) => {
      if (!(await findOrganization(ctx.db, id))) return noSuchOrganization(io, id)
      const now = ctx.clock.now()
      // Recorded in the organization's audit chain as the operator's (the CLI's) change.
      const org = await ctx.db.write('organization.clear_allowlist', (tx) => applySecurity(tx, ctx, id, { allowed_ips: [] }, now))
      io.stdout(JSON.stringify({ organization_id: id, ...securityJson(org) }) + '\n')
      return EXIT.OK
    })
  },
}
