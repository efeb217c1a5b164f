// Disturbances that reproduce real bugs at the playhead: a stalled tab (1 fps for a second) and a ±100 ms
// jump of the client's clock. They are part of the run's parameters (and of the URL: `stall=`, `kick=`).
import { t } from './i18n.js';

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
  make('event-clear', 'button.clearEvents', () => set({ stallAt: null, kickAt: null }));
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
      status.textContent = parts.length ? parts.join(' · ') : t('events.none');
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
    else notices.push(t('notice.badStall', { value: extras.stall }));
  }
  if (extras.kick !== undefined) {
    const [at, s] = String(extras.kick).split(':').map(Number);
    if (Number.isFinite(at) && at >= 0 && at <= 120 && Number.isFinite(s) && Math.abs(s) <= 1) {
      out.kickAt = at;
      out.kick = s;
    } else notices.push(t('notice.badKick', { value: extras.kick }));
  }
  return out;
}

export function eventsToExtras(events) {
  return {
    stall: events.stallAt ?? undefined,
    kick: events.kickAt != null ? `${events.kickAt}:${events.kick}` : undefined,
  };
}
