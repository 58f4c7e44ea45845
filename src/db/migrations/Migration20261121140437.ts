import { Migration } from '@mikro-orm/migrations';

export class Migration20261121140437 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "door_event" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "device_id" int null, "device_serial" varchar(64) not null, "door" int null, "event_code" int not null, "event_class" text check ("event_class" in ('granted', 'denied', 'door', 'alarm')) not null, "opened" boolean not null, "pin" varchar(64) null, "employee_id" int null, "time" timestamptz not null, "local_time" varchar(19) not null, "time_zone" varchar(64) not null, "in_out_status" int null, "verify_type" varchar(64) null, "verify_code" varchar(32) null, "card_no" varchar(64) null, "device_record_index" int not null, "received_at" timestamptz not null);`);
    this.addSql(`create index "door_event_unattached_pin_index" on "door_event" ("company_id", "pin") where "employee_id" is null and "pin" is not null;`);
    this.addSql(`create index "door_event_device_time_index" on "door_event" ("device_id", "time", "id");`);
    this.addSql(`alter table "door_event" add constraint "door_event_record_key" unique ("workspace_id", "device_serial", "device_record_index");`);

    this.addSql(`alter table "door_event" add constraint "door_event_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "door_event" add constraint "door_event_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "door_event" add constraint "door_event_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "door_event" add constraint "door_event_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete set null;`);

    this.addSql(`create index "punch_unattached_pin_index" on "punch" ("company_id", "pin") where "employee_id" is null;`);
    this.addSql(`create unique index "punch_record_index_key" on "punch" ("workspace_id", "device_serial", "device_record_index") where "device_record_index" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "door_event" cascade;`);

    this.addSql(`drop index "punch_unattached_pin_index";`);
    this.addSql(`drop index "punch_record_index_key";`);
  }

}
