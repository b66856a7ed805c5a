// The compiled executable for tests that run the real binary on the real clock: built once per
// `bun test` process (every test file shares it), into a temporary folder removed when the run ends.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildBinary } from '../../scripts/build.ts'
import { removeAtEnd } from './cleanup.ts'

let built: Promise<string> | undefined

/** The path of a freshly compiled `switchboard`; the first call builds it (allow ~60 s in beforeAll). */
export function compiledBinary(): Promise<string> {
  if (!built) {
    const folder = mkdtempSync(join(tmpdir(), 'switchboard-bin-'))
    removeAtEnd(folder)
    const path = join(folder, 'switchboard')
    built = buildBinary(path).then(() => path)
  }
  return built
}
