// A button that downloads a report as CSV (see download.ts), with its busy state and the API's refusal.
import { api } from '../../api.ts'
import { ErrorNote, useAction } from '../../ui.tsx'
import { CARD_METRICS } from './metrics.ts'
import { fileName, save } from './download.ts'
import type { WindowQuery } from './window.ts'

export function CsvButton({ label, name, fetch }: { label: string; name: string; fetch: () => Promise<{ data?: Blob; error?: unknown }> }) {
  const { busy, error, run } = useAction()
  async function download() {
    const blob = await run(fetch)
    if (blob) save(blob, name)
  }
  return (
    <div class="actions reports-download">
      <button type="button" class="secondary" disabled={busy} onClick={download}>
        {busy ? 'Preparing the file…' : label}
      </button>
      <ErrorNote error={error} />
    </div>
  )
}

export function SummaryDownload({ query }: { query: WindowQuery }) {
  return (
    <CsvButton
      label="Download the summary (CSV)"
      name={fileName('summary', query.from, query.to)}
      fetch={() =>
        api().GET('/api/v1/reports/summary', {
          params: { query: { ...query, metrics: CARD_METRICS.join(','), format: 'csv' } },
          parseAs: 'blob',
        })
      }
    />
  )
}
