// A text/event-stream parser (the WHATWG rules the browser's EventSource follows): fields `event:`,
// `data:` (several lines joined by newlines), `id:`, `retry:`; `:` comments; a blank line dispatches.
// Fed text as it arrives, in chunks cut anywhere (within a line, between a CR and its LF).

export interface SseEvent {
  /** `message` when the event names no type. */
  event: string
  data: string
  /** The last event id seen so far (it carries over to events without one), or undefined. */
  id: string | undefined
}

export class SseParser {
  /** The last `id:` seen: what `Last-Event-ID` sends on a reconnection. */
  lastEventId: string | undefined
  /** The reconnection delay the server asked for (`retry:`), in milliseconds. */
  retry: number | undefined
  private buffer = ''
  private type = ''
  private data: string[] = []
  private sawCr = false

  /** Parses a chunk; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    let text = chunk
    // A CR ended the last chunk: an LF at the start of this one belongs to it.
    if (this.sawCr && text.startsWith('\n')) text = text.slice(1)
    this.sawCr = text.endsWith('\r')
    this.buffer += text
    const lines = this.buffer.split(/\r\n|\r|\n/)
    this.buffer = lines.pop() ?? ''
    const events: SseEvent[] = []
    for (const line of lines) {
      const event = this.line(line)
      if (event) events.push(event)
    }
    return events
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch()
    if (line.startsWith(':')) return undefined
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') this.type = value
    else if (field === 'data') this.data.push(value)
    else if (field === 'id' && !value.includes('\u0000')) this.lastEventId = value
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value)
    return undefined
  }

  private dispatch(): SseEvent | undefined {
    const [type, data] = [this.type, this.data]
    this.type = ''
    this.data = []
    if (data.length === 0) return undefined
    return { event: type || 'message', data: data.join('\n'), id: this.lastEventId }
  }
}
