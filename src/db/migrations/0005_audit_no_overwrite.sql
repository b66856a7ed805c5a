-- INSERT OR REPLACE (and upserts) would overwrite a record without firing the DELETE trigger (SQLite runs
-- delete triggers on REPLACE only with recursive_triggers on): refuse any insert that would collide.
CREATE TRIGGER `audit_logs_no_overwrite` BEFORE INSERT ON `audit_logs`
WHEN EXISTS (SELECT 1 FROM `audit_logs` WHERE `id` = NEW.`id` OR (ifnull(`organization_id`, '') = ifnull(NEW.`organization_id`, '') AND `seq` = NEW.`seq`))
BEGIN SELECT RAISE(ABORT, 'audit_logs is append-only'); END;
