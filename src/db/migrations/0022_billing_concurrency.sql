-- Billing without the cluster-wide writer lock: at most one announced bank transfer awaiting the
-- operator per invoice. Two announcements at once both insert; this index refuses the second (23505),
-- whose transaction runs again and finds the first (409).
CREATE UNIQUE INDEX payments_one_processing_transfer ON payments (invoice_id) WHERE provider = 'manual' AND status = 'processing';
