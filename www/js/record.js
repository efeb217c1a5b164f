// "Record my network", at the rail's foot beside trace import and export: the reader records the snapshot stream
// of `netcode-lab serve` (same origin) over a WebSocket or an unreliable, unordered WebRTC data channel, and the
// recording becomes the network shown, exactly as an imported trace does (trace-io.js `load`). The recording runs
// in record-worker.js (its stamps are never held up by the page's frames); record-core.js is what it records.
// Recordings are kept in IndexedDB (recordings-db.js): listed here to load, rename or delete, across reloads.
//
// A link `#record=websocket|webrtc&rate=HZ&seconds=N` opens the panel with those fields, `&autostart=1` starts at
// once. `document.documentElement.dataset.recording` says `running`, then `done`, `cancelled` or `error` (the
// reason in the notice), and `dataset.recordedSnapshots` how many snapshots arrived.
import { showNotice } from './banner.js';
import { t, onLangChange, getLang } from './strings/i18n.js';
import { CHANNELS, RATE, SECONDS, recordSettings } from './record-core.js';
import * as db from './recordings-db.js';

/**
 * The panel's stylesheet (record.css), fetched as this module loads — after the first frame, whose bytes it need
 * not carry; the panel is built once it applies (or failed: the panel works unstyled). Its address is the page's,
 * not this module's: in dist this code sits in a bundled chunk elsewhere.
 */
const styled = typeof document === 'undefined' ? Promise.resolve() : new Promise((resolve) => {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('record.css', document.baseURI).href;
  link.addEventListener('load', resolve, { once: true });
  link.addEventListener('error', resolve, { once: true });
  document.head.append(link);
});

/** How long ICE gathering may take before the offer is sent as it is (host candidates come at once). */
const ICE_WAIT_MS = 3000;

/** A date in the page's language (not the browser's: a Chinese page says 下午, an English one PM). */
const dateText = (date, options) => date.toLocaleString(getLang() === 'zh' ? 'zh-CN' : 'en', options);

/** A reason from the worker (`[key, vars]`, record-core.js `REASONS`) in the page's language. */
const why = ([key, vars]) => t(`record.why.${key}`, vars);

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Opens a WebRTC data channel to the server's `/stream/rtc`: no ICE servers (the host's own candidates), the
 * channel `stream` unordered with no retransmits, the offer sent once gathering is complete. `attach(channel)` is
 * called at once with the new channel (before it opens: a channel can be handed to a worker only then). Resolves
 * with the peer connection; rejects with the server's or the browser's reason.
 */
async function openDataChannel(attach) {
  if (typeof RTCPeerConnection !== 'function') throw new Error('this browser has no WebRTC');
  const pc = new RTCPeerConnection({ iceServers: [] });
  try {
    attach(pc.createDataChannel('stream', { ordered: false, maxRetransmits: 0 }));
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise((resolve) => {
      if (pc.iceGatheringState === 'complete') return resolve();
      const timer = setTimeout(resolve, ICE_WAIT_MS);
      pc.addEventListener('icegatheringstatechange', () => {
        if (pc.iceGatheringState === 'complete') {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    let response;
    try {
      response = await fetch(new URL('/stream/rtc', location.href), {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sdp: pc.localDescription.sdp }),
      });
    } catch (error) {
      throw new Error(`POST /stream/rtc failed: ${error.message}`);
    }
    const body = await response.text();
    let answer = null;
    try {
      answer = JSON.parse(body);
    } catch {
      // said below, with the status
    }
    if (!response.ok || typeof answer?.sdp !== 'string') {
      const why = typeof answer?.error === 'string' ? answer.error : body.slice(0, 120) || 'no answer';
      throw new Error(`POST /stream/rtc: HTTP ${response.status}: ${why}`);
    }
    await pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
    return pc;
  } catch (error) {
    pc.close();
    throw error;
  }
}

/**
 * Builds the panel below the trace import row (`#trace-io`) once its sheet applies, folded when that row is (on a
 * phone: classroom.js `foldRailOnPhone`), and applies the link the page was opened with (and each new one:
 * `hashchange`). `load(file)` → Promise<boolean> is trace-io.js's import, `full()` a promise of the full core
 * (which an import needs), `extras()` the URL's extras as main.js `applyHash` last read them. (Positional, and no
 * more than these: boot.js, which calls this, is part of the first frame's bytes.)
 */
export async function mountRecorder(load, full, extras) {
  const ports = { load, full, extras };
  await styled;
  const root = document.createElement('div');
  root.className = 'io';
  root.id = 'recorder';
  document.getElementById('trace-io').after(root);
  const channelOptions = CHANNELS.map((c) => `<option value="${c}" data-i18n="record.channel.${c}.short">${t(`record.channel.${c}.short`)}</option>`).join('');
  root.innerHTML = `
    <details class="group" open data-group="record">
      <summary data-i18n="record.title">${t('record.title')}</summary>
      <p class="hint" data-i18n="record.hint">${t('record.hint')}</p>
      <div class="record-fields">
        <label><span data-i18n="record.channel">${t('record.channel')}</span>
          <select id="record-channel">${channelOptions}</select></label>
        <p class="hint" id="record-channel-hint" data-i18n="record.channel.websocket">${t('record.channel.websocket')}</p>
        <label><span data-i18n="record.rate">${t('record.rate')}</span>
          <span class="record-number"><input id="record-rate" type="number" min="${RATE.min}" max="${RATE.max}" step="1" value="${RATE.default}"> Hz</span></label>
        <label><span data-i18n="record.seconds">${t('record.seconds')}</span>
          <span class="record-number"><input id="record-seconds" type="number" min="${SECONDS.min}" max="${SECONDS.max}" step="1" value="${SECONDS.default}"> s</span></label>
      </div>
      <p class="hint record-link" id="record-link" role="status" hidden></p>
      <div class="row">
        <button type="button" id="record-start" data-i18n="record.start">${t('record.start')}</button>
        <button type="button" id="record-cancel" data-i18n="record.cancel" hidden>${t('record.cancel')}</button>
      </div>
      <div class="record-progress" id="record-progress" hidden>
        <progress max="1" value="0"></progress>
        <p class="hint" id="record-counts" aria-live="polite"></p>
      </div>
      <p class="hint" id="record-empty" data-i18n="record.none">${t('record.none')}</p>
      <ul class="record-list" id="record-list"></ul>
    </details>`;
  const $ = (sel) => root.querySelector(sel);
  const fields = { channel: $('#record-channel'), rate: $('#record-rate'), seconds: $('#record-seconds') };
  const startButton = $('#record-start');
  const cancelButton = $('#record-cancel');
  const progress = $('#record-progress');
  const countsLine = $('#record-counts');
  const html = document.documentElement;
  const channelHint = $('#record-channel-hint');
  const linkLine = $('#record-link'); // what was wrong with the link's recorder settings
  // What the chosen channel does with a lost packet, under it (the option's own text stays short: the rail is narrow).
  const describeChannel = () => {
    channelHint.dataset.i18n = `record.channel.${fields.channel.value}`;
    channelHint.textContent = t(channelHint.dataset.i18n);
  };
  fields.channel.addEventListener('change', describeChannel);
  let running = null; // {worker, pc, settings, last}

  const countsText = (counts) => [
    t('record.arrived', { n: counts.arrived }),
    t('record.lost', { n: counts.lost }),
    t('record.late', { n: counts.late }),
    t('record.outOfOrder', { n: counts.outOfOrder }),
    t('record.rtt', { ms: counts.rtt === null || counts.rtt === undefined ? '–' : Math.round(counts.rtt * 1000) }),
  ].join(t('list.separator'));

  const showProgress = () => {
    const p = running?.last;
    if (!p) return;
    progress.querySelector('progress').value = Math.min(1, p.elapsed / p.seconds);
    countsLine.textContent = `${t('record.elapsed', { s: Math.min(p.elapsed, p.seconds).toFixed(1), of: p.seconds })}${t('list.separator')}${countsText(p.counts)}`;
  };

  /** The fields as whole numbers inside their ranges (a field left out of range is put back in and said). */
  const read = () => {
    const out = { channel: fields.channel.value };
    for (const [key, range] of [['rate', RATE], ['seconds', SECONDS]]) {
      const n = Number(fields[key].value);
      const used = Number.isFinite(n) && fields[key].value.trim() !== '' ? Math.min(range.max, Math.max(range.min, Math.round(n))) : range.default;
      if (String(used) !== fields[key].value) {
        showNotice(t('record.clamped', { key: t(`record.${key}`), value: fields[key].value, min: range.min, max: range.max, used }));
        fields[key].value = String(used);
      }
      out[key] = used;
    }
    return out;
  };

  const setRunning = (on) => {
    startButton.disabled = on;
    cancelButton.hidden = !on;
    for (const f of Object.values(fields)) f.disabled = on;
    progress.hidden = !on;
  };

  const end = (state, message) => {
    const was = running;
    running = null;
    was?.worker.terminate();
    was?.pc?.close();
    setRunning(false);
    html.dataset.recording = state;
    if (message) showNotice(message, { sticky: true });
  };

  const start = async () => {
    if (running) return;
    const settings = read();
    const worker = new Worker(new URL('./record-worker.js', import.meta.url), { type: 'module' });
    running = { worker, pc: null, settings, last: null };
    const mine = running;
    html.dataset.recording = 'running';
    html.dataset.recordedSnapshots = '0';
    setRunning(true);
    countsLine.textContent = t('record.connecting');
    progress.querySelector('progress').value = 0;
    worker.onerror = (event) => {
      event.preventDefault();
      if (running === mine) end('error', t('record.failed', { reason: event.message || 'the recording worker failed' }));
    };
    worker.onmessage = ({ data }) => {
      if (running !== mine) return;
      if (data.progress) {
        mine.last = data.progress;
        html.dataset.recordedSnapshots = String(data.progress.counts.arrived);
        showProgress();
      } else if (data.send !== undefined) {
        if (mine.relay?.readyState === 'open') mine.relay.send(data.send);
      } else if (data.done) {
        finished(mine, data.done);
      } else if (data.failed) {
        html.dataset.recordedSnapshots = '0';
        end('error', t('record.failed', { reason: why(data.failed.reason) }));
      }
    };
    const job = { channel: settings.channel, rate: settings.rate, seconds: settings.seconds };
    if (settings.channel === 'websocket') {
      const url = new URL('/stream/ws', location.href);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      worker.postMessage({ start: { ...job, url: url.href } });
      return;
    }
    try {
      mine.pc = await openDataChannel((channel) => {
        try {
          // The worker stamps arrivals itself when the browser lets a data channel move to it…
          worker.postMessage({ start: job, dataChannel: channel }, [channel]);
        } catch {
          // …else the page relays each message with its own stamp (the same clock: performance.timeOrigin).
          worker.postMessage({ start: job });
          mine.relay = channel;
          const stamp = () => performance.timeOrigin + performance.now();
          channel.onopen = () => worker.postMessage({ relay: { open: true } });
          channel.onmessage = (event) => worker.postMessage({ relay: { text: event.data, stamp: stamp() } });
          channel.onclose = () => worker.postMessage({ relay: { closed: true } });
        }
      });
      if (running !== mine) mine.pc.close();
    } catch (error) {
      if (running === mine) end('error', t('record.failed', { reason: error.message }));
    }
  };

  /** The worker's trace: saved, then shown as the current network by the import path. */
  const finished = async (mine, done) => {
    mine.worker.terminate();
    mine.pc?.close();
    html.dataset.recordedSnapshots = String(done.snapshots);
    countsLine.textContent = countsText(done.counts);
    const { channel, rate, seconds } = mine.settings;
    const date = new Date();
    const meta = {
      name: t('record.defaultName', { channel: t(`record.channel.${channel}.short`), rate, date: dateText(date, { dateStyle: 'short', timeStyle: 'short' }) }),
      date: date.toISOString(), channel, rate, seconds, counts: done.counts, partial: done.partial, reason: done.reason,
    };
    try {
      await db.save(meta, done.text);
    } catch (error) {
      showNotice(t('record.notSaved', { reason: error?.message ?? String(error) }), { sticky: true });
    }
    await refreshList();
    await ports.full();
    const file = new File([done.text], `recording-${channel}-${rate}Hz.json`, { type: 'application/json' });
    const shown = await ports.load(file);
    if (running !== mine) return; // cancelled meanwhile is still this recording: `end` below runs once
    const cut = done.reason?.[0] === 'cancelled' ? 'cancelled' : 'error';
    const state = !shown ? 'error' : done.partial ? cut : 'done';
    // Cut short: what arrived is shown all the same; the notice says why first (the import's summary after it).
    const notice = shown && done.partial ? `${t('record.partial', { reason: why(done.reason) })}\n${document.getElementById('notice')?.textContent ?? ''}` : null;
    end(state, notice);
  };

  const cancel = () => {
    if (!running) return;
    running.worker.postMessage({ cancel: true });
    cancelButton.hidden = true;
  };

  // The saved recordings: load (as an import), rename in place, delete.
  const list = $('#record-list');
  let rows = [];
  const render = () => {
    $('#record-empty').hidden = rows.length > 0;
    list.innerHTML = rows.map((r) => `
      <li data-id="${r.id}">
        <button type="button" class="record-load" title="${escape(t('record.load'))}">${escape(r.name)}</button>
        <span class="record-meta hint">${escape(dateText(new Date(r.date)))} · ${escape(t(`record.channel.${r.channel}.short`))} · ${r.rate} Hz · ${r.seconds} s · ${escape(countsText(r.counts))}${r.partial ? ` · ${escape(t('record.partialTag'))}` : ''}</span>
        <span class="record-actions"><button type="button" class="record-rename">${escape(t('record.rename'))}</button><button type="button" class="record-delete">${escape(t('record.delete'))}</button></span>
      </li>`).join('');
  };
  const refreshList = async () => {
    try {
      rows = await db.list();
    } catch (error) {
      rows = [];
      showNotice(t('record.storeFailed', { reason: error?.message ?? String(error) }));
    }
    render();
  };
  list.addEventListener('click', async (e) => {
    const item = e.target.closest('li[data-id]');
    if (!item) return;
    const id = Number(item.dataset.id);
    const row = rows.find((r) => r.id === id);
    if (!row) return;
    if (e.target.closest('.record-load')) {
      const text = await db.trace(id).catch(() => undefined);
      if (text === undefined) return showNotice(t('record.gone', { name: row.name }));
      await ports.full();
      await ports.load(new File([text], `${row.name}.json`, { type: 'application/json' }));
    } else if (e.target.closest('.record-delete')) {
      await db.remove(id);
      await refreshList();
    } else if (e.target.closest('.record-rename')) {
      const button = item.querySelector('.record-load');
      const input = document.createElement('input');
      input.type = 'text';
      input.className = 'record-name';
      input.value = row.name;
      input.maxLength = 120;
      input.setAttribute('aria-label', t('record.rename'));
      button.replaceWith(input);
      input.focus();
      input.select();
      let left = false;
      const leave = async (keep) => {
        if (left) return;
        left = true;
        const name = input.value.trim();
        if (keep && name && name !== row.name) await db.rename(id, name);
        await refreshList();
      };
      input.addEventListener('keydown', (k) => {
        if (k.key === 'Enter') leave(true);
        else if (k.key === 'Escape') leave(false);
      });
      input.addEventListener('blur', () => leave(true));
    }
  });

  startButton.addEventListener('click', () => start());
  cancelButton.addEventListener('click', cancel);
  onLangChange(() => {
    render();
    showProgress();
  });
  refreshList();

  /**
   * A link's `record`, `rate`, `seconds` and `autostart` (record-core.js `recordSettings`), once per link read
   * (`applyHash` makes a new extras object for each); what is wrong with them is said in the panel, under its
   * fields (the page's notice keeps the rest of the link's).
   */
  let applied = null;
  const apply = () => {
    const link = ports.extras() ?? {};
    if (link === applied) return;
    applied = link;
    const { settings, notices } = recordSettings(link);
    linkLine.textContent = notices.map((n) => t(n.key, { ...n.vars, key: n.vars.key ? t(`record.${n.vars.key}`) : undefined })).join('\n');
    linkLine.hidden = notices.length === 0;
    if (!settings || running) return;
    fields.channel.value = settings.channel;
    describeChannel();
    fields.rate.value = String(settings.rate);
    fields.seconds.value = String(settings.seconds);
    const details = root.querySelector('details');
    details.open = true;
    details.scrollIntoView({ block: 'nearest' });
    if (settings.autostart) start();
  };
  root.querySelector('details').open = document.querySelector('#trace-io details')?.open ?? true;
  apply();
  // After the page's own listener (boot.js, added before this one), which reads the new link into `extras`.
  window.addEventListener('hashchange', apply);
}
