// Which painters are on screen, so that a slider drag draws only what the reader can see: the frame scheduler
// (scheduler.js) skips a painter whose section is off screen during a drag and marks it stale; it is drawn again as
// soon as it comes near the viewport, and every stale painter once the drag pauses. Outside a drag everything is
// drawn (a seek, a step, a lone change, tests).
// Two questions, two observers: `visible` (any pixel of the section in the viewport) decides what a drag skips —
// a section just above the viewport is not seen, however close (the slider for the render delay sits with the
// views 100–400 px above the screen); `onScreen` (within MARGIN) decides what is drawn ahead, as it scrolls in.

/** Margin around the viewport that counts as on screen: a section scrolled in is drawn before it shows. */
const MARGIN = '200px 0px';

/**
 * Watches `element` for `painter` (sets `painter.onScreen` and `painter.visible`); `shown(painter)` is called when
 * it comes near the viewport while stale. Without IntersectionObserver every painter counts as on screen.
 * A painter not drawn yet (`deferred`: a figure below the fold at load, boot.js) starts off screen until the
 * observers' first report, and is `shown` as soon as it is near, like a stale one.
 */
export function watchPainter(painter, element, shown) {
  const observed = Boolean(element) && 'IntersectionObserver' in window;
  if (!painter.deferred || !observed) {
    painter.onScreen = true;
    painter.visible = true;
    painter.stale = false;
  }
  if (!observed) return;
  const watch = (field, rootMargin) => new IntersectionObserver((entries) => {
    const was = painter[field];
    painter[field] = entries.some((e) => e.isIntersecting);
    if (painter[field] && !was && (painter.stale || painter.deferred)) shown(painter);
  }, { rootMargin }).observe(element);
  watch('onScreen', MARGIN);
  watch('visible', '0px');
}
