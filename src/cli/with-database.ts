// What the operator commands that act on the database share: the app context of one command (the
// database opened and migrated, closed afterwards, the CLI as the actor its audit records name), and
// the answer for an unknown organization.
import type { Config } from '../config.ts'
import { contextFor, type Ctx, type SystemActor } from '../context.ts'
import { createLogger, fileSink } from '../lib/log.ts'
import { openCommandContext } from '../runtime.ts'
import { EXIT, type CliIo } from './command.ts'

export type CliCtx = Ctx<SystemActor>

/** Runs `block` with the command's context (actor: the CLI) on the migrated database, closed afterwards; errors go to stderr as log lines. */
export async function withDatabase(config: Config, block: (ctx: CliCtx) => Promise<number>): Promise<number> {
  const log = createLogger({ level: config.logLevel, sink: fileSink(Bun.stderr) })
  try {
    const opened = await openCommandContext(config, log)
    try {
      return await block(contextFor(opened.app, { kind: 'system', id: 'cli' }))
    } finally {
      await opened.close()
    }
  } finally {
    log.flush()
  }
}

export function noSuchOrganization(io: CliIo, id: string): number {
  io.stderr(`switchboard: no organization ${id}\n`)
  return EXIT.FAILED
}
