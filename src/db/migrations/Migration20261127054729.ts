import { Migration } from '@mikro-orm/migrations';

/**
 * SCIM provisioning: users (the directory's resource of an employee), groups with their members,
 * area and access levels, and the company a `scim` API key is bound to.
 */
export class Migration20261127054729 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "scim_user" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "employee_id" int not null, "user_name" varchar(256) not null, "external_id" text null, "document" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "scim_user" add constraint "scim_user_employee_unique" unique ("employee_id");`);
    this.addSql(`create unique index "scim_user_company_user_name_unique" on "scim_user" ("company_id", lower("user_name"));`);

    this.addSql(`create table "scim_group" ("id" uuid not null, "workspace_id" int not null, "company_id" int not null, "display_name" varchar(256) not null, "external_id" text null, "document" jsonb not null, "area_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "scim_group_pkey" primary key ("id"));`);
    this.addSql(`create index "scim_group_company_index" on "scim_group" ("company_id");`);

    this.addSql(`create table "scim_group_member" ("id" serial primary key, "group_id" uuid not null, "employee_id" int not null);`);
    this.addSql(`create index "scim_group_member_employee_index" on "scim_group_member" ("employee_id");`);
    this.addSql(`alter table "scim_group_member" add constraint "scim_group_member_unique" unique ("group_id", "employee_id");`);

    this.addSql(`create table "scim_group_access_level" ("id" serial primary key, "group_id" uuid not null, "access_level_id" int not null);`);
    this.addSql(`create index "scim_group_access_level_level_index" on "scim_group_access_level" ("access_level_id");`);
    this.addSql(`alter table "scim_group_access_level" add constraint "scim_group_access_level_unique" unique ("group_id", "access_level_id");`);

    this.addSql(`alter table "scim_user" add constraint "scim_user_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "scim_user" add constraint "scim_user_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "scim_user" add constraint "scim_user_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "scim_group" add constraint "scim_group_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "scim_group" add constraint "scim_group_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "scim_group" add constraint "scim_group_area_id_foreign" foreign key ("area_id") references "area" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "scim_group_member" add constraint "scim_group_member_group_id_foreign" foreign key ("group_id") references "scim_group" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "scim_group_member" add constraint "scim_group_member_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "scim_group_access_level" add constraint "scim_group_access_level_group_id_foreign" foreign key ("group_id") references "scim_group" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "scim_group_access_level" add constraint "scim_group_access_level_access_level_id_foreign" foreign key ("access_level_id") references "access_level" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "api_key" add column "company_id" int null;`);
    this.addSql(`alter table "api_key" add constraint "api_key_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "scim_group_member" drop constraint "scim_group_member_group_id_foreign";`);

    this.addSql(`alter table "scim_group_access_level" drop constraint "scim_group_access_level_group_id_foreign";`);

    this.addSql(`drop table if exists "scim_user" cascade;`);

    this.addSql(`drop table if exists "scim_group" cascade;`);

    this.addSql(`drop table if exists "scim_group_member" cascade;`);

    this.addSql(`drop table if exists "scim_group_access_level" cascade;`);

    this.addSql(`alter table "api_key" drop constraint "api_key_company_id_foreign";`);

    this.addSql(`alter table "api_key" drop column "company_id";`);
  }

}
