import { Migration } from '@mikro-orm/migrations';

export class Migration20261125132037 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "door" ("id" serial primary key, "workspace_id" int not null, "device_id" int not null, "number" smallint not null, "name" varchar(100) not null, "sensor" text check ("sensor" in ('open', 'closed', 'unknown')) not null default 'unknown', "relay" text check ("relay" in ('locked', 'unlocked', 'unknown')) not null default 'unknown', "alarms" text[] not null default '{}', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "door" add constraint "door_device_number_unique" unique ("device_id", "number");`);

    this.addSql(`alter table "door" add constraint "door_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "door" add constraint "door_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "door_action" add column "action" varchar(16) not null default 'unlock';`);

    // Existing terminals get their doors: as many as an access-control terminal reported (LockCount, 1–8), one otherwise.
    this.addSql(`insert into "door" ("workspace_id", "device_id", "number", "name", "created_at", "updated_at")
      select d.workspace_id, d.id, g, 'Door ' || g, now(), now()
      from "device" d
      cross join lateral generate_series(1, case when d.mode_type = 'acc' then coalesce((
        select least(greatest(o.value::int, 1), 8) from jsonb_each_text(coalesce(d.reported_options, '{}'::jsonb)) o
        where lower(ltrim(o.key, '~')) = 'lockcount' and o.value ~ '^[0-9]{1,3}$' limit 1), 1) else 1 end) g;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "door" cascade;`);

    this.addSql(`alter table "door_action" drop column "action";`);
  }

}
