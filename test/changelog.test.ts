// CHANGELOG.md keeps a changelog (keepachangelog.com): its newest released version is the one the
// binary reports; versions come newest first (its links: test/docs-links.test.ts).
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { versionLine } from '../src/cli/version.ts'
import { VERSION } from '../src/version.ts'
import { ROOT } from './helpers/root.ts'

const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')

test('the newest released version of CHANGELOG.md is what switchboard --version prints', () => {
  const released = /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/m.exec(changelog)
  expect(released?.[1]).toBe(VERSION)
  expect(versionLine()).toStartWith(`switchboard ${VERSION} `)
})

test('versions are listed newest first, Unreleased on top', () => {
  const headings = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]!)
  expect(headings[0]).toBe('Unreleased')
  const versions = headings.slice(1).map((v) => v.split('.').map(Number))
  const sorted = [...versions].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]! || b[2]! - a[2]!)
  expect(versions).toEqual(sorted)
})
