import { Migration } from '@mikro-orm/migrations';

/** The multi-person rule of a door (door_opening_rules.multi_person) and the Door{N}MultiCardOpenDoor value written. */
export class Migration20261127090741 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "door_opening_rules" add column "multi_person" jsonb null, add column "multi_card_value" smallint not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "door_opening_rules" drop column "multi_person", drop column "multi_card_value";`);
  }

}
