// Writes the settings table of docs/configuration.md from the declarations (`bun run docs:config`); test/docs-config.test.ts checks it.
import { join } from 'node:path'
import { flagName, SETTINGS, type SettingName } from '../src/config.ts'

export const CONFIG_PAGE = join(import.meta.dir, '..', 'docs', 'configuration.md')

const BEGIN = '<!-- settings table: generated from the declarations by `bun run docs:config`; edit them, not this table -->'
const END = '<!-- end of the generated settings table -->'

/** A default as the table shows it: a value or a one-word placeholder in code, words as they are. */
function defaultOf(schema: { default?: unknown; 'x-default'?: string }): string {
  const text = schema['x-default'] ?? (schema.default === '' ? '(empty)' : String(schema.default))
  return /^[^\s(]+$/.test(text) ? `\`${text}\`` : text
}

export function configTable(): string {
  const rows = (Object.keys(SETTINGS) as SettingName[]).map((name) => {
    const schema = SETTINGS[name] as { default?: unknown; 'x-default'?: string; description: string }
    return `| \`${name}\` | \`--${flagName(name)}\` | ${defaultOf(schema)} | ${schema.description.replaceAll('|', '\\|')} |`
  })
  return ['| Variable | Flag | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n')
}

/** `page` with the text between the markers replaced by the table; the prose around it is kept. */
export function configurationPage(page: string): string {
  const begin = page.indexOf(BEGIN)
  const end = page.indexOf(END)
  if (begin === -1 || end < begin) throw new Error(`${CONFIG_PAGE} has lost the markers around its table:\n${BEGIN}\n${END}`)
  return `${page.slice(0, begin + BEGIN.length)}\n\n${configTable()}\n\n${page.slice(end)}`
}

if (import.meta.main) {
  await Bun.write(CONFIG_PAGE, configurationPage(await Bun.file(CONFIG_PAGE).text()))
  process.stdout.write(`wrote ${CONFIG_PAGE}\n`)
}
