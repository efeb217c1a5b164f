// Lerp chase versus timed path playback on the same batches. (First version.)
export function mount() {
  return { draw() {} };
}
