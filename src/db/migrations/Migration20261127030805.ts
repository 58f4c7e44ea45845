import { Migration } from '@mikro-orm/migrations';

/**
 * Terminals prove who they are: `paired_at` (the terminal proved its session; re-registration then
 * needs an admin reset), `push_comm_key` (the vendor's handshake key, when set) and
 * `allowed_source_cidrs` (where its requests may come from). Doors past a lower LockCount are kept,
 * absent (`present`, `absent_since`), instead of being deleted with their access-level membership.
 */
export class Migration20261127030805 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "device" add column "paired_at" timestamptz null, add column "push_comm_key" varchar(64) null, add column "allowed_source_cidrs" text[] null;`);

    this.addSql(`alter table "door" add column "present" boolean not null default true, add column "absent_since" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "device" drop column "paired_at", drop column "push_comm_key", drop column "allowed_source_cidrs";`);

    this.addSql(`alter table "door" drop column "present", drop column "absent_since";`);
  }

}
