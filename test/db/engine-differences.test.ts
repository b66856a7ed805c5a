// What differs between SQLite and PostgreSQL, handled once and checked on both engines side by side:
// epoch-millisecond BIGINTs come back as numbers (PostgreSQL drivers give strings or BigInt); LIKE is
// case-sensitive on PostgreSQL, so prefix search compares keys folded in JavaScript (case and accents,
// any script) and escapes % and _; text sorts byte by byte on both; SQL only one engine knows (PRAGMA,
// json_each, ifnull, INDEXED BY) stays in that engine's own file.
import { afterAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { json, makeTestApp, type TestApp } from '../helpers/app.ts'
import { clusterSettings } from '../helpers/engine.ts'
import { seedOrganization } from '../helpers/seed.ts'
import { postgresAvailable, redisAvailable } from '../helpers/services.ts'

const engines = [
  // Empty settings count as unset: SQLite even in the PostgreSQL run.
  { name: 'sqlite', settings: async () => ({ DATABASE_URL: '', REDIS_URL: '' }) },
  ...(postgresAvailable && redisAvailable ? [{ name: 'postgres', settings: async () => clusterSettings() }] : []),
]

describe.each(engines)('$name', ({ name, settings }) => {
  let app: TestApp
  let auth: Record<string, string>
  afterAll(() => app?.close())

  test('the engine is the one asked for', async () => {
    app = await makeTestApp(await settings())
    expect(app.context.db.engine).toBe(name as 'sqlite' | 'postgres')
    const { users } = await seedOrganization(app)
    auth = { ...users.super_admin.auth, 'content-type': 'application/json' }
    for (const [person, email] of [
      ['Élodie Durand', 'elodie.durand@example.test'],
      ['ELODIE MARTIN', 'e.martin@example.test'],
      ['Zoë Åberg', 'zoe@example.test'],
      ['100% Percent', 'percent@example.test'],
      ['under_score', 'underscore@example.test'],
    ]) {
      const created = await app.request('/api/v1/users', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ email, name: person, role: 'agent', password: 'a long enough password' }),
      })
      expect(created.status).toBe(201)
    }
  })

  const search = async (q: string) => {
    const body = await json<{ users: { name: string }[] }>(
      await app.request(`/api/v1/users?q=${encodeURIComponent(q)}&sort=name:asc`, { headers: auth }),
    )
    return body.users.map((u) => u.name)
  }

  test('prefix search ignores case and accents, in any script, and takes % and _ literally', async () => {
    expect(await search('elo')).toEqual(['Élodie Durand', 'ELODIE MARTIN'])
    expect(await search('ÉLO')).toEqual(['Élodie Durand', 'ELODIE MARTIN'])
    expect(await search('zoe ab')).toEqual(['Zoë Åberg'])
    expect(await search('E.MARTIN@')).toEqual(['ELODIE MARTIN'])
    expect(await search('100%')).toEqual(['100% Percent'])
    expect(await search('%')).toEqual([])
    expect(await search('under_')).toEqual(['under_score'])
    expect(await search('under%')).toEqual([])
  })

  test('epoch milliseconds come back as numbers, and as the same instant in the API', async () => {
    const row = await app.context.db.raw.get<{ created_at: unknown; id: string }>(
      'SELECT id, created_at FROM users ORDER BY created_at DESC, id LIMIT 1',
    )
    expect(typeof row!.created_at).toBe('number')
    const user = await json<{ created_at: string }>(await app.request(`/api/v1/users/${row!.id}`, { headers: auth }))
    expect(Date.parse(user.created_at)).toBe(row!.created_at as number)
  })

  test('text sorts byte by byte (uppercase before lowercase, as SQLite does), whatever the database collation', async () => {
    const rows = await app.context.db.raw.all<{ name: string }>('SELECT name FROM users ORDER BY name')
    const names = rows.map((r) => r.name)
    // JavaScript compares UTF-16 code units: for these names, the order of their UTF-8 bytes.
    expect(names).toEqual([...names].sort())
    expect(names.indexOf('ELODIE MARTIN')).toBeLessThan(names.indexOf('under_score'))
    expect(names.indexOf('Zoë Åberg')).toBeLessThan(names.indexOf('under_score'))
    expect(names.indexOf('under_score')).toBeLessThan(names.indexOf('Élodie Durand'))
  })
})

test("SQL only one engine knows stays in that engine's own files", () => {
  const root = join(import.meta.dir, '../../src')
  // The engines' own files, and the interface that names what each engine does in its comments.
  const own = new Set(['db/sqlite.ts', 'lib/instance-lock.ts', 'db/postgres.ts', 'db/advisory-lock.ts', 'db/database.ts'])
  const offenders: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name
      if (entry.isDirectory()) {
        if (path !== 'db/migrations') walk(path)
      } else if (path.endsWith('.ts') && !own.has(path)) {
        const text = readFileSync(join(root, path), 'utf8')
        // In SQL text (quoted), not in comments that explain why it is avoided.
        for (const word of [
          /['`"][^'`"\n]*\bPRAGMA\b/,
          /['`"][^'`"\n]*\bjson_each\(/,
          /['`"][^'`"\n]*\bifnull\(/i,
          /['`"][^'`"\n]*INDEXED BY/,
        ])
          if (word.test(text)) offenders.push(`${path}: ${word}`)
      }
    }
  }
  walk('')
  expect(offenders).toEqual([])
})
