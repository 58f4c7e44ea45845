// The decoded state of one door in an rtstate upload: its own file, so the code tables
// (verify-type.ts) and the upload parsers (access-uploads.ts) share it without importing each other.

/** Per-door status decoded from rtstate (SEC-DOC §10.3). */
export interface DoorState {
  door: number;
  /** 2 bits per door: 00 none, 01 closed, 10 open (11 reported as unknown). */
  sensor: 'none' | 'closed' | 'open' | 'unknown';
  /** 1 bit per door: 0 = relay energised (pulled in), 1 = released. */
  relay: 'energised' | 'released' | null;
  /** Alarm byte for the door (null when the alarm field is too short), and its flags. */
  alarmByte: number | null;
  alarms: {
    accidentalOpen: boolean;
    tamper: boolean;
    duressPassword: boolean;
    duressFingerprint: boolean;
    doorOpenTimeout: boolean;
    mainsLost: boolean;
    batteryLost: boolean;
    readerTamper: boolean;
  };
}
