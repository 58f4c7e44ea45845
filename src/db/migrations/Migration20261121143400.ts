import { Migration } from '@mikro-orm/migrations';

export class Migration20261121143400 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "audit_event" ("id" bigserial primary key, "workspace_id" int null, "api_key_id" int null, "operation" varchar(100) not null, "arguments" jsonb not null, "outcome" varchar(64) not null, "request_id" varchar(128) not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "audit_event_workspace_id_index" on "audit_event" ("workspace_id", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "audit_event" cascade;`);
  }

}
