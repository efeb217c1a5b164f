// The reader's recordings, kept in the browser's IndexedDB so they survive a reload: database `netcode-lab`,
// store `recordings` (what the list shows: id, name, date, channel, rate, seconds, counts, partial, reason) and
// store `traces` (id → the trace's JSON text, megabytes for a long recording: read only to load one).
const DB = 'netcode-lab';
const VERSION = 1;

let opening = null;

function open() {
  opening ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains('recordings')) db.createObjectStore('recordings', { keyPath: 'id', autoIncrement: true });
      if (!db.objectStoreNames.contains('traces')) db.createObjectStore('traces');
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB could not be opened'));
    req.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
  });
  opening.catch(() => { opening = null; });
  return opening;
}

/** Runs `fn(stores)` in one transaction over `names`; resolves once the transaction commits. */
async function inTransaction(names, mode, fn) {
  const db = await open();
  const tx = db.transaction(names, mode);
  const done = new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
  fn(Object.fromEntries(names.map((n) => [n, tx.objectStore(n)])));
  await done;
}

/** Saves a recording (`meta` without id, and its trace `text`); resolves to its id. */
export async function save(meta, text) {
  let id;
  await inTransaction(['recordings', 'traces'], 'readwrite', ({ recordings, traces }) => {
    recordings.add(meta).onsuccess = (e) => {
      id = e.target.result;
      traces.put(text, id);
    };
  });
  return id;
}

/** Every recording's meta, newest first. */
export async function list() {
  let all = [];
  await inTransaction(['recordings'], 'readonly', ({ recordings }) => {
    recordings.getAll().onsuccess = (e) => { all = e.target.result; };
  });
  return all.sort((a, b) => b.id - a.id);
}

/** The trace text of recording `id` (undefined when gone). */
export async function trace(id) {
  let text;
  await inTransaction(['traces'], 'readonly', ({ traces }) => {
    traces.get(id).onsuccess = (e) => { text = e.target.result; };
  });
  return text;
}

export async function rename(id, name) {
  await inTransaction(['recordings'], 'readwrite', ({ recordings }) => {
    recordings.get(id).onsuccess = (e) => { if (e.target.result) recordings.put({ ...e.target.result, name }); };
  });
}

export async function remove(id) {
  await inTransaction(['recordings', 'traces'], 'readwrite', ({ recordings, traces }) => {
    recordings.delete(id);
    traces.delete(id);
  });
}
