// The trace import worker: its own instance of the core reads, checks and replays a dropped trace file off the
// page's main thread, so a 40 MB trace never freezes the page. One message in: {file}. Messages out:
// {progress: 'reading', loaded, total} while the file is read, {progress: 'checking'} while the core parses and
// replays, then {prepared, bytes, fit} (the core's `prepareImport` result and the file's bytes, both transferred,
// and the network model fitted to it: `fitTrace`, or `{error}` when the fit refuses the trace — a paths trace) or
// {error, panic} — `panic` when the core itself failed (a bug), not when it refused the trace.
import init, { Playground } from '../pkg/netcode_lab.js';

/** The file's bytes, read in chunks with progress. */
async function readAll(file) {
  const bytes = new Uint8Array(file.size);
  let loaded = 0;
  const reader = file.stream().getReader();
  let lastReport = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (loaded + value.length > bytes.length) throw new Error('the file grew while it was read');
    bytes.set(value, loaded);
    loaded += value.length;
    if (loaded - lastReport >= 1 << 20 || loaded === bytes.length) {
      lastReport = loaded;
      self.postMessage({ progress: 'reading', loaded, total: bytes.length });
    }
  }
  return bytes.subarray(0, loaded);
}

self.onmessage = async ({ data: { file } }) => {
  try {
    await init();
    Playground.checkTraceSize(file.size);
    const bytes = await readAll(file);
    self.postMessage({ progress: 'checking' });
    const prepared = Playground.prepareImport(bytes);
    let fit;
    try {
      fit = Playground.fitTrace(bytes);
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) throw error;
      fit = { error: error?.message ?? String(error) };
    }
    self.postMessage({ prepared, bytes, fit }, [prepared.frames.buffer, prepared.snapshots.buffer, bytes.buffer]);
  } catch (error) {
    self.postMessage({ error: error?.message ?? String(error), panic: error instanceof WebAssembly.RuntimeError });
  }
};
