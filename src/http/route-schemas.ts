// What the platform must know of each route's declared schemas before Elysia validates a request, which
// Elysia's hooks are not told: whether the route's body is JSON, and which query parameters a list knows.
import { isListQuery } from './list.ts'

/** A route as Elysia keeps it (`getGlobalRoutes()`): its schemas are the ones it declared, unchanged. */
export interface RouteLike {
  method: string
  path: string
  hooks?: { body?: unknown; query?: unknown }
}

export interface RouteSchemas {
  /** The route declares a body schema, so its body is JSON (forms and raw bodies are read by routes without one). */
  takesJson(method: string, route: string): boolean
  /** The parameters of a list's (or an export's) query, in schema order; undefined for any other route. */
  listParameters(method: string, route: string): readonly string[] | undefined
}

/**
 * The schemas of the app's routes, indexed at the first request, when every module has registered its
 * own, and again whenever routes were added since (tests add theirs to a running app).
 */
export function routeSchemas(routes: () => readonly RouteLike[]): () => RouteSchemas {
  let indexed: { count: number; schemas: RouteSchemas } | undefined
  return () => {
    const all = routes()
    if (indexed?.count !== all.length) indexed = { count: all.length, schemas: indexRoutes(all) }
    return indexed.schemas
  }
}

function indexRoutes(routes: readonly RouteLike[]): RouteSchemas {
  const json = new Set<string>()
  const lists = new Map<string, readonly string[]>()
  for (const { method, path, hooks } of routes) {
    const key = `${method} ${path}`
    if (hooks?.body !== undefined) json.add(key)
    if (isListQuery(hooks?.query)) lists.set(key, Object.keys(hooks.query.properties))
  }
  return {
    takesJson: (method, route) => json.has(`${method} ${route}`),
    // HEAD is answered by the GET route.
    listParameters: (method, route) => lists.get(`${method === 'HEAD' ? 'GET' : method} ${route}`),
  }
}
