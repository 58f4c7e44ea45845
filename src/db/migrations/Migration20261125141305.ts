import { Migration } from '@mikro-orm/migrations';

export class Migration20261125141305 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "device_reported_user" ("id" serial primary key, "workspace_id" int not null, "device_id" int not null, "pin" varchar(64) not null, "name" varchar(201) null, "privilege" int null, "reported_at" timestamptz not null);`);
    this.addSql(`alter table "device_reported_user" add constraint "device_reported_user_unique" unique ("device_id", "pin");`);

    this.addSql(`alter table "device_reported_user" add constraint "device_reported_user_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "device_reported_user" add constraint "device_reported_user_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "device_reported_user" cascade;`);
  }

}
