// An access controller as the browser tests need one: registered through the API, answered for by
// the terminal simulator over real HTTP, and known by its doors.
import { SimulatedTerminal, type SimulatedTerminalConfig } from '../../src/simulator';
import { createDevice } from './factories';
import { gqlData } from './http';
import { waitUntil } from './wait-until';

export interface ControllerDoor {
  id: number;
  name: string;
  number: number;
}

export interface SimulatedController {
  /** The device as the API created it. */
  device: Awaited<ReturnType<typeof createDevice>>;
  /** The simulated controller answering for it; stop it before the app. */
  sim: SimulatedTerminal;
  /** Its doors as the API lists them. */
  doors: ControllerDoor[];
}

/**
 * Registers an access controller named `name` in the company and starts a simulated one for it
 * (polling every 100 ms, with `options` such as lockCount, enforceAccess or failCommands); answers
 * once the API lists the `lockCount` doors (default 1) the controller reported.
 */
export async function startSimulatedController(
  baseUrl: string,
  key: string,
  companyId: number,
  name: string,
  options: Omit<SimulatedTerminalConfig, 'serverUrl' | 'serialNumber' | 'family'> = {},
): Promise<SimulatedController> {
  const device = await createDevice(baseUrl, key, companyId, { name, mode_type: 'acc' });
  const sim = new SimulatedTerminal({ serverUrl: baseUrl, serialNumber: device.serial_number, family: 'acc', pollIntervalMs: 100, ...options });
  sim.start();
  const lockCount = options.lockCount ?? 1;
  try {
    const doors = await waitUntil(
      `${name} reports its ${lockCount} door(s)`,
      async (): Promise<ControllerDoor[]> =>
        (await gqlData(baseUrl, key, 'query ($d: Int!) { deviceDoors(deviceId: $d) { id name number } }', { d: device.id })).deviceDoors,
      (list) => list.length === lockCount,
    );
    return { device, sim, doors };
  } catch (error) {
    await sim.stop();
    throw error;
  }
}
