import { Migration } from '@mikro-orm/migrations';

/** Controller door rules (anti-passback, interlock) per access controller, with the delivery of their SET OPTIONS. */
export class Migration20261127054244 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "device_door_rules" ("id" serial primary key, "workspace_id" int not null, "device_id" int not null, "anti_passback" jsonb null, "interlock" jsonb null, "anti_passback_value" smallint not null default 0, "interlock_value" smallint not null default 0, "command_row_id" int null, "delivery_status" varchar(16) not null default 'pending', "delivery_return_code" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "device_door_rules" add constraint "device_door_rules_device_unique" unique ("device_id");`);

    this.addSql(`alter table "device_door_rules" add constraint "device_door_rules_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "device_door_rules" add constraint "device_door_rules_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "device_door_rules" cascade;`);
  }

}
