import { CpuProfile, flameGraph } from '../bench/flame-graph';

/** A profile as node --cpu-prof writes it: (root) → (idle), (garbage collector), and the app's handler calling into a dependency. */
const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0 });
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3, 4] },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('(garbage collector)') },
    { id: 4, callFrame: frame('handle', 'file:///home/someone/sandbox/dist/src/http/<guard>.js', 9), children: [5, 6] },
    // Two nodes of one function (two versions of its code): one frame.
    { id: 5, callFrame: frame('send', 'file:///home/someone/sandbox/node_modules/@nestjs/core/router.js', 41) },
    { id: 6, callFrame: frame('send', 'file:///home/someone/sandbox/node_modules/@nestjs/core/router.js', 41) },
  ],
  startTime: 1_000,
  // At 1,010 µs (before the window), then every 10 µs from 1,020 to 1,090, and one after the window.
  samples: [4, 2, 3, 4, 5, 6, 5, 2, 4, 5],
  timeDeltas: [10, 10, 10, 10, 10, 10, 10, 10, 10, 100],
};

describe('flameGraph', () => {
  const graph = flameGraph(PROFILE, { title: 'GET <list>', from: 1_020, to: 1_090, requests: 2 });

  it("counts a window's samples, each for the time until the next, over its requests; idle time is not the thread's", () => {
    // In the window: (idle) twice, GC once, send three times, handle twice (the last for 100 µs, the gap to the next sample).
    expect(graph.busy).toBe((10 + 3 * 10 + 10 + 100) / 2);
    expect(graph.byPackage).toEqual([
      ['the app', 55],
      ['@nestjs/core', 15],
      ['GC', 5],
    ]);
  });

  it("draws each function once, with its callees on top, and names no folder of the machine's", () => {
    expect(graph.svg.match(/<title>[^<]*<\/title>/g)).toEqual([
      '<title>(garbage collector) (native): 5.0 µs a request, 6.7 %</title>',
      '<title>handle (src/http/&lt;guard&gt;.js:10): 70.0 µs a request, 93.3 %</title>',
      '<title>send (@nestjs/core/router.js:42): 15.0 µs a request, 20.0 %</title>',
    ]);
    expect(graph.svg).toContain('GET &lt;list&gt;: the main thread busy 75 µs a request');
    expect(graph.svg).toContain('the app 55 µs');
    expect(graph.svg).not.toContain('someone');
    // (garbage collector) at the bottom left, handle beside it, send on top of handle.
    expect(
      [...graph.svg.matchAll(/<rect x="([\d.]+)" y="(\d+)" width="([\d.]+)" height="15"/g)].map((match) => match.slice(1).map(Number)),
    ).toEqual([
      [0, 72, 80],
      [80, 72, 1120],
      [80, 56, 240],
    ]);
  });
});
