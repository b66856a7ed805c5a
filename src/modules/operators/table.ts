// The operators module's table as rows (Kysely): the operator's API tokens. The columns are declared
// by src/db/migrations/0019_billing.sql.

/** A row of operator_tokens (`opt_…`): the token itself is never kept, only its SHA-256. */
export interface OperatorTokensTable {
  id: string
  name: string
  token_hash: string
  created_at: number
  last_used_at: number | null
  revoked_at: number | null
}

declare module '../../db/database.ts' {
  interface Tables {
    operator_tokens: OperatorTokensTable
  }
}
