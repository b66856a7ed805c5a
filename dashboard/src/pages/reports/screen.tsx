// The Reports screen: the summary's cards beside the previous period, a time series of a chosen metric,
// both in the chosen window and zone, CSV downloads of both, and the records behind any figure.
import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import type { ScreenProps } from '../../screens.ts'
import { ErrorNote, Page, useLoad } from '../../ui.tsx'
import { Cards, type SummaryRow } from './cards.tsx'
import { SummaryDownload } from './csv-button.tsx'
import { type Applied, Controls, initialChoice } from './controls.tsx'
import { timeIn } from './format.ts'
import { CARD_METRICS } from './metrics.ts'
import { type Figure, Records } from './records.tsx'
import { Series } from './series.tsx'

export function Reports(_: ScreenProps) {
  const [applied, setApplied] = useState<Applied>(initialChoice)
  const [figure, setFigure] = useState<Figure>()
  const query = applied.query
  const summary = useLoad(
    () => api().GET('/api/v1/reports/summary', { params: { query: { ...query, metrics: CARD_METRICS.join(',') } } }),
    [query],
  )
  const zone = summary.data?.tz ?? query.tz ?? ''
  const rows = (summary.data?.metrics ?? []) as SummaryRow[]

  function apply(next: Applied) {
    setFigure(undefined)
    setApplied(next)
  }
  function openCard(row: SummaryRow) {
    setFigure(figure?.metric === row.metric && !figure.bucket ? undefined : { metric: row.metric, name: row.name, unit: row.unit })
  }

  return (
    <Page
      title="Reports"
      intro="Figures of the organization over a window, beside the window before it. Select a figure to list its records."
    >
      <Controls applied={applied} orgZone={applied.tz === '' ? summary.data?.tz : undefined} busy={summary.loading} onApply={apply} />
      <ErrorNote error={summary.error} />
      {summary.data && (
        <p class="muted reports-window">
          {timeIn(summary.data.from, zone)} to {timeIn(summary.data.to, zone)}, times in {zone}
          {summary.data.previous_from && summary.data.previous_to
            ? `; compared with ${timeIn(summary.data.previous_from, zone)} to ${timeIn(summary.data.previous_to, zone)}`
            : ''}
          .
        </p>
      )}
      <h2>Summary</h2>
      {summary.loading && !summary.data && <p>Loading…</p>}
      <Cards rows={rows} compared={summary.data?.compare !== 'none'} open={figure?.bucket ? undefined : figure?.metric} onOpen={openCard} />
      {summary.data && <SummaryDownload query={query} />}
      {figure && zone && <Records figure={figure} window={query} zone={zone} onClose={() => setFigure(undefined)} />}
      <Series
        query={query}
        metrics={rows.length ? rows : CARD_METRICS.map((metric) => ({ metric, name: metric, unit: '' }))}
        open={figure?.bucket?.start}
        onOpen={setFigure}
      />
    </Page>
  )
}
