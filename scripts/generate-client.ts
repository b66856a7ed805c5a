// `bun run client:generate`: rewrites clients/typescript/src/schema.d.ts from the OpenAPI document the app serves.
// First, as in src/main.ts: Elysia in production mode, as the served product runs it.
import '../src/production-mode.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript'
import { loadConfig } from '../src/config.ts'
import { OPENAPI_PATH } from '../src/http/openapi.ts'
import { createLogger, memorySink } from '../src/lib/log.ts'
import { openRuntime } from '../src/runtime.ts'

export const SCHEMA_FILE = join(import.meta.dir, '../clients/typescript/src/schema.d.ts')

/**
 * The document GET /openapi.json serves: the app opened in-process, with the default settings, on a throwaway
 * data directory (no network server, no port; the environment is not read).
 */
export async function servedDocument(): Promise<OpenAPI3> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-client-'))
  try {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error' })
    const runtime = await openRuntime(config, { log: createLogger({ level: 'error', sink: memorySink() }) })
    try {
      const response = await runtime.app.handle(new Request(`http://localhost${OPENAPI_PATH}`))
      if (!response.ok) throw new Error(`GET ${OPENAPI_PATH} answered ${response.status}`)
      return (await response.json()) as OpenAPI3
    } finally {
      await runtime.close()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The text of schema.d.ts for `document`: openapi-typescript's types with its default options, under its usual header. */
export async function schemaOf(document: OpenAPI3): Promise<string> {
  // Given a copy: the caller's document stays as served, whatever the generator does with its input.
  return COMMENT_HEADER + astToString(await openapiTS(structuredClone(document), { silent: true }))
}

if (import.meta.main) {
  const text = await schemaOf(await servedDocument())
  await Bun.write(SCHEMA_FILE, text)
  process.stderr.write(`wrote ${SCHEMA_FILE} (${text.split('\n').length} lines)\n`)
}
