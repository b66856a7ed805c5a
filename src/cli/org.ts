// Organization commands: `org create --name NAME [--plan PLAN]` prints the new organization as JSON;
// `org clear-allowlist ORG_ID` is the break-glass for a lockout.
import { write } from '../db/tx.ts'
import { createLogger, fileSink } from '../lib/log.ts'
import { createOrganization, findOrganization, organizationJson } from '../modules/organizations/service.ts'
import { applySecurity, securityJson } from '../modules/organizations/security.ts'
import { PLANS, type Plan } from '../modules/organizations/table.ts'
import { openMigratedDatabase } from '../runtime.ts'
import { EXIT, type Command } from './command.ts'

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
    const log = createLogger({ level: config.logLevel, sink: fileSink(Bun.stderr) })
    const { sqlite, database, db } = await openMigratedDatabase(config, log, Date.now())
    try {
      const org = write(db, (tx) => createOrganization(tx, { name, plan: plan as Plan }, Date.now()))
      io.stdout(JSON.stringify(organizationJson(org)) + '\n')
      return EXIT.OK
    } finally {
      await database.close()
      log.flush()
    }
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
  summary: 'Empty an organization\'s IP allowlist (when it locked everyone out); prints its security settings',
  async run({ config, args, io }) {
    const log = createLogger({ level: config.logLevel, sink: fileSink(Bun.stderr) })
    const { sqlite, database, db } = await openMigratedDatabase(config, log, Date.now())
    try {
      const id = args[0]!
      if (!findOrganization(db, id)) {
        io.stderr(`switchboard: no organization ${id}\n`)
        return EXIT.FAILED
      }
      const org = write(db, (tx) => applySecurity(tx, id, { allowed_ips: [] }, { actor: { type: 'system', id: 'cli' } }, Date.now()))
      io.stdout(JSON.stringify({ organization_id: id, ...securityJson(org) }) + '\n')
      return EXIT.OK
    } finally {
      await database.close()
      log.flush()
    }
  },
}
