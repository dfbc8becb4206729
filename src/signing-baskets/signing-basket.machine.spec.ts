import { drawsWhole } from '../../test/support/machine-diagrams';
import { basketMachine } from './signing-basket.machine';

describe("the signing basket's machine diagram", () => {
  drawsWhole([['signing basket', basketMachine]]);
});
