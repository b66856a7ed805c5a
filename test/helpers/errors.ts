// The API's error body as tests read it, and the check most module tests make of a refusal: its status,
// its code and, when given, a field named among its errors.
import { expect } from 'bun:test'

export interface ErrorBody {
  code: string
  message: string
  errors?: { field: string; message: string }[]
}

/** The headers that authenticate a request (`{ authorization: 'Bearer …' }`). */
export type Auth = Record<string, string>

/** Status and code checked together (a failure shows both, and the body when it is not JSON); returns the body. */
export async function expectError(response: Response, status: number, code: string, field?: string): Promise<ErrorBody> {
  const text = await response.text()
  let body: ErrorBody
  try {
    body = JSON.parse(text) as ErrorBody
  } catch {
    expect({ status: response.status, body: text }).toEqual({ status, body: `a JSON error with code ${code}` })
    throw new Error('unreachable')
  }
  expect({ status: response.status, code: body.code }).toEqual({ status, code })
  if (field !== undefined) expect(body.errors?.map((e) => e.field)).toContain(field)
  return body
}
