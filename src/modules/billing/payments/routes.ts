// The payments routes of the billing module (placeholder until built).
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'

export function paymentsRoutes(_app: AppContext) {
  return new Elysia()
}
