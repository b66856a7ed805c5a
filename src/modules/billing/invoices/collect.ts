// The invoices part's functions for the other billing parts (subscriptions, payments): drafts,
// finalization, payments applied and failed attempts, void, and the reads (one invoice, its JSON, the
// invoices due a payment attempt). Each *InTx runs inside the caller's transaction.
export { markInvoiceUncollectibleInTx, voidInvoiceInTx } from './close.ts'
export { createDraftInvoiceInTx, deleteDraftInvoiceInTx, type NewDraftInvoice, type NewInvoiceLine } from './draft.ts'
export { finalizeInvoiceInTx } from './finalize.ts'
export { loadInvoiceInTx, lockInvoiceInTx } from './lock.ts'
export { type InvoiceJson, invoiceJson, invoicePdfPath } from './invoice-json.ts'
export { INVOICE_TRANSITIONS, type InvoiceState } from './lifecycle.ts'
export { applyInvoicePaymentInTx, recordInvoicePaymentFailureInTx } from './pay.ts'
export { findInvoice, findInvoiceById, findInvoiceLines, type InvoiceLineRow, type InvoiceRow, listDueInvoices } from './store.ts'
