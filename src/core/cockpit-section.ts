import type { AnyStateMachine } from 'xstate';
import type { World } from '../world/world';

/**
 * What a service shows in the cockpit (docs/cockpit.md): its section of the overview, the pages of
 * its resources and their forms. The cockpit lays them out and says who is signed in; the section
 * reads and acts through its own service, for that client only.
 */
export interface CockpitSection {
  /** Its pages' path under /cockpit, and the id of its overview section. */
  readonly path: string;
  /** Its section of the overview: what `world` may see, filtered by the overview's `query`. */
  overview(world: World, query: Record<string, unknown>): Promise<string>;
  /** The page of one of its resources, /cockpit/<path>/<id>; a DomainError where `world` has none of that ID. */
  page?(id: string, world: World): Promise<CockpitPage>;
  /** A form's action on one of its resources (POST /cockpit/<path>/<id>/<action>): what came of it; undefined for an action it does not have. */
  act?(id: string, action: string, form: Record<string, unknown>, world: World): Promise<string | undefined>;
}

export interface CockpitPage {
  title: string;
  /** Its own sections (data, lists), as HTML. */
  sections: string[];
  /** A resource with a status: the cockpit draws its machine with the path it took and `actions` before the sections, its authorisations and its timeline after them. */
  resource?: { machine: AnyStateMachine; status: string; actions: string };
}
