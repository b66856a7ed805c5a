// The public JSON of an API key: never the token, only its first characters.
import { isoTime } from '../../lib/clock.ts'
import type { apiKeys } from './table.ts'

export type ApiKeyRow = typeof apiKeys.$inferSelect

export function apiKeyJson(row: Pick<ApiKeyRow, 'id' | 'name' | 'prefix' | 'permissions' | 'createdAt' | 'expiresAt' | 'lastUsedAt' | 'lastUsedIp'>, now: number) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions: row.permissions,
    expired: row.expiresAt <= now,
    created_at: isoTime(row.createdAt),
    expires_at: isoTime(row.expiresAt),
    last_used_at: row.lastUsedAt === null ? null : isoTime(row.lastUsedAt),
    last_used_ip: row.lastUsedIp,
  }
}
