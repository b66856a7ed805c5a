// A foreign key still naming a row being deleted, as each engine reports it: SQLite's
// SQLITE_CONSTRAINT_FOREIGNKEY ("FOREIGN KEY constraint failed"), PostgreSQL's SQLSTATE 23503. The
// verbs check references before deleting (src/references.ts); this is the last guard, so a reference
// nobody checked answers 409 naming the record, never 500.
import { AppError } from '../errors.ts'

export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, errno } = error as { code?: unknown; errno?: unknown }
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || errno === '23503'
}

/** Runs a delete; a foreign key refusing it becomes 409 CONFLICT "The <what> is still referred to …". */
export async function deleteUnlessReferenced<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error
    throw new AppError('CONFLICT', `The ${what} is still referred to by other records: it cannot be deleted`)
  }
}
