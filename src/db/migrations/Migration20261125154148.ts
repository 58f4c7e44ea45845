import { Migration } from '@mikro-orm/migrations';

export class Migration20261125154148 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "employee_photo" ("id" serial primary key, "workspace_id" int not null, "employee_id" int not null, "data" bytea not null, "size" int not null, "width" smallint not null, "height" smallint not null, "sha256" varchar(64) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "employee_photo" add constraint "employee_photo_employee_unique" unique ("employee_id");`);

    this.addSql(`create table "face_enrollment" ("id" serial primary key, "workspace_id" int not null, "employee_id" int not null, "device_id" int not null, "photo_sha256" varchar(64) not null, "status" varchar(16) not null, "method" varchar(16) null, "command_id" int null, "return_code" int null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "face_enrollment_command_index" on "face_enrollment" ("command_id");`);
    this.addSql(`alter table "face_enrollment" add constraint "face_enrollment_unique" unique ("employee_id", "device_id");`);

    this.addSql(`alter table "employee_photo" add constraint "employee_photo_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "employee_photo" add constraint "employee_photo_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "face_enrollment" add constraint "face_enrollment_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "face_enrollment" add constraint "face_enrollment_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "face_enrollment" add constraint "face_enrollment_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "face_enrollment" add constraint "face_enrollment_command_id_foreign" foreign key ("command_id") references "device_command" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "employee_photo" cascade;`);

    this.addSql(`drop table if exists "face_enrollment" cascade;`);
  }

}
