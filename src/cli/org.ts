// `switchboard org create --name NAME [--plan PLAN]`: a new organization, printed as JSON.
import { write } from '../db/tx.ts'
import { createLogger, fileSink } from '../lib/log.ts'
import { createOrganization, organizationJson } from '../modules/organizations/service.ts'
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
    const { sqlite, db } = openMigratedDatabase(config, log, Date.now())
    try {
      const org = write(db, (tx) => createOrganization(tx, { name, plan: plan as Plan }, Date.now()))
      io.stdout(JSON.stringify(organizationJson(org)) + '\n')
      return EXIT.OK
    } finally {
      sqlite.close()
      log.flush()
    }
  },
}

export function usage(io: { stderr(text: string): void }, message: string): number {
  io.stderr(`switchboard: ${message} (see switchboard --help)\n`)
  return EXIT.USAGE
}
