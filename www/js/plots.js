// Plots: extrapolation curves, correction-offset decay, the render-delay trade-off, the clock. (First version.)
export function mount() {
  return { draw() {} };
}
