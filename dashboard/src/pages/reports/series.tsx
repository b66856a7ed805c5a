// The time series part of the Reports screen: which metric, per hour, day, week or month, its chart and
// table, and its CSV. Its own form, so that drawing another metric costs one request, not the summary too.
import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { ErrorNote, useLoad } from '../../ui.tsx'
import { Chart, type Point } from './chart.tsx'
import { CsvButton } from './csv-button.tsx'
import { fileName } from './download.ts'
import type { Figure } from './records.tsx'
import type { WindowQuery } from './window.ts'

type Granularity = 'hour' | 'day' | 'week' | 'month'
const GRANULARITIES: { value: Granularity; label: string }[] = [
  { value: 'hour', label: 'Hour' },
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
]
/** Hourly bars only up to a week: more would be thinner than a pixel on a phone. */
const HOURLY_UP_TO_MS = 8 * 86_400_000

interface Props {
  query: WindowQuery
  metrics: { metric: string; name: string; unit: string }[]
  open?: string
  onOpen: (figure: Figure) => void
}

export function Series({ query, metrics, open, onOpen }: Props) {
  const [shown, setShown] = useState<{ metric: string; granularity: Granularity }>({ metric: metrics[0]!.metric, granularity: 'day' })
  const [metric, setMetric] = useState(shown.metric)
  const [granularity, setGranularity] = useState(shown.granularity)
  const span = Date.parse(query.to) - Date.parse(query.from)
  const hourly = !(span > HOURLY_UP_TO_MS)
  const usable = (g: Granularity): Granularity => (g === 'hour' && !hourly ? 'day' : g)
  const wanted = { ...shown, granularity: usable(shown.granularity) }
  const series = useLoad(
    () => api().GET('/api/v1/reports/timeseries', { params: { query: { ...query, ...wanted } } }),
    [query, wanted.metric, wanted.granularity],
  )
  const about = metrics.find((m) => m.metric === wanted.metric) ?? { metric: wanted.metric, name: wanted.metric, unit: '' }
  const unit = series.data?.unit ?? about.unit
  const points = (series.data?.series[0]?.points ?? []) as Point[]

  function submit(event: Event) {
    event.preventDefault()
    setShown({ metric, granularity: usable(granularity) })
  }

  return (
    <section aria-labelledby="reports-series-title">
      <h2 id="reports-series-title">Over time</h2>
      <form class="inline" onSubmit={submit} aria-label="The series">
        <label>
          Metric
          <select value={metric} onChange={(e) => setMetric(e.currentTarget.value)}>
            {metrics.map((m) => (
              <option value={m.metric}>{m.name}</option>
            ))}
          </select>
        </label>
        <label>
          Per
          <select value={usable(granularity)} onChange={(e) => setGranularity(e.currentTarget.value as Granularity)}>
            {GRANULARITIES.map((g) => (
              <option value={g.value} disabled={g.value === 'hour' && !hourly}>
                {g.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={series.loading}>
          Draw
        </button>
      </form>
      <ErrorNote error={series.error} />
      {series.loading && !series.data && <p>Loading…</p>}
      {series.data && (
        <>
          <Chart
            name={about.name}
            unit={unit}
            points={points}
            open={open}
            onOpen={(point) =>
              onOpen({
                metric: about.metric,
                name: about.name,
                unit,
                bucket: { start: point.start, label: point.label, granularity: wanted.granularity },
              })
            }
          />
          <CsvButton
            label="Download the series (CSV)"
            name={fileName(`series-${wanted.metric}`, query.from, query.to)}
            fetch={() =>
              api().GET('/api/v1/reports/timeseries', { params: { query: { ...query, ...wanted, format: 'csv' } }, parseAs: 'blob' })
            }
          />
        </>
      )}
    </section>
  )
}
