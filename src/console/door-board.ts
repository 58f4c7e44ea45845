// The state of every door of the workspace, its open alarms and the newest door events, read from
// the API when the page opens (so an alarm raised before is shown) and read again whenever a door
// event, alarm or refusal arrives on the subscriptions, and every 10 s. One request reads it all.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useClient, useSubscription } from '@urql/preact';
import { AccessDeniedFeedDocument, DoorAlarmFeedDocument, DoorBoardDocument, DoorOpenedFeedDocument, type DoorBoardQuery } from './gql';

export type BoardDevice = DoorBoardQuery['devices']['nodes'][number];
export type BoardDoor = DoorBoardQuery['doors']['nodes'][number] & { device: BoardDevice };
export type BoardEvent = NonNullable<DoorBoardQuery['doorEvents']>['nodes'][number];

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

/**
 * `events`: how many of the newest door events to read (0: none, doors only); `alarmedOnly`: only the
 * doors with an alarm open (the overview's alarms), not every door.
 */
export function useDoorBoard(events = 25, { alarmedOnly = false } = {}): DoorBoard {
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
      const read = await client
        .query(DoorBoardDocument, { alarmed: alarmedOnly ? true : null, events, withEvents: events > 0 }, { requestPolicy: 'network-only' })
        .toPromise();
      if (read.error) throw new Error(read.error.message);
      // Access-control terminals' doors only: an attendance terminal's lock output is not a door of the board.
      const devices = (read.data?.devices.nodes ?? []).filter((d) => d.modeType === 'acc');
      const byId = new Map(devices.map((d) => [d.id, d]));
      if (!mounted.current) return;
      setBoard({
        loaded: true,
        error: null,
        devices,
        doors: (read.data?.doors.nodes ?? []).flatMap((door) => {
          const device = byId.get(door.deviceId);
          return device ? [{ ...door, device }] : [];
        }),
        // Newest first, as the API orders them.
        events: read.data?.doorEvents?.nodes ?? [],
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
