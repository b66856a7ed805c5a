// The documentation stays true: the API conventions' error table matches the closed list of codes, and
// the README's two commands use the pinned Bun version (test/docs-config.test.ts checks the configuration page).
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { ERROR_CODES } from '../src/errors.ts'
import { ROOT } from './helpers/root.ts'

const readme = await Bun.file(join(ROOT, 'README.md')).text()
const page = async (name: string) => `\n${await Bun.file(join(ROOT, 'docs', name)).text()}`
const conventions = await page('api-conventions.md')
const pkg = (await Bun.file(join(ROOT, 'package.json')).json()) as { packageManager: string }

/** Rows of the first table after `heading`, as arrays of cells with backticks removed. */
function tableAfter(text: string, heading: string): string[][] {
  const start = text.indexOf(`\n${heading}\n`)
  expect(start, `the page has ${heading}`).toBeGreaterThan(-1)
  const lines = text.slice(start).split('\n')
  const first = lines.findIndex((l) => l.startsWith('|'))
  const rows: string[][] = []
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim().replaceAll('`', '')),
    )
  }
  return rows
}

describe('README', () => {
  test('the error table lists exactly the codes the API can answer with, with their statuses', () => {
    const rows = tableAfter(conventions, '## Errors')
    expect(rows.map((r) => [r[1], Number(r[0])])).toEqual(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]))
  })

  test('starts with the two commands, pinned to the Bun version of package.json', () => {
    const version = pkg.packageManager.replace('bun@', '')
    const blocks = [...readme.matchAll(/```sh\n(.*)\n```/g)].map((m) => m[1])
    expect(blocks.slice(0, 2)).toEqual([
      `npx -y bun@${version} install --frozen-lockfile && npx -y bun@${version} run start`,
      `npx -y bun@${version} install --frozen-lockfile && npx -y bun@${version} run test`,
    ])
  })
})
