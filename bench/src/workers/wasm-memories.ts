// Counts the WebAssembly memories made in this worker, for the memory bench (src/node/memory.ts).
// SQLite's linear memory (sqlite3.mjs makes it with `new WebAssembly.Memory`, 16 MiB at first, and
// grows it; it never shrinks) is memory Chromium leaves out of a worker's figures: neither CDP's
// Runtime.getHeapUsage nor performance.measureUserAgentSpecificMemory counts a WebAssembly.Memory
// (a 50 MB one added 22 KB to either in Chromium 156). The bench reads the sum below through CDP.
// Imported first by the bench's DB worker; the constructor stays the same one to SQLite
// (a Proxy: same prototype, same instanceof), and what it keeps is weak.

const made: WeakRef<WebAssembly.Memory>[] = [];

WebAssembly.Memory = new Proxy(WebAssembly.Memory, {
  construct(target, args: [WebAssembly.MemoryDescriptor], newTarget) {
    const memory = Reflect.construct(target, args, newTarget) as WebAssembly.Memory;
    made.push(new WeakRef(memory));
    return memory;
  },
});

/** Bytes of every WebAssembly memory of this worker still alive: what `memory.buffer` spans now. */
(globalThis as { __benchWasmMemoryBytes?: () => number }).__benchWasmMemoryBytes = () =>
  made.reduce((sum, ref) => sum + (ref.deref()?.buffer.byteLength ?? 0), 0);
