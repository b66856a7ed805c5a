// The shape of a CLI command and of the I/O it may use (injected, so commands are testable in-process).
import type { ParseArgsOptionsConfig } from 'node:util'
import type { Config, Env } from '../config.ts'

export interface CliIo {
  env: Env
  cwd: string
  stdout(text: string): void
  stderr(text: string): void
}

export interface CommandContext {
  config: Config
  /** Positional arguments after the command words. */
  args: string[]
  /** Values of the command's own options. */
  options: Record<string, string | boolean | undefined>
  io: CliIo
}

export interface Command {
  /** The words that select it, e.g. `backup` or `org create`. */
  name: string
  /** Positional arguments, as shown in the usage, e.g. `<file>`. */
  params: string[]
  summary: string
  /** Options only this command accepts (the configuration flags are accepted by all). */
  options?: ParseArgsOptionsConfig
  /** Resolves to the process exit code. */
  run(ctx: CommandContext): Promise<number>
}

/** Exit codes: 0 success, 1 the command failed, 2 the command line or configuration is wrong. */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2 } as const
