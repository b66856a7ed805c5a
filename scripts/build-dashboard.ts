// Builds the dashboard (dashboard/src) into dashboard/dist: one minified script, one stylesheet and the
// page around them. The output is committed, so `bun src/main.ts serve` and the compiled binary serve
// it with no build step; test/modules/dashboard/build.test.ts fails when it is stale.
// Usage: bun run dashboard:build [--out DIR]
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..')
export const DASHBOARD_SOURCE = join(ROOT, 'dashboard/src')

/** The three files of the dashboard, as they are written to dist. */
export async function buildDashboard(): Promise<Record<'app.js' | 'app.css' | 'page.html.txt', string>> {
  const script = await Bun.build({
    entrypoints: [join(DASHBOARD_SOURCE, 'main.tsx')],
    target: 'browser',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  const styles = await Bun.build({ entrypoints: [join(DASHBOARD_SOURCE, 'styles.css')], minify: true })
  if (!script.success || !styles.success) throw new AggregateError([...script.logs, ...styles.logs], 'the dashboard did not build')
  return {
    'app.js': await script.outputs[0]!.text(),
    'app.css': await styles.outputs[0]!.text(),
    // Not .html: Bun would bundle an imported page; the server fills in the files' hashed paths.
    'page.html.txt': await Bun.file(join(DASHBOARD_SOURCE, 'index.html')).text(),
  }
}

if (import.meta.main) {
  const at = process.argv.indexOf('--out')
  const out = at === -1 ? join(ROOT, 'dashboard/dist') : process.argv[at + 1]!
  mkdirSync(out, { recursive: true })
  for (const [name, text] of Object.entries(await buildDashboard())) writeFileSync(join(out, name), text)
  console.log(`wrote ${out}`)
}
