// The public JSON of an API key: never the token, only its first characters.
import { isoTime } from '../../lib/clock.ts'
import type { ApiKeyRow } from './store.ts'

type Listed = Pick<ApiKeyRow, 'id' | 'name' | 'prefix' | 'permissions' | 'created_at' | 'expires_at' | 'last_used_at' | 'last_used_ip'>

export function apiKeyJson(row: Listed, now: number) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions: row.permissions === null ? null : (JSON.parse(row.permissions) as string[]),
    expired: Number(row.expires_at) <= now,
    created_at: isoTime(Number(row.created_at)),
    expires_at: isoTime(Number(row.expires_at)),
    last_used_at: row.last_used_at === null ? null : isoTime(Number(row.last_used_at)),
    last_used_ip: row.last_used_ip,
  }
}
