// docs/reports.md's metric table, generated from the metric registry (id, unit, definition, records,
// dimensions, version): `bun run docs:reports` rewrites the region between the markers;
// test/docs-reports.test.ts fails when the page differs.
import { join } from 'node:path'
import { METRICS } from '../src/modules/reports/index.ts'

export const REPORTS_PAGE = join(import.meta.dir, '..', 'docs', 'reports.md')
const BEGIN =
  '<!-- metric table: generated from the registry by `bun run docs:reports`; edit src/modules/reports/metrics/, not this table -->'
const END = '<!-- end of the generated metric table -->'

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

export function metricTable(): string {
  const rows = METRICS.map(
    (m) =>
      `| \`${m.id}\` | ${cell(m.name)} | ${m.unit}${m.duration ? ' (count, mean, p50, p90)' : ''} | ${cell(m.definition)}${m.billing ? ' Needs `billing:read`.' : ''} | ${m.records} | ${m.dimensions.map((d) => `\`${d}\``).join(', ')} | ${m.version} |`,
  )
  return ['| metric | name | unit | definition | records | dimensions | version |', '|---|---|---|---|---|---|---|', ...rows].join('\n')
}

/** The page with its generated region replaced. */
export function reportsPage(page: string): string {
  const start = page.indexOf(BEGIN)
  const end = page.indexOf(END)
  if (start === -1 || end < start) throw new Error(`docs/reports.md lacks the markers ${BEGIN} ... ${END}`)
  return `${page.slice(0, start + BEGIN.length)}\n${metricTable()}\n${page.slice(end)}`
}

if (import.meta.main) {
  await Bun.write(REPORTS_PAGE, reportsPage(await Bun.file(REPORTS_PAGE).text()))
  process.stdout.write(`wrote ${REPORTS_PAGE}\n`)
}
