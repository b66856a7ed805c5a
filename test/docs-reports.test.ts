// docs/reports.md's metric table is what the metric registry generates (scripts/report-catalog.ts), or this fails.
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { REPORTS_PAGE, reportsPage } from '../scripts/report-catalog.ts'

test('docs/reports.md lists every metric as the registry defines it', () => {
  const page = readFileSync(REPORTS_PAGE, 'utf8')
  expect(page, 'docs/reports.md is out of date: run `bun run docs:reports`').toBe(reportsPage(page))
})
