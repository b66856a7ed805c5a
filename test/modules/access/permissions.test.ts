// Roles and permissions (src/modules/access/permissions.ts, match.ts): the vocabulary, wildcard matching, who may grant which role, and each role's grants.
import { describe, expect, test } from 'bun:test'
import { coversGrant, coversRole, hasPermission, roleGrants } from '../../../src/modules/access/match.ts'
import {
  ALL_PERMISSIONS,
  type Grant,
  isRole,
  type Permission,
  type Role,
  ROLE_GRANTS,
  ROLES,
  VOCABULARY,
} from '../../../src/modules/access/permissions.ts'

describe('vocabulary', () => {
  test('covers every resource named in the product, and nothing else', () => {
    expect(Object.keys(VOCABULARY).sort()).toEqual(
      [
        'ticket',
        'call',
        'recording',
        'agent',
        'user',
        'role',
        'billing',
        'account',
        'contact',
        'lead',
        'engagement',
        'message',
        'survey',
        'webhook',
        'upload',
        'report',
        'audit',
        'api_key',
        'oauth_client',
        'organization',
        'session',
      ].sort(),
    )
  })

  test('every resource can at least be read', () => {
    for (const [resource, actions] of Object.entries(VOCABULARY))
      expect({ resource, read: (actions as readonly string[]).includes('read') }).toEqual({ resource, read: true })
  })

  test.each([
    ['ticket', ['read', 'create', 'update', 'delete', 'assign', 'comment']],
    ['billing', ['read', 'manage']],
    ['lead', ['read', 'create', 'update', 'delete', 'convert']],
    ['engagement', ['read', 'create', 'update', 'close', 'escalate']],
    ['role', ['read', 'assign']],
    ['report', ['read']],
    ['audit', ['read']],
    ['api_key', ['read', 'create', 'delete']],
    ['oauth_client', ['read', 'create', 'update', 'delete']],
    ['organization', ['read', 'update']],
    ['session', ['read', 'delete']],
  ] as const)('%s has the actions %p', (resource, actions) => {
    expect([...VOCABULARY[resource]].sort()).toEqual([...actions].sort())
  })

  test('ALL_PERMISSIONS lists each resource:action pair exactly once (69 in all)', () => {
    expect(ALL_PERMISSIONS).toHaveLength(69)
    expect(new Set(ALL_PERMISSIONS).size).toBe(69)
    for (const p of ALL_PERMISSIONS) expect(p).toMatch(/^[a-z_]+:[a-z]+$/)
    expect(ALL_PERMISSIONS).toContain('ticket:comment')
    expect(ALL_PERMISSIONS).toContain('lead:convert')
    expect(ALL_PERMISSIONS).toContain('api_key:delete')
    expect(ALL_PERMISSIONS).not.toContain('report:create' as Permission)
  })

  test('the five roles, most privileged first, and isRole', () => {
    expect([...ROLES]).toEqual(['super_admin', 'admin', 'supervisor', 'agent', 'viewer'])
    for (const role of ['super_admin', 'admin', 'supervisor', 'agent', 'viewer']) expect(isRole(role)).toBe(true)
    for (const notRole of ['owner', 'Admin', 'SUPER_ADMIN', '', 'super admin', 'toString', '__proto__']) expect(isRole(notRole)).toBe(false)
  })
})

describe('hasPermission', () => {
  test('*:* covers every permission of the vocabulary', () => {
    for (const p of ALL_PERMISSIONS) expect({ p, allowed: hasPermission(['*:*'], p) }).toEqual({ p, allowed: true })
  })

  test.each(['ticket:read', 'ticket:create', 'ticket:update', 'ticket:delete', 'ticket:assign', 'ticket:comment'] as const)(
    'ticket:* covers %s',
    (p) => {
      expect(hasPermission(['ticket:*'], p)).toBe(true)
    },
  )

  test.each(['call:read', 'recording:read', 'user:create', 'audit:read'] as const)('ticket:* does not cover %s', (p) => {
    expect(hasPermission(['ticket:*'], p)).toBe(false)
  })

  test.each([
    // grants, permission, expected
    [['ticket:read'], 'ticket:read', true],
    [['ticket:read'], 'ticket:create', false],
    [['ticket:read'], 'call:read', false],
    [['call:read', 'ticket:read'], 'ticket:read', true],
    [['call:read', 'lead:convert'], 'lead:convert', true],
    [['lead:convert'], 'lead:read', false],
    [[], 'ticket:read', false],
    // nothing but `*:*` and `resource:*` is a wildcard
    [['*:read'], 'ticket:read', false],
    [['tick*:read'], 'ticket:read', false],
    [['ticket:re*'], 'ticket:read', false],
    [['ticket'], 'ticket:read', false],
    [[''], 'ticket:read', false],
    [['*'], 'ticket:read', false],
    [['*:'], 'ticket:read', false],
    [[':*'], 'ticket:read', false],
    [['ticket:'], 'ticket:read', false],
    [['*:*:*'], 'ticket:read', false],
    [['ticket:**'], 'ticket:read', false],
    [['tickets:*'], 'ticket:read', false],
    [['TICKET:READ'], 'ticket:read', false],
    [['Ticket:*'], 'ticket:read', false],
    [[' ticket:read'], 'ticket:read', false],
    [['ticket:read '], 'ticket:read', false],
    [['api:*'], 'api_key:read', false],
    [['api_key:*'], 'api_key:delete', true],
  ] as [string[], Permission, boolean][])('%p allows %s: %p', (grants, permission, expected) => {
    expect(hasPermission(grants, permission)).toBe(expected)
  })
})

describe('coversGrant', () => {
  const ALL_TICKET_ACTIONS = ['ticket:read', 'ticket:create', 'ticket:update', 'ticket:delete', 'ticket:assign', 'ticket:comment']
  test.each([
    // holder, grant, covered
    [['*:*'], '*:*', true],
    [['*:*'], 'ticket:*', true],
    [['*:*'], 'ticket:read', true],
    [['ticket:*'], 'ticket:read', true],
    [['ticket:*'], 'ticket:comment', true],
    [['ticket:*'], 'ticket:*', true],
    [['ticket:*'], '*:*', false],
    [['ticket:*'], 'call:*', false],
    [['ticket:*'], 'call:read', false],
    [['ticket:read'], 'ticket:read', true],
    [['ticket:read'], 'ticket:create', false],
    [['ticket:read'], 'ticket:*', false],
    [['ticket:read'], '*:*', false],
    // a wildcard needs an equal or wider wildcard, even when every action is held one by one
    [ALL_TICKET_ACTIONS, 'ticket:*', false],
    [ALL_TICKET_ACTIONS, 'ticket:delete', true],
    [['ticket:*', 'call:*'], '*:*', false],
    [[], 'ticket:read', false],
    [[], 'ticket:*', false],
    [[], '*:*', false],
    // no pseudo-wildcards
    [['*:read'], 'ticket:read', false],
    [['*:read'], 'ticket:*', false],
    [['ticket:re*'], 'ticket:read', false],
  ] as [string[], Grant, boolean][])('%p covers %s: %p', (holder, grant, expected) => {
    expect(coversGrant(holder, grant)).toBe(expected)
  })
})

describe('coversRole: who may grant which role', () => {
  // Worked out from ROLE_GRANTS:
  // - admin lacks *:*, so not super_admin; its resource wildcards cover every grant of supervisor, agent and viewer.
  // - supervisor lacks admin's call:*, user:* ...; it lacks agent's call:create;
  //   it holds every read of the viewer (engagement:read through engagement:*).
  // - agent lacks supervisor's ticket:* and the viewer's role:read.
  // - viewer holds only reads, so no other role.
  const MAY_GRANT: Record<Role, Record<Role, boolean>> = {
    super_admin: { super_admin: true, admin: true, supervisor: true, agent: true, viewer: true },
    admin: { super_admin: false, admin: true, supervisor: true, agent: true, viewer: true },
    supervisor: { super_admin: false, admin: false, supervisor: true, agent: false, viewer: true },
    agent: { super_admin: false, admin: false, supervisor: false, agent: true, viewer: false },
    viewer: { super_admin: false, admin: false, supervisor: false, agent: false, viewer: true },
  }

  for (const granter of ROLES) {
    test(`${granter}`, () => {
      const actual = Object.fromEntries(ROLES.map((target) => [target, coversRole(ROLE_GRANTS[granter], target)]))
      expect(actual).toEqual(MAY_GRANT[granter])
    })
  }

  test('grants that are not a role grant nothing beyond what they hold', () => {
    expect(coversRole(['ticket:*'], 'viewer')).toBe(false)
    expect(coversRole([], 'viewer')).toBe(false)
    expect(coversRole(['*:*'], 'viewer')).toBe(true)
  })
})

describe('role matrix', () => {
  // One column per role: super_admin, admin, supervisor, agent, viewer.
  const T = true
  const F = false
  const MATRIX: [Permission, boolean, boolean, boolean, boolean, boolean][] = [
    ['ticket:read', T, T, T, T, T],
    ['ticket:create', T, T, T, T, F],
    ['ticket:delete', T, T, T, F, F],
    ['ticket:assign', T, T, T, T, F],
    ['ticket:comment', T, T, T, T, F],
    ['call:read', T, T, T, T, T],
    ['call:create', T, T, F, T, F],
    ['recording:delete', T, T, F, F, F],
    ['agent:update', T, T, T, T, F],
    ['recording:create', T, T, F, T, F],
    ['user:read', T, T, T, T, T],
    ['user:create', T, T, F, F, F],
    ['user:delete', T, T, F, F, F],
    ['role:read', T, T, T, F, T],
    ['role:assign', T, T, F, F, F],
    ['audit:read', T, T, F, F, F],
    ['webhook:read', T, T, F, F, F],
    ['webhook:create', T, T, F, F, F],
    ['billing:read', T, T, F, F, F],
    ['billing:manage', T, F, F, F, F],
    ['organization:read', T, T, F, F, F],
    ['organization:update', T, T, F, F, F],
    ['report:read', T, T, T, T, T],
    ['api_key:read', T, T, T, T, F],
    ['api_key:create', T, T, T, T, F],
    ['oauth_client:read', T, T, F, F, F],
    ['oauth_client:create', T, T, F, F, F],
    ['oauth_client:update', T, T, F, F, F],
    ['oauth_client:delete', T, T, F, F, F],
    ['lead:read', T, T, T, T, T],
    ['lead:convert', T, T, T, T, F],
    ['contact:create', T, T, T, T, F],
    ['engagement:escalate', T, T, T, T, F],
    ['engagement:update', T, T, T, T, F],
    ['upload:create', T, T, T, T, F],
    ['upload:delete', T, T, F, F, F],
    ['survey:read', T, T, T, T, T],
    ['account:delete', T, T, T, F, F],
  ]

  test.each(MATRIX)(
    '%s: super_admin %p, admin %p, supervisor %p, agent %p, viewer %p',
    (permission, superAdmin, admin, supervisor, agent, viewer) => {
      const actual = ROLES.map((role) => hasPermission(roleGrants(role), permission))
      expect(actual).toEqual([superAdmin, admin, supervisor, agent, viewer])
    },
  )

  test('the sample spans at least 15 permissions and every role in it', () => {
    expect(new Set(MATRIX.map((row) => row[0])).size).toBe(MATRIX.length)
    expect(MATRIX.length).toBeGreaterThanOrEqual(15)
  })

  test('roleGrants returns the grants of ROLE_GRANTS', () => {
    for (const role of ROLES) expect(roleGrants(role)).toBe(ROLE_GRANTS[role])
    expect([...roleGrants('super_admin')]).toEqual(['*:*'])
  })

  test('the viewer holds no permission whose action is not read', () => {
    for (const p of ALL_PERMISSIONS) {
      if (!p.endsWith(':read')) expect({ p, allowed: hasPermission(roleGrants('viewer'), p) }).toEqual({ p, allowed: false })
    }
    for (const grant of ROLE_GRANTS.viewer) expect(grant).toMatch(/^[a-z_]+:read$/)
  })

  test('the viewer reads no security or billing record', () => {
    for (const p of ['audit:read', 'webhook:read', 'api_key:read', 'oauth_client:read', 'billing:read'] as const) {
      expect({ p, allowed: hasPermission(roleGrants('viewer'), p) }).toEqual({ p, allowed: false })
    }
  })

  test('only super_admin may change billing', () => {
    for (const p of ['billing:manage'] as const) {
      expect({ p, holders: ROLES.filter((role) => hasPermission(roleGrants(role), p)) }).toEqual({ p, holders: ['super_admin'] })
    }
  })

  test('every grant is *:*, <resource>:* for a known resource, or a permission of the vocabulary', () => {
    const resources = new Set(Object.keys(VOCABULARY))
    const permissions = new Set<string>(ALL_PERMISSIONS)
    for (const role of ROLES) {
      for (const grant of ROLE_GRANTS[role]) {
        const [resource, action, ...rest] = grant.split(':')
        const known = grant === '*:*' || (action === '*' && rest.length === 0 && resources.has(resource!)) || permissions.has(grant)
        expect({ role, grant, known }).toEqual({ role, grant, known: true })
      }
    }
  })

  test('no role lists a grant twice', () => {
    for (const role of ROLES) expect({ role, size: new Set(ROLE_GRANTS[role]).size }).toEqual({ role, size: ROLE_GRANTS[role].length })
  })
})
