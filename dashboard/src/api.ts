// The dashboard's one way to the server: the typed client generated from /openapi.json, on this origin,
// with the signed-in user's access token held in memory only (never in storage a reload would keep).
import { createSwitchboardClient, type SwitchboardClient } from '../../clients/typescript/src/index.ts'

let token: string | undefined

export function setToken(value: string | undefined): void {
  token = value
}

/** A client for the next request, carrying the current token when there is one. */
export function api(): SwitchboardClient {
  return createSwitchboardClient({ baseUrl: location.origin, ...(token === undefined ? {} : { token }) })
}
