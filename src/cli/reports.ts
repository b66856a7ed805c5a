// `switchboard reports rebuild [--org ORG_ID]`: forgets what the fold made of an organization's event
// log (every organization's without --org) and folds it again from the start, with the business hours
// in force now. Idempotent; safe while a server runs (its fold waits for the rebuild of the organization).
import { rebuildReports, reportOrganizations } from '../modules/reports/index.ts'
import { EXIT, type Command } from './command.ts'
import { noSuchOrganization, withDatabase } from './with-database.ts'

export const reportsRebuildCommand: Command = {
  name: 'reports rebuild',
  params: [],
  summary: "Recompute the reports' facts and buckets from the event log (--org ORG_ID: one organization)",
  options: { org: { type: 'string' } },
  async run({ config, options, io }) {
    const only = typeof options.org === 'string' ? options.org : undefined
    return withDatabase(config, async (ctx) => {
      const ids = await reportOrganizations(ctx, only)
      if (only !== undefined && ids.length === 0) return noSuchOrganization(io, only)
      for (const id of ids) {
        const events = await rebuildReports(ctx, id)
        io.stdout(`${id}: ${events} events folded\n`)
      }
      return EXIT.OK
    })
  },
}
