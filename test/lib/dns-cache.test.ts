// cachingResolver: one lookup per name per TTL, shared by concurrent callers; failures are asked again.
import { describe, expect, test } from 'bun:test'
import { cachingResolver } from '../../src/lib/dns-cache.ts'

function counted(answer: (hostname: string, call: number) => Promise<string[]>) {
  const calls: string[] = []
  return { calls, resolve: (hostname: string) => answer(hostname, calls.push(hostname)) }
}

describe('cachingResolver', () => {
  test('answers from memory within the TTL, asks again after it, per name', async () => {
    let clock = 1_000
    const upstream = counted(async (hostname, call) => [`203.0.113.${call}`, hostname])
    const resolve = cachingResolver(upstream.resolve, 30_000, () => clock)
    expect(await resolve('a.example')).toEqual(['203.0.113.1', 'a.example'])
    clock += 29_999
    expect(await resolve('a.example')).toEqual(['203.0.113.1', 'a.example'])
    expect(await resolve('b.example')).toEqual(['203.0.113.2', 'b.example'])
    clock += 1
    expect(await resolve('a.example')).toEqual(['203.0.113.3', 'a.example'])
    expect(upstream.calls).toEqual(['a.example', 'b.example', 'a.example'])
  })

  test('concurrent calls share one lookup', async () => {
    const upstream = counted(async () => ['203.0.113.7'])
    const resolve = cachingResolver(upstream.resolve, 30_000)
    expect(await Promise.all([resolve('a.example'), resolve('a.example'), resolve('a.example')])).toEqual([
      ['203.0.113.7'],
      ['203.0.113.7'],
      ['203.0.113.7'],
    ])
    expect(upstream.calls).toHaveLength(1)
  })

  test('a failure is not remembered: the next call asks again', async () => {
    const upstream = counted(async (_, call) => {
      if (call === 1) throw new Error('ENOTFOUND')
      return ['203.0.113.9']
    })
    const resolve = cachingResolver(upstream.resolve, 30_000)
    await expect(resolve('a.example')).rejects.toThrow('ENOTFOUND')
    expect(await resolve('a.example')).toEqual(['203.0.113.9'])
    expect(upstream.calls).toHaveLength(2)
  })

  test('never holds more than maxNames names', async () => {
    const upstream = counted(async (hostname) => [hostname])
    const resolve = cachingResolver(upstream.resolve, 30_000, Date.now, 2)
    for (const name of ['a', 'b', 'c', 'a']) await resolve(name)
    // c cleared the memory of a and b: a is asked again.
    expect(upstream.calls).toEqual(['a', 'b', 'c', 'a'])
  })
})
