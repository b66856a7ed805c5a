// The manual payment provider (the default): money arrives by bank transfer, recorded by the operator
// (or announced by the organization and confirmed by the operator). There is no card to charge, and a
// refund is the operator's own transfer back, recorded as done.
import type { PaymentProviderClient } from './provider.ts'

export const manualProvider: PaymentProviderClient = {
  name: 'manual',
  async charge() {
    return {
      outcome: 'failed',
      providerPaymentId: null,
      paymentMethod: null,
      error: { code: 'manual_provider', message: 'Payments are made by bank transfer: there is no card to charge' },
    }
  },
  async refund() {
    return { outcome: 'done', status: 'succeeded', providerRefundId: null }
  },
}
