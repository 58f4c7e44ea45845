import { Migration } from '@mikro-orm/migrations';

export class Migration20261127085127 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "scim_activity" ("api_key_id" int not null, "last_request_at" timestamptz not null, "last_request" varchar(300) not null, "request_count" int not null default 0, "last_change_at" timestamptz null, "last_error_at" timestamptz null, "last_error_request" varchar(300) null, "last_error_status" smallint null, "last_error" text null, constraint "scim_activity_pkey" primary key ("api_key_id"));`);

    this.addSql(`alter table "scim_activity" add constraint "scim_activity_api_key_id_foreign" foreign key ("api_key_id") references "api_key" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "scim_activity" cascade;`);
  }

}
