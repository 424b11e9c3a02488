/**
 * One signal per call that aborts when the caller's signal does or when `ms` have passed.
 * Created when the call starts, not when the client is created (openapi-fetch #2567: a
 * client-level `AbortSignal.timeout` would already have fired for later calls).
 *
 * Built from a plain AbortController on purpose: Node's fetch (undici) links signals
 * through weak references, and `AbortSignal.timeout` / `AbortSignal.any` can be garbage
 * collected mid-call, after which the timeout silently never fires. Here the timer and
 * the caller's signal hold the controller strongly.
 */
export function deadline(caller: AbortSignal, ms: number): AbortSignal {
  const controller = new AbortController();
  if (caller.aborted) {
    controller.abort(caller.reason);
    return controller.signal;
  }
  const onAbort = () => controller.abort(caller.reason);
  caller.addEventListener('abort', onAbort, { once: true });
  if (ms !== Infinity) {
    const timer = setTimeout(() => {
      caller.removeEventListener('abort', onAbort);
      controller.abort(new DOMException(`no response within ${ms} ms`, 'TimeoutError'));
    }, ms);
    // Never keep a process alive for a call that has long finished.
    (timer as { unref?: () => void }).unref?.();
  }
  return controller.signal;
}
