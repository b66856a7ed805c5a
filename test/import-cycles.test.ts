// No import loops under src/: every file's runtime imports (type-only imports are erased by the compiler
// and cannot loop at load time) form a graph without a cycle. Biome's noImportCycles says the same at
// lint time; this test names every loop at once, with its files, and checks that the finder finds one.
import { describe, expect, test } from 'bun:test'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { ROOT } from './helpers/root.ts'

const transpiler = new Bun.Transpiler({ loader: 'ts' })

/** The files under src/ and the files each imports at runtime (relative imports only). */
function importGraph(srcDir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const path of new Bun.Glob('**/*.ts').scanSync(srcDir)) {
    const file = join(srcDir, path)
    const imports = transpiler
      .scanImports(readFileSync(file, 'utf8'))
      .map((i) => i.path)
      .filter((p) => p.startsWith('.'))
      .map((p) => resolve(dirname(file), p))
    graph.set(file, imports)
  }
  return graph
}

/** The strongly connected components of more than one file (or a file importing itself): the loops. */
function loops(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    onStack.add(node)
    for (const to of graph.get(node) ?? []) {
      if (!graph.has(to)) continue
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || graph.get(node)!.includes(node)) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

describe('import cycles', () => {
  test('src/ has none', () => {
    const src = join(ROOT, 'src')
    const graph = importGraph(src)
    expect(graph.size).toBeGreaterThan(300)
    expect(loops(graph).map((component) => component.map((file) => relative(src, file)))).toEqual([])
  })

  test('the finder finds a loop, and only the loop', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts', '/d.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', []],
      ['/e.ts', ['/e.ts']],
    ])
    expect(loops(graph)).toEqual([['/a.ts', '/b.ts', '/c.ts'], ['/e.ts']])
  })

  test('type-only imports do not count; value imports do', () => {
    const code = "import type { A } from './a.ts'\nimport { b } from './b.ts'\nimport { type C } from './c.ts'\nexport const x: A | C = b\n"
    expect(transpiler.scanImports(code).map((i) => i.path)).toEqual(['./b.ts'])
  })

  test("biome's lint refuses a loop between two modules (noImportCycles in biome.json)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-cycles-'))
    try {
      copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'))
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
      mkdirSync(join(dir, 'src/modules/a'), { recursive: true })
      mkdirSync(join(dir, 'src/modules/b'), { recursive: true })
      writeFileSync(join(dir, 'src/modules/a/index.ts'), "import { b } from '../b/index.ts'\n\nexport const a = () => b\n")
      writeFileSync(join(dir, 'src/modules/b/index.ts'), "import { a } from '../a/index.ts'\n\nexport const b = () => a\n")
      const lint = (path: string) =>
        Bun.spawnSync([join(ROOT, 'node_modules/.bin/biome'), 'lint', '--colors=off', path], { cwd: dir, stdout: 'pipe', stderr: 'pipe' })
      const looped = lint('src/modules/a/index.ts')
      expect([looped.exitCode, looped.stdout.toString() + looped.stderr.toString()]).toEqual([1, expect.stringContaining('noImportCycles')])
      writeFileSync(join(dir, 'src/modules/b/index.ts'), 'export const b = () => 1\n')
      expect(lint('src/modules/a/index.ts').exitCode).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
