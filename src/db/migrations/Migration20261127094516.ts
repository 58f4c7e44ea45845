import { Migration } from '@mikro-orm/migrations';

/** A lockdown's override access level (lockdown.override_access_level_id): its members are let through by a remote opening. */
export class Migration20261127094516 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "lockdown" add column "override_access_level_id" int null;`);
    this.addSql(`alter table "lockdown" add constraint "lockdown_override_access_level_id_foreign" foreign key ("override_access_level_id") references "access_level" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "lockdown" drop constraint "lockdown_override_access_level_id_foreign";`);

    this.addSql(`alter table "lockdown" drop column "override_access_level_id";`);
  }

}
