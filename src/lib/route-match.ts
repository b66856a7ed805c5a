// Route table for "which methods does this path accept?", so a wrong method answers 405 instead of 404,
// and "does this route require a credential?", which decides who a request is counted against.

export interface RouteTable {
  /** Methods registered for paths matching `path`; empty when no route matches at all. */
  allowedMethods(path: string): string[]
  /** True when the route registered as `method path` (its pattern, e.g. `/users/:id`) requires a credential. */
  isAuthenticated(method: string, route: string): boolean
}

export interface RouteEntry {
  method: string
  path: string
  authenticated?: boolean
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

export function createRouteTable(routes: ReadonlyArray<RouteEntry>): RouteTable {
  const byPath = new Map<string, { re: RegExp; methods: Set<string> }>()
  const authenticated = new Set<string>()
  for (const { method, path, authenticated: needsCredential } of routes) {
    if (needsCredential) authenticated.add(`${method.toUpperCase()} ${path}`)
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
    isAuthenticated(method, route) {
      // HEAD is answered by the GET route.
      return authenticated.has(`${method === 'HEAD' ? 'GET' : method} ${route}`)
    },
  }
}
