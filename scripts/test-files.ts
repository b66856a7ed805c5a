// Which test files can touch a database: those that import, directly or through other test files, what
// builds an app, a CLI run, a server process or a database (test/helpers' app, engine, services…, or
// src/runtime.ts and src/db/). The others (pure functions, the linter, the README) run once, on the
// SQLite run only: on PostgreSQL they would test the same thing again.
import { readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

/** What touches a database when imported, relative to the repository's root. */
const DATABASE_MARKERS = [
  'test/helpers/app.ts',
  'test/helpers/engine.ts',
  'test/helpers/services.ts',
  'test/helpers/process.ts',
  'test/helpers/binary.ts',
  'test/helpers/cli.ts',
  'test/helpers/data-dir-db.ts',
  'src/runtime.ts',
  'src/db/',
  'src/cli/',
]

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g

const known = new Map<string, boolean>()

/** Whether `file` (a path relative to `root`) imports, at any depth through test files, one of the markers. */
export function touchesDatabase(root: string, file: string): boolean {
  const path = normalize(file)
  const cached = known.get(path)
  if (cached !== undefined) return cached
  // A cycle among test files: assume nothing until the walk that started it decides.
  known.set(path, false)
  let text: string
  try {
    text = readFileSync(join(root, path), 'utf8')
  } catch {
    return false
  }
  let touches = false
  for (const match of text.matchAll(IMPORT)) {
    const target = relative(root, join(root, dirname(path), match[1] ?? match[2]!))
    if (DATABASE_MARKERS.some((marker) => target === marker || (marker.endsWith('/') && target.startsWith(marker)))) touches = true
    else if (target.startsWith('test/') && touchesDatabase(root, target)) touches = true
    if (touches) break
  }
  known.set(path, touches)
  return touches
}
