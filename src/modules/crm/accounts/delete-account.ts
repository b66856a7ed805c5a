// deleteAccount: removes an account. While contacts belong to it the answer is 409, unless
// cascade=detach: then they stay, without an account, each with its crm.contact.updated. The account's
// last state goes out in crm.account.deleted; all of it in one transaction.
import type { Ctx, UserActor } from '../../../context.ts'
import { deleteUnlessReferenced } from '../../../db/foreign-keys.ts'
import { AppError } from '../../../errors.ts'
import { recordContactEvent } from '../contacts/events.ts'
import { detachContacts, liveContactsOfAccount } from '../contacts/store.ts'
import { recordAccountEvent } from './events.ts'
import { getAccountForUpdate } from './get-account.ts'
import { deleteAccountRow } from './store.ts'

export async function deleteAccount(ctx: Ctx<UserActor>, input: { id: string; cascade?: 'detach' }): Promise<void> {
  const { actor } = ctx
  const now = ctx.clock.now()
  await ctx.db.write('account.delete', async (tx) => {
    // Locked first: a contact naming it commits before the count below, or finds it gone (key-share.ts).
    const account = await getAccountForUpdate(tx, actor.organizationId, input.id)
    const contacts = await liveContactsOfAccount(tx, account.organization_id, account.id)
    if (contacts.length > 0 && input.cascade !== 'detach')
      throw new AppError(
        'CONFLICT',
        `The account has ${contacts.length} contact${contacts.length === 1 ? '' : 's'}: move them first, or delete with ?cascade=detach to keep them without an account`,
      )
    await detachContacts(tx, account.organization_id, account.id, now)
    for (const contact of contacts)
      await recordContactEvent(tx, ctx, 'crm.contact.updated', { ...contact, account_id: null, updated_at: now }, now, {
        changed: ['account_id'],
      })
    await deleteUnlessReferenced('account', () => deleteAccountRow(tx, account))
    await recordAccountEvent(tx, ctx, 'crm.account.deleted', account, now)
  })
}
