CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`permissions` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`last_used_at` integer,
	`last_used_ip` text,
	`revoked_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_token_hash_unique` ON `api_keys` (`token_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_created` ON `api_keys` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `audit_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text,
	`seq` integer NOT NULL,
	`created_at` integer NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`credential_id` text,
	`event` text NOT NULL,
	`outcome` text NOT NULL,
	`reason` text,
	`ip` text,
	`user_agent` text,
	`request_id` text,
	`target_type` text,
	`target_id` text,
	`details` text NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_logs_chain_seq` ON `audit_logs` (ifnull(`organization_id`, ''),`seq`);--> statement-breakpoint
CREATE INDEX `audit_logs_org_created` ON `audit_logs` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `mfa_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`methods` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`consumed_at` integer,
	`sms_code_hash` text,
	`sms_expires_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mfa_challenges_token_hash_unique` ON `mfa_challenges` (`token_hash`);--> statement-breakpoint
CREATE INDEX `mfa_challenges_expires` ON `mfa_challenges` (`expires_at`);--> statement-breakpoint
CREATE TABLE `mfa_factors` (
	`user_id` text NOT NULL,
	`method` text NOT NULL,
	`organization_id` text NOT NULL,
	`secret_encrypted` text,
	`phone` text,
	`confirmed_at` integer,
	`last_step` integer,
	`pending_secret_encrypted` text,
	`pending_phone` text,
	`pending_code_hash` text,
	`pending_expires_at` integer,
	`pending_attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `method`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `mfa_recovery_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`code_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `mfa_recovery_codes_user` ON `mfa_recovery_codes` (`user_id`);--> statement-breakpoint
CREATE TABLE `sms_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`purpose` text NOT NULL,
	`sent_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sms_messages_user_sent` ON `sms_messages` (`user_id`,`sent_at`);--> statement-breakpoint
DROP INDEX `sessions_user`;--> statement-breakpoint
ALTER TABLE `sessions` ADD `expires_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `auth_methods` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `mfa_enrollment_only` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `sessions_user` ON `sessions` (`user_id`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `allowed_ips` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `max_concurrent_sessions` integer;--> statement-breakpoint
ALTER TABLE `organizations` ADD `session_limit_policy` text DEFAULT 'evict_oldest' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `mfa_required` integer DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE `sessions` SET `expires_at` = ifnull((SELECT max(`expires_at`) FROM `refresh_tokens` WHERE `session_id` = `sessions`.`id`), 0), `auth_methods` = '["pwd"]';--> statement-breakpoint
CREATE TRIGGER `audit_logs_no_update` BEFORE UPDATE ON `audit_logs` BEGIN SELECT RAISE(ABORT, 'audit_logs is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `audit_logs_no_delete` BEFORE DELETE ON `audit_logs` BEGIN SELECT RAISE(ABORT, 'audit_logs is append-only'); END;
