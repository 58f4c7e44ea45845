import { Migration } from '@mikro-orm/migrations';

/** Shifts of the attendance engine (issue 13): a company's working times and tolerances. */
export class Migration20261125045605 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shift" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "name" varchar(200) not null, "start_time" varchar(5) not null, "end_time" varchar(5) not null, "time_zone" varchar(64) not null, "workdays" jsonb not null, "break_minutes" smallint not null default 0, "break_after_minutes" smallint not null default 360, "grace_in_minutes" smallint not null default 0, "grace_out_minutes" smallint not null default 0, "check_in_before_minutes" smallint not null default 240, "check_out_after_minutes" smallint not null default 240, "pairing" text check ("pairing" in ('first_last', 'alternating', 'by_state')) not null default 'first_last', "is_default" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "shift_company_index" on "shift" ("company_id");`);

    this.addSql(`alter table "shift" add constraint "shift_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shift" add constraint "shift_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "shift" cascade;`);
  }

}
