import { Migration } from '@mikro-orm/migrations';

/**
 * Event retention drops whole month partitions now (src/db/partitions.ts); nothing reads events by
 * creation time any more, and every event written paid for this index.
 */
export class Migration20261125192443 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`drop index "event_created_at_index";`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index "event_created_at_index" on "event" ("created_at");`);
  }

}
