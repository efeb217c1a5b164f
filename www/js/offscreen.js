// Which painters are on screen, so a slider drag draws only what the reader can see (issue 14: every drag at
// 60 fps). During a drag (changes less than DRAG_GAP apart, main.js) a painter whose section is off screen is
// skipped and marked stale; it is drawn again as soon as it comes near the viewport, and every stale painter is
// drawn once the drag pauses. Outside a drag everything is drawn as before (a seek, a step, a lone change, tests).

/** Margin around the viewport that counts as on screen: a section scrolled in is drawn before it shows. */
const MARGIN = '200px 0px';

/**
 * Watches `element` for `painter` (sets `painter.onScreen`); `shown(painter)` is called when it comes near the
 * viewport while stale. Without IntersectionObserver every painter counts as on screen.
 */
export function watchPainter(painter, element, shown) {
  painter.onScreen = true;
  painter.stale = false;
  if (!element || !('IntersectionObserver' in window)) return;
  new IntersectionObserver((entries) => {
    const was = painter.onScreen;
    painter.onScreen = entries.some((e) => e.isIntersecting);
    if (painter.onScreen && !was && painter.stale) shown(painter);
  }, { rootMargin: MARGIN }).observe(element);
}
