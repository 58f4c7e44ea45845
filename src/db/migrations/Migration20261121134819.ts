import { Migration } from '@mikro-orm/migrations';

export class Migration20261121134819 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "verification_state" ("id" serial primary key, "workspace_id" int not null, "name" varchar(100) not null, "value" varchar(3) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "verification_state" add constraint "verification_state_workspace_value_unique" unique ("workspace_id", "value");`);

    this.addSql(`create table "punch" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "employee_id" int null, "device_id" int null, "device_serial" varchar(64) not null, "pin" varchar(64) not null, "punch_time" timestamptz not null, "local_time" varchar(19) not null, "time_zone" varchar(64) not null, "punch_state" varchar(16) not null, "verify_type" varchar(64) null, "verify_code" int null, "record_type" text check ("record_type" in ('device', 'manual')) not null, "work_code" varchar(32) null, "device_record_index" int null, "received_at" timestamptz not null);`);
    this.addSql(`create index "punch_device_time_index" on "punch" ("device_id", "punch_time");`);
    this.addSql(`create index "punch_employee_time_index" on "punch" ("employee_id", "punch_time");`);
    this.addSql(`create index "punch_company_time_index" on "punch" ("company_id", "punch_time");`);
    this.addSql(`create index "punch_workspace_time_index" on "punch" ("workspace_id", "punch_time", "id");`);
    this.addSql(`alter table "punch" add constraint "punch_idempotence_key" unique ("workspace_id", "device_serial", "pin", "punch_time");`);

    this.addSql(`alter table "verification_state" add constraint "verification_state_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "punch" add constraint "punch_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "punch" add constraint "punch_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`);
    this.addSql(`alter table "punch" add constraint "punch_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "punch" add constraint "punch_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "verification_state" cascade;`);

    this.addSql(`drop table if exists "punch" cascade;`);
  }

}
