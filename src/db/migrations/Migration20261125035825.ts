import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency records belong to the API key that made the request (a read key must never replay an
 * admin key's stored response), and a running record has a lease a retry may take over after a
 * crash. Existing records (at most a day of replay caches, without an owner) are dropped.
 */
export class Migration20261125035825 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`delete from "idempotency_record";`);
    this.addSql(`alter table "idempotency_record" drop constraint "idempotency_record_workspace_key_unique";`);

    this.addSql(`alter table "idempotency_record" add column "api_key_id" int not null, add column "lease_until" timestamptz null;`);
    this.addSql(`alter table "idempotency_record" add constraint "idempotency_record_api_key_key_unique" unique ("workspace_id", "api_key_id", "key");`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "idempotency_record";`);
    this.addSql(`alter table "idempotency_record" drop constraint "idempotency_record_api_key_key_unique";`);
    this.addSql(`alter table "idempotency_record" drop column "api_key_id", drop column "lease_until";`);

    this.addSql(`alter table "idempotency_record" add constraint "idempotency_record_workspace_key_unique" unique ("workspace_id", "key");`);
  }

}
