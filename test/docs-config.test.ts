// docs/configuration.md's settings table is what scripts/config-docs.ts generates from the declarations, or this fails.
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { CONFIG_PAGE, configurationPage } from '../scripts/config-docs.ts'
import { SETTINGS } from '../src/config.ts'

test('docs/configuration.md has the table the declarations generate', () => {
  const page = readFileSync(CONFIG_PAGE, 'utf8')
  expect(page, 'docs/configuration.md is out of date: run `bun run docs:config`').toBe(configurationPage(page))
})

test('every setting is explained', () => {
  for (const [name, schema] of Object.entries(SETTINGS)) expect(schema.description?.length ?? 0, `${name} is explained`).toBeGreaterThan(20)
})
