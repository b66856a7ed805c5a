-- PostgreSQL only (nothing on SQLite): a commit that changes what authentication reads on every request
-- (a user, an organization, a plan, an API key other than its last use, an MFA factor) notifies the channel
-- switchboard_auth_state, which every instance listens to and drops its memory of those reads on
-- (src/db/postgres-change-mark.ts). In the database, so that every writer counts: an instance, a
-- command-line tool, an operator's psql. An UPDATE that changes nothing (a row lock taken by a no-op
-- update) does not notify. The transaction-local setting switchboard.auth_state_changed tells the
-- instance that commits it, in its commit batch, to drop its own memory at once.
/* postgres: CREATE FUNCTION switchboard_auth_state_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('switchboard_auth_state', TG_TABLE_NAME); PERFORM set_config('switchboard.auth_state_changed', 'on', true); RETURN NULL; END $$ */
--> statement-breakpoint
/* postgres: CREATE TRIGGER users_auth_state AFTER INSERT OR DELETE OR TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION switchboard_auth_state_changed() */
--> statement-breakpoint
/* postgres: CREATE TRIGGER users_auth_state_update AFTER UPDATE ON users FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION switchboard_auth_state_changed() */
--> statement-breakpoint
/* postgres: CREATE TRIGGER organizations_auth_state AFTER INSERT OR DELETE OR TRUNCATE ON organizations FOR EACH STATEMENT EXECUTE FUNCTION switchboard_auth_state_changed() */
--> statement-breakpoint
/* postgres: CREATE TRIGGER organizations_auth_state_update AFTER UPDATE ON organizations FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION switchboard_auth_state_changed() */
--> statement-breakpoint
/* postgres: CREATE TRIGGER plans_auth_state AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON plans FOR EACH STATEMENT EXECUTE FUNCTION switchboard_auth_state_changed() */
--> statement-breakpoint
/* postgres: CREATE TRIGGER mfa_factors_auth_state AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mfa_factors FOR EACH STATEMENT EXECUTE FUNCTION switchboard_auth_state_changed() */
--> statement-breakpoint
/* postgres: CREATE TRIGGER api_keys_auth_state AFTER INSERT OR DELETE OR TRUNCATE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION switchboard_auth_state_changed() */
--> statement-breakpoint
/* postgres: CREATE TRIGGER api_keys_auth_state_update AFTER UPDATE ON api_keys FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_used_at' - 'last_used_ip') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at' - 'last_used_ip')) EXECUTE FUNCTION switchboard_auth_state_changed() */
