// answerWithin: a deadline on another process's answer that does not blame it for this process's own
// lateness (issue 27 item 10: a busy instance took a Redis answer waiting in its socket for no answer).
import { afterAll, expect, test } from 'bun:test'
import { answerWithin } from '../../src/lib/timeout.ts'

// A real peer over loopback: it echoes, so its answer arrives as I/O, as Redis's does.
const server = Bun.listen({
  hostname: '127.0.0.1',
  port: 0,
  socket: { data: (socket, data) => void socket.write(data) },
})
afterAll(() => server.stop(true))

/** Sends a line to the echo peer; resolves when it comes back. */
async function echo(): Promise<string> {
  let answered: (text: string) => void = () => {}
  const answer = new Promise<string>((resolve) => (answered = resolve))
  const socket = await Bun.connect({
    hostname: '127.0.0.1',
    port: server.port,
    socket: { data: (_, data) => answered(Buffer.from(data).toString()) },
  })
  socket.write('ping')
  return answer.finally(() => socket.end())
}

const busyFor = (ms: number) => {
  for (const until = performance.now() + ms; performance.now() < until; );
}

test('an answer in time is the answer', async () => {
  expect(await answerWithin(echo(), 1000, 'late')).toBe('ping')
})

test('no answer: rejected with the message once the time is up', async () => {
  await expect(answerWithin(new Promise(() => {}), 30, 'nobody answered within 30 ms')).rejects.toThrow('nobody answered within 30 ms')
})

test('a failure of the peer is passed on as it is', async () => {
  await expect(answerWithin(Promise.reject(new Error('refused')), 1000, 'late')).rejects.toThrow('refused')
})

test('an answer that came while this process was too busy to read it is still the answer, every time', async () => {
  for (let i = 0; i < 20; i++) {
    const pending = answerWithin(echo(), 20, 'late')
    // Busy past the deadline: the echo is back in the socket long before the timer can fire.
    busyFor(80)
    expect(await pending).toBe('ping')
  }
})
