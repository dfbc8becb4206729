import type { AnyStateMachine } from 'xstate';
import { escapeHtml as escape } from '../common/html';

/** What a drawing marks on the machine: the state a resource is in, and the states it went through, in order. */
export interface DiagramMarks {
  current?: string;
  path?: string[];
}

interface Edge {
  from: string;
  to: string;
  /** The events that take this edge, each with the guard it needs, if any. */
  labels: { event: string; guard: string | null }[];
}

const COLUMN = 420;
const ROW = 92;
const WIDTH = 150;
const HEIGHT = 36;
const PAD = 34;
const LINE = 12;
/** About the width of a character of the labels' 10 px font: enough to keep two labels apart. */
const CHARACTER = 5.6;

/**
 * Every state and transition of a machine as xstate resolved its definition (`machine.root`), so
 * the drawing cannot drift from the rules that decide each status (docs/cockpit.md). Columns are
 * the distance from the initial state; an edge carries every event (with its guard) that takes it.
 */
export function machineGraph(machine: AnyStateMachine): { states: string[]; initial: string; edges: Edge[] } {
  const nodes = Object.values(machine.root.states);
  const edges = new Map<string, Edge>();
  for (const node of nodes) {
    for (const [event, definitions] of node.transitions) {
      for (const definition of definitions) {
        for (const target of definition.target ?? [node]) {
          const key = `${node.key}>${target.key}`;
          const edge = edges.get(key) ?? { from: node.key, to: target.key, labels: [] };
          const guard = definition.guard
            ? typeof definition.guard === 'string'
              ? definition.guard
              : ((definition.guard as { type?: string }).type ?? 'guard')
            : null;
          edge.labels.push({ event, guard });
          edges.set(key, edge);
        }
      }
    }
  }
  return { states: nodes.map((node) => node.key), initial: machine.root.initial.target[0].key, edges: [...edges.values()] };
}

/** An SVG of the machine, the current state filled, the states and edges of the path drawn strong. */
export function drawMachine(machine: AnyStateMachine, { current, path = [] }: DiagramMarks = {}): string {
  const { states, initial, edges } = machineGraph(machine);
  const depth = new Map([[initial, 0]]);
  for (let queue = [initial]; queue.length > 0;) {
    const state = queue.shift()!;
    for (const edge of edges.filter(({ from, to }) => from === state && !depth.has(to))) {
      depth.set(edge.to, depth.get(state)! + 1);
      queue.push(edge.to);
    }
  }
  const deepest = Math.max(...depth.values());
  for (const state of states) if (!depth.has(state)) depth.set(state, deepest + 1);
  const rowOf = new Map<string, number>();
  const columns = new Map<number, number>();
  for (const state of states) {
    const column = depth.get(state)!;
    rowOf.set(state, columns.get(column) ?? 0);
    columns.set(column, (columns.get(column) ?? 0) + 1);
  }
  const at = (state: string) => ({ x: PAD + depth.get(state)! * COLUMN, y: PAD + rowOf.get(state)! * ROW });
  // The last column keeps room on its right for the edges within it and their labels.
  const width = PAD * 2 + (Math.max(...columns.keys()) + 1) * COLUMN + 120;
  const height = PAD * 2 + Math.max(...columns.values()) * ROW + 40;

  const visited = new Set(path);
  const taken = new Set(path.slice(1).map((state, index) => `${path[index]}>${state}`));
  const placed: Box[] = [];
  const drawnEdges = edges.map((edge) => {
    const from = at(edge.from);
    const to = at(edge.to);
    const strong = taken.has(`${edge.from}>${edge.to}`);
    let d: string;
    let label: { x: number; y: number; anchor?: 'start' };
    if (edge.from === edge.to) {
      d = `M${from.x + 30},${from.y} C${from.x + 30},${from.y - 40} ${from.x + WIDTH - 30},${from.y - 40} ${from.x + WIDTH - 30},${from.y}`;
      label = { x: from.x + WIDTH / 2, y: from.y - 34 - LINE * edge.labels.length };
    } else if (depth.get(edge.to)! > depth.get(edge.from)!) {
      const [x1, y1, x2, y2] = [from.x + WIDTH, from.y + HEIGHT / 2, to.x, to.y + HEIGHT / 2];
      d = `M${x1},${y1} C${x1 + 60},${y1} ${x2 - 60},${y2} ${x2},${y2}`;
      label = { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4 - LINE * (edge.labels.length - 1) };
    } else if (depth.get(edge.to) === depth.get(edge.from)) {
      // Within a column: around its right side, further out the more rows it spans.
      const [x, y1, y2] = [from.x + WIDTH, from.y + HEIGHT / 2, to.y + HEIGHT / 2];
      const out = x + 30 + 18 * Math.abs(rowOf.get(edge.to)! - rowOf.get(edge.from)!);
      d = `M${x},${y1} C${out},${y1} ${out},${y2} ${x},${y2}`;
      label = { x: out + 4, y: (y1 + y2) / 2 - LINE * (edge.labels.length - 1), anchor: 'start' };
    } else {
      // Back to an earlier column: around below.
      const [x1, y1, x2, y2] = [from.x + WIDTH / 2 + 10, from.y + HEIGHT, to.x + WIDTH / 2 - 10, to.y + HEIGHT];
      const below = Math.max(y1, y2) + 46;
      d = `M${x1},${y1} C${x1},${below} ${x2},${below} ${x2},${y2}`;
      label = { x: (x1 + x2) / 2, y: below - 8 };
    }
    label.y = freeRow(
      placed,
      label,
      edge.labels.map(({ event, guard }) => `${event}${guard ? ` [${guard}]` : ''}`),
    );
    const labels = edge.labels
      .map(
        ({ event, guard }, index) =>
          `<text x="${label.x}" y="${label.y + index * LINE}" text-anchor="${label.anchor ?? 'middle'}" data-from="${escape(edge.from)}" data-event="${escape(event)}" data-to="${escape(edge.to)}">${escape(event)}${guard ? ` [${escape(guard)}]` : ''}</text>`,
      )
      .join('');
    const stroke = strong ? 'stroke="#0b6bcb" stroke-width="2.5"' : 'stroke="#8a97a6" stroke-width="1.2"';
    return `<g class="transition${strong ? ' taken' : ''}"><path d="${d}" fill="none" ${stroke} marker-end="url(#arrow${strong ? '-taken' : ''})"/>${labels}</g>`;
  });
  const drawnStates = states.map((state) => {
    const { x, y } = at(state);
    const fill = state === current ? '#0b6bcb' : visited.has(state) ? '#dbeafe' : '#ffffff';
    const stroke = visited.has(state) || state === current ? '#0b6bcb' : '#52606d';
    const final =
      machine.root.states[state].type === 'final'
        ? `<rect x="${x + 3}" y="${y + 3}" width="${WIDTH - 6}" height="${HEIGHT - 6}" rx="6" fill="none" stroke="${stroke}"/>`
        : '';
    return (
      `<g class="state${state === current ? ' current' : ''}${visited.has(state) ? ' visited' : ''}" data-state="${escape(state)}"${state === current ? ' data-current="true"' : ''}>` +
      `<rect x="${x}" y="${y}" width="${WIDTH}" height="${HEIGHT}" rx="8" fill="${fill}" stroke="${stroke}" stroke-width="1.5"/>${final}` +
      `<text x="${x + WIDTH / 2}" y="${y + HEIGHT / 2 + 4}" text-anchor="middle" font-size="13" fill="${state === current ? '#ffffff' : '#1c2733'}">${escape(state)}</text></g>`
    );
  });
  // The picture reaches as far as its labels do: a self-loop's label sits above its state's row.
  const top = Math.min(0, ...placed.map((box) => box.top - 4));
  const bottom = Math.max(height, ...placed.map((box) => box.bottom + 4));
  const arrow = (id: string, color: string) =>
    `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${color}"/></marker>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="machine" data-machine="${escape(machine.id)}" viewBox="0 ${top} ${width} ${bottom - top}" width="${width}" height="${bottom - top}" font-family="system-ui, sans-serif" font-size="10" role="img" aria-label="${escape(machine.id)} state machine">` +
    `<defs>${arrow('arrow', '#8a97a6')}${arrow('arrow-taken', '#0b6bcb')}</defs>${drawnEdges.join('')}${drawnStates.join('')}</svg>`
  );
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * The baseline for a label's lines, at or below the one asked for, where they overlap no label
 * placed before them (edges of neighbouring states meet at the same midpoints); their boxes are
 * then placed too.
 */
function freeRow(placed: Box[], { x, y, anchor }: { x: number; y: number; anchor?: 'start' }, lines: string[]): number {
  const boxesAt = (baseline: number): Box[] =>
    lines.map((line, index) => {
      const width = line.length * CHARACTER;
      const left = anchor === 'start' ? x : x - width / 2;
      return { left, right: left + width, top: baseline + index * LINE - LINE + 2, bottom: baseline + index * LINE + 2 };
    });
  const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  let baseline = y;
  while (boxesAt(baseline).some((box) => placed.some((other) => overlaps(box, other)))) baseline += LINE;
  placed.push(...boxesAt(baseline));
  return baseline;
}
