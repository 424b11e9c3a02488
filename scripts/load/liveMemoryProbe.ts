// Loaded into the server process of a load run (`node --expose-gc --import` this file):
// asked by the parent over IPC, it collects garbage fully and reports the memory still in
// use. Live memory after a full collection is what a leak grows. RSS, or heap used between
// collections, follows V8's heap sizing instead: a short run can end with either far above
// its warm-up level with nothing leaking.
const collectGarbage = (globalThis as { gc?: () => void }).gc;

if (process.send && collectGarbage) {
  process.on('message', (message) => {
    if (message !== 'measure-live-memory') return;
    // Twice: the first collection can leave objects that finalizers of the first freed.
    collectGarbage();
    collectGarbage();
    const { heapUsed, external, rss } = process.memoryUsage();
    process.send!({ liveMemory: { heapUsed, external, rss } });
  });
}
