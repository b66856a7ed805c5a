// The lead lifecycle (research §2.6) as a table, and the checks the verbs apply: a lead is worked from
// new to qualified, may be set aside as unqualified and reopened, and leaves the table only by conversion.
import { AppError } from '../../../errors.ts'
import { LEAD_STATUSES, type LeadStatus } from '../table.ts'

export { LEAD_STATUSES, type LeadStatus }

/** A lead may be created in any status but `converted`, which only the convert operation sets. */
export const INITIAL_LEAD_STATUSES = ['new', 'contacted', 'qualified', 'unqualified'] as const

/**
 * Where each status may go, and how. `patch`: PATCH {status}; `convert`: POST /leads/{id}/convert only.
 * `converted` is terminal and read-only: nothing leaves it, and no field of a converted lead changes.
 */
export const LEAD_TRANSITIONS: Record<LeadStatus, Partial<Record<LeadStatus, 'patch' | 'convert'>>> = {
  new: { contacted: 'patch', unqualified: 'patch' },
  contacted: { qualified: 'patch', unqualified: 'patch' },
  qualified: { converted: 'convert', unqualified: 'patch' },
  // Reopened: worked again from contacted.
  unqualified: { contacted: 'patch' },
  converted: {},
}

/** "A new lead", "An unqualified lead". */
function aLead(status: LeadStatus): string {
  return `${/^[aeiou]/.test(status) ? 'An' : 'A'} ${status} lead`
}

/**
 * 409 naming both states when the lead is converted: it becomes nothing else (`to`: the status a PATCH
 * asks for, or `deleted`) and none of its fields change (`to` undefined), as every lifecycle says it.
 */
export function assertNotConverted(status: LeadStatus, to?: LeadStatus | 'deleted'): void {
  if (status !== 'converted') return
  const refused = to === undefined || to === 'converted' ? 'change' : `become ${to}`
  throw new AppError(
    'INVALID_STATE_TRANSITION',
    `${aLead(status)} cannot ${refused}: it is final and read-only, the record of its conversion`,
  )
}

/** 409 naming both states unless `from -> to` is in the table for `how`. */
export function assertTransition(from: LeadStatus, to: LeadStatus, how: 'patch' | 'convert'): void {
  assertNotConverted(from, to)
  const way = LEAD_TRANSITIONS[from][to]
  if (way === how) return
  if (way === 'convert')
    throw new AppError('INVALID_STATE_TRANSITION', `${aLead(from)} becomes ${to} only through POST /api/v1/leads/{id}/convert`)
  const next = Object.keys(LEAD_TRANSITIONS[from]).join(', ')
  throw new AppError('INVALID_STATE_TRANSITION', `${aLead(from)} cannot become ${to}; it can become ${next}`)
}
