// The window and zone form: a preset or custom dates, and any IANA zone (the organization's by default,
// the browser's one choice away). Applied by its button, not on each change: every report costs one of
// the user's 10 report requests a minute, and arrowing through a list of 400 zones must not spend them.
import { useMemo, useState } from 'preact/hooks'
import { allZones, browserZone, customProblem, RANGES, type Range, type WindowQuery, windowOf } from './window.ts'

export interface Applied {
  range: Range
  from: string
  to: string
  /** '' is the organization's zone. */
  tz: string
  query: WindowQuery
}

export function initialChoice(): Applied {
  return { range: '7', from: '', to: '', tz: '', query: windowOf('7', '', '', '') }
}

export function Controls({
  applied,
  orgZone,
  busy,
  onApply,
}: {
  applied: Applied
  orgZone?: string
  busy: boolean
  onApply: (a: Applied) => void
}) {
  const [range, setRange] = useState<Range>(applied.range)
  const [from, setFrom] = useState(applied.from)
  const [to, setTo] = useState(applied.to)
  const [tz, setTz] = useState(applied.tz)
  const [problem, setProblem] = useState<string>()
  const zones = useMemo(allZones, [])
  const mine = browserZone()

  function submit(event: Event) {
    event.preventDefault()
    const wrong = range === 'custom' ? customProblem(from, to) : undefined
    setProblem(wrong)
    if (!wrong) onApply({ range, from, to, tz, query: windowOf(range, from, to, tz) })
  }

  return (
    <form class="inline reports-controls" onSubmit={submit} aria-label="Period and zone">
      <label>
        Period
        <select value={range} onChange={(e) => setRange(e.currentTarget.value as Range)}>
          {RANGES.map((r) => (
            <option value={r.value}>{r.label}</option>
          ))}
        </select>
      </label>
      {range === 'custom' && (
        <>
          <label>
            First day
            <input type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} required />
          </label>
          <label>
            Last day
            <input type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} required />
          </label>
        </>
      )}
      <label>
        Time zone
        <select value={tz} onChange={(e) => setTz(e.currentTarget.value)}>
          <option value="">The organization's{orgZone ? ` (${orgZone})` : ''}</option>
          {mine !== orgZone && <option value={mine}>Your browser's ({mine})</option>}
          <optgroup label="Every zone">
            {zones.map((zone) => (
              <option value={zone}>{zone}</option>
            ))}
          </optgroup>
        </select>
      </label>
      <button type="submit" disabled={busy}>
        Show
      </button>
      {problem && (
        <p role="alert" class="error reports-wide">
          {problem}
        </p>
      )}
    </form>
  )
}
