import { Migration } from '@mikro-orm/migrations';

/**
 * Door event ids become 64-bit like punch ids: an access-control terminal writes one door event per
 * badge, button and door sensor change, more than punches. Nothing references them.
 */
export class Migration20261126031000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter sequence "door_event_id_seq" as bigint;`);
    this.addSql(`alter table "door_event" alter column "id" type bigint;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "door_event" alter column "id" type int;`);
    this.addSql(`alter sequence "door_event_id_seq" as int;`);
  }
}
