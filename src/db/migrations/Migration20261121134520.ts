import { Migration } from '@mikro-orm/migrations';

export class Migration20261121134520 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "device" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "name" varchar(100) not null, "serial_number" varchar(64) not null, "status" text check ("status" in ('pending', 'online', 'offline')) not null default 'pending', "mode_type" text check ("mode_type" in ('att', 'acc')) not null default 'att', "time_zone" varchar(64) not null, "last_seen_at" timestamptz null, "firmware" varchar(100) null, "ip" varchar(64) null, "model" varchar(100) null, "protocol" varchar(16) null, "user_count" int null, "fingerprint_count" int null, "face_count" int null, "attlog_count" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "device" add constraint "device_serial_number_unique" unique ("serial_number");`);
    this.addSql(`create index "device_workspace_company_index" on "device" ("workspace_id", "company_id");`);

    this.addSql(`alter table "device" add constraint "device_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "device" add constraint "device_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "device" cascade;`);
  }

}
