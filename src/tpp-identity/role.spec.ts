import { roleFor } from './tpp-identity.guard';

describe('roleFor: the PSD2 role each route needs (ETSI TS 119 495)', () => {
  it.each([
    ['/v1/consents', 'PSP_AI'],
    ['/v1/consents/e6151d43-dca8-4fe1-b139-3a89bfeb57a2/authorisations', 'PSP_AI'],
    ['/v1/accounts/AT099900000000001511/transactions', 'PSP_AI'],
    ['/v1/trusted-beneficiaries', 'PSP_AI'],
    ['/v1/card-accounts/card-georg-visa/transactions', 'PSP_AI'],
    ['/v1/funds-confirmations', 'PSP_IC'],
    ['/v2/consents/confirmation-of-funds/e6151d43-dca8-4fe1-b139-3a89bfeb57a2/status', 'PSP_IC'],
    ['/v1/payments/sepa-credit-transfers', 'PSP_PI'],
    ['/v1/signing-baskets/x/authorisations', 'PSP_PI'],
    ['/v1/payee-verifications', 'PSP_PI'],
    ['/v1/consentsx', 'PSP_PI'],
  ])('%s needs %s', (path, role) => {
    expect(roleFor(path)).toBe(role);
  });
});
