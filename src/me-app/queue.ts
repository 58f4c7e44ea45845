// Punches made without a network wait on the device (IndexedDB) with the time they were made, and
// are sent when the phone is back online, marked `offlineQueued`; the service refuses one older than
// 72 hours (docs/self-service.md). A punch the service refuses for good (outside the fence, too old)
// leaves the queue with its reason, so the employee sees it and can ask for a correction.
export interface QueuedPunch {
  id?: number;
  punchState: string;
  latitude: number;
  longitude: number;
  accuracyM: number;
  punchTime: string;
}

const DB = 'timegate-me';
const STORE = 'punches';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'id', autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = work(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

export const queuePunch = (punch: QueuedPunch) => run('readwrite', (store) => store.add(punch));
export const queuedPunches = () => run<QueuedPunch[]>('readonly', (store) => store.getAll() as IDBRequest<QueuedPunch[]>);
export const dropQueued = (id: number) => run('readwrite', (store) => store.delete(id));
