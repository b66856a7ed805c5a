// The documentation's links hold: every relative link of README.md, CHANGELOG.md and docs/*.md names a
// file of the repository, and every #anchor a heading of the page it points to (as the forges slug them).
import { expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { ROOT } from './helpers/root.ts'

const pages = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/** GitHub's anchor of a heading: lowercased, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')

const anchorsOf = (file: string) => new Set([...readFileSync(file, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1]!)))

test.each(pages)('%s: every relative link and anchor resolves', (page) => {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '')
  const broken: string[] = []
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:)/.test(target!)) continue
    const [path, anchor] = target!.split('#') as [string, string | undefined]
    const file = path === '' ? join(ROOT, page) : normalize(join(ROOT, dirname(page), path))
    if (!existsSync(file)) broken.push(`${target} (no such file)`)
    else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor)) broken.push(`${target} (no such heading)`)
  }
  expect(broken).toEqual([])
})
