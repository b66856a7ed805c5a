// The "events written" signal of the Wakeups port in one process: once per organization and turn of the
// microtask queue however many commits wrote events, to every listener, and none after unsubscribing.
import { expect, test } from 'bun:test'
import { InProcessWakeups } from '../../../src/modules/webhooks/index.ts'

test('coalesced per organization and turn; unsubscribing stops it; null asks every organization to look', async () => {
  const wakeups = new InProcessWakeups()
  const heard: Array<string | null> = []
  const stop = wakeups.onEventsWritten((organizationId) => heard.push(organizationId))
  wakeups.eventsWritten('org_a')
  wakeups.eventsWritten('org_b')
  wakeups.eventsWritten('org_a')
  expect(heard).toEqual([])
  await Promise.resolve()
  expect(heard).toEqual(['org_a', 'org_b'])
  wakeups.signalEvents(null)
  await Promise.resolve()
  expect(heard).toEqual(['org_a', 'org_b', null])
  stop()
  wakeups.eventsWritten('org_a')
  await Promise.resolve()
  expect(heard).toEqual(['org_a', 'org_b', null])
})
