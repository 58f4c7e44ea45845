import { Migration } from '@mikro-orm/migrations';

export class Migration20261121134308 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "workspace" ("id" serial primary key, "name" varchar(200) not null, "time_zone" varchar(64) not null default 'UTC', "max_companies" int not null default 1, "max_devices" int not null default 10, "max_employees" int not null default 5000, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);

    this.addSql(`create table "idempotency_record" ("id" serial primary key, "workspace_id" int not null, "key" varchar(255) not null, "request_hash" varchar(64) not null, "status" int null, "response_body" jsonb null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "idempotency_record" add constraint "idempotency_record_workspace_key_unique" unique ("workspace_id", "key");`);

    this.addSql(`create table "company" ("id" serial primary key, "workspace_id" int not null, "name" varchar(200) not null, "code" varchar(64) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "company" add constraint "company_workspace_code_unique" unique ("workspace_id", "code");`);

    this.addSql(`create table "employee" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "name" varchar(100) not null, "lastname" varchar(100) not null, "code" varchar(64) not null, "pin" varchar(23) null, "email" varchar(254) null, "is_active" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "employee_workspace_company_index" on "employee" ("workspace_id", "company_id");`);
    this.addSql(`alter table "employee" add constraint "employee_company_pin_unique" unique ("company_id", "pin");`);
    this.addSql(`alter table "employee" add constraint "employee_workspace_code_unique" unique ("workspace_id", "code");`);

    this.addSql(`create table "api_key" ("id" serial primary key, "workspace_id" int not null, "name" varchar(200) not null default '', "key_hash" varchar(64) not null, "prefix" varchar(32) not null, "last4" varchar(4) not null, "scopes" text[] not null, "created_at" timestamptz not null, "revoked_at" timestamptz null);`);
    this.addSql(`create index "api_key_workspace_id_index" on "api_key" ("workspace_id");`);
    this.addSql(`alter table "api_key" add constraint "api_key_key_hash_unique" unique ("key_hash");`);

    this.addSql(`alter table "idempotency_record" add constraint "idempotency_record_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "company" add constraint "company_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "employee" add constraint "employee_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "employee" add constraint "employee_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`);

    this.addSql(`alter table "api_key" add constraint "api_key_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_record" drop constraint "idempotency_record_workspace_id_foreign";`);

    this.addSql(`alter table "company" drop constraint "company_workspace_id_foreign";`);

    this.addSql(`alter table "employee" drop constraint "employee_workspace_id_foreign";`);

    this.addSql(`alter table "api_key" drop constraint "api_key_workspace_id_foreign";`);

    this.addSql(`alter table "employee" drop constraint "employee_company_id_foreign";`);

    this.addSql(`drop table if exists "workspace" cascade;`);

    this.addSql(`drop table if exists "idempotency_record" cascade;`);

    this.addSql(`drop table if exists "company" cascade;`);

    this.addSql(`drop table if exists "employee" cascade;`);

    this.addSql(`drop table if exists "api_key" cascade;`);
  }

}
