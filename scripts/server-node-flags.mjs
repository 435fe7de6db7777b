// Node flags the Reelstat server runs with (`npm start` passes the same on its command line: package.json).
//
// Why a heap cap: V8 lets the old generation grow to up to 4× the live heap between full collections when the
// cap is its default (4 GB on machines with more than 16 GB of memory). The activity monitor parses a few MB
// of /Sessions every second, so that slack was most of the process's memory (285 MB peak at 500 sessions).
// With a 1 GB cap V8 grows the heap by a smaller factor: the same run peaks at about 200 MB for the same CPU.
// 1 GB is about four times the largest heap any workload was measured to need (a full sync of 270k items).
// An operator can pass another value (NODE_OPTIONS in a container, or `node --max-old-space-size=N`).
export const SERVER_NODE_FLAGS = ['--max-old-space-size=1024'];
