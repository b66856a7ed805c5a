// Builds dist/switchboard: one self-contained executable (runtime, code, migrations) made by
// `bun build --compile`. Whitespace and syntax minification only: full --minify renames
// identifiers and breaks Elysia (elysiajs/elysia#1711).
import { join } from 'node:path'

const root = join(import.meta.dir, '..')
const outfile = join(root, 'dist/switchboard')

const result = await Bun.build({
  entrypoints: [join(root, 'src/main.ts')],
  target: 'bun',
  minify: { whitespace: true, syntax: true, identifiers: false },
  sourcemap: 'inline',
  compile: {
    outfile,
    // Configuration comes from the environment and flags only, never from files next to the binary.
    autoloadDotenv: false,
    autoloadBunfig: false,
  },
})
if (!result.success) {
  for (const log of result.logs) process.stderr.write(`${log}\n`)
  process.exit(1)
}
// The sourcemap is embedded in the executable (stack traces name src/ files); drop the copy beside it.
await Bun.file(`${outfile}.map`).delete().catch(() => {})
const size = Bun.file(outfile).size
process.stderr.write(`built ${outfile} (${(size / 1024 / 1024).toFixed(1)} MiB)\n`)
