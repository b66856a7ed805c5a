// A Server-Sent Events client for the tests: reads a stream's frames as they come (events with their
// id, type and parsed envelope; comments), and can wait for a number of them or for the end.
import { until } from '../../helpers/wait.ts'

export interface StreamEvent {
  id: number
  type: string
  envelope: { id: string; type: string; organization_id: string; data: Record<string, unknown> }
}

export class SseClient {
  readonly events: StreamEvent[] = []
  readonly comments: string[] = []
  readonly others: Array<{ event: string; data: string }> = []
  ended = false
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>
  private buffer = ''

  constructor(readonly response: Response) {
    if (!response.body) throw new Error('no body')
    this.reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>
    void this.read()
  }

  private async read(): Promise<void> {
    const decoder = new TextDecoder()
    try {
      for (;;) {
        const { value, done } = await this.reader.read()
        if (done) break
        this.buffer += decoder.decode(value, { stream: true })
        let at = this.buffer.indexOf('\n\n')
        while (at >= 0) {
          this.frame(this.buffer.slice(0, at))
          this.buffer = this.buffer.slice(at + 2)
          at = this.buffer.indexOf('\n\n')
        }
      }
    } catch {
      // Cancelled by the test.
    }
    this.ended = true
  }

  private frame(text: string): void {
    const fields: Record<string, string> = {}
    for (const line of text.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim())
      else {
        const colon = line.indexOf(':')
        fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '')
      }
    }
    if (fields.id !== undefined && fields.event !== undefined && fields.data !== undefined)
      this.events.push({ id: Number(fields.id), type: fields.event, envelope: JSON.parse(fields.data) })
    else if (fields.event !== undefined) this.others.push({ event: fields.event, data: fields.data ?? '' })
  }

  /** Until `count` events have come (fails after `ms`); returns them. */
  async waitFor(count: number, ms = 10_000): Promise<StreamEvent[]> {
    await until(() => this.events.length >= count, `${count} events (have ${this.events.length})`, ms)
    return this.events
  }

  async waitForComment(text: string, ms = 10_000): Promise<void> {
    await until(() => this.comments.includes(text), `the comment "${text}"`, ms)
  }

  async waitForEnd(ms = 10_000): Promise<void> {
    await until(() => this.ended, 'the end of the stream', ms)
  }

  /** The client goes away. */
  async close(): Promise<void> {
    await this.reader.cancel().catch(() => undefined)
  }
}
