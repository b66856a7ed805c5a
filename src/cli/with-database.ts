// What the operator commands that change one organization share: the database opened and migrated for
// one command, the actor their audit records name, and the answer for an unknown organization.
import type { Config } from '../config.ts'
import { createLogger, fileSink } from '../lib/log.ts'
import { openMigratedDatabase } from '../runtime.ts'
import { EXIT, type CliIo } from './command.ts'

export const CLI_ACTOR = { type: 'system', id: 'cli' } as const

/** Runs `block` on the migrated database, closed afterwards; errors go to stderr as log lines. */
export async function withDatabase(config: Config, block: (db: Awaited<ReturnType<typeof openMigratedDatabase>>['db']) => number): Promise<number> {
  const log = createLogger({ level: config.logLevel, sink: fileSink(Bun.stderr) })
  const { database, db } = await openMigratedDatabase(config, log, Date.now())
  try {
    return block(db)
  } finally {
    await database.close()
    log.flush()
  }
}

export function noSuchOrganization(io: CliIo, id: string): number {
  io.stderr(`switchboard: no organization ${id}\n`)
  return EXIT.FAILED
}
