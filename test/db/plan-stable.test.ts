// planStable (src/db/plan-stable.ts): where it writes `+?`, where it leaves `?`, and that a read answers
// the same rows either way on a real SQLite file, for the comparisons, sorts, limits and collations the
// app uses. (The speed it buys is measured by test/bench/request-layers.ts, not here.)
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { planStable } from '../../src/db/plan-stable.ts'
import { tempDir } from '../helpers/app.ts'

describe('the rewrite', () => {
  const cases: [string, string][] = [
    ['SELECT * FROM t WHERE a = ? AND b < ? LIMIT ?', 'SELECT * FROM t WHERE a = +? AND b < +? LIMIT +?'],
    ['SELECT * FROM t WHERE (a, id) < (?, ?)', 'SELECT * FROM t WHERE (a, id) < (+?, +?)'],
    ['SELECT * FROM t WHERE a IN (?,?)', 'SELECT * FROM t WHERE a IN (+?,+?)'],
    ['SELECT ?1, ?2', 'SELECT +?1, +?2'],
    ['SELECT \'?\' AS q, "a?" FROM t WHERE b = ?', 'SELECT \'?\' AS q, "a?" FROM t WHERE b = +?'],
    ["SELECT 'it''s ?' FROM t WHERE b = ?", "SELECT 'it''s ?' FROM t WHERE b = +?"],
    ['SELECT [odd?] FROM t WHERE b=?', 'SELECT [odd?] FROM t WHERE b=+?'],
    ["SELECT * FROM t WHERE name LIKE ? ESCAPE '\\' OR email like ?", "SELECT * FROM t WHERE name LIKE ? ESCAPE '\\' OR email like ?"],
    ['SELECT * FROM t WHERE a NOT LIKE ? AND b = ?', 'SELECT * FROM t WHERE a NOT LIKE ? AND b = +?'],
    ['SELECT * FROM t WHERE a GLOB ? AND b LIKE ? ESCAPE ?', 'SELECT * FROM t WHERE a GLOB ? AND b LIKE ? ESCAPE ?'],
    ['SELECT * FROM t -- why?\nWHERE a = ?', 'SELECT * FROM t -- why?\nWHERE a = +?'],
    ['SELECT * FROM t /* a ? here */ WHERE a = ?', 'SELECT * FROM t /* a ? here */ WHERE a = +?'],
    ['SELECT * FROM t', 'SELECT * FROM t'],
    // An unclosed quote is left for SQLite to refuse, unchanged.
    ["SELECT 'open FROM t WHERE a = ?", "SELECT 'open FROM t WHERE a = ?"],
  ]
  for (const [sql, expected] of cases)
    test(sql.replaceAll('\n', ' '), () => {
      expect(planStable(sql)).toBe(expected)
      // Memoised: the same text again gives the same answer.
      expect(planStable(sql)).toBe(expected)
    })
})

describe('the same rows on a real SQLite file', () => {
  const dir = tempDir('switchboard-plan-stable-')
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const db = new Database(join(dir, 'rows.db'), { strict: true })
  db.run(`CREATE TABLE t (id TEXT PRIMARY KEY, org TEXT NOT NULL, n INTEGER, created_at INTEGER NOT NULL,
    name TEXT COLLATE NOCASE, email TEXT, tags TEXT NOT NULL DEFAULT '[]')`)
  db.run('CREATE INDEX t_org_created ON t (org, created_at, id)')
  db.run('CREATE INDEX t_org_name ON t (org, name)')
  const insert = db.query('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)')
  const names = ['Zoë', 'zoë', 'ZOË', 'Ann', 'ann', 'Bob', null, '請求書', 'a%b', 'a_b']
  for (let i = 0; i < 400; i++)
    insert.run(
      `id${String(i).padStart(4, '0')}`,
      i % 3 === 0 ? 'org_a' : 'org_b',
      i % 5 === 0 ? null : i % 17,
      1_700_000_000_000 + (i % 50) * 1000,
      names[i % names.length]!,
      `user${i}@example.com`,
      i % 2 === 0 ? '["billing","vip"]' : '[]',
    )
  const reads: [string, unknown[]][] = [
    ['SELECT * FROM t WHERE org = ? ORDER BY created_at DESC, id DESC LIMIT ?', ['org_a', 21]],
    [
      'SELECT * FROM t WHERE org = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?',
      ['org_b', 1_700_000_030_000, 'id0200', 15],
    ],
    ['SELECT * FROM t WHERE org = ? AND created_at > ? ORDER BY created_at LIMIT ?', ['org_a', '1700000010000', 10]],
    ['SELECT * FROM t WHERE org = ? AND n = ? ORDER BY id', ['org_b', '7']],
    ['SELECT * FROM t WHERE org = ? AND n IS ? ORDER BY id LIMIT ?', ['org_a', null, 30]],
    ['SELECT * FROM t WHERE org = ? AND name = ? ORDER BY id', ['org_a', 'ZOË']],
    ['SELECT * FROM t WHERE org = ? AND name = ? COLLATE BINARY ORDER BY id', ['org_b', 'zoë']],
    ['SELECT * FROM t WHERE org = ? AND id IN (?, ?, ?) ORDER BY id', ['org_a', 'id0000', 'id0003', 'id0004']],
    [
      'SELECT * FROM t WHERE org = ? AND EXISTS (SELECT 1 FROM json_each(t.tags) WHERE value = ?) ORDER BY id LIMIT ?',
      ['org_a', 'vip', 50],
    ],
    ["SELECT * FROM t WHERE org = ? AND name LIKE ? ESCAPE '\\' ORDER BY id", ['org_b', 'a\\%%']],
    ['SELECT count(*) AS c FROM t WHERE org = ? AND (? IS NULL OR n > ?)', ['org_a', null, null]],
    ['SELECT count(*) AS c FROM t WHERE org = ? AND (? IS NULL OR n > ?)', ['org_a', 3, 3]],
    ['SELECT id, n * ? AS m FROM t WHERE org = ? ORDER BY m DESC, id LIMIT ? OFFSET ?', [2, 'org_b', 5, 3]],
  ]
  for (const [sql, params] of reads)
    test(sql.slice(0, 90), () => {
      const bare = db.query(sql).all(...(params as string[]))
      const stable = db.query(planStable(sql)).all(...(params as string[]))
      expect(bare.length).toBeGreaterThan(0)
      expect(stable).toEqual(bare)
    })

  test('the keyset plan still walks the index', () => {
    const sql = 'SELECT * FROM t WHERE org = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?'
    const plan = db.query<{ detail: string }, (string | number)[]>(`EXPLAIN QUERY PLAN ${planStable(sql)}`).all('org_a', 1, 'x', 5)
    expect(plan.map((r) => r.detail).join(' | ')).toBe('SEARCH t USING INDEX t_org_created (org=? AND (created_at,id)<(?,?))')
  })
})
