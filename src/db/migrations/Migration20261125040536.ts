import { Migration } from '@mikro-orm/migrations';

/** rtlog events of the terminal itself and of codes Timegate does not know are stored too (`device`, `unknown`). */
export class Migration20261125040536 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "door_event" drop constraint if exists "door_event_event_class_check";`);

    this.addSql(`alter table "door_event" add constraint "door_event_event_class_check" check("event_class" in ('granted', 'denied', 'door', 'alarm', 'device', 'unknown'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "door_event" where "event_class" in ('device', 'unknown');`);
    this.addSql(`alter table "door_event" drop constraint if exists "door_event_event_class_check";`);

    this.addSql(`alter table "door_event" add constraint "door_event_event_class_check" check("event_class" in ('granted', 'denied', 'door', 'alarm'));`);
  }

}
