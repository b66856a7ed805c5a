// Route table for "which methods does this path accept?", so a wrong method answers 405 instead of 404,
// and "does this route require a credential?", which decides who a request is counted against and lets a
// request without one be refused before its body is read.

/** Which credential a protected route takes: a user's (access token or PAT) or the operator's token. */
export type CredentialScheme = 'user' | 'operator'

export interface RouteTable {
  /** Methods registered for paths matching `path`; empty when no route matches at all. */
  allowedMethods(path: string): string[]
  /** True when the route registered as `method path` (its pattern, e.g. `/users/:id`) requires a credential. */
  isAuthenticated(method: string, route: string): boolean
  /**
   * The credential every route matching the request's `method path` (a real path, `/users/usr_1`) takes;
   * undefined when none matches or any of them is public.
   */
  credentialFor(method: string, path: string): CredentialScheme | undefined
}

export interface RouteEntry {
  method: string
  path: string
  authenticated?: boolean
  /** For an authenticated route: 'operator' when it takes the operator's token; 'user' otherwise. */
  scheme?: CredentialScheme
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
  // Per method: each route's pattern and the credential it takes (undefined: public).
  const byMethod = new Map<string, { re: RegExp; scheme: CredentialScheme | undefined }[]>()
  for (const { method, path, authenticated: needsCredential, scheme } of routes) {
    const verb = method.toUpperCase()
    if (needsCredential) authenticated.add(`${verb} ${path}`)
    let entry = byPath.get(path)
    if (!entry) byPath.set(path, (entry = { re: toRegExp(path), methods: new Set() }))
    entry.methods.add(verb)
    let ofMethod = byMethod.get(verb)
    if (!ofMethod) byMethod.set(verb, (ofMethod = []))
    ofMethod.push({ re: entry.re, scheme: needsCredential ? (scheme ?? 'user') : undefined })
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
    credentialFor(method, path) {
      let found: CredentialScheme | undefined
      for (const { re, scheme } of byMethod.get(method === 'HEAD' ? 'GET' : method) ?? []) {
        if (!re.test(path)) continue
        if (scheme === undefined) return undefined
        found ??= scheme
      }
      return found
    },
  }
}
