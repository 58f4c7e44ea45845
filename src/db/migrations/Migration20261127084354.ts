import { Migration } from '@mikro-orm/migrations';

/** Door opening rules (first-person-in) per door of an access controller, with the firstcard rows sent and the delivery of their SET OPTIONS. */
export class Migration20261127084354 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "door_opening_rules" ("id" serial primary key, "workspace_id" int not null, "device_id" int not null, "door_id" int not null, "first_person_in" jsonb null, "first_card_value" smallint not null default 0, "sent_first_card" jsonb null, "command_row_id" int null, "delivery_status" varchar(16) not null default 'pending', "delivery_return_code" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "door_opening_rules_device_id_index" on "door_opening_rules" ("device_id");`);
    this.addSql(`alter table "door_opening_rules" add constraint "door_opening_rules_door_unique" unique ("door_id");`);

    this.addSql(`alter table "door_opening_rules" add constraint "door_opening_rules_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "door_opening_rules" add constraint "door_opening_rules_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "door_opening_rules" add constraint "door_opening_rules_door_id_foreign" foreign key ("door_id") references "door" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "door_opening_rules" cascade;`);
  }

}
