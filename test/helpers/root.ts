// The repository's root, for tests that read its files (and nothing else: no process, no database).
import { join } from 'node:path'

export const ROOT = join(import.meta.dir, '../..')
