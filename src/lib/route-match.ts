// Route table for "which methods does this path accept?", so a wrong method answers 405 instead of 404.

export interface RouteTable {
  /** Methods registered for paths matching `path`; empty when no route matches at all. */
  allowedMethods(path: string): string[]
}

// Elysia path syntax: `:name` is one segment, `:name?` an optional segment, `*` the rest.
function toRegExp(path: string): RegExp {
  const pattern = path
    .split('/')
    .filter((s) => s !== '')
    .map((segment) => {
      if (segment === '*') return '(?:/.*)?'
      if (segment.startsWith(':')) return segment.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+'
      return '/' + segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    })
    .join('')
  return new RegExp(`^${pattern || '/'}/?$`)
}

export function createRouteTable(routes: ReadonlyArray<{ method: string; path: string }>): RouteTable {
  const byPath = new Map<string, { re: RegExp; methods: Set<string> }>()
  for (const { method, path } of routes) {
    let entry = byPath.get(path)
    if (!entry) byPath.set(path, (entry = { re: toRegExp(path), methods: new Set() }))
    entry.methods.add(method.toUpperCase())
  }
  const entries = [...byPath.values()]
  return {
    allowedMethods(path) {
      const found = new Set<string>()
      for (const { re, methods } of entries) if (re.test(path)) for (const m of methods) found.add(m)
      return [...found].sort()
    },
  }
}
