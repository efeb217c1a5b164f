// The marks drawn over the lanes and the views only on request — the step-through's event (lanes-highlight.js,
// views-highlight.js) and the packet inspector's chain (lanes-inspect.js, inspector.js), with their shared style
// (highlight-kit.js) — are not part of the first frame's download: nothing is highlighted or
// inspected before it. The painters call them through `marks`, empty until `loadLater()` has fetched them
// (later.js, with the inspector and the league table): the boot asks right after the first frame, the
// step-through before it opens (teach.js `loadStepper`). A painter finds an entry missing only before then,
// when there is nothing to mark.
export const marks = { lane: null, server: null, remote: null, inspected: null, mountInspector: null };

let loading = null;

/** Fetches later.js (once) and fills `marks`; resolves to the module. */
export function loadLater() {
  loading ??= import('./later.js').then((later) => {
    Object.assign(marks, later.MARKS);
    return later;
  });
  return loading;
}
