import { Migration } from '@mikro-orm/migrations';

export class Migration20261207120003 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "workspace_write_mark" ("workspace_id" int not null, "lsn" bigint not null, "written_at" timestamptz not null, constraint "workspace_write_mark_pkey" primary key ("workspace_id"));`);

    this.addSql(`alter table "workspace_write_mark" add constraint "workspace_write_mark_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "workspace_write_mark" cascade;`);
  }

}
