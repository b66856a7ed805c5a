// `switchboard backup <file>`: a consistent copy of the live database (VACUUM INTO), safe while a
// server runs on the same DATA_DIR; never overwrites an existing file.
import { chmodSync, existsSync, linkSync, statSync, unlinkSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { Database } from 'bun:sqlite'
import { EXIT, type Command } from './command.ts'

export const backupCommand: Command = {
  name: 'backup',
  params: ['<file>'],
  summary: 'Write a consistent copy of the database to <file> (refuses to overwrite)',
  async run({ config, args, io }) {
    const target = resolve(io.cwd, args[0]!)
    const fail = (message: string) => (io.stderr(`switchboard: backup: ${message}\n`), EXIT.FAILED)
    if (existsSync(target)) return fail(`${target} already exists; refusing to overwrite it`)
    if (!existsSync(dirname(target))) return fail(`directory ${dirname(target)} does not exist`)
    if (!existsSync(config.dbPath)) return fail(`no database at ${config.dbPath}`)

    // Written under a temporary name, then linked into place: link() fails if the target appeared
    // meanwhile, and a crash never leaves a half-written file under the requested name.
    const partial = `${target}.partial-${process.pid}`
    const source = new Database(config.dbPath, { readonly: true })
    try {
      source.run('PRAGMA busy_timeout = 5000')
      source.query('VACUUM INTO ?').run(partial)
    } catch (error) {
      if (existsSync(partial)) unlinkSync(partial)
      return fail((error as Error).message)
    } finally {
      source.close()
    }
    try {
      chmodSync(partial, 0o600)
      const copy = new Database(partial, { readonly: true })
      const check = copy.query<{ quick_check: string }, []>('PRAGMA quick_check').get()
      copy.close()
      if (check?.quick_check !== 'ok') return fail(`the copy failed its integrity check: ${check?.quick_check}`)
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
