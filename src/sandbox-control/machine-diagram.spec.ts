import { authorisationMachine } from '../authorisation/authorisation.machine';
import { consentMachine } from '../consent/consent.machine';
import { paymentMachine } from '../payment-initiation/payment.machine';
import { drawMachine } from './machine-diagram';
import { drawsWhole } from '../../test/support/machine-diagrams';

describe('machine diagrams', () => {
  drawsWhole([
    ['consent', consentMachine],
    ['payment', paymentMachine],
    ['authorisation', authorisationMachine],
  ]);

  it('fills the current state, and draws the states and edges of the path strong', () => {
    const svg = drawMachine(paymentMachine, { current: 'ACSP', path: ['RCVD', 'PDNG', 'ACSP'] });
    expect(svg).toContain('<g class="state current visited" data-state="ACSP" data-current="true">');
    expect(svg).toContain('<g class="state visited" data-state="RCVD">');
    expect(svg).toContain('<g class="state" data-state="RJCT">');
    expect(svg.match(/class="transition taken"/g)).toHaveLength(2);
    expect(svg).toMatch(
      /<g class="transition taken"><path [^>]+\/><text [^>]+data-from="PDNG" data-event="EXECUTE" data-to="ACSP">EXECUTE \[isDue\]<\/text><\/g>/,
    );
  });
});
