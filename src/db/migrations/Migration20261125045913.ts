import { Migration } from '@mikro-orm/migrations';

/** Holidays of a company (attendance: no absence, work is overtime; door schedules: hours per type 1-3). */
export class Migration20261125045913 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "holiday" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "date" date not null, "name" varchar(200) not null, "holiday_type" smallint not null default 1, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "holiday" add constraint "holiday_company_date_unique" unique ("company_id", "date");`);

    this.addSql(`alter table "holiday" add constraint "holiday_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "holiday" add constraint "holiday_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "holiday" cascade;`);
  }

}
