// Keyset SQL (src/db/keyset.ts) run on a real in-memory SQLite: seeking visits every row once in (key, id) order, counts ignore the position, LIKE prefixes are literal.
import { Database, type SQLQueryBindings } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { countSql, keysetSql, likePrefix, type Condition, type Direction, type KeysetQuery } from '../../src/db/keyset.ts'

const db = new Database(':memory:')
afterAll(() => db.close())
db.run('CREATE TABLE items (id TEXT PRIMARY KEY, org TEXT NOT NULL, score INTEGER NOT NULL, name TEXT NOT NULL, created_at INTEGER NOT NULL)')
const insert = db.prepare('INSERT INTO items (id, org, score, name, created_at) VALUES (?, ?, ?, ?, ?)')
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
for (const row of ROWS) insert.run(...row)

type Item = { id: string; score: number; name: string }
const ORG_A: Condition = { sql: 'org = ?', params: ['a'] }

function run<T>(query: Condition): T[] {
  return db.query<T, SQLQueryBindings[]>(query.sql).all(...query.params)
}

/** Every page from the first, each seeking after the last row of the previous one. */
function walk(base: Omit<KeysetQuery, 'after' | 'limit'>, limit: number, key: (row: Item) => string | number): string[][] {
  const pages: string[][] = []
  let after: [string | number, string] | undefined
  for (let guard = 0; guard < 50; guard++) {
    const rows = run<Item>(keysetSql({ ...base, after, limit }))
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
// Org a by (name without regard to case, id): alice: i02 i04 i07; bob: i01 i05 i09; carol: i03 i10; dave i06; erin i08.
const BY_NAME_ASC = ['i02', 'i04', 'i07', 'i01', 'i05', 'i09', 'i03', 'i10', 'i06', 'i08']
const BY_NAME_DESC = ['i08', 'i06', 'i10', 'i03', 'i09', 'i05', 'i01', 'i07', 'i04', 'i02']

describe('keysetSql: walking the pages', () => {
  const cases: [string, string, Direction, string[], (r: Item) => string | number][] = [
    ['score', 'score', 'asc', BY_SCORE_ASC, (r) => r.score],
    ['score', 'score', 'desc', BY_SCORE_DESC, (r) => r.score],
    ['name without regard to case', 'name COLLATE NOCASE', 'asc', BY_NAME_ASC, (r) => r.name],
    ['name without regard to case', 'name COLLATE NOCASE', 'desc', BY_NAME_DESC, (r) => r.name],
  ]
  for (const [label, sortExpr, direction, expected, key] of cases) {
    for (const limit of [1, 2, 3, 4, 9, 10, 11]) {
      test(`by ${label} ${direction}, ${limit} a page: every row once, in (key, id) order`, () => {
        const pages = walk({ columns: 'id, score, name', from: 'items', where: [ORG_A], sortExpr, direction, idExpr: 'id' }, limit, key)
        expect(pages.flat()).toEqual(expected)
        expect(pages.length).toBe(Math.ceil(expected.length / limit))
        for (const page of pages.slice(0, -1)) expect(page.length).toBe(limit)
      })
    }
  }

  test('seeking from the middle of a tie continues within the tie', () => {
    const base = { columns: 'id', from: 'items', where: [ORG_A], sortExpr: 'score', idExpr: 'id', limit: 10 }
    expect(run<Item>(keysetSql({ ...base, direction: 'asc', after: [2, 'i06'] })).map((r) => r.id)).toEqual(['i10', 'i01', 'i05', 'i09', 'i08'])
    expect(run<Item>(keysetSql({ ...base, direction: 'desc', after: [2, 'i06'] })).map((r) => r.id)).toEqual(['i03', 'i07', 'i04', 'i02'])
  })

  test('seeking after a position no row has (a deleted row) still lands at the right place', () => {
    const base = { columns: 'id', from: 'items', where: [ORG_A], sortExpr: 'score', idExpr: 'id', limit: 10 }
    expect(run<Item>(keysetSql({ ...base, direction: 'asc', after: [2, 'i05'] })).map((r) => r.id)).toEqual(['i06', 'i10', 'i01', 'i05', 'i09', 'i08'])
    expect(run<Item>(keysetSql({ ...base, direction: 'asc', after: [4, 'zzz'] })).map((r) => r.id)).toEqual(['i08'])
    expect(run<Item>(keysetSql({ ...base, direction: 'asc', after: [5, 'i08'] })).map((r) => r.id)).toEqual([])
  })

  test('a name sort seeks case-insensitively: after ("ALICE", "i04") comes i07, then the bobs', () => {
    const rows = run<Item>(keysetSql({ columns: 'id', from: 'items', where: [ORG_A], sortExpr: 'name COLLATE NOCASE', direction: 'asc', idExpr: 'id', after: ['ALICE', 'i04'], limit: 4 }))
    expect(rows.map((r) => r.id)).toEqual(['i07', 'i01', 'i05', 'i09'])
  })

  test('without conditions every organization is walked', () => {
    const pages = walk({ columns: 'id, score, name', from: 'items', where: [], sortExpr: 'score', direction: 'asc', idExpr: 'id' }, 4, (r) => r.score)
    expect(pages.flat()).toEqual(['i02', 'i04', 'i07', 'j01', 'i03', 'i06', 'i10', 'i01', 'i05', 'i09', 'j02', 'i08'])
  })
})

describe('keysetSql: conditions', () => {
  test('combine with AND, with each other and with the position', () => {
    const where: Condition[] = [ORG_A, { sql: 'score >= ?', params: [2] }, { sql: 'created_at <= ?', params: [400] }]
    // Org a, score >= 2, created_at <= 400: i03(2) i06(2) i01(3) i05(3) i08(5).
    const all = run<Item>(keysetSql({ columns: 'id', from: 'items', where, sortExpr: 'score', direction: 'asc', idExpr: 'id', limit: 100 }))
    expect(all.map((r) => r.id)).toEqual(['i03', 'i06', 'i01', 'i05', 'i08'])
    const after = run<Item>(keysetSql({ columns: 'id', from: 'items', where, sortExpr: 'score', direction: 'asc', idExpr: 'id', after: [2, 'i06'], limit: 100 }))
    expect(after.map((r) => r.id)).toEqual(['i01', 'i05', 'i08'])
  })

  test('a condition with its own OR, parenthesized, stays within the organization', () => {
    const where: Condition[] = [{ sql: 'org = ?', params: ['b'] }, { sql: '(score = ? OR score = ?)', params: [1, 5] }]
    expect(run<Item>(keysetSql({ columns: 'id', from: 'items', where, sortExpr: 'score', direction: 'asc', idExpr: 'id', limit: 100 })).map((r) => r.id)).toEqual(['j01'])
  })

  test('the conditions given are not changed by adding the position', () => {
    const where: Condition[] = [ORG_A]
    keysetSql({ columns: 'id', from: 'items', where, sortExpr: 'score', direction: 'asc', idExpr: 'id', after: [1, 'i02'], limit: 5 })
    expect(where).toEqual([{ sql: 'org = ?', params: ['a'] }])
  })
})

describe('keysetSql: the SQL text', () => {
  test('with conditions and a position: a row-value seek, a tie-break on id, a LIMIT and no OFFSET', () => {
    const query = keysetSql({
      columns: 'id, score',
      from: 'items',
      where: [ORG_A, { sql: 'score >= ?', params: [2] }],
      sortExpr: 'score',
      direction: 'asc',
      idExpr: 'id',
      after: [3, 'i05'],
      limit: 21,
    })
    expect(query).toEqual({
      sql: 'SELECT id, score FROM items WHERE (org = ?) AND (score >= ?) AND ((score, id) > (?, ?)) ORDER BY score asc, id asc LIMIT ?',
      params: ['a', 2, 3, 'i05', 21],
    })
  })

  test('descending seeks with <', () => {
    const query = keysetSql({ columns: 'id', from: 'items', where: [ORG_A], sortExpr: 'name COLLATE NOCASE', direction: 'desc', idExpr: 'id', after: ['bob', 'i05'], limit: 3 })
    expect(query).toEqual({
      sql: 'SELECT id FROM items WHERE (org = ?) AND ((name COLLATE NOCASE, id) < (?, ?)) ORDER BY name COLLATE NOCASE desc, id desc LIMIT ?',
      params: ['a', 'bob', 'i05', 3],
    })
  })

  test('the first page: no seek; no conditions: no WHERE', () => {
    expect(keysetSql({ columns: 'id', from: 'items', where: [], sortExpr: 'created_at', direction: 'desc', idExpr: 'id', limit: 2 })).toEqual({
      sql: 'SELECT id FROM items ORDER BY created_at desc, id desc LIMIT ?',
      params: [2],
    })
  })

  test('never OFFSET, on any page', () => {
    for (const after of [undefined, [1, 'x'] as const]) {
      expect(keysetSql({ columns: 'id', from: 'items', where: [ORG_A], sortExpr: 'score', direction: 'asc', idExpr: 'id', after, limit: 5 }).sql).not.toMatch(/offset/i)
    }
  })
})

describe('countSql', () => {
  test('the SQL text', () => {
    expect(countSql({ from: 'items', where: [ORG_A, { sql: 'score = ?', params: [1] }] })).toEqual({ sql: 'SELECT count(*) AS n FROM items WHERE (org = ?) AND (score = ?)', params: ['a', 1] })
    expect(countSql({ from: 'items', where: [] })).toEqual({ sql: 'SELECT count(*) AS n FROM items', params: [] })
  })

  test.each([
    ['org a', [ORG_A], 10],
    ['org b', [{ sql: 'org = ?', params: ['b'] }], 2],
    ['org a with score 1', [ORG_A, { sql: 'score = ?', params: [1] }], 3],
    ['org a with score >= 2 created at 400 or before', [ORG_A, { sql: 'score >= ?', params: [2] }, { sql: 'created_at <= ?', params: [400] }], 5],
    ['no conditions', [], 12],
    ['nothing matches', [{ sql: 'org = ?', params: ['c'] }], 0],
  ] as [string, Condition[], number][])('counts %s', (_, where, expected) => {
    expect(run<{ n: number }>(countSql({ from: 'items', where }))[0]!.n).toBe(expected)
  })

  test('ignores the position, even when one is passed', () => {
    const query: KeysetQuery = { columns: 'id', from: 'items', where: [ORG_A], sortExpr: 'score', direction: 'asc', idExpr: 'id', after: [3, 'i05'], limit: 2 }
    const count = countSql(query)
    expect(count).toEqual({ sql: 'SELECT count(*) AS n FROM items WHERE (org = ?)', params: ['a'] })
    expect(run<{ n: number }>(count)[0]!.n).toBe(10)
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

  const words = new Database(':memory:')
  afterAll(() => words.close())
  words.run('CREATE TABLE words (w TEXT NOT NULL)')
  for (const w of ['100% Sure', '1000 Sure', '100 percent', '100', 'under_score', 'underXscore', 'under score', 'back\\slash', 'backslash', 'back\\\\slash', 'Alpha', 'alphabet', 'beta', '%', '_', '\\']) {
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

describe('a condition written with OR', () => {
  test('stays inside the other conditions (each condition is bracketed)', () => {
    const db = new Database(':memory:')
    db.run('CREATE TABLE t (id TEXT, org TEXT, score INTEGER)')
    db.run("INSERT INTO t VALUES ('1', 'a', 1), ('2', 'b', 1), ('3', 'a', 2), ('4', 'b', 2)")
    const q = keysetSql({ columns: 'id', from: 't', where: [{ sql: 'org = ?', params: ['a'] }, { sql: 'score = ? OR score = ?', params: [1, 2] }], sortExpr: 'score', direction: 'asc', idExpr: 'id', limit: 10 })
    expect(db.query<{ id: string }, never[]>(q.sql).all(...(q.params as never[])).map((r) => r.id)).toEqual(['1', '3'])
  })
})
