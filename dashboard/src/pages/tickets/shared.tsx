// Pieces the tickets and contacts screens share: form fields bound to state, list filters kept in the
// URL query (so a reload or a shared link keeps them), the cursor pager, and the organization's users.
import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import type { Schemas } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import { navigate } from '../../router.ts'
import { useCan, useLoad, useMe } from '../../ui.tsx'

/** A user as the users list gives it. */
export type User = Pick<Schemas['User'], 'id' | 'name' | 'email' | 'role' | 'status'>

/**
 * Inputs whose values live in state: a re-render (a list arriving) keeps what the user typed. `field(name)`
 * spreads onto an input, select or textarea; ids take `prefix` so that several forms share a page.
 */
export function useFields(initial: Record<string, string>, prefix: string) {
  const [values, setValues] = useState(initial)
  const update = (name: string) => (event: Event) => {
    const target = event.currentTarget as HTMLInputElement
    setValues((previous) => ({ ...previous, [name]: target.type === 'checkbox' ? (target.checked ? 'true' : '') : target.value }))
  }
  const field = (name: string) => ({
    id: `${prefix}-${name}`,
    name,
    value: values[name] ?? '',
    onInput: update(name),
    onChange: update(name),
  })
  const checkbox = (name: string) => ({ id: `${prefix}-${name}`, name, checked: values[name] === 'true', onChange: update(name) })
  return { values, setValues, field, checkbox }
}

/** The named parameters of a URL query that have a value. */
export function queryOf(query: URLSearchParams, names: readonly string[]): Record<string, string> {
  const found: Record<string, string> = {}
  for (const name of names) {
    const value = query.get(name)?.trim()
    if (value) found[name] = value
  }
  return found
}

/** A dashboard path with the non-empty `values` as its query. */
export function withQuery(path: string, values: Record<string, string | undefined>): string {
  const kept = Object.entries(values).filter((entry): entry is [string, string] => !!entry[1]?.trim())
  return kept.length === 0 ? path : `${path}?${new URLSearchParams(kept)}`
}

/** Applies a filter form: the list again from its first page, with the filters in the URL. */
export function applyFilters(path: string, values: Record<string, string>): void {
  const { page_token: _, ...filters } = values
  navigate(withQuery(path, filters))
}

/** A date of a date input (YYYY-MM-DD) as the start of that day where the reader is, in ISO 8601. */
export function startOfDay(date: string | undefined): string | undefined {
  if (!date) return undefined
  const at = new Date(`${date}T00:00:00`)
  // Not a date: passed on as typed, so the API names what is wrong with it.
  return Number.isNaN(at.getTime()) ? date : at.toISOString()
}

/** The cursor pager: the next page's link, and the first page's once past it. */
export function Pager({ path, filters, next, label }: { path: string; filters: Record<string, string>; next?: string; label: string }) {
  const { page_token: current, ...rest } = filters
  if (!next && !current) return null
  return (
    <nav class="tickets-pager" aria-label={label}>
      {current && <a href={`/app${withQuery(path, rest)}`}>First page</a>}
      {next && <a href={`/app${withQuery(path, { ...rest, page_token: next })}`}>Next page</a>}
    </nav>
  )
}

/** The organization's users, by name (up to 500: the assignee and owner pickers); none without user:read. */
export function useUsers() {
  const may = useCan('user:read')
  const { data } = useLoad(async () => {
    if (!may) return { data: [] as User[] }
    const users: User[] = []
    let page_token: string | undefined
    for (let page = 0; page < 5; page++) {
      const { data, error } = await api().GET('/api/v1/users', { params: { query: { sort: 'name:asc', page_size: 100, page_token } } })
      if (error !== undefined) return users.length ? { data: users } : { error }
      users.push(...data.users)
      if (!data.next_page_token) break
      page_token = data.next_page_token
    }
    return { data: users }
  })
  return data ?? []
}

/** How a user id reads: "you", the user's name, or the id when the user is not known here. */
export function useUserName(users: User[]) {
  const me = useMe()
  return (id: string | null | undefined, none = 'Nobody') => {
    if (!id) return none
    if (id === me.id) return `${me.name} (you)`
    return users.find((user) => user.id === id)?.name ?? id
  }
}

/** One labelled value of a record's description list. */
export function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  )
}

export function Tags({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return <span class="muted">none</span>
  return (
    <ul class="tickets-tags">
      {tags.map((tag) => (
        <li>{tag}</li>
      ))}
    </ul>
  )
}

/** Tags as typed: separated by spaces or commas. */
export function splitTags(text: string | undefined): string[] {
  return (text ?? '').split(/[\s,]+/).filter(Boolean)
}
