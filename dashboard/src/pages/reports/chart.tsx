// The time series of one metric as bars in inline SVG (Preact elements, colours from the stylesheet: the
// CSP allows no style attribute), and the same figures as a table, the chart's text alternative and its
// keyboard way in. A bar, or its row's button, opens the records of that bucket.
import { bucketLabel, headline, number, type Value } from './format.ts'

export interface Point {
  start: string
  label: string
  value: Value
}

const [W, H, LEFT, BOTTOM, TOP] = [640, 220, 56, 28, 12]

function Bars({ points, unit, open, onOpen }: { points: Point[]; unit: string; open?: string; onOpen: (p: Point) => void }) {
  const values = points.map((p) => Math.max(0, headline(p.value) ?? 0))
  // At least 1: a share is drawn on 0–100 %, and an empty window still has a scale.
  const max = Math.max(...values, 1)
  const band = (W - LEFT) / Math.max(points.length, 1)
  const plot = H - BOTTOM - TOP
  const last = points.length - 1
  // Labels under the first, middle and last bars: more would overlap on a phone.
  const labelled = new Set([0, Math.floor(last / 2), last])
  return (
    <svg class="reports-svg" viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false">
      <line class="reports-axis" x1={LEFT} y1={TOP + plot} x2={W} y2={TOP + plot} />
      <text class="reports-tick" x={LEFT - 6} y={TOP + 10} text-anchor="end">
        {number(max, unit)}
      </text>
      <text class="reports-tick" x={LEFT - 6} y={TOP + plot} text-anchor="end">
        {number(0, unit)}
      </text>
      {points.map((point, i) => {
        const height = (values[i]! / max) * plot
        return (
          <g key={point.start}>
            <rect
              class={open === point.start ? 'reports-bar reports-bar-open' : 'reports-bar'}
              x={LEFT + i * band + band * 0.1}
              y={TOP + plot - height}
              width={Math.max(band * 0.8, 1)}
              height={Math.max(height, values[i]! > 0 ? 1 : 0)}
            />
            {/* The target of a click: the bucket's full height, so an empty bucket opens too. */}
            {/* biome-ignore lint/a11y/noStaticElementInteractions: the chart is hidden from assistive technology and the keyboard; the table's buttons open the same records */}
            <rect
              class="reports-hit"
              data-start={point.start}
              x={LEFT + i * band}
              y={TOP}
              width={band}
              height={plot}
              onClick={() => onOpen(point)}
            >
              <title>{`${bucketLabel(point.label)}: ${number(headline(point.value), unit)}`}</title>
            </rect>
            {labelled.has(i) && (
              <text class="reports-tick" x={LEFT + i * band + band / 2} y={H - 8} text-anchor="middle">
                {bucketLabel(point.label)}
              </text>
            )}
          </g>
        )
      })}
    </svg>
  )
}

export function Chart(props: { name: string; unit: string; points: Point[]; open?: string; onOpen: (p: Point) => void }) {
  const { name, unit, points, open, onOpen } = props
  if (points.length === 0) return <p class="muted">No buckets in this window.</p>
  return (
    <figure class="reports-chart">
      <Bars points={points} unit={unit} open={open} onOpen={onOpen} />
      <figcaption>
        {name}
        {unit === 'seconds' ? ' (mean)' : ''}, per bucket. Select a bar, or a row of the table, to list its records.
      </figcaption>
      <details>
        <summary>The figures as a table</summary>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Period</th>
                <th scope="col">{name}</th>
                <th scope="col">Records</th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.start}>
                  <th scope="row">{bucketLabel(point.label)}</th>
                  <td>{number(headline(point.value), unit)}</td>
                  <td>
                    <button type="button" class="secondary" onClick={() => onOpen(point)}>
                      Open<span class="reports-sr"> the records of {bucketLabel(point.label)}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  )
}
