import { Migration } from '@mikro-orm/migrations';

/**
 * Punches from phones (`record_type` `mobile`, docs/self-service.md) on every partition of `punch`.
 * The previous migration replaced the check constraint `punch_record_type_check`; but the
 * conversion to partitions (Migration20261125183000) left a second copy of the old check on the
 * parent and on partitions made with `create table (like punch including constraints)`, under
 * another name (`punch_record_type_check1`), which would refuse a phone punch. Every check of
 * `record_type` that does not allow `mobile`, on the parent or a partition, is dropped: the parent's
 * new check, which every partition inherits, is the one rule.
 */
export class Migration20261207074336 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`do $$
declare r record;
begin
  for r in
    select c.conrelid::regclass::text as partition_name, c.conname
    from pg_constraint c
    left join pg_inherits i on i.inhrelid = c.conrelid
    where (c.conrelid = 'punch'::regclass or i.inhparent = 'punch'::regclass) and c.contype = 'c' and c.conislocal
      and pg_get_constraintdef(c.oid) like '%record_type%' and pg_get_constraintdef(c.oid) not like '%mobile%'
  loop
    execute format('alter table %s drop constraint %I', r.partition_name, r.conname);
  end loop;
end $$;`);
  }

  override async down(): Promise<void> {
    // Nothing to restore: the parent's check (put back by the previous migration's down) covers every partition.
  }
}
