// The committed types of the TypeScript client (clients/typescript/src/schema.d.ts) are those of the document the app serves now.
import { afterAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import type { OpenAPI3 } from 'openapi-typescript'
import { SCHEMA_FILE, schemaOf } from '../../scripts/generate-client.ts'
import { json, makeTestApp } from '../helpers/app.ts'
import { ROOT } from '../helpers/root.ts'

const app = await makeTestApp()
afterAll(() => app.close())

/** '' when both texts are equal, else where they first differ (the whole files are too long to print). */
function firstDifference(committed: string, generated: string): string {
  if (committed === generated) return ''
  const [a, b] = [committed.split('\n'), generated.split('\n')]
  const line = a.findIndex((text, i) => text !== b[i])
  const at = line === -1 ? a.length : line
  return (
    `${relative(ROOT, SCHEMA_FILE)} is out of date with GET /openapi.json: run \`bun run client:generate\` and commit it ` +
    `(first difference at line ${at + 1}: committed ${JSON.stringify(a[at] ?? '<end of file>')}, served ${JSON.stringify(b[at] ?? '<end of file>')})`
  )
}

test('clients/typescript/src/schema.d.ts is generated from the served /openapi.json', async () => {
  const generated = await schemaOf(await json<OpenAPI3>(await app.request('/openapi.json')))
  expect(firstDifference(readFileSync(SCHEMA_FILE, 'utf8'), generated)).toBe('')
})
