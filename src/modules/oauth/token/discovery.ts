// The discovery document (OpenID Connect Discovery 1.0 §3, RFC 8414 §2): one object for both well-known
// addresses. The issuer is AUTH_URL exactly, never derived from the request's Host; only what this
// server does is advertised, and what it does not is said explicitly where the default would be true.
import type { Config } from '../../../config.ts'
import { ALL_SCOPES } from '../../oauth-clients/index.ts'

export const CLAIMS_SUPPORTED = [
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'at_hash',
  'azp',
  'sid',
  'amr',
  'name',
  'updated_at',
  'email',
  'email_verified',
]

const ALL_METHODS = ['client_secret_basic', 'client_secret_post', 'none']

export function discoveryDocument(config: Pick<Config, 'authUrl'>) {
  const at = (path: string) => `${config.authUrl}${path}`
  return {
    issuer: config.authUrl,
    authorization_endpoint: at('/oauth2/auth'),
    token_endpoint: at('/oauth2/token'),
    userinfo_endpoint: at('/userinfo'),
    jwks_uri: at('/.well-known/jwks.json'),
    revocation_endpoint: at('/oauth2/revoke'),
    introspection_endpoint: at('/oauth2/introspect'),
    end_session_endpoint: at('/oauth2/logout'),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    token_endpoint_auth_methods_supported: ALL_METHODS,
    // A public client may revoke its own tokens; introspection needs a confidential client.
    revocation_endpoint_auth_methods_supported: ALL_METHODS,
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: [...ALL_SCOPES],
    claims_supported: CLAIMS_SUPPORTED,
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    claims_parameter_supported: false,
  }
}
