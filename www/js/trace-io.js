// Import and export of traces (`netcode-lab/trace@1`) and import of a game's arrival log (CSV or JSON,
// docs/arrival-log.md; the core tells them apart by content): a file picker, drag-and-drop anywhere on the page,
// and downloads of the current run. The core parses, checks and replays; this module only moves bytes.
// A dropped file is read by a worker with its own core (trace-worker.js), with progress, so a large trace never
// freezes the page; a refused trace leaves the current run as it was and says why in a notice.
import { showError, showNotice } from './banner.js';
import { t } from './strings/i18n.js';
import { saveFile } from './save-file.js';

/**
 * Builds the import/export row into `root`; `api` has {core(), model(), beforeImport(), imported(summary, fit),
 * framesDrawn()} —
 * `fit`: the worker's `fitTrace` of the file, or `{error}` when the fit refuses it.
 * Returns `{load(file)}`: the same import for a file made elsewhere (a recording, record.js), resolving to whether
 * the trace became the current run.
 */
export function buildTraceIO(root, api) {
  root.innerHTML = `
    <details class="group" open data-group="trace">
      <summary data-i18n="group.trace">${t('group.trace')}</summary>
      <div class="row">
        <label class="button-like" for="trace-file"><span data-i18n="button.import">${t('button.import')}</span></label>
        <input id="trace-file" type="file" accept=".json,.csv,application/json,text/csv" hidden>
        <button type="button" id="export-snapshots" data-i18n="button.exportSnapshots">${t('button.exportSnapshots')}</button>
        <button type="button" id="export-paths" data-i18n="button.exportPaths">${t('button.exportPaths')}</button>
      </div>
      <p class="hint import-progress" id="trace-progress" hidden><progress max="1"></progress> <span></span></p>
      <p class="hint" id="trace-hint" data-i18n="hint.trace"></p>
    </details>`;
  // The limits come from the core (src/trace/limits.rs), so the page says what the reader enforces.
  const limits = api.core().Playground.traceLimits();
  const hint = root.querySelector('#trace-hint');
  hint.dataset.i18nVars = JSON.stringify({ mib: limits.bytes / 1048576, snapshots: limits.snapshots, samples: limits.sampleAt });
  hint.textContent = t('hint.trace', JSON.parse(hint.dataset.i18nVars));
  const progress = root.querySelector('#trace-progress');
  const say = (text, fraction) => {
    progress.hidden = text === null;
    progress.querySelector('span').textContent = text ?? '';
    const bar = progress.querySelector('progress');
    if (fraction === undefined) bar.removeAttribute('value');
    else bar.value = fraction;
  };
  let worker = null;
  let settle = null; // resolves the promise of the import in progress (false when another replaces it)
  const refuse = (file, message) => {
    showNotice(t('notice.traceNotImported', { name: file.name, message }));
    settle?.(false);
  };
  const load = (file) => new Promise((resolve) => {
    worker?.terminate();
    settle?.(false);
    settle = resolve;
    try {
      api.core().Playground.checkTraceSize(file.size);
    } catch (error) {
      refuse(file, error.message);
      return;
    }
    const started = { frames: api.framesDrawn() };
    say(t('import.reading', { name: file.name, percent: 0 }), 0);
    worker = new Worker(new URL('./trace-worker.js', import.meta.url), { type: 'module' });
    const done = () => {
      worker?.terminate();
      worker = null;
      say(null);
    };
    worker.onmessage = ({ data }) => {
      if (data.progress === 'reading') {
        say(t('import.reading', { name: file.name, percent: Math.floor((100 * data.loaded) / Math.max(data.total, 1)) }), data.loaded / Math.max(data.total, 1));
      } else if (data.progress === 'checking') {
        started.checking = api.framesDrawn();
        say(t('import.checking', { name: file.name }));
      } else if (data.prepared) {
        done();
        window.netcodeLab.lastImport = { name: file.name, framesWhileChecking: api.framesDrawn() - (started.checking ?? started.frames) };
        try {
          api.beforeImport?.(); // an import is a place the reader visits: Back leaves it
          api.imported(api.model().showImported(data.prepared, data.bytes), data.fit);
          settle?.(true);
        } catch (error) {
          refuse(file, error.message);
        }
      } else if (data.error !== undefined) {
        done();
        if (data.panic) {
          showError(t('banner.panic', { message: data.error }));
          settle?.(false);
        } else refuse(file, data.error);
      }
    };
    worker.onerror = (event) => {
      done();
      event.preventDefault();
      showError(t('banner.worker', { message: event.message ?? '' }));
      settle?.(false);
    };
    worker.postMessage({ file });
  });
  root.querySelector('#trace-file').addEventListener('change', (e) => {
    const [file] = e.target.files;
    if (file) load(file);
    e.target.value = '';
  });
  for (const kind of ['snapshots', 'paths']) {
    root.querySelector(`#export-${kind}`).addEventListener('click', () => {
      const model = api.model();
      saveFile(`netcode-lab-${kind}-seed${model.params.seed}.json`, model.exportBlob(kind));
    });
  }
  document.addEventListener('dragover', (e) => {
    if ([...(e.dataTransfer?.types ?? [])].includes('Files')) {
      e.preventDefault();
      root.classList.add('dragging');
    }
  });
  document.addEventListener('dragleave', () => root.classList.remove('dragging'));
  document.addEventListener('drop', (e) => {
    const file = e.dataTransfer?.files?.[0];
    root.classList.remove('dragging');
    if (!file) return;
    e.preventDefault();
    load(file);
  });
  return { load };
}
