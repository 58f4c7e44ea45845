import { Migration } from '@mikro-orm/migrations';

export class Migration20261127062839 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "linkage_rule" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "name" varchar(100) not null, "trigger" varchar(16) not null, "device_id" int not null, "door_id" int null, "door_number" smallint null, "refusal_count" int null, "refusal_window_minutes" int null, "lockdown_mode" varchar(16) null, "lockdown_area_id" int null, "lockdown_door_ids" text[] null, "aux_output" smallint null, "aux_output_seconds" smallint null, "last_triggered_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`create index "linkage_rule_device_index" on "linkage_rule" ("device_id");`);

    this.addSql(`alter table "linkage_rule" add constraint "linkage_rule_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "linkage_rule" add constraint "linkage_rule_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "linkage_rule" add constraint "linkage_rule_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "linkage_rule" add constraint "linkage_rule_door_id_foreign" foreign key ("door_id") references "door" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "linkage_rule" add constraint "linkage_rule_lockdown_area_id_foreign" foreign key ("lockdown_area_id") references "area" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "linkage_rule" cascade;`);
  }

}
