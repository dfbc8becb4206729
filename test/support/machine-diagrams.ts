import type { AnyStateMachine } from 'xstate';
import { drawMachine } from '../../src/sandbox-control/machine-diagram';

type Target = string | { target?: string } | undefined;

/** Each state and each (state, event, target) as the machine's own definition (its config) writes them, read apart from how the drawing reads them. */
function written(machine: AnyStateMachine): { states: string[]; transitions: [string, string, string][] } {
  const states = machine.config.states as Record<string, { on?: Record<string, Target | readonly Target[]> }>;
  const transitions = Object.entries(states).flatMap(([state, { on = {} }]) =>
    Object.entries(on).flatMap(([event, targets]) =>
      (Array.isArray(targets) ? targets : [targets]).map((target: Target): [string, string, string] => [
        state,
        event,
        typeof target === 'string' ? target : (target?.target ?? state),
      ]),
    ),
  );
  return { states: Object.keys(states), transitions };
}

/**
 * What the cockpit's drawing of each machine must be (sandbox-control/machine-diagram.ts): every state
 * and transition its definition writes, no label over another or outside the picture. The core's
 * machines are checked beside the drawing, a service's beside its machine.
 */
export function drawsWhole(machines: [string, AnyStateMachine][]): void {
  it.each(machines)('the %s machine: every state and every transition of its definition is drawn', (_, machine: AnyStateMachine) => {
    const svg = drawMachine(machine);
    const { states, transitions } = written(machine);
    expect(states.length).toBeGreaterThan(3);
    for (const state of states) expect(svg).toContain(`data-state="${state}"`);
    for (const [from, event, to] of transitions) expect(svg).toContain(`data-from="${from}" data-event="${event}" data-to="${to}"`);
    // Nothing drawn that the definition does not have.
    expect(svg.match(/data-state="/g)).toHaveLength(states.length);
    expect(svg.match(/data-event="/g)).toHaveLength(transitions.length);
  });

  it.each(machines)('the %s machine: no two labels of its edges overlap, and none leaves the picture', (_, machine: AnyStateMachine) => {
    // Each label line's box, as wide as its characters at about 5.6 px each, one line (12 px) high.
    const boxes = [
      ...drawMachine(machine).matchAll(
        /<text x="(-?[\d.]+)" y="(-?[\d.]+)" text-anchor="(middle|start)" data-from="[^"]*" data-event="[^"]*" data-to="[^"]*">([^<]*)<\/text>/g,
      ),
    ].map(([, x, y, anchor, text]) => {
      const width = text.length * 5.6;
      const left = anchor === 'start' ? Number(x) : Number(x) - width / 2;
      return { text, left, right: left + width, top: Number(y) - 10, bottom: Number(y) + 2 };
    });
    expect(boxes.length).toBe(written(machine).transitions.length);
    const overlapping = boxes.flatMap((a, index) =>
      boxes
        .slice(index + 1)
        .filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
        .map((b) => `${a.text} / ${b.text}`),
    );
    expect(overlapping).toEqual([]);
    // And every label inside the picture.
    const [, top, width, height] = /viewBox="0 (-?[\d.]+) ([\d.]+) ([\d.]+)"/.exec(drawMachine(machine))!.map(Number);
    for (const box of boxes)
      expect([box.text, box.left >= 0 && box.right <= width && box.top >= top && box.bottom <= top + height]).toEqual([box.text, true]);
  });
}
