import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from '../../src/db/orm-config';
import { pendingDeviceUsers } from '../../src/services/sync/device-user.service';

/** Direct read access to the desired-state table, as the terminal service will have it. */
export class DeviceUserTable {
  private constructor(private readonly orm: MikroORM) {}

  static async open(databaseUrl: string): Promise<DeviceUserTable> {
    return new DeviceUserTable(await MikroORM.init(ormOptions(databaseUrl)));
  }

  /** Every row of a device, plain, ordered by employee. */
  async rows(deviceId: number): Promise<Record<string, any>[]> {
    return this.orm.em.getConnection().execute('select * from device_user where device_id = ? order by employee_id', [deviceId]);
  }

  /** The terminal service's work list for a device. */
  pending(deviceId: number) {
    return pendingDeviceUsers(this.orm.em.fork(), deviceId);
  }

  /** Pretends the terminal applied everything of a device, so that later changes show as new `pending` rows. */
  async markSynced(deviceId: number): Promise<void> {
    await this.orm.em
      .getConnection()
      .execute(`update device_user set sync_status = 'synced', synced_at = now(), previous_pin = null where device_id = ?`, [deviceId]);
  }

  close(): Promise<void> {
    return this.orm.close(true);
  }
}
