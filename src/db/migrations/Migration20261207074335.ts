import { Migration } from '@mikro-orm/migrations';

export class Migration20261207074335 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "geofence" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "name" varchar(200) not null, "latitude" double precision not null, "longitude" double precision not null, "radius_m" int not null, "area_ids" int[] not null default '{}', "employee_ids" int[] not null default '{}', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "geofence_workspace_company_index" on "geofence" ("workspace_id", "company_id");`);

    this.addSql(`create table "employee_session" ("id" serial primary key, "workspace_id" int not null, "employee_id" int not null, "token_hash" varchar(64) not null, "via" varchar(16) not null, "subject" varchar(255) null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "ended_at" timestamptz null);`);
    this.addSql(`create index "employee_session_employee_index" on "employee_session" ("employee_id");`);
    this.addSql(`alter table "employee_session" add constraint "employee_session_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "employee_session_expires_index" on "employee_session" ("expires_at");`);

    this.addSql(`create table "employee_invitation" ("id" serial primary key, "workspace_id" int not null, "employee_id" int not null, "token_hash" varchar(64) not null, "created_by_key_id" int null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null);`);
    this.addSql(`create index "employee_invitation_employee_index" on "employee_invitation" ("employee_id");`);
    this.addSql(`alter table "employee_invitation" add constraint "employee_invitation_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "employee_access_token" ("id" serial primary key, "workspace_id" int not null, "employee_id" int not null, "name" varchar(200) not null default '', "token_hash" varchar(64) not null, "prefix" varchar(32) not null, "last4" varchar(4) not null, "created_by_key_id" int null, "created_at" timestamptz not null, "revoked_at" timestamptz null);`);
    this.addSql(`create index "employee_access_token_employee_index" on "employee_access_token" ("employee_id");`);
    this.addSql(`alter table "employee_access_token" add constraint "employee_access_token_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "area_approver" ("id" serial primary key, "area_id" int not null, "employee_id" int not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "area_approver_employee_index" on "area_approver" ("employee_id");`);
    this.addSql(`alter table "area_approver" add constraint "area_approver_area_employee_unique" unique ("area_id", "employee_id");`);

    this.addSql(`alter table "geofence" add constraint "geofence_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "geofence" add constraint "geofence_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "employee_session" add constraint "employee_session_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "employee_session" add constraint "employee_session_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "employee_invitation" add constraint "employee_invitation_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "employee_invitation" add constraint "employee_invitation_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "employee_access_token" add constraint "employee_access_token_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "employee_access_token" add constraint "employee_access_token_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "area_approver" add constraint "area_approver_area_id_foreign" foreign key ("area_id") references "area" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "area_approver" add constraint "area_approver_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "punch" drop constraint if exists "punch_record_type_check";`);

    this.addSql(`alter table "console_sign_in" add column "purpose" varchar(16) not null default 'console';`);

    this.addSql(`alter table "company" add column "mobile_punch" boolean not null default false, add column "mobile_punch_accuracy_m" int not null default 100, add column "manager_approvals" boolean not null default false;`);

    this.addSql(`alter table "punch_correction" add column "requested_by_employee_id" int null, add column "decided_by_employee_id" int null;`);

    this.addSql(`alter table "overtime_approval" add column "requested_by_employee_id" int null, add column "decided_by_employee_id" int null;`);

    this.addSql(`alter table "punch" add column "latitude" double precision null, add column "longitude" double precision null, add column "accuracy_m" int null, add column "geofence_id" int null, add column "offline_queued" boolean null;`);
    this.addSql(`alter table "punch" add constraint "punch_record_type_check" check("record_type" in ('device', 'manual', 'mobile'));`);
    this.addSql(`create index "punch_located_time_index" on "punch" ("punch_time") where "latitude" is not null;`);

    this.addSql(`alter table "absence_request" add column "requested_by_employee_id" int null, add column "decided_by_employee_id" int null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "geofence" cascade;`);

    this.addSql(`drop table if exists "employee_session" cascade;`);

    this.addSql(`drop table if exists "employee_invitation" cascade;`);

    this.addSql(`drop table if exists "employee_access_token" cascade;`);

    this.addSql(`drop table if exists "area_approver" cascade;`);

    this.addSql(`alter table "punch" drop constraint if exists "punch_record_type_check";`);

    this.addSql(`alter table "absence_request" drop column "requested_by_employee_id", drop column "decided_by_employee_id";`);

    this.addSql(`alter table "company" drop column "mobile_punch", drop column "mobile_punch_accuracy_m", drop column "manager_approvals";`);

    this.addSql(`alter table "console_sign_in" drop column "purpose";`);

    this.addSql(`alter table "overtime_approval" drop column "requested_by_employee_id", drop column "decided_by_employee_id";`);

    this.addSql(`drop index "punch_located_time_index";`);
    this.addSql(`alter table "punch" drop column "latitude", drop column "longitude", drop column "accuracy_m", drop column "geofence_id", drop column "offline_queued";`);

    this.addSql(`alter table "punch" add constraint "punch_record_type_check" check("record_type" in ('device', 'manual'));`);

    this.addSql(`alter table "punch_correction" drop column "requested_by_employee_id", drop column "decided_by_employee_id";`);
  }

}
