// The event picker of the webhook form: every type of the API's catalog, by group, with "all of the
// group" (the API's `ticket.*` wildcard, which also covers types added later) and "every event" (`*`).
import { EVENT_GROUPS, EVENT_TYPES, type EventType, type Selection } from './events.ts'

interface Props {
  selection: Selection
  /** Filters set through the API that the picker has no box for, and whether each is kept. */
  kept: Set<string>
  onChange: (selection: Selection, kept: Set<string>) => void
}

function toggled<T>(set: Set<T>, item: T, on: boolean): Set<T> {
  const next = new Set(set)
  if (on) next.add(item)
  else next.delete(item)
  return next
}

const checked = (event: Event) => (event.currentTarget as HTMLInputElement).checked

export function EventPicker({ selection, kept, onChange }: Props) {
  const set = (changes: Partial<Selection>) => onChange({ ...selection, ...changes }, kept)
  const covered = (type: EventType) => selection.groups.has(EVENT_GROUPS.find((g) => g.types.includes(type))!.wildcard)
  const count = selection.all ? EVENT_TYPES.length : EVENT_TYPES.filter((t) => covered(t) || selection.types.has(t)).length
  return (
    <fieldset class="webhooks-events">
      <legend>Events</legend>
      <p class="muted">
        {count} of the {EVENT_TYPES.length} event types selected. A whole group also covers the types the API adds to it later.
      </p>
      <label class="webhooks-check">
        <input type="checkbox" name="all-events" checked={selection.all} onChange={(e) => set({ all: checked(e) })} />
        Every event (*)
      </label>
      {!selection.all && (
        <div class="webhooks-groups">
          {EVENT_GROUPS.map((group) => {
            const whole = selection.groups.has(group.wildcard)
            return (
              <fieldset class="webhooks-group">
                <legend>{group.wildcard.slice(0, -2)}</legend>
                <label class="webhooks-check">
                  <input
                    type="checkbox"
                    checked={whole}
                    onChange={(e) => set({ groups: toggled(selection.groups, group.wildcard, checked(e)) })}
                  />
                  All of the group ({group.wildcard})
                </label>
                {group.types.map((type) => (
                  <label class="webhooks-check webhooks-type">
                    <input
                      type="checkbox"
                      checked={whole || selection.types.has(type)}
                      disabled={whole}
                      onChange={(e) => set({ types: toggled(selection.types, type, checked(e)) })}
                    />
                    {type}
                  </label>
                ))}
              </fieldset>
            )
          })}
        </div>
      )}
      {selection.others.map((filter) => (
        <label class="webhooks-check">
          <input type="checkbox" checked={kept.has(filter)} onChange={(e) => onChange(selection, toggled(kept, filter, checked(e)))} />
          {filter} (a filter set through the API)
        </label>
      ))}
    </fieldset>
  )
}
