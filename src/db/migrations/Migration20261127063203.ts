import { Migration } from '@mikro-orm/migrations';

export class Migration20261127063203 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "shift" add column "flexible" boolean not null default false, add column "core_start" varchar(5) null, add column "core_end" varchar(5) null, add column "required_minutes" smallint null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "shift" drop column "flexible", drop column "core_start", drop column "core_end", drop column "required_minutes";`);
  }

}
