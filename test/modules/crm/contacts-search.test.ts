// Contact search at both of its strategies: a `q` with at most SEARCH_CANDIDATES_MAX candidates is looked
// up by id (no walk through the organization), a commoner one walks the list's sort. Either way the list,
// its pages and the export hold exactly the matching contacts, in order; and the plans say so.
import { describe, expect, test } from 'bun:test'
import { Database as SqliteFile } from 'bun:sqlite'
import type { SqlValue } from '../../../src/db/database.ts'
import {
  CONTACT_LIST,
  candidatesCondition,
  contactConditions,
  SEARCH_CANDIDATES_MAX,
  searchCandidates,
} from '../../../src/modules/crm/contacts/store.ts'
import { prefixedId } from '../../../src/lib/ids.ts'
import { searchKey } from '../../../src/lib/search-key.ts'
import { json } from '../../helpers/app.ts'
import { planNodes } from '../../helpers/query-plan.ts'
import { crmApp } from './contacts-api.ts'

const { app, acme, globex } = await crmApp()
const auth = acme.users.viewer.auth
const COMMON = SEARCH_CANDIDATES_MAX + 50
const base = Date.UTC(2025, 0, 1)

/** `count` contacts named `${name} ${i}` (e-mail `${name}${i}@example.com`), one a second from `start`. */
async function insert(organizationId: string, name: string, count: number, start: number): Promise<void> {
  await app.context.db.write('test.insert_contacts', async (tx) => {
    for (let i = 0; i < count; i++) {
      const full = `${name} ${i}`
      await tx.raw.run(
        `INSERT INTO contacts (id, organization_id, name, name_key, email, phone, external_id, contact_type, account_id, owner_id,
          blocked, consent, tags, custom_fields, last_activity_at, merged_into_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, NULL, ?, 'visitor', NULL, NULL, ?, '{"email":null,"sms":null,"marketing":null}', '[]', '{}', 0, NULL, ?, ?)`,
        [
          prefixedId('con'),
          organizationId,
          full,
          searchKey(full),
          `${name.toLowerCase()}${i}@example.com`,
          `${name}-${i}`,
          false,
          start + i * 1000,
          start + i * 1000,
        ],
      )
    }
  })
}

await insert(acme.org.id, 'Common', COMMON, base)
await insert(acme.org.id, 'Rare', 5, base + 500)
await insert(globex.org.id, 'Rare', 3, base)

/** Every page of the list for `query`, following next_page_token. */
async function allPages(query: string, pageSize: number): Promise<string[]> {
  const names: string[] = []
  let token = ''
  do {
    const response = await app.request(`/api/v1/contacts?${query}&page_size=${pageSize}${token ? `&page_token=${token}` : ''}`, {
      headers: auth,
    })
    expect(response.status).toBe(200)
    const body = await json<{ contacts: { name: string }[]; next_page_token: string }>(response)
    names.push(...body.contacts.map((c) => c.name))
    token = body.next_page_token
  } while (token)
  return names
}

/**
 * SQLite's plan, from a connection of its own with the statement finalized: an EXPLAIN left in the app's
 * reader cache keeps a read open, and the app's close then waits out its busy timeout.
 */
function sqlitePlan(sql: string, params: readonly SqlValue[]): string {
  const file = new SqliteFile(app.config.dbPath, { readonly: true })
  const query = file.prepare<{ detail: string }, SqlValue[]>(`EXPLAIN QUERY PLAN ${sql}`)
  try {
    return query
      .all(...(params as SqlValue[]))
      .map((row) => row.detail)
      .join(' | ')
  } finally {
    query.finalize()
    file.close()
  }
}

const namesOf = (name: string, count: number) => Array.from({ length: count }, (_, i) => `${name} ${i}`)

describe('the two strategies', () => {
  test('few candidates are looked up by id; more than SEARCH_CANDIDATES_MAX walk the sort', async () => {
    expect(await searchCandidates(app.context.db, acme.org.id, 'rare')).toHaveLength(5)
    expect(await searchCandidates(app.context.db, acme.org.id, 'Rare-')).toHaveLength(5)
    expect(await searchCandidates(app.context.db, acme.org.id, 'nobody')).toEqual([])
    expect(await searchCandidates(app.context.db, acme.org.id, 'common')).toBeUndefined()
  })

  test("a few candidates' plan reads them by id, not the organization through the sort's index", async () => {
    const ids = (await searchCandidates(app.context.db, acme.org.id, 'rare'))!
    const statement = CONTACT_LIST.statement(
      'created_at:desc',
      acme.org.id,
      [...contactConditions({ q: 'rare' }), candidatesCondition(ids)],
      undefined,
      21,
      true,
    )
    const db = app.context.db
    const indexes =
      db.engine === 'sqlite'
        ? sqlitePlan(statement.sql, statement.params)
        : (await planNodes(db, statement.sql, statement.params)).map((node) => node['Index Name'] ?? '').join(' ')
    expect(indexes).not.toContain('contacts_org_created')
    // Without the mark, the same statement walks it (what the mark is for).
    const walking = CONTACT_LIST.statement('created_at:desc', acme.org.id, contactConditions({ q: 'rare' }), undefined, 21)
    if (db.engine === 'sqlite') expect(sqlitePlan(walking.sql, walking.params)).toContain('contacts_org_created')
  })
})

describe('same answers either way', () => {
  test('a rare name: exactly its contacts, newest first, over pages of 2; another organization’s never', async () => {
    expect(await allPages('q=rare', 2)).toEqual(namesOf('Rare', 5).reverse())
    expect(await allPages('q=rare&sort=created_at:asc', 2)).toEqual(namesOf('Rare', 5))
  })

  test('a common name: all of them over pages of 100, in order', async () => {
    expect(await allPages('q=common&sort=created_at:asc', 100)).toEqual(namesOf('Common', COMMON))
  })

  test('an e-mail and an external id found whole; combined with a filter', async () => {
    expect(await allPages('q=common7@example.com', 20)).toEqual(['Common 7'])
    expect(await allPages('q=Rare-3', 20)).toEqual(['Rare 3'])
    expect(await allPages('q=rare&created_after=2025-01-01T00:00:02Z', 20)).toEqual(['Rare 4', 'Rare 3', 'Rare 2'])
  })

  test('the export of a search holds the same contacts', async () => {
    for (const [q, expected] of [
      ['rare', namesOf('Rare', 5)],
      ['common', namesOf('Common', COMMON)],
    ] as const) {
      const text = await (await app.request(`/api/v1/contacts/export?q=${q}`, { headers: auth })).text()
      expect(
        text
          .split('\r\n')
          .slice(1, -1)
          .map((line) => line.split(',')[1]),
      ).toEqual([...expected])
    }
  })
})
