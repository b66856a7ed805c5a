// Route table (src/lib/route-match.ts): which methods a path accepts, across static, :param, :param?, * and escaped segments.
import { describe, expect, test } from 'bun:test'
import { createRouteTable } from '../../src/lib/route-match.ts'

const get = (...paths: string[]) => createRouteTable(paths.map((path) => ({ method: 'GET', path })))

/** [route pattern, paths it matches, paths it does not match] */
type MatchCase = [string, string[], string[]]

function matchTable(cases: MatchCase[]) {
  for (const [pattern, hits, misses] of cases) {
    const table = get(pattern)
    for (const path of hits) test(`${pattern} matches ${path}`, () => expect(table.allowedMethods(path)).toEqual(['GET']))
    for (const path of misses) test(`${pattern} does not match ${path}`, () => expect(table.allowedMethods(path)).toEqual([]))
  }
}

describe('static paths', () => {
  matchTable([
    ['/health', ['/health', '/health/'], ['/', '/healthz', '/healt', '/health/x', '/health//', '/x/health', 'health', '']],
    ['/api/v1/items', ['/api/v1/items', '/api/v1/items/'], ['/api/v1', '/api/v1/items/1', '/api/v2/items', '/api/v1/itemsx']],
    // a trailing slash on the registered pattern is ignored too
    ['/status/', ['/status', '/status/'], ['/status/x']],
    ['/', ['/'], ['/x', '']],
  ])
})

describe(':param segments', () => {
  matchTable([
    [
      '/users/:id',
      ['/users/42', '/users/42/', '/users/abc-def', '/users/a.b', '/users/%2F'],
      ['/users', '/users/', '/users//', '/users/42/posts', '/users/a/b'],
    ],
    [
      '/orgs/:org/members/:id',
      ['/orgs/acme/members/7', '/orgs/acme/members/7/'],
      ['/orgs/acme/members', '/orgs/acme/members/', '/orgs//members/7', '/orgs/a/b/members/7', '/orgs/acme/members/7/8'],
    ],
    ['/:tenant/health', ['/acme/health'], ['/health', '//health', '/a/b/health']],
  ])
})

describe('optional :param? segments', () => {
  matchTable([
    ['/files/:name?', ['/files', '/files/', '/files/a.txt', '/files/a.txt/'], ['/files//', '/files/a/b', '/filesx']],
    ['/a/:b?/c', ['/a/c', '/a/x/c'], ['/a/x/y/c', '/a//c', '/a/x']],
  ])
})

describe('wildcard *', () => {
  matchTable([
    ['/static/*', ['/static', '/static/', '/static/app.js', '/static/a/b/c.css'], ['/staticx', '/stati', '/other/static/a', '/']],
    ['/*', ['/', '/anything', '/a/b/c', '/a/'], []],
  ])
})

describe('regex characters in static segments are literal', () => {
  matchTable([
    [
      '/.well-known/jwks.json',
      ['/.well-known/jwks.json', '/.well-known/jwks.json/'],
      ['/Xwell-known/jwksXjson', '/.well-known/jwks_json', '/.well-known/jwks.jsonx'],
    ],
    ['/a+b', ['/a+b'], ['/aab', '/aaab', '/ab']],
    ['/x|y', ['/x|y'], ['/x', '/y']],
    ['/(a)', ['/(a)'], ['/a']],
    ['/[ab]', ['/[ab]'], ['/a', '/b']],
    ['/a{2}', ['/a{2}'], ['/aa']],
    ['/^a$', ['/^a$'], ['/a']],
    ['/c\\d', ['/c\\d'], ['/c1', '/cd']],
    ['/what?', ['/what?'], ['/wha', '/what']],
    ['/v1/a*b', ['/v1/a*b'], ['/v1/ab', '/v1/aaab', '/v1/a/b']],
  ])
})

describe('methods', () => {
  test('several methods on one path come back sorted and upper-cased', () => {
    const table = createRouteTable([
      { method: 'POST', path: '/tickets/:id' },
      { method: 'get', path: '/tickets/:id' },
      { method: 'DELETE', path: '/tickets/:id' },
      { method: 'Patch', path: '/tickets/:id' },
      { method: 'HEAD', path: '/tickets/:id' },
    ])
    expect(table.allowedMethods('/tickets/9')).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH', 'POST'])
  })

  test('registering the same method twice lists it once', () => {
    const table = createRouteTable([
      { method: 'GET', path: '/a' },
      { method: 'get', path: '/a' },
      { method: 'GET', path: '/a/' },
    ])
    expect(table.allowedMethods('/a')).toEqual(['GET'])
  })

  test('overlapping patterns merge their methods', () => {
    const table = createRouteTable([
      { method: 'GET', path: '/users/me' },
      { method: 'PATCH', path: '/users/:id' },
      { method: 'DELETE', path: '/users/:id' },
      { method: 'OPTIONS', path: '/*' },
      { method: 'PUT', path: '/users/:id?' },
    ])
    expect(table.allowedMethods('/users/me')).toEqual(['DELETE', 'GET', 'OPTIONS', 'PATCH', 'PUT'])
    expect(table.allowedMethods('/users/42')).toEqual(['DELETE', 'OPTIONS', 'PATCH', 'PUT'])
    expect(table.allowedMethods('/users')).toEqual(['OPTIONS', 'PUT'])
    expect(table.allowedMethods('/elsewhere')).toEqual(['OPTIONS'])
  })

  test('no matching route gives an empty list', () => {
    const table = createRouteTable([
      { method: 'GET', path: '/health' },
      { method: 'POST', path: '/users/:id' },
    ])
    expect(table.allowedMethods('/nope')).toEqual([])
    expect(table.allowedMethods('/users')).toEqual([])
    expect(createRouteTable([]).allowedMethods('/')).toEqual([])
  })

  test('each call returns a fresh array', () => {
    const table = get('/health')
    const first = table.allowedMethods('/health')
    first.push('POST')
    expect(table.allowedMethods('/health')).toEqual(['GET'])
  })

  test('lookups are independent of one another', () => {
    const table = createRouteTable([
      { method: 'GET', path: '/a' },
      { method: 'POST', path: '/b' },
    ])
    expect(table.allowedMethods('/a')).toEqual(['GET'])
    expect(table.allowedMethods('/b')).toEqual(['POST'])
    expect(table.allowedMethods('/a')).toEqual(['GET'])
  })
})
