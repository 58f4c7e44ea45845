// The state of every door of the workspace, its open alarms and its last events, read from the API
// when the page opens (so an alarm raised before is shown) and read again whenever a door event,
// alarm or refusal arrives on the subscriptions, and every 10 s.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useClient, useSubscription } from '@urql/preact';
import {
  AccessDeniedFeedDocument,
  DeviceDoorEventsDocument,
  DeviceDoorsNowDocument,
  DoorAlarmFeedDocument,
  DoorBoardDevicesDocument,
  DoorOpenedFeedDocument,
  type DeviceDoorEventsQuery,
  type DeviceDoorsNowQuery,
  type DoorBoardDevicesQuery,
} from './gql';

export type BoardDevice = DoorBoardDevicesQuery['devices']['nodes'][number];
export type BoardDoor = DeviceDoorsNowQuery['deviceDoors'][number] & { device: BoardDevice };
export type BoardEvent = DeviceDoorEventsQuery['doorEvents']['nodes'][number];

export interface DoorBoard {
  loaded: boolean;
  error: string | null;
  devices: BoardDevice[];
  doors: BoardDoor[];
  events: BoardEvent[];
  reload: () => void;
}

/** Why a controller refused someone, as the API's `AccessDenial.reason` spells it, from the rtlog code a door event keeps. */
export function denialReason(eventCode: number): string {
  const reasons: Record<number, string> = {
    21: 'outside_schedule',
    22: 'outside_schedule',
    23: 'outside_schedule',
    24: 'anti_passback',
    27: 'not_registered',
    29: 'expired',
    34: 'not_registered',
    41: 'wrong_verify_mode',
  };
  return reasons[eventCode] ?? 'other';
}

/** Every refusal reason of the API (`DoorDenialReason`), in words. */
export const REASON_LABELS: Record<string, string> = {
  not_registered: 'not registered on this controller',
  outside_schedule: 'outside the access schedule',
  expired: 'access expired',
  wrong_verify_mode: 'wrong verification mode',
  anti_passback: 'anti-passback',
  interlock: 'interlock (another door of its group is open)',
  multi_person_wait: 'waiting for the next person (multi-person rule)',
  interval_too_short: 'too soon after the last verification',
  wrong_password: 'wrong password',
  card_lost: 'card reported lost',
  blacklisted: 'blacklisted',
  background_verification_failed: 'server verification failed',
  background_verification_timeout: 'server verification timed out',
  other: 'refused (other reason)',
};

/** `eventsPerDevice`: how many of each controller's newest events to read (0: none, doors only). */
export function useDoorBoard(eventsPerDevice = 200): DoorBoard {
  const client = useClient();
  const [board, setBoard] = useState<Omit<DoorBoard, 'reload'>>({ loaded: false, error: null, devices: [], doors: [], events: [] });
  const [version, setVersion] = useState(0);
  const due = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reload = () => {
    if (due.current) return;
    due.current = setTimeout(() => {
      due.current = null;
      setVersion((v) => v + 1);
    }, 150);
  };
  const onEvent = () => {
    reload();
    return null;
  };
  useSubscription({ query: DoorAlarmFeedDocument }, onEvent);
  useSubscription({ query: DoorOpenedFeedDocument }, onEvent);
  useSubscription({ query: AccessDeniedFeedDocument }, onEvent);
  useEffect(() => {
    const timer = setInterval(() => setVersion((v) => v + 1), 10_000);
    return () => clearInterval(timer);
  }, []);
  // A load that takes longer than the events that ask for another is not thrown away: loads run one
  // at a time, the newest request runs after the current one, and every finished load is shown.
  const running = useRef(false);
  const wanted = useRef(false);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  useEffect(() => {
    if (running.current) {
      wanted.current = true;
      return;
    }
    running.current = true;
    (async () => {
      const policy = { requestPolicy: 'network-only' as const };
      const listed = await client.query(DoorBoardDevicesDocument, {}, policy).toPromise();
      if (listed.error) throw new Error(listed.error.message);
      const devices = (listed.data?.devices.nodes ?? []).filter((d) => d.modeType === 'acc');
      const perDevice = await Promise.all(
        devices.map(async (device) => {
          const [doors, events] = await Promise.all([
            client.query(DeviceDoorsNowDocument, { deviceId: device.id }, policy).toPromise(),
            eventsPerDevice > 0 ? client.query(DeviceDoorEventsDocument, { deviceId: device.id, first: eventsPerDevice }, policy).toPromise() : null,
          ]);
          return {
            doors: (doors.data?.deviceDoors ?? []).map((door) => ({ ...door, device })),
            events: events?.data?.doorEvents.nodes ?? [],
          };
        }),
      );
      if (!mounted.current) return;
      setBoard({
        loaded: true,
        error: null,
        devices,
        doors: perDevice.flatMap((d) => d.doors),
        events: perDevice.flatMap((d) => d.events).sort((a, b) => b.time.localeCompare(a.time)),
      });
    })()
      .catch((error: Error) => mounted.current && setBoard((b) => ({ ...b, loaded: true, error: error.message })))
      .finally(() => {
        running.current = false;
        if (wanted.current && mounted.current) {
          wanted.current = false;
          setVersion((v) => v + 1);
        }
      });
  }, [version]);
  return { ...board, reload };
}
