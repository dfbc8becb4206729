/**
 * A flame graph, as an SVG, of a V8 CPU profile (`node --cpu-prof`) over a window of its time: what
 * `BENCH_PART=flame npm run bench` draws for docs/benchmark.md ("Flame graphs"). A frame's width is
 * its time with its callees, a request's share of it (the window's samples over the requests
 * answered in it); its colour is its package's. The event loop's idle time is left out: the graph is
 * the main thread busy.
 */

/** What of a CPU profile is read: the call tree, and the node each sample hit with the µs since the sample before. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The samples drawn: those taken from `from` to `to` (µs of the profile's clock: CLOCK_MONOTONIC, as `process.hrtime` reads it). */
export interface FlameWindow {
  title: string;
  from: number;
  to: number;
  requests: number;
}

export interface FlameGraph {
  svg: string;
  /** The main thread busy, µs a request. */
  busy: number;
  /** Self time by package, µs a request, the largest first. */
  byPackage: [string, number][];
}

interface Frame {
  name: string;
  where: string;
  group: string;
  self: number;
  total: number;
  children: Map<string, Frame>;
}

const WIDTH = 1200;
const ROW = 16;
const HEAD = 56;
const CHAR = 6.6;

/** Draws `window` of `profile`. */
export function flameGraph(profile: CpuProfile, window: FlameWindow): FlameGraph {
  const root = frameTree(profile);
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    time += profile.timeDeltas[index];
    // A sample stands for the time until the next one.
    const weight = profile.timeDeltas[index + 1] ?? 0;
    const frame = root.byNode.get(id);
    if (frame && time >= window.from && time <= window.to) frame.self += weight / window.requests;
  });
  const busy = totals(root.frame);
  const byPackage = new Map<string, number>();
  // Laid out from the bottom; a frame narrower than a pixel is left out, with its callees.
  const scale = WIDTH / busy;
  const drawn: { frame: Frame; x: number; level: number }[] = [];
  const layOut = (frames: Iterable<Frame>, x: number, level: number) => {
    for (const frame of [...frames].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (frame.total * scale >= 1) {
        drawn.push({ frame, x, level });
        layOut(frame.children.values(), x, level + 1);
      }
      x += frame.total * scale;
    }
  };
  layOut(root.frame.children.values(), 0, 1);
  const sumSelf = (frame: Frame) => {
    byPackage.set(frame.group, (byPackage.get(frame.group) ?? 0) + frame.self);
    frame.children.forEach(sumSelf);
  };
  root.frame.children.forEach(sumSelf);
  const height = HEAD + Math.max(...drawn.map(({ level }) => level)) * ROW + 8;
  const rects = drawn.map(({ frame, x, level }) => {
    const width = frame.total * scale;
    const label = `${frame.name} (${frame.where}): ${frame.total.toFixed(1)} µs a request, ${((frame.total / busy) * 100).toFixed(1)} %`;
    const fits = Math.floor((width - 4) / CHAR);
    const text = fits >= 3 ? (frame.name.length <= fits ? frame.name : `${frame.name.slice(0, fits - 2)}..`) : '';
    const y = height - 8 - level * ROW;
    return (
      `<g><title>${escape(label)}</title><rect x="${x.toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="${ROW - 1}" fill="${colour(frame.group)}"/>` +
      (text ? `<text x="${(x + 2).toFixed(1)}" y="${y + 11}">${escape(text)}</text>` : '') +
      '</g>'
    );
  });
  const packages = [...byPackage].filter(([, self]) => self > 0).sort((a, b) => b[1] - a[1]);
  const legend = packages
    .slice(0, 9)
    .map(([group, self], index) => {
      const left = 10 + index * 132;
      return `<rect x="${left}" y="30" width="10" height="10" fill="${colour(group)}"/><text x="${left + 14}" y="39">${escape(`${group} ${self.toFixed(0)} µs`)}</text>`;
    })
    .join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="monospace" font-size="11">` +
    `<rect width="100%" height="100%" fill="#fdfdf6"/>` +
    `<text x="10" y="18" font-size="13">${escape(`${window.title}: the main thread busy ${busy.toFixed(0)} µs a request (profiler included)`)}</text>` +
    legend +
    `\n${rects.join('\n')}\n</svg>\n`;
  return { svg, busy, byPackage: packages };
}

/** The profile's call tree with a frame's calls to one function merged (V8 keeps one node a version of its code), `(idle)` left out. */
function frameTree(profile: CpuProfile): { frame: Frame; byNode: Map<number, Frame> } {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byNode = new Map<number, Frame>();
  const top: Frame = { name: 'all', where: '', group: '', self: 0, total: 0, children: new Map() };
  const walk = (id: number, parent: Frame) => {
    const { callFrame, children = [] } = nodes.get(id)!;
    if (callFrame.functionName === '(idle)') return;
    const key = `${callFrame.functionName} ${callFrame.url} ${callFrame.lineNumber} ${callFrame.columnNumber}`;
    let frame = parent.children.get(key);
    if (!frame) {
      const { group, where } = placeOf(callFrame.url, callFrame.lineNumber);
      frame = {
        name: callFrame.functionName || '(anonymous)',
        where,
        group: callFrame.functionName === '(garbage collector)' ? 'GC' : group,
        self: 0,
        total: 0,
        children: new Map(),
      };
      parent.children.set(key, frame);
    }
    byNode.set(id, frame);
    for (const child of children) walk(child, frame);
  };
  // The profile's first node is its (root): its children are the frames at the bottom.
  for (const child of profile.nodes[0].children ?? []) walk(child, top);
  return { frame: top, byNode };
}

function totals(frame: Frame): number {
  frame.total = frame.self + [...frame.children.values()].reduce((sum, child) => sum + totals(child), 0);
  return frame.total;
}

/** A frame's package and its file within it: never the machine's own folders. */
function placeOf(url: string, line: number): { group: string; where: string } {
  if (url === '') return { group: 'V8', where: 'native' };
  if (url.startsWith('node:')) return { group: 'Node', where: `${url}:${line + 1}` };
  const inModules = url.lastIndexOf('/node_modules/');
  if (inModules >= 0) {
    const path = url.slice(inModules + '/node_modules/'.length);
    const parts = path.split('/');
    return { group: parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0], where: `${path}:${line + 1}` };
  }
  const inBuild = url.lastIndexOf('/dist/');
  return { group: 'the app', where: `${inBuild >= 0 ? url.slice(inBuild + '/dist/'.length) : url.split('/').pop()}:${line + 1}` };
}

const FIXED: Record<string, string> = { 'the app': '#6fa8dc', Node: '#93c47d', GC: '#ffd966', V8: '#cccccc' };

/** One colour a package, the same in every graph: warm hues for the dependencies. */
function colour(group: string): string {
  if (FIXED[group]) return FIXED[group];
  let hash = 0;
  for (const char of group) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 50}, ${60 + (hash % 30)}%, ${62 + (hash % 12)}%)`;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
