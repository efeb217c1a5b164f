// Import and export of traces (`netcode-lab/trace@1`): a file picker, drag-and-drop anywhere on the page,
// and downloads of the current run. The core parses, checks and replays; this module only moves text.
import { showNotice } from './banner.js';
import { t } from './i18n.js';

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Builds the import/export row into `root`; `api` has {model(), imported(summary)}. */
export function buildTraceIO(root, api) {
  root.innerHTML = `
    <details class="group" open data-group="trace">
      <summary data-i18n="group.trace">${t('group.trace')}</summary>
      <div class="row">
        <label class="button-like" for="trace-file"><span data-i18n="button.import">${t('button.import')}</span></label>
        <input id="trace-file" type="file" accept=".json,application/json" hidden>
        <button type="button" id="export-snapshots" data-i18n="button.exportSnapshots">${t('button.exportSnapshots')}</button>
        <button type="button" id="export-paths" data-i18n="button.exportPaths">${t('button.exportPaths')}</button>
      </div>
      <p class="hint" data-i18n="hint.trace">${t('hint.trace')}</p>
    </details>`;
  const load = async (file) => {
    const text = await file.text();
    try {
      api.imported(api.model().importTrace(text));
    } catch (error) {
      showNotice(t('notice.traceNotImported', { name: file.name, message: error.message }));
    }
  };
  root.querySelector('#trace-file').addEventListener('change', (e) => {
    const [file] = e.target.files;
    if (file) load(file);
    e.target.value = '';
  });
  for (const kind of ['snapshots', 'paths']) {
    root.querySelector(`#export-${kind}`).addEventListener('click', () => {
      const model = api.model();
      download(`netcode-lab-${kind}-seed${model.params.seed}.json`, model.exportTrace(kind));
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
}
