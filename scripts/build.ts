// Builds dist/switchboard: one self-contained executable (runtime, code, migrations) made by
// `bun build --compile`. Whitespace and syntax minification only: full --minify renames
// identifiers and breaks Elysia (elysiajs/elysia#1711).
import { join } from 'node:path'

const root = join(import.meta.dir, '..')

export async function buildBinary(outfile: string): Promise<void> {
  const result = await Bun.build({
    entrypoints: [join(root, 'src/main.ts')],
    target: 'bun',
    minify: { whitespace: true, syntax: true, identifiers: false },
    // Embedded in the executable, so stack traces in the log name src/ files.
    sourcemap: 'inline',
    compile: {
      outfile,
      // Configuration comes from the environment and flags only, never from files next to the binary.
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
  })
  if (!result.success) throw new AggregateError(result.logs, 'build failed')
  // The map is already inside the executable; drop the copy written beside it.
  await Bun.file(`${outfile}.map`)
    .delete()
    .catch(() => {})
}

if (import.meta.main) {
  const outfile = join(root, 'dist/switchboard')
  await buildBinary(outfile)
  process.stderr.write(`built ${outfile} (${(Bun.file(outfile).size / 1024 / 1024).toFixed(1)} MiB)\n`)
}
