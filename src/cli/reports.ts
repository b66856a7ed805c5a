// `switchboard reports rebuild [--org ORG_ID] [--from DATE]`: forgets what the fold made of an
// organization's event log (every organization's without --org; from the UTC date or RFC 3339 time
// --from on, keeping the figures before it) and folds it again, with the business hours in force now.
// Idempotent; safe while a server runs (its fold waits for the rebuild of the organization).
import { rebuildReports, reportOrganizations } from '../modules/reports/index.ts'
import { parseInstantOrDate } from '../lib/zoned-time.ts'
import { EXIT, type Command } from './command.ts'
import { usage } from './org.ts'
import { noSuchOrganization, withDatabase } from './with-database.ts'

export const reportsRebuildCommand: Command = {
  name: 'reports rebuild',
  params: [],
  summary: "Recompute the reports' facts and buckets from the event log (--org ORG_ID: one organization; --from DATE: from then on)",
  options: { org: { type: 'string' }, from: { type: 'string' } },
  async run({ config, options, io }) {
    const only = typeof options.org === 'string' ? options.org : undefined
    let from: number | undefined
    if (typeof options.from === 'string') {
      from = parseInstantOrDate('UTC', options.from)
      if (from === undefined) return usage(io, '--from takes a date (2026-03-01, UTC) or an RFC 3339 time')
    }
    return withDatabase(config, async (ctx) => {
      const ids = await reportOrganizations(ctx, only)
      if (only !== undefined && ids.length === 0) return noSuchOrganization(io, only)
      for (const id of ids) {
        const events = await rebuildReports(ctx, id, from)
        io.stdout(`${id}: ${events} events folded\n`)
      }
      return EXIT.OK
    })
  },
}
