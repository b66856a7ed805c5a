// A small router over the History API: screens live at /app/<path>; links change the path without a
// reload, and the server answers every /app/ path with the same page, so a reload or a shared link works.
import { useEffect, useState } from 'preact/hooks'

const BASE = '/app'
const listeners = new Set<() => void>()

/** The path inside the dashboard: `/` for /app/, `/tickets/tkt_1` for /app/tickets/tkt_1. */
export function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname
  return path === '' ? '/' : path
}

export function navigate(path: string, replace = false): void {
  const url = `${BASE}${path}`
  if (replace) history.replaceState(null, '', url)
  else history.pushState(null, '', url)
  for (const listener of listeners) listener()
}

addEventListener('popstate', () => {
  for (const listener of listeners) listener()
})

/** The current path and query, re-rendering the caller when they change. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0)
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1)
    listeners.add(listener)
    return () => listeners.delete(listener)
  }, [])
  return { path: currentPath(), query: new URLSearchParams(location.search) }
}

/** Turns a click on an <a href="/app/…"> into navigation (a modified click opens a tab as usual). */
export function followLink(event: MouseEvent): void {
  const anchor = (event.target as Element).closest('a')
  if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const url = new URL(anchor.href)
  if (url.origin !== location.origin || !url.pathname.startsWith(`${BASE}/`) || anchor.target) return
  event.preventDefault()
  navigate(url.pathname.slice(BASE.length) + url.search)
}
