// `switchboard audit verify`: walks every audit chain, recomputing each hash, and reports the first
// broken link of each; exits 1 if any chain is broken. Safe while a server runs on the same DATA_DIR.
import { existsSync } from 'node:fs'
import { verifyChains } from '../modules/audit/index.ts'
import { EXIT, type Command } from './command.ts'
import { withDatabase } from './with-database.ts'

export const auditVerifyCommand: Command = {
  name: 'audit verify',
  params: [],
  summary: 'Check the hash chains of the audit log; exits 1 at a broken link',
  async run({ config, io }) {
    // A mistyped DATA_DIR must not come back "all intact" over a database made empty on the spot. (A
    // PostgreSQL database is named by DATABASE_URL: one that does not exist fails to connect.)
    if (config.databaseUrl === undefined && !existsSync(config.dbPath)) {
      io.stderr(`switchboard: audit verify: no database at ${config.dbPath}\n`)
      return EXIT.FAILED
    }
    return withDatabase(config, async (ctx) => {
      const reports = await verifyChains(ctx)
      for (const report of reports) {
        const chain = report.organizationId ?? 'installation'
        const state = report.broken ? `BROKEN at record ${report.broken.seq} (${report.broken.id}): ${report.broken.problem}` : 'intact'
        io.stdout(`${chain}: ${report.records} records, ${state}\n`)
      }
      const broken = reports.filter((r) => r.broken).length
      const records = reports.reduce((n, r) => n + r.records, 0)
      io.stdout(
        broken === 0 ? `${reports.length} chains, ${records} records: all intact\n` : `${broken} of ${reports.length} chains broken\n`,
      )
      return broken === 0 ? EXIT.OK : EXIT.FAILED
    })
  },
}
