// Pieces every screen shares: who is signed in and what they may do, errors explained in words, the
// busy/error state of a form, and the frame of a page.
import type { ComponentChildren } from 'preact'
import { createContext } from 'preact'
import { useContext, useEffect, useState } from 'preact/hooks'
import type { Schemas } from '../../clients/typescript/src/index.ts'

export interface Me {
  id: string
  name: string
  email: string
  role: string
  organization_id: string
  permissions: string[]
}

export const MeContext = createContext<Me | undefined>(undefined)
/** Reads the signed-in user again (after a change of their own role, say), so the screens follow it. */
export const ReloadMeContext = createContext<() => void>(() => undefined)

/** The signed-in user (every screen but the sign-in is rendered inside one). */
export function useMe(): Me {
  return useContext(MeContext)!
}

/** Whether the signed-in user's role grants `permission` (the API decides; this only hides controls). */
export function useCan(permission: string): boolean {
  return allows(useMe().permissions, permission)
}

/** The API's matching: `*:*` covers everything, `ticket:*` every ticket action. */
export function allows(grants: readonly string[], permission: string): boolean {
  const resource = permission.slice(0, permission.indexOf(':'))
  return grants.includes(permission) || grants.includes('*:*') || grants.includes(`${resource}:*`)
}

/** What a user should read for an API error: a 403 explained, the API's own message otherwise. */
export function describeError(error: unknown): string {
  const body = (error ?? {}) as Partial<Schemas['Error']> & { error?: string }
  switch (body.code) {
    case 'INSUFFICIENT_PERMISSIONS':
      return `Your role does not allow this. ${body.message ?? ''} Ask an administrator of your organization if you need it.`.trim()
    case 'IP_NOT_ALLOWED':
      return 'Your organization does not allow requests from this network address.'
    case 'MFA_ENROLLMENT_REQUIRED':
      return 'Your organization requires multi-factor authentication: set it up under My security first.'
    case 'TOKEN_EXPIRED':
    case 'TOKEN_INVALID':
    case 'UNAUTHENTICATED':
      return 'Your session has ended. Sign in again.'
  }
  if (body.error === 'RATE_LIMITED')
    return `Too many requests: try again in ${(body as { retry_after?: number }).retry_after ?? 'a few'} seconds.`
  const fields = (body.errors ?? []).map((e) => `${e.field}: ${e.message}`).join('; ')
  return [body.message ?? 'The request failed.', fields].filter(Boolean).join(' ')
}

export function ErrorNote({ error }: { error: unknown }) {
  if (error === undefined) return null
  return (
    <p role="alert" class="error">
      {describeError(error)}
    </p>
  )
}

/**
 * The state of one form or button: `run(task)` marks it busy, clears the last error, and keeps the
 * error the API answered with (a task returns `{error}` as the typed client does, or throws).
 */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()
  async function run<T>(task: () => Promise<{ data?: T; error?: unknown }>): Promise<T | undefined> {
    setBusy(true)
    setError(undefined)
    try {
      const result = await task()
      if (result.error !== undefined) setError(result.error)
      return result.error === undefined ? result.data : undefined
    } catch (thrown) {
      setError({ message: thrown instanceof Error ? thrown.message : 'The request failed.' })
      return undefined
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, setError, run }
}

/**
 * Data loaded once per `deps` change: `{data, error, reload}`. `load` returns what the typed client
 * returns ({data} or {error}).
 */
export function useLoad<T>(load: () => Promise<{ data?: T; error?: unknown }>, deps: unknown[] = []) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true })
  const [tick, setTick] = useState(0)
  useEffect(() => {
    let live = true
    setState((previous) => ({ ...previous, loading: true }))
    load().then(
      (result) => live && setState({ data: result.data, error: result.error, loading: false }),
      (thrown) => live && setState({ error: { message: String(thrown) }, loading: false }),
    )
    return () => {
      live = false
    }
  }, [...deps, tick])
  return { ...state, reload: () => setTick((t) => t + 1) }
}

/** The frame of a screen: its heading, an optional line under it, and its content. */
export function Page({ title, intro, children }: { title: string; intro?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Switchboard`
  }, [title])
  return (
    <section class="page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      {intro && <p class="intro">{intro}</p>}
      {children}
    </section>
  )
}

/** A date-time of the API shown in the reader's locale and zone. */
export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">never</span>
  return <time dateTime={at}>{new Date(at).toLocaleString()}</time>
}
