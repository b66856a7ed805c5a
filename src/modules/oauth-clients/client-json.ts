// The public JSON of an OAuth client: never its secret (but on creation and rotation, beside it), only the secret's last 4 characters.
import { isoTime } from '../../lib/clock.ts'
import type { OAuthClientRow } from './store.ts'

export function oauthClientJson(row: OAuthClientRow) {
  return {
    id: row.id,
    client_id: row.id,
    name: row.name,
    client_type: row.client_type,
    redirect_uris: JSON.parse(row.redirect_uris) as string[],
    post_logout_redirect_uris: JSON.parse(row.post_logout_redirect_uris) as string[],
    grant_types: JSON.parse(row.grant_types) as string[],
    scopes: JSON.parse(row.scopes) as string[],
    secret_hint: row.secret_hint,
    created_by: row.created_by,
    created_at: isoTime(Number(row.created_at)),
    updated_at: isoTime(Number(row.updated_at)),
    secret_rotated_at: row.secret_rotated_at === null ? null : isoTime(Number(row.secret_rotated_at)),
  }
}
