// "A figure opens its records": the records the API counts behind one figure (a card: the whole window;
// a bar: one bucket), a page at a time, tickets and contacts linked to their pages.
import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { ErrorNote, useAction } from '../../ui.tsx'
import { bucketLabel, number, timeIn } from './format.ts'
import type { WindowQuery } from './window.ts'

/** Which figure: a metric over the window, or over one bucket of its series. */
export interface Figure {
  metric: string
  name: string
  unit: string
  /** The bucket's `start` and the granularity, for a bar; its label for the heading. */
  bucket?: { start: string; label: string; granularity: 'hour' | 'day' | 'week' | 'month' }
}

interface Row {
  record_type: string
  record_id: string
  at: string
  value: number | null
  dimensions: Record<string, unknown>
}

const PAGES: Record<string, string> = { ticket: '/app/tickets/', contact: '/app/contacts/' }

function RecordLink({ row }: { row: Row }) {
  const page = PAGES[row.record_type]
  return page ? <a href={page + row.record_id}>{row.record_id}</a> : <code>{row.record_id}</code>
}

function dimensions(dims: Record<string, unknown>): string {
  const shown = Object.entries(dims).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0))
  return shown.map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`).join('; ')
}

export function Records({ figure, window, zone, onClose }: { figure: Figure; window: WindowQuery; zone: string; onClose: () => void }) {
  const [rows, setRows] = useState<Row[]>([])
  const [total, setTotal] = useState<number>()
  const [next, setNext] = useState<string | null>(null)
  const { busy, error, run } = useAction()
  const heading = useRef<HTMLHeadingElement>(null)
  const { bucket } = figure
  // A count's records carry no value worth a column; a duration's carry each one's.
  const timed = figure.unit === 'seconds'

  // Another figure chosen while a page loads: the late answer of the first one is dropped.
  const latest = useRef(0)

  async function load(pageToken?: string) {
    const asked = ++latest.current
    const query = {
      ...window,
      metric: figure.metric,
      ...(bucket ? { bucket: bucket.start, granularity: bucket.granularity } : {}),
      ...(pageToken ? { page_token: pageToken } : {}),
    }
    const data = await run(() => api().GET('/api/v1/reports/records', { params: { query } }))
    if (!data || asked !== latest.current) return
    setRows((before) => (pageToken ? [...before, ...data.records] : data.records))
    setTotal(data.total_count)
    setNext(data.next_page_token)
  }

  useEffect(() => {
    setRows([])
    setTotal(undefined)
    void load()
    heading.current?.focus()
  }, [figure.metric, bucket?.start, window])

  const title = `Records behind “${figure.name}”${bucket ? `, ${bucketLabel(bucket.label)}` : ''}`
  return (
    <section class="panel reports-records" aria-labelledby="reports-records-title">
      <h2 id="reports-records-title" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <ErrorNote error={error} />
      {total !== undefined && (
        <p>
          {total === 1 ? '1 record' : `${total} records`}
          {rows.length < total ? `, ${rows.length} shown` : ''}.
        </p>
      )}
      {rows.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Record</th>
                <th scope="col">Counted at</th>
                {timed && <th scope="col">Duration</th>}
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.record_id}-${row.at}`}>
                  <td>
                    <RecordLink row={row} />
                  </td>
                  <td>{timeIn(row.at, zone)}</td>
                  {timed && <td>{row.value === null ? '' : number(row.value, 'seconds')}</td>}
                  <td>{dimensions(row.dimensions)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="actions">
        {next && (
          <button type="button" class="secondary" disabled={busy} onClick={() => load(next)}>
            {busy ? 'Loading…' : 'Show more records'}
          </button>
        )}
        <button type="button" class="secondary" onClick={onClose}>
          Close the records
        </button>
      </div>
    </section>
  )
}
