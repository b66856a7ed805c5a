// How body.ts's up-front check treats POST /api/v1/calls/{id}/recordings, declared by the calls module as a
// StreamedBody with a `:id` segment, `audio/*` and `alsoJson`: which requests stream (their body left to the
// route), which are read as JSON, and the 413s and 415s, before anything of a body is read.
import { describe, expect, test } from 'bun:test'
import type { AppError } from '../../../src/errors.ts'
import { checkBodyUpFront, isStreamedRequest } from '../../../src/http/body.ts'
import { callsStreamedBodies } from '../../../src/modules/calls/index.ts'

const UPLOAD_MAX = 400_000
const MAX_BODY = 1000
const streamed = callsStreamedBodies({ uploads: { maxBytes: UPLOAD_MAX } } as never)

function request(path: string, headers: Record<string, string> = {}, method = 'POST', body: string | null = 'x'): Request {
  return new Request(`http://localhost${path}`, { method, headers, body })
}

/** 'streamed', 'read' (left to parseBody), or the error code thrown up front. */
function verdict(req: Request): string {
  try {
    checkBodyUpFront(req, MAX_BODY, streamed)
  } catch (error) {
    return (error as AppError).code
  }
  return isStreamedRequest(req) ? 'streamed' : 'read'
}

const PATH = '/api/v1/calls/cal_01KAX3M6W9P8T2V5G7H4J3C1QZ/recordings'

describe("the recording's body, up front", () => {
  test.each([
    ['audio/mpeg', 'streamed'],
    ['audio/wav; codecs=1', 'streamed'],
    ['AUDIO/X-Anything', 'streamed'],
    ['application/octet-stream', 'streamed'],
    ['application/json', 'read'],
    ['application/json; charset=utf-8', 'read'],
    ['application/merge-patch+json', 'read'],
    ['audio/', 'UNSUPPORTED_MEDIA_TYPE'],
    ['audiox/mpeg', 'UNSUPPORTED_MEDIA_TYPE'],
    ['text/csv', 'UNSUPPORTED_MEDIA_TYPE'],
    ['text/plain', 'UNSUPPORTED_MEDIA_TYPE'],
    ['application/x-www-form-urlencoded', 'UNSUPPORTED_MEDIA_TYPE'],
    ['multipart/form-data; boundary=x', 'UNSUPPORTED_MEDIA_TYPE'],
  ])('Content-Type %s: %s', (type, expected) => {
    expect(verdict(request(PATH, { 'content-type': type }))).toBe(expected)
  })

  test('no Content-Type with a body is 415 naming JSON and the audio types; with no body, the JSON case (read)', () => {
    let message = ''
    try {
      checkBodyUpFront(request(PATH), MAX_BODY, streamed)
    } catch (error) {
      message = (error as AppError).message
    }
    expect(message).toBe(
      'Send the body as JSON with Content-Type: application/json, or with Content-Type: audio/* or application/octet-stream',
    )
    expect(verdict(request(PATH, {}, 'POST', null))).toBe('read')
    expect(verdict(request(PATH, { 'content-type': 'audio/mpeg', 'content-length': '0' }, 'POST', null))).toBe('read')
  })

  test('the audio is capped at UPLOAD_MAX_BYTES, JSON at MAX_BODY_BYTES, each on its declared length', () => {
    const declared = (type: string, length: number) => verdict(request(PATH, { 'content-type': type, 'content-length': String(length) }))
    expect(declared('audio/mpeg', UPLOAD_MAX)).toBe('streamed')
    expect(declared('audio/mpeg', UPLOAD_MAX + 1)).toBe('PAYLOAD_TOO_LARGE')
    expect(declared('application/json', MAX_BODY)).toBe('read')
    expect(declared('application/json', MAX_BODY + 1)).toBe('PAYLOAD_TOO_LARGE')
  })

  test('only that path and method: other paths are any route, where audio is 415', () => {
    for (const path of [
      '/api/v1/calls//recordings',
      '/api/v1/calls/cal_1/recordings/',
      '/api/v1/calls/cal_1/recordingsx',
      '/api/v1/calls/cal_1/x/recordings',
      '/api/v1/calls/cal_1',
      '/api/v1/calls/recordings',
      '/api/v1/callsx/cal_1/recordings',
      '/api/v2/calls/cal_1/recordings',
      '/api/v1/recordings',
    ])
      expect([path, verdict(request(path, { 'content-type': 'audio/mpeg' }))]).toEqual([path, 'UNSUPPORTED_MEDIA_TYPE'])
    expect(verdict(request(`${PATH}?filename=a.mp3`, { 'content-type': 'audio/mpeg' }))).toBe('streamed')
    expect(verdict(request(PATH, { 'content-type': 'audio/mpeg' }, 'PUT'))).toBe('UNSUPPORTED_MEDIA_TYPE')
    expect(verdict(request(PATH, { 'content-type': 'audio/mpeg' }, 'GET', null))).toBe('read')
  })
})
