// The rules of a client's settings beyond their schemas, each failure naming its field: redirect URIs, grant types by client type, scopes within the registering user's permissions.
import { type FieldError, validationError } from '../../errors.ts'
import { redirectUriProblem } from './redirect-uri.ts'
import { GRANT_TYPES, type GrantType, isScope, missingPermissions } from './scopes.ts'
import type { ClientType } from './table.ts'

export interface ClientSettings {
  redirect_uris: string[]
  post_logout_redirect_uris: string[]
  grant_types: string[]
  scopes: string[]
}

export interface CheckedSettings {
  redirect_uris: string[]
  post_logout_redirect_uris: string[]
  grant_types: GrantType[]
  scopes: string[]
}

/** The settings, duplicates dropped, or 400 naming every problem. `grants`: what the registering actor holds. */
export function checkClientSettings(type: ClientType, input: ClientSettings, grants: readonly string[]): CheckedSettings {
  const errors: FieldError[] = []
  const unique = (list: string[]) => [...new Set(list)]
  const settings = {
    redirect_uris: unique(input.redirect_uris),
    post_logout_redirect_uris: unique(input.post_logout_redirect_uris),
    grant_types: unique(input.grant_types) as GrantType[],
    scopes: unique(input.scopes),
  }
  for (const field of ['redirect_uris', 'post_logout_redirect_uris'] as const)
    settings[field].forEach((uri, i) => {
      const problem = redirectUriProblem(uri, type)
      if (problem) errors.push({ field: `${field}.${i}`, message: problem })
    })
  settings.grant_types.forEach((grant, i) => {
    if (!(GRANT_TYPES as readonly string[]).includes(grant))
      errors.push({ field: `grant_types.${i}`, message: `must be one of ${GRANT_TYPES.join(', ')}` })
    else if (grant === 'client_credentials' && type === 'public')
      errors.push({ field: `grant_types.${i}`, message: 'a public client has no secret: client_credentials is for confidential clients' })
  })
  const grantsOf = new Set(settings.grant_types)
  if (grantsOf.has('refresh_token') && !grantsOf.has('authorization_code'))
    errors.push({ field: 'grant_types', message: 'refresh_token needs authorization_code' })
  if (grantsOf.has('authorization_code') && settings.redirect_uris.length === 0)
    errors.push({ field: 'redirect_uris', message: 'authorization_code needs at least one redirect URI' })
  settings.scopes.forEach((scope, i) => {
    if (!isScope(scope)) errors.push({ field: `scopes.${i}`, message: `${JSON.stringify(scope)} is not a scope of this server` })
    else {
      const missing = missingPermissions(grants, scope)
      if (missing.length > 0) errors.push({ field: `scopes.${i}`, message: `you do not hold ${missing.join(', ')}` })
    }
  })
  if (errors.length > 0) throw validationError(errors)
  return settings
}
