-- The no-overwrite guard of 0005 looked records up with one OR, whose plan depends on the planner's
-- statistics: statistics taken while the table was tiny (PRAGMA optimize at an early start, or a CLI
-- command) made it a full scan, so every audited change cost a scan of the whole log. Two EXISTS, each
-- an equality on a unique index (the id, the chain's (organization, seq)), are index lookups whatever
-- the statistics say.
DROP TRIGGER `audit_logs_no_overwrite`;--> statement-breakpoint
CREATE TRIGGER `audit_logs_no_overwrite` BEFORE INSERT ON `audit_logs`
WHEN EXISTS (SELECT 1 FROM `audit_logs` WHERE `id` = NEW.`id`)
  OR EXISTS (SELECT 1 FROM `audit_logs` WHERE ifnull(`organization_id`, '') = ifnull(NEW.`organization_id`, '') AND `seq` = NEW.`seq`)
BEGIN SELECT RAISE(ABORT, 'audit_logs is append-only'); END;
