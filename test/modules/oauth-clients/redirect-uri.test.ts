// The pure rules: redirectUriMatches (exact strings; loopback http may change its port, RFC 8252 §7.3) and the scope -> permission mapping.
import { describe, expect, test } from 'bun:test'
import { roleGrants } from '../../../src/modules/access/index.ts'
import { missingPermissions, permissionsOfScopes, RESOURCE_SCOPES } from '../../../src/modules/oauth-clients/scopes.ts'
import { redirectUriMatches } from '../../../src/modules/oauth-clients/redirect-uri.ts'

describe('redirectUriMatches', () => {
  test.each([
    ['https://app.example.com/cb', 'https://app.example.com/cb', true],
    ['https://app.example.com/cb', 'https://app.example.com/cb/', false],
    ['https://app.example.com/cb', 'https://APP.example.com/cb', false],
    ['https://app.example.com/cb', 'https://app.example.com/cb?x=1', false],
    ['https://app.example.com/cb', 'https://app.example.com:443/cb', false],
    ['https://app.example.com:8443/cb', 'https://app.example.com:9443/cb', false],
    ['https://app.example.com/cb', 'https://app.example.com/cb#', false],
    ['com.example.app:/cb', 'com.example.app:/cb', true],
    ['com.example.app:/cb', 'com.example.app:/cb2', false],
    ['http://127.0.0.1/cb', 'http://127.0.0.1:53127/cb', true],
    ['http://127.0.0.1:8000/cb', 'http://127.0.0.1:53127/cb', true],
    ['http://127.0.0.1:8000/cb', 'http://127.0.0.1/cb', true],
    ['http://[::1]/cb', 'http://[::1]:61000/cb', true],
    ['http://localhost/cb', 'http://localhost:3000/cb', true],
    ['http://127.0.0.1/cb?a=1', 'http://127.0.0.1:5000/cb?a=1', true],
    ['http://127.0.0.1/cb', 'http://127.0.0.1:5000/cb/', false],
    ['http://127.0.0.1/cb', 'http://127.0.0.1:5000/other', false],
    ['http://127.0.0.1/cb', 'http://[::1]:5000/cb', false],
    ['http://127.0.0.1/cb', 'http://localhost:5000/cb', false],
    ['http://127.0.0.1/cb', 'https://127.0.0.1:5000/cb', false],
    ['http://127.0.0.1/cb', 'http://127.0.0.1:0/cb', false],
    ['http://127.0.0.1/cb', 'http://127.0.0.1:70000/cb', false],
    ['http://127.0.0.1/cb', 'http://127.0.0.1:5000/cb#frag', false],
    ['http://127.0.0.1/cb', 'http://127.0.0.1.evil.com:5000/cb', false],
    ['http://127.0.0.1/cb', 'http://127.0.0.1:5000@evil.com/cb', false],
  ])('%s registered, %s presented: %p', (registered, presented, expected) => {
    expect(redirectUriMatches(registered, presented)).toBe(expected)
  })
})

describe('scopes as data', () => {
  test('each resource scope stands for permissions of the vocabulary; OpenID scopes for none', () => {
    expect(permissionsOfScopes(['openid', 'profile', 'email', 'offline_access'])).toEqual([])
    expect(permissionsOfScopes(['tickets:read', 'users:read'])).toEqual(['ticket:read', 'user:read'])
    expect(Object.keys(RESOURCE_SCOPES).sort()).toEqual(['tickets:read', 'tickets:write', 'users:read'])
  })

  test('what a role lacks of a scope', () => {
    expect(missingPermissions(roleGrants('admin'), 'tickets:write')).toEqual([])
    expect(missingPermissions(roleGrants('viewer'), 'tickets:write')).toEqual(['ticket:create', 'ticket:update', 'ticket:comment'])
    expect(missingPermissions(['oauth_client:*'], 'users:read')).toEqual(['user:read'])
    expect(missingPermissions([], 'openid')).toEqual([])
  })
})
