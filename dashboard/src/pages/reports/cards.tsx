// The summary's cards: each metric's figure over the window, the previous window's, and the change in
// words; a card is a button that opens the records behind its figure.
import { change, figure, spread, type Value } from './format.ts'

export interface SummaryRow {
  metric: string
  name: string
  unit: string
  value: Value
  previous?: Value
  change: { difference: number; ratio: number | null } | null
}

export function Cards({
  rows,
  compared,
  open,
  onOpen,
}: {
  rows: SummaryRow[]
  compared: boolean
  open?: string
  onOpen: (row: SummaryRow) => void
}) {
  return (
    <ul class="reports-cards">
      {rows.map((row) => {
        const moved = change(row.change, row.unit)
        const more = spread(row.value)
        return (
          <li key={row.metric}>
            <button type="button" class="reports-card" aria-pressed={open === row.metric} onClick={() => onOpen(row)}>
              <span class="reports-card-name">{row.name}</span>
              <span class="reports-card-value">{figure(row.value, row.unit)}</span>
              {more && <span class="reports-card-more">{more}</span>}
              {compared && (
                <>
                  <span class="reports-card-more">Previous: {figure(row.previous, row.unit)}</span>
                  <span class="reports-card-change">
                    {moved.arrow && <span aria-hidden="true">{moved.arrow} </span>}
                    {moved.words}
                  </span>
                </>
              )}
            </button>
          </li>
        )
      })}
    </ul>
  )
}
