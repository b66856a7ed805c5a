// `switchboard migrate`: applies pending migrations to DATA_DIR/switchboard.db and exits.
import { MigrationError } from '../db/migrate.ts'
import { createLogger, fileSink } from '../lib/log.ts'
import { openMigratedDatabase } from '../runtime.ts'
import { EXIT, type Command } from './command.ts'

export const migrateCommand: Command = {
  name: 'migrate',
  params: [],
  summary: 'Apply pending database migrations and exit',
  async run({ config, io }) {
    const log = createLogger({ level: config.logLevel, sink: fileSink(Bun.stderr) })
    try {
      const { database, applied } = await openMigratedDatabase(config, log, Date.now(), { reportSlowWrites: false })
      await database.close()
      io.stdout(JSON.stringify({ database: config.dbPath, applied }) + '\n')
      return EXIT.OK
    } catch (error) {
      if (!(error instanceof MigrationError)) throw error
      io.stderr(`switchboard: ${error.message}\n`)
      return EXIT.FAILED
    } finally {
      log.flush()
    }
  },
}
