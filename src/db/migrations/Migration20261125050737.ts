import { Migration } from '@mikro-orm/migrations';

/** Pay periods of a company, lockable by an admin (attendance engine, issue 13). */
export class Migration20261125050737 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "pay_period" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "start_date" date not null, "end_date" date not null, "locked_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "pay_period_company_index" on "pay_period" ("company_id", "start_date");`);

    this.addSql(`alter table "pay_period" add constraint "pay_period_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "pay_period" add constraint "pay_period_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pay_period" cascade;`);
  }

}
