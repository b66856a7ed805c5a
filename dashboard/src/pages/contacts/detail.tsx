// One contact (/app/contacts/<id>): its fields with its account, its tickets (GET …/{id}/tickets, with
// ticket:read), and an edit form with contact:update; and the "New contact" page.
import { useEffect, useState } from 'preact/hooks'
import type { Schemas } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import { navigate } from '../../router.ts'
import { ErrorNote, Page, useCan, useLoad, When } from '../../ui.tsx'
import { TicketTable } from '../tickets/list.tsx'
import { Field, Tags, type User, useUserName, useUsers } from '../tickets/shared.tsx'
import { ContactForm } from './form.tsx'
import { CONSENT_LABELS, type Contact, TYPE_LABELS } from './labels.ts'

type ContactWithAccount = Schemas['ContactWithAccount']

export function ContactDetail({ id }: { id: string }) {
  const loaded = useLoad(() => api().GET('/api/v1/contacts/{id}', { params: { path: { id } } }), [id])
  const [changed, setChanged] = useState<Contact | undefined>()
  const [editing, setEditing] = useState(false)
  const users = useUsers()
  const name = useUserName(users)
  const canUpdate = useCan('contact:update')
  const canReadTickets = useCan('ticket:read')
  // Keyboard and screen reader users land in the form they opened.
  useEffect(() => {
    if (editing) document.getElementById('contact-edit-name')?.focus()
  }, [editing])
  const contact: ContactWithAccount | undefined = loaded.data && (changed ? { ...changed, account: loaded.data.account } : loaded.data)
  if (!contact)
    return (
      <Page title="Contact">
        <p>
          <a href="/app/contacts">All contacts</a>
        </p>
        {loaded.loading ? <p role="status">Loading…</p> : <ErrorNote error={loaded.error} />}
      </Page>
    )
  function saved(next: Contact) {
    setChanged(next)
    setEditing(false)
  }
  return (
    <Page title={contact.name}>
      <p>
        <a href="/app/contacts">All contacts</a>
      </p>
      {editing ? (
        <section aria-labelledby="contact-edit" class="panel">
          <h2 id="contact-edit">Edit the contact</h2>
          <ContactForm contact={contact} onSaved={saved} onCancel={() => setEditing(false)} />
        </section>
      ) : (
        <section aria-labelledby="contact-fields" class="panel">
          <h2 id="contact-fields">Details</h2>
          <dl class="tickets-fields">
            <Field label="E-mail">{contact.email ?? <span class="muted">none</span>}</Field>
            <Field label="Phone">{contact.phone ?? <span class="muted">none</span>}</Field>
            <Field label="External id">{contact.external_id ?? <span class="muted">none</span>}</Field>
            <Field label="Type">{TYPE_LABELS[contact.contact_type]}</Field>
            <Field label="Account">
              {contact.account ? (
                <a href={`/app/contacts?account_id=${contact.account.id}`}>{contact.account.name}</a>
              ) : (
                <span class="muted">none</span>
              )}
            </Field>
            <Field label="Owner">{name(contact.owner_id)}</Field>
            <Field label="Blocked">{contact.blocked ? 'Yes' : 'No'}</Field>
            {(['email', 'sms', 'marketing'] as const).map((kind) => (
              <Field label={`Consent: ${CONSENT_LABELS[kind]}`}>
                {contact.consent[kind].granted ? 'Granted' : 'Not granted'}
                {contact.consent[kind].at && (
                  <>
                    {' '}
                    (<When at={contact.consent[kind].at} />)
                  </>
                )}
              </Field>
            ))}
            <Field label="Tags">
              <Tags tags={contact.tags} />
            </Field>
            {Object.entries(contact.custom_fields).map(([key, value]) => (
              <Field label={key}>{String(value)}</Field>
            ))}
            <Field label="Last activity">
              <When at={contact.last_activity_at} />
            </Field>
            <Field label="Created">
              <When at={contact.created_at} />
            </Field>
            <Field label="Updated">
              <When at={contact.updated_at} />
            </Field>
          </dl>
          {canUpdate && (
            <button type="button" class="secondary" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
        </section>
      )}
      {canReadTickets && <ContactTickets id={contact.id} users={users} />}
    </Page>
  )
}

function ContactTickets({ id, users }: { id: string; users: User[] }) {
  const list = useLoad(() => api().GET('/api/v1/contacts/{id}/tickets', { params: { path: { id }, query: { page_size: 20 } } }), [id])
  return (
    <section aria-labelledby="contact-tickets">
      <h2 id="contact-tickets">Tickets</h2>
      <ErrorNote error={list.error} />
      {list.data && <TicketTable tickets={list.data.tickets} users={users} caption="The contact's tickets" empty="No tickets." />}
      {!!list.data?.tickets.length && (
        <p>
          <a href={`/app/tickets?contact_id=${id}`}>All its tickets, with filters</a>
        </p>
      )}
    </section>
  )
}

export function NewContact() {
  const canCreate = useCan('contact:create')
  return (
    <Page title="New contact">
      <p>
        <a href="/app/contacts">Back to the contacts</a>
      </p>
      {canCreate ? (
        <ContactForm onSaved={(contact) => navigate(`/contacts/${contact.id}`)} />
      ) : (
        <p>Your role does not allow creating contacts.</p>
      )}
    </Page>
  )
}
