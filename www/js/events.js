// Disturbances that reproduce real bugs at the playhead: a stalled tab (1 fps for a second), a ±100 ms jump of
// the client's clock, and a step of the remote view's network — +100 ms of RTT without jitter, or +25 ms of
// jitter without an RTT change (seed 004 §4.1–4.2; the adaptive-delay lesson runs both). They are part of the
// run's parameters (and of the URL: `stall=`, `kick=`, `net=T:latency:jitter`).
import { t } from './strings/i18n.js';
import { quoted } from './params.js';

export function buildEvents(root, api) {
  const box = document.createElement('details');
  box.className = 'group';
  box.open = true;
  box.dataset.group = 'events';
  box.innerHTML = `<summary data-i18n="group.events">${t('group.events')}</summary>`;
  const row = document.createElement('div');
  row.className = 'row';
  const make = (id, i18n, fn) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.id = id;
    b.textContent = t(i18n);
    b.dataset.i18n = i18n;
    b.addEventListener('click', fn);
    row.append(b);
    return b;
  };
  let current = null;
  const set = (patch) => api.apply({ ...current, ...patch });
  make('event-stall', 'button.stall', () => set({ stallAt: round(api.playhead()), stallDuration: 1, stallFps: 1 }));
  make('event-kick-plus', 'button.kickPlus', () => set({ kickAt: round(api.playhead()), kick: 0.1 }));
  make('event-kick-minus', 'button.kickMinus', () => set({ kickAt: round(api.playhead()), kick: -0.1 }));
  make('event-rtt-step', 'button.rttStep', () => set({ linkStepAt: round(api.playhead()), linkStepLatency: 0.05, linkStepJitter: 0 }));
  make('event-jitter-step', 'button.jitterStep', () => set({ linkStepAt: round(api.playhead()), linkStepLatency: 0, linkStepJitter: 0.025 }));
  make('event-clear', 'button.clearEvents', () => set({ stallAt: null, kickAt: null, linkStepAt: null }));
  const status = document.createElement('p');
  status.className = 'hint';
  status.id = 'events-status';
  box.append(row, status);
  root.append(box);
  return {
    sync(events) {
      current = events;
      const parts = [];
      if (events.stallAt != null) parts.push(t('events.stall', { at: events.stallAt.toFixed(2), duration: events.stallDuration, fps: events.stallFps }));
      if (events.kickAt != null) parts.push(t('events.kick', { amount: `${events.kick > 0 ? '+' : ''}${Math.round(events.kick * 1000)}`, at: events.kickAt.toFixed(2) }));
      if (events.linkStepAt != null) {
        const signed = (s) => `${s >= 0 ? '+' : '−'}${Math.round(Math.abs(s) * 1000)}`;
        parts.push(t('events.linkStep', { at: events.linkStepAt.toFixed(2), rtt: signed(2 * events.linkStepLatency), jitter: signed(events.linkStepJitter) }));
      }
      // Only a different sentence is written: this runs on every change of a drag, and a text node replaced by the
      // same words still lays the rail out again.
      const text = parts.length ? parts.join(' · ') : t('events.none');
      if (status.textContent !== text) status.textContent = text;
    },
  };
}

const round = (t) => Math.round(t * 100) / 100;

/** Reads `stall=T` and `kick=T:S` from the URL extras into `events` (bad values are ignored with a notice). */
export function eventsFromExtras(extras, events, notices) {
  const out = { ...events };
  if (extras.stall !== undefined) {
    const at = Number(extras.stall);
    if (Number.isFinite(at) && at >= 0 && at <= 120) out.stallAt = at;
    else notices.push(t('notice.badStall', { value: quoted(extras.stall) }));
  }
  if (extras.kick !== undefined) {
    const [at, s] = String(extras.kick).split(':').map(Number);
    if (Number.isFinite(at) && at >= 0 && at <= 120 && Number.isFinite(s) && Math.abs(s) <= 1) {
      out.kickAt = at;
      out.kick = s;
    } else notices.push(t('notice.badKick', { value: quoted(extras.kick) }));
  }
  if (extras.net !== undefined) {
    const [at, latency, jitter] = String(extras.net).split(':').map(Number);
    if ([at, latency, jitter].every(Number.isFinite) && at >= 0 && at <= 120 && Math.abs(latency) <= 2 && Math.abs(jitter) <= 1) {
      Object.assign(out, { linkStepAt: at, linkStepLatency: latency, linkStepJitter: jitter });
    } else notices.push(t('notice.badNet', { value: extras.net }));
  }
  return out;
}

export function eventsToExtras(events) {
  return {
    stall: events.stallAt ?? undefined,
    kick: events.kickAt != null ? `${events.kickAt}:${events.kick}` : undefined,
    net: events.linkStepAt != null ? `${events.linkStepAt}:${events.linkStepLatency}:${events.linkStepJitter}` : undefined,
  };
}
