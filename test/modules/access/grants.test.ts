// intersectGrants (what a personal access token may do: its permissions within its owner's role) and isGrant (what a client may ask for), table-driven.
import { describe, expect, test } from 'bun:test'
import { coversGrant, coversRole, hasPermission, intersectGrants, isGrant } from '../../../src/modules/access/match.ts'
import { ALL_PERMISSIONS, type Resource, ROLE_GRANTS, ROLES, VOCABULARY } from '../../../src/modules/access/permissions.ts'

const sorted = (grants: readonly string[]) => [...grants].sort()
const ADMIN = ROLE_GRANTS.admin

describe('intersectGrants', () => {
  test.each([
    // a, b, expected (order-insensitive)
    ['*:* ∩ *:*', ['*:*'], ['*:*'], ['*:*']],
    ['*:* ∩ one permission', ['*:*'], ['ticket:read'], ['ticket:read']],
    ['one permission ∩ *:*', ['ticket:read'], ['*:*'], ['ticket:read']],
    ['ticket:* ∩ ticket:read', ['ticket:*'], ['ticket:read'], ['ticket:read']],
    ['ticket:read ∩ ticket:*', ['ticket:read'], ['ticket:*'], ['ticket:read']],
    ['ticket:* ∩ ticket:*', ['ticket:*'], ['ticket:*'], ['ticket:*']],
    ['*:* ∩ ticket:*', ['*:*'], ['ticket:*'], ['ticket:*']],
    ['every ticket action spelled out collapses to ticket:*', ['*:*'], VOCABULARY.ticket.map((a) => `ticket:${a}`), ['ticket:*']],
    [
      'all but one ticket action stays spelled out',
      ['*:*'],
      ['ticket:read', 'ticket:create', 'ticket:update', 'ticket:delete', 'ticket:assign'],
      ['ticket:read', 'ticket:create', 'ticket:update', 'ticket:delete', 'ticket:assign'],
    ],
    ['a one-action resource collapses too', ['*:*'], ['report:read'], ['report:*']],
    ['every resource as resource:* collapses to *:*', ['*:*'], Object.keys(VOCABULARY).map((r) => `${r}:*`), ['*:*']],
    ['every permission spelled out collapses to *:*', ALL_PERMISSIONS, ['*:*'], ['*:*']],
    ['disjoint permissions', ['ticket:read'], ['user:read'], []],
    ['disjoint wildcards', ['ticket:*'], ['call:*'], []],
    ['same resource, different actions', ['ticket:read', 'ticket:create'], ['ticket:delete'], []],
    ['empty ∩ *:*', [], ['*:*'], []],
    ['*:* ∩ empty', ['*:*'], [], []],
    [
      'several resources, some overlapping',
      ['ticket:*', 'user:read', 'call:read'],
      ['ticket:comment', 'user:*', 'lead:read'],
      ['ticket:comment', 'user:read'],
    ],
    ['admin ∩ *:* is admin (already normalized)', ADMIN, ['*:*'], ADMIN],
    ['admin ∩ billing wildcards: only what admin holds of them', ADMIN, ['billing:*'], ['billing:read']],
    ['viewer ∩ user:read, user:create', ROLE_GRANTS.viewer, ['user:read', 'user:create'], ['user:read']],
    ['supervisor ∩ api_key:*: the three actions, collapsed', ROLE_GRANTS.supervisor, ['api_key:*'], ['api_key:*']],
    ['unknown strings are ignored, never widened', ['*:*'], ['tickets:*', 'ticket', '*', 'ticket:read'], ['ticket:read']],
  ] as [string, readonly string[], readonly string[], readonly string[]][])('%s', (_, a, b, expected) => {
    expect(sorted(intersectGrants(a, b))).toEqual(sorted(expected))
  })

  test('the result allows exactly what both sides allow, for every role × a sample of narrowings and every permission', () => {
    const narrowings = [
      ['*:*'],
      ['ticket:*'],
      ['ticket:read', 'user:create'],
      ['api_key:*', 'audit:read'],
      ['subscription:*', 'lead:convert'],
      ALL_PERMISSIONS.filter((_, i) => i % 3 === 0),
    ]
    for (const role of ROLES) {
      for (const narrowing of narrowings) {
        const result = intersectGrants(ROLE_GRANTS[role], narrowing)
        for (const p of ALL_PERMISSIONS) {
          const expected = hasPermission(ROLE_GRANTS[role], p) && hasPermission(narrowing, p)
          if (hasPermission(result, p) !== expected) throw new Error(`${role} ∩ ${narrowing.join(',')}: ${p} should be ${expected}`)
        }
        // Normalized: no duplicates, and no resource both as a wildcard and spelled out.
        expect(new Set(result).size).toBe(result.length)
        for (const grant of result) expect(isGrant(grant)).toBe(true)
        for (const resource of Object.keys(VOCABULARY) as Resource[]) {
          if (result.includes(`${resource}:*`)) expect(result.filter((g) => g.startsWith(`${resource}:`))).toEqual([`${resource}:*`])
        }
        if (result.includes('*:*')) expect(result).toEqual(['*:*'])
      }
    }
  })

  test('role ∩ *:* still covers every grant of the role (coversGrant and coversRole see the result like the role)', () => {
    for (const role of ROLES) {
      const result = intersectGrants(ROLE_GRANTS[role], ['*:*'])
      for (const grant of ROLE_GRANTS[role])
        expect({ role, grant, covered: coversGrant(result, grant) }).toEqual({ role, grant, covered: true })
      for (const other of ROLES)
        expect({ role, other, covers: coversRole(result, other) }).toEqual({ role, other, covers: coversRole(ROLE_GRANTS[role], other) })
    }
  })
})

describe('isGrant', () => {
  test('every permission of the vocabulary, every resource:*, and *:*', () => {
    for (const p of ALL_PERMISSIONS) expect({ p, ok: isGrant(p) }).toEqual({ p, ok: true })
    for (const r of Object.keys(VOCABULARY)) expect({ r, ok: isGrant(`${r}:*`) }).toEqual({ r, ok: true })
    expect(isGrant('*:*')).toBe(true)
  })

  test.each([
    '',
    '*',
    ':',
    '*:',
    ':*',
    '*:read',
    'ticket',
    'ticket:',
    ':read',
    'ticket:read:',
    'ticket:read:extra',
    'ticket::read',
    'tickets:read',
    'ticket:reads',
    'ticket:**',
    'ticket:*:*',
    '*:*:*',
    'TICKET:READ',
    'Ticket:read',
    'ticket:Read',
    ' ticket:read',
    'ticket:read ',
    'ticket: read',
    'ticket:read\n',
    'report:create',
    'subscription:refund',
    'api-key:read',
    'apikey:*',
    // Names every JavaScript object has: not resources of the vocabulary.
    'toString:*',
    'toString:read',
    'constructor:*',
    'constructor:read',
    '__proto__:*',
    '__proto__:read',
    'hasOwnProperty:*',
    'valueOf:read',
    // Array methods are not actions.
    'ticket:length',
    'ticket:includes',
    'ticket:0',
  ])('%p is not a grant', (text) => {
    expect(isGrant(text)).toBe(false)
  })
})
