import { Migration } from '@mikro-orm/migrations';

/**
 * An outbox row may hold several events: `span` consecutive ids from its own, with its data in the
 * batch form of src/events/event-batch.ts. A terminal upload's punches are written as one row per
 * 256 punches instead of one row each. Existing rows are single events (span 1).
 */
export class Migration20261126050000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "event" add column "span" int not null default 1;`);
    this.addSql(`alter table "event" add constraint "event_span_check" check (span >= 1 and span <= 256);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "event" drop constraint "event_span_check";`);
    this.addSql(`alter table "event" drop column "span";`);
  }
}
