// `switchboard backup <file>`: a consistent copy of the live database (VACUUM INTO), safe while a
// server runs on the same DATA_DIR; never overwrites an existing file. On PostgreSQL it copies nothing
// and says to use pg_dump.
import { chmodSync, existsSync, linkSync, statSync, unlinkSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { quickCheckSqliteFile } from '../db/sqlite.ts'
import { createLogger, fileSink } from '../lib/log.ts'
import { openConfiguredDatabase } from '../runtime.ts'
import { EXIT, type Command } from './command.ts'

/** What backup answers on PostgreSQL (whose DatabaseAdmin.backupTo refuses too, pointing to pg_dump). */
export const POSTGRES_BACKUP =
  'the database is PostgreSQL (DATABASE_URL): back it up with pg_dump, e.g. pg_dump --format=custom --file=switchboard.dump "$DATABASE_URL" (see docs/several-instances.md, "Backups on PostgreSQL"); switchboard backup copies the embedded SQLite database only'

export const backupCommand: Command = {
  name: 'backup',
  params: ['<file>'],
  summary: 'Write a consistent copy of the database to <file> (refuses to overwrite)',
  async run({ config, args, io }) {
    const target = resolve(io.cwd, args[0]!)
    const fail = (message: string) => {
      io.stderr(`switchboard: backup: ${message}\n`)
      return EXIT.FAILED
    }
    // Said before anything else: no target would make the command right on PostgreSQL.
    if (config.databaseUrl !== undefined) return fail(POSTGRES_BACKUP)
    if (existsSync(target)) return fail(`${target} already exists; refusing to overwrite it`)
    if (!existsSync(dirname(target))) return fail(`directory ${dirname(target)} does not exist`)
    if (!existsSync(config.dbPath)) return fail(`no database at ${config.dbPath}`)

    // Written under a temporary name, then linked into place: link() fails if the target appeared
    // meanwhile, and a crash never leaves a half-written file under the requested name.
    const partial = `${target}.partial-${process.pid}`
    // Opened as it is, not migrated: a backup taken before an upgrade must be of the database as it was.
    const log = createLogger({ level: config.logLevel, sink: fileSink(Bun.stderr) })
    const source = openConfiguredDatabase(config, log, { reportSlowWrites: false })
    try {
      await source.admin.backupTo(partial)
    } catch (error) {
      if (existsSync(partial)) unlinkSync(partial)
      return fail((error as Error).message)
    } finally {
      await source.close()
      log.flush()
    }
    try {
      chmodSync(partial, 0o600)
      const check = quickCheckSqliteFile(partial)
      if (check !== 'ok') return fail(`the copy failed its integrity check: ${check}`)
      linkSync(partial, target)
    } catch (error) {
      return fail((error as Error).message)
    } finally {
      if (existsSync(partial)) unlinkSync(partial)
    }
    io.stdout(JSON.stringify({ backup: target, bytes: statSync(target).size }) + '\n')
    return EXIT.OK
  },
}
