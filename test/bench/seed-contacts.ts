// Bulk seeding for benchmarks: many CRM contacts straight into the database file in large transactions
// (the columns newContactRow writes, normalized as it normalizes them), instead of one HTTP call each.
import { Database } from 'bun:sqlite'
import { prefixedId } from '../../src/lib/ids.ts'
import { searchKey } from '../../src/lib/search-key.ts'
import { applyConsent, NO_CONSENT } from '../../src/modules/crm/contacts/consent.ts'
import { CONTACT_TYPES } from '../../src/modules/crm/table.ts'

// 40 × 40 names, accents included, so that `q` meets folded keys; five first names start with "mar".
const FIRST = (
  'Maria Marie Marco Martin Marta Émile Zoë José Søren Anna Ahmed Yuki Chloé Liam Noah Olivia Lucas Sofia Mateo Léa ' +
  'Hugo Inès Jonas Elena Omar Priya Wei Fatima David Sarah Tomás Ingrid Kofi Amara Ravi Nina Felix Clara Diego Hana'
).split(' ')
const LAST = (
  'Okafor Smith Müller García Dubois Rossi Nakamura Kowalski Johansson Silva Nguyen Patel Kim Ivanova Hansen Jensen ' +
  'Novak Costa Fischer Brown Lefèvre Yılmaz Andersson Tanaka Schmidt Moreau Ricci Santos Lopez Wójcik Chen Singh ' +
  'Haddad Mensah Olsen Horvat Ferreira Weber Bianchi Herrera'
).split(' ')
const DOMAINS = ['example.com', 'example.org', 'mail.example', 'corp.example', 'example.net']

const ascii = (s: string) => searchKey(s).replace(/ø/g, 'o').replace(/ı/g, 'i')
const pad = (n: number, width: number) => String(n).padStart(width, '0')

/** Contact `i`'s name and (when it has one) e-mail, as seeded: the benchmark asks for them. */
export function seededContact(i: number): { name: string; email: string | null } {
  const first = FIRST[i % FIRST.length]!
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!
  // One in ten has no e-mail.
  const email = i % 10 === 9 ? null : `${ascii(first)}.${ascii(last)}${i}@${DOMAINS[i % DOMAINS.length]}`
  return { name: `${first} ${last}`, email }
}

// E.164 numbers of London, Paris and New York, by turns; seven in ten contacts have one.
function phone(i: number): string | null {
  if (i % 10 >= 7) return null
  const country = i % 3
  if (country === 0) return `+44207${pad(i, 7)}`
  if (country === 1) return `+331${pad(i, 8)}`
  return `+1212${2_000_000 + i}`
}

export function seedContacts(dbPath: string, organizationId: string, count: number, startMs: number): void {
  const db = new Database(dbPath)
  db.run('PRAGMA busy_timeout = 5000')
  const insert = db.query(
    `INSERT INTO contacts (id, organization_id, name, name_key, email, phone, external_id, contact_type, account_id, owner_id, blocked,
      consent, tags, custom_fields, last_activity_at, merged_into_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, 0, ?, ?, '{}', 0, NULL, ?, ?)`,
  )
  const tag = db.query('INSERT INTO contact_tags (contact_id, organization_id, tag) VALUES (?, ?, ?)')
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      // Two contacts per second, so created_at has ties that the id breaks.
      const at = startMs + Math.floor(i / 2) * 1000
      const id = prefixedId('con')
      const { name, email } = seededContact(i)
      const tags = i % 20 === 0 ? ['vip'] : i % 5 === 1 ? ['newsletter'] : []
      insert.run(
        id,
        organizationId,
        name,
        searchKey(name),
        email,
        phone(i),
        i % 2 === 0 ? `CRM-${pad(i, 7)}` : null,
        CONTACT_TYPES[Math.floor(i / 4) % CONTACT_TYPES.length]!,
        i % 4 === 0 ? applyConsent(NO_CONSENT, { email: true, marketing: i % 8 === 0 }, at) : NO_CONSENT,
        JSON.stringify(tags),
        at,
        at,
      )
      for (const t of tags) tag.run(id, organizationId, t)
    }
  })
  for (let from = 0; from < count; from += 10_000) batch.immediate(from, Math.min(count, from + 10_000))
  db.run('PRAGMA optimize')
  db.close()
}
