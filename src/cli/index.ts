// The command line: parses argv (commands, configuration flags, command options), loads the
// configuration, and runs one command. Unknown commands or flags print the usage and exit 2.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'
import { type Config, ConfigError, flagName, loadConfig, REPLACED_SETTINGS, SETTINGS, type SettingName } from '../config.ts'
import { backupCommand } from './backup.ts'
import { EXIT, type CliIo, type Command } from './command.ts'
import { healthcheckCommand } from './healthcheck.ts'
import { keysRotateCommand } from './keys.ts'
import { migrateCommand } from './migrate.ts'
import { oauthClientCreateCommand } from './oauth-client.ts'
import { orgClearAllowlistCommand, orgCreateCommand } from './org.ts'
import { orgSetLimitsCommand, orgSetPlanCommand } from './org-limits.ts'
import { orgWebhookCidrsCommand } from './org-webhook-cidrs.ts'
import { operatorTokenCreateCommand, operatorTokenListCommand, operatorTokenRevokeCommand } from './operator-token.ts'
import { planListCommand, planSetCommand } from './plan.ts'
import { auditVerifyCommand } from './audit.ts'
import { reportsRebuildCommand } from './reports.ts'
import { serveCommand } from './serve.ts'
import { userCreateCommand } from './user.ts'
import { versionCommand, versionLine } from './version.ts'

export const COMMANDS: Command[] = [
  serveCommand,
  migrateCommand,
  backupCommand,
  orgCreateCommand,
  orgClearAllowlistCommand,
  orgSetPlanCommand,
  orgSetLimitsCommand,
  orgWebhookCidrsCommand,
  planListCommand,
  planSetCommand,
  operatorTokenCreateCommand,
  operatorTokenListCommand,
  operatorTokenRevokeCommand,
  userCreateCommand,
  oauthClientCreateCommand,
  keysRotateCommand,
  auditVerifyCommand,
  reportsRebuildCommand,
  healthcheckCommand,
  versionCommand,
]

// Replaced settings parse too, so that loadConfig can say what replaced them.
const CONFIG_FLAGS: ParseArgsOptionsConfig = Object.fromEntries(
  [...Object.keys(SETTINGS), ...Object.keys(REPLACED_SETTINGS)].map((name) => [flagName(name as SettingName), { type: 'string' as const }]),
)

export function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => [c.name, ...c.params].join(' ').length)) + 2
  const commands = COMMANDS.map((c) => `  ${[c.name, ...c.params].join(' ').padEnd(width)}${c.summary}`)
  const names = Object.keys(SETTINGS) as SettingName[]
  const flagWidth = Math.max(...names.map((name) => `  --${flagName(name)} <value>`.length)) + 2
  const settings = names.map((name) => {
    const schema = SETTINGS[name] as { default?: unknown; 'x-default'?: string }
    const fallback = schema['x-default'] ?? JSON.stringify(schema.default)
    return `  --${flagName(name)} <value>`.padEnd(flagWidth) + `${name} (default ${fallback})`
  })
  return [
    'Usage: switchboard [command] [options]',
    '',
    'Commands:',
    ...commands,
    '',
    'Configuration (each flag overrides its environment variable):',
    ...settings,
    '',
    'Options:',
    "  -h, --help                      Show this help (after a command: that command's)",
    '  --version                       Print the version (as `switchboard version`)',
    '',
  ].join('\n')
}

/** The usage of one command: `switchboard <command> --help`. */
export function commandUsage(command: Command): string {
  const options = Object.entries(command.options ?? {}).map(([name, option]) => `  --${name}${option.type === 'string' ? ' <value>' : ''}`)
  return [
    `Usage: switchboard ${[command.name, ...command.params].join(' ')} [options]`,
    '',
    command.summary,
    '',
    'Options:',
    ...options,
    '  -h, --help',
    '',
    'Every configuration flag (--data-dir, --port, ...) is accepted too: see switchboard --help.',
    '',
  ].join('\n')
}

/** The command the words select (the longest name that matches), if any. */
function findCommand(words: string[]): Command | undefined {
  return [...COMMANDS]
    .sort((a, b) => b.name.split(' ').length - a.name.split(' ').length)
    .find((c) => c.name.split(' ').every((word, i) => words[i] === word))
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const usageError = (message: string) => {
    io.stderr(`switchboard: ${message}\n\n${usage()}`)
    return EXIT.USAGE
  }
  const commandOptions = Object.assign({}, ...COMMANDS.map((c) => c.options ?? {})) as ParseArgsOptionsConfig
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...commandOptions, ...CONFIG_FLAGS, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    return usageError((error as Error).message)
  }
  const { values, positionals } = parsed
  if (values.version) {
    io.stdout(versionLine())
    return EXIT.OK
  }
  if (values.help || positionals[0] === 'help') {
    // `switchboard backup --help` and `switchboard help backup` show that command's usage.
    const asked = positionals[0] === 'help' ? positionals.slice(1) : positionals
    const command = asked.length > 0 ? findCommand(asked) : undefined
    io.stdout(command ? commandUsage(command) : usage())
    return EXIT.OK
  }

  const words = positionals.length === 0 ? ['serve'] : positionals
  const command = findCommand(words)
  if (!command) return usageError(`unknown command "${positionals.join(' ')}"`)
  const args = words.slice(command.name.split(' ').length)
  if (args.length !== command.params.length) return usageError(`${command.name} takes ${command.params.join(' ') || 'no arguments'}`)
  const foreign = Object.keys(values).filter((key) => key !== 'help' && !(key in CONFIG_FLAGS) && !(key in (command.options ?? {})))
  if (foreign.length > 0) return usageError(`${command.name} does not accept --${foreign.join(', --')}`)

  let config: Config
  try {
    config = loadConfig(io.env, values as Record<string, string | undefined>, io.cwd)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    io.stderr(`switchboard: invalid configuration: ${error.message}\n`)
    return EXIT.USAGE
  }
  const options = Object.fromEntries(Object.keys(command.options ?? {}).map((key) => [key, values[key] as string | boolean | undefined]))
  return command.run({ config, args, options, io })
}
