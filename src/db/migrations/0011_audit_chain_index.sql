-- The newest record of an audit chain by (organization_id, seq) on both engines: the chain's unique
-- index on SQLite is on ifnull(organization_id, ''), an expression PostgreSQL spells differently.
CREATE INDEX audit_logs_org_seq ON audit_logs (organization_id, seq);
