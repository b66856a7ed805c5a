// deliverSms: hands a message to the configured sender after the transaction that recorded it;
// a gateway failure is logged (without the message) and answered 503.
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { SmsDeliveryError } from './sms-sender.ts'

export async function deliverSms(
  app: Pick<AppContext, 'sms' | 'log'>,
  to: string,
  text: string,
  context: Record<string, unknown>,
): Promise<void> {
  try {
    await app.sms.send(to, text)
  } catch (error) {
    const reason = error instanceof SmsDeliveryError ? error.message : 'unexpected error'
    app.log.error('sms not sent', { provider: app.sms.provider, reason, ...context })
    throw new AppError('SERVICE_UNAVAILABLE', 'The text message could not be sent: try again later')
  }
}
