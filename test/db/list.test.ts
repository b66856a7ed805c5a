// defineList's statements (src/db/list.ts) run on a real SQLite file: seeking visits every row once in
// (sort column, id) order, the organization condition is always there and always first, conditions
// stay bracketed, counts ignore the position, LIKE prefixes are literal.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database as SqliteFile } from 'bun:sqlite'
import { type Condition, defineList, type Direction, likePrefix } from '../../src/db/list.ts'
import { openSqlite } from '../../src/db/sqlite.ts'

declare module '../../src/db/database.ts' {
  interface Tables {
    list_items: { id: string; organization_id: string; score: number; name: string; name_key: string; created_at: number }
  }
}

const root = mkdtempSync(join(tmpdir(), 'switchboard-list-'))
const db = openSqlite(join(root, 'list.db'))
afterAll(async () => {
  await db.close()
  rmSync(root, { recursive: true, force: true })
})
// Ties on score and on name (in several cases); ids deliberately not in score order.
const ROWS: [string, string, number, string, number][] = [
  ['i01', 'a', 3, 'bob', 100],
  ['i02', 'a', 1, 'Alice', 100],
  ['i03', 'a', 2, 'carol', 200],
  ['i04', 'a', 1, 'alice', 200],
  ['i05', 'a', 3, 'Bob', 300],
  ['i06', 'a', 2, 'dave', 300],
  ['i07', 'a', 1, 'ALICE', 400],
  ['i08', 'a', 5, 'erin', 400],
  ['i09', 'a', 3, 'BOB', 500],
  ['i10', 'a', 2, 'Carol', 500],
  ['j01', 'b', 1, 'alice', 100],
  ['j02', 'b', 4, 'zed', 100],
]
await db.write('seed', async (tx) => {
  await tx.raw.run(
    'CREATE TABLE list_items (id TEXT PRIMARY KEY, organization_id TEXT NOT NULL, score INTEGER NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL, created_at INTEGER NOT NULL)',
  )
  for (const [id, org, score, name, at] of ROWS) {
    await tx.raw.run('INSERT INTO list_items VALUES (?, ?, ?, ?, ?, ?)', [id, org, score, name, name.toLowerCase(), at])
  }
})

const LIST = defineList('list_items', { sorts: { score: 'score', name: 'name_key', created_at: 'created_at' } })
type Item = { id: string; score: number; name_key: string }

const run = <T>(query: Condition) => db.raw.all<T>(query.sql, query.params)

/** Every page from the first, each seeking after the last row of the previous one. */
async function walk(sort: string, where: Condition[], limit: number, key: (row: Item) => string | number, org = 'a'): Promise<string[][]> {
  const pages: string[][] = []
  let after: [string | number, string] | undefined
  for (let guard = 0; guard < 50; guard++) {
    const rows = await run<Item>(LIST.statement(sort, org, where, after, limit))
    if (rows.length === 0) break
    pages.push(rows.map((r) => r.id))
    const last = rows.at(-1)!
    after = [key(last), last.id]
    if (rows.length < limit) break
  }
  return pages
}

// Org a by (score, id): score 1: i02 i04 i07; 2: i03 i06 i10; 3: i01 i05 i09; 5: i08.
const BY_SCORE_ASC = ['i02', 'i04', 'i07', 'i03', 'i06', 'i10', 'i01', 'i05', 'i09', 'i08']
const BY_SCORE_DESC = ['i08', 'i09', 'i05', 'i01', 'i10', 'i06', 'i03', 'i07', 'i04', 'i02']
// Org a by (folded name, id): alice: i02 i04 i07; bob: i01 i05 i09; carol: i03 i10; dave i06; erin i08.
const BY_NAME_ASC = ['i02', 'i04', 'i07', 'i01', 'i05', 'i09', 'i03', 'i10', 'i06', 'i08']
const BY_NAME_DESC = ['i08', 'i06', 'i10', 'i03', 'i09', 'i05', 'i01', 'i07', 'i04', 'i02']

describe('walking the pages', () => {
  const cases: [string, Direction, string[], (r: Item) => string | number][] = [
    ['score', 'asc', BY_SCORE_ASC, (r) => r.score],
    ['score', 'desc', BY_SCORE_DESC, (r) => r.score],
    ['name', 'asc', BY_NAME_ASC, (r) => r.name_key],
    ['name', 'desc', BY_NAME_DESC, (r) => r.name_key],
  ]
  for (const [field, direction, expected, key] of cases) {
    for (const limit of [1, 2, 3, 4, 10, 11]) {
      test(`by ${field} ${direction}, ${limit} a page: every row of the organization once, in (key, id) order`, async () => {
        const pages = await walk(`${field}:${direction}`, [], limit, key)
        expect(pages.flat()).toEqual(expected)
        expect(pages.every((p, i) => p.length === limit || i === pages.length - 1)).toBe(true)
      })
    }
  }

  test('seeking from the middle of a tie continues within the tie', async () => {
    expect((await run<Item>(LIST.statement('score:asc', 'a', [], [1, 'i04'], 3))).map((r) => r.id)).toEqual(['i07', 'i03', 'i06'])
  })

  test('seeking after a position no row has (a deleted row) still lands at the right place', async () => {
    expect((await run<Item>(LIST.statement('score:asc', 'a', [], [2, 'i05'], 3))).map((r) => r.id)).toEqual(['i06', 'i10', 'i01'])
  })

  test('another organization is never walked into', async () => {
    expect((await walk('score:asc', [], 5, (r) => r.score, 'b')).flat()).toEqual(['j01', 'j02'])
  })
})

describe('conditions', () => {
  test('combine with AND, with each other and with the position', async () => {
    const where: Condition[] = [
      { sql: 'score >= ?', params: [2] },
      { sql: 'created_at <= ?', params: [400] },
    ]
    // Org a, score >= 2, created_at <= 400: i03(2) i06(2) i01(3) i05(3) i08(5).
    expect((await run<Item>(LIST.statement('score:asc', 'a', where, undefined, 100))).map((r) => r.id)).toEqual([
      'i03',
      'i06',
      'i01',
      'i05',
      'i08',
    ])
    expect((await run<Item>(LIST.statement('score:asc', 'a', where, [2, 'i06'], 100))).map((r) => r.id)).toEqual(['i01', 'i05', 'i08'])
  })

  test('a condition written with OR stays inside the organization (each condition is bracketed)', async () => {
    const where: Condition[] = [{ sql: 'score = ? OR score = ?', params: [1, 5] }]
    expect((await run<Item>(LIST.statement('score:asc', 'b', where, undefined, 100))).map((r) => r.id)).toEqual(['j01'])
  })

  test('the conditions given are not changed by adding the organization and the position', () => {
    const where: Condition[] = [{ sql: 'score > ?', params: [0] }]
    LIST.statement('score:asc', 'a', where, [1, 'i02'], 5)
    expect(where).toEqual([{ sql: 'score > ?', params: [0] }])
  })
})

describe('the SQL text', () => {
  test('the organization first, then the conditions, a row-value seek, a tie-break on id, a LIMIT and no OFFSET', () => {
    expect(LIST.statement('score:asc', 'a', [{ sql: 'score >= ?', params: [2] }], [3, 'i05'], 21)).toEqual({
      sql: 'SELECT list_items.* FROM list_items WHERE (list_items.organization_id = ?) AND (score >= ?) AND ((list_items.score, list_items.id) > (?, ?)) ORDER BY list_items.score asc, list_items.id asc LIMIT ?',
      params: ['a', 2, 3, 'i05', 21],
    })
  })

  test('descending seeks with <, on the column the sort field names', () => {
    expect(LIST.statement('name:desc', 'a', [], ['bob', 'i05'], 3)).toEqual({
      sql: 'SELECT list_items.* FROM list_items WHERE (list_items.organization_id = ?) AND ((list_items.name_key, list_items.id) < (?, ?)) ORDER BY list_items.name_key desc, list_items.id desc LIMIT ?',
      params: ['a', 'bob', 'i05', 3],
    })
  })

  test('never OFFSET, on any page', () => {
    for (const after of [undefined, [1, 'x'] as const]) expect(LIST.statement('score:asc', 'a', [], after, 5).sql).not.toMatch(/offset/i)
  })

  test('a sort field the list does not declare is refused', () => {
    expect(() => LIST.statement('id:asc', 'a', [], undefined, 5)).toThrow('list_items cannot be sorted by id')
    expect(LIST.sorts).toEqual(['score', 'name', 'created_at'])
  })
})

describe('likePrefix', () => {
  test.each([
    ['abc', 'abc%'],
    ['', '%'],
    ['100%', '100\\%%'],
    ['under_score', 'under\\_score%'],
    ['back\\slash', 'back\\\\slash%'],
    ['%_\\', '\\%\\_\\\\%'],
    ['a%%b', 'a\\%\\%b%'],
    ["o'brien", "o'brien%"],
  ])('%p becomes %p', (prefix, expected) => {
    expect(likePrefix(prefix)).toBe(expected)
  })

  const words = new SqliteFile(':memory:')
  afterAll(() => words.close())
  words.run('CREATE TABLE words (w TEXT NOT NULL)')
  for (const w of [
    '100% Sure',
    '1000 Sure',
    '100 percent',
    '100',
    'under_score',
    'underXscore',
    'under score',
    'back\\slash',
    'backslash',
    'back\\\\slash',
    'Alpha',
    'alphabet',
    'beta',
    '%',
    '_',
    '\\',
  ]) {
    words.run('INSERT INTO words (w) VALUES (?)', [w])
  }
  const matching = (prefix: string) =>
    words
      .query<{ w: string }, [string]>("SELECT w FROM words WHERE w LIKE ? ESCAPE '\\' ORDER BY w")
      .all(likePrefix(prefix))
      .map((r) => r.w)
      .sort()

  test.each([
    ['100%', ['100% Sure']],
    ['100', ['100', '100 percent', '100% Sure', '1000 Sure']],
    ['under_', ['under_score']],
    ['under', ['under score', 'underXscore', 'under_score']],
    ['back\\', ['back\\\\slash', 'back\\slash']],
    ['back\\s', ['back\\slash']],
    ['%', ['%']],
    ['_', ['_']],
    ['\\', ['\\']],
    ['alpha', ['Alpha', 'alphabet']],
    ['ALPHAB', ['alphabet']],
    ['zzz', []],
  ])('LIKE with the prefix %p matches literally: %p', (prefix, expected) => {
    expect(matching(prefix)).toEqual([...expected].sort())
  })

  test('the empty prefix matches everything', () => {
    expect(matching('').length).toBe(16)
  })
})
