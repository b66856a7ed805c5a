ALTER TABLE `users` ADD `name_key` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `users_org_name_key` ON `users` (`organization_id`,`name_key`,`id`);--> statement-breakpoint
-- Existing rows: SQLite's lower() folds ASCII only; the application writes the full key from now on.
UPDATE `users` SET `name_key` = lower(`name`);
