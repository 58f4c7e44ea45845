import { Migration } from '@mikro-orm/migrations';

/** The webhook worker's fair claim reads each endpoint's oldest due pending deliveries through this index. */
export class Migration20261125040251 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "webhook_delivery_pending_endpoint_index" on "webhook_delivery" ("endpoint_id", "next_attempt_at", "id") where "status" = 'pending';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "webhook_delivery_pending_endpoint_index";`);
  }

}
