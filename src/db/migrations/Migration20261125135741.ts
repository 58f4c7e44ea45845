import { Migration } from '@mikro-orm/migrations';

export class Migration20261125135741 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "device" add column "clock_skew_seconds" int null, add column "clock_checked_at" timestamptz null, add column "clock_skew_alerted" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "device" drop column "clock_skew_seconds", drop column "clock_checked_at", drop column "clock_skew_alerted";`);
  }

}
