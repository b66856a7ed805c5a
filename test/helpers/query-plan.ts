// PostgreSQL's query plans as the tests read them: EXPLAIN (FORMAT JSON) of a statement with its
// parameters, flattened into the plan's nodes (what SQLite's EXPLAIN QUERY PLAN lines are to its tests).
import type { Queries, SqlValue } from '../../src/db/database.ts'

export interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  Plans?: PlanNode[]
}

/** Every node of the plan PostgreSQL chooses for `statement` (not run: EXPLAIN without ANALYZE). */
export async function planNodes(db: Queries, statement: string, params: readonly SqlValue[] = []): Promise<PlanNode[]> {
  const row = await db.raw.get<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${statement}`, params)
  const value = Object.values(row!)[0]
  const [top] = (typeof value === 'string' ? JSON.parse(value) : value) as [{ Plan: PlanNode }]
  const nodes: PlanNode[] = []
  const visit = (node: PlanNode) => {
    nodes.push(node)
    for (const child of node.Plans ?? []) visit(child)
  }
  visit(top.Plan)
  return nodes
}

/** Nodes that read `table` through one of its indexes (a bitmap heap scan reads the rows a bitmap index scan found). */
export const indexReadsOf = (nodes: PlanNode[], table: string) =>
  nodes.filter((n) => /^(Index (Only )?Scan|Bitmap Heap Scan)$/.test(n['Node Type']) && n['Relation Name'] === table)

/** Nodes that read the whole of `table`. */
export const seqScansOf = (nodes: PlanNode[], table: string) =>
  nodes.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === table)
