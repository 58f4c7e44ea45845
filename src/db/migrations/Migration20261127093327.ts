import { Migration } from '@mikro-orm/migrations';

/** A refusal's reason as decided when it arrived (door_event.reason): `lockdown` for a generic refusal at a door locked down at that moment. */
export class Migration20261127093327 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "door_event" add column "reason" varchar(40) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "door_event" drop column "reason";`);
  }

}
