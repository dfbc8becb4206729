import type { MessageList } from '../http/berlin-group-answers';

/**
 * The 1.3.16 yaml names the error list of its Verification of Party operations `apiClientMessages`
 * (its error_NG_*_VOP bodies), not `tppMessages`: the dedicated and bulk checks and the payer's
 * confirmation of the payee (docs/verification-of-payee.md, docs/conformance.md).
 */
export const VOP_MESSAGE_LIST: MessageList = {
  name: 'apiClientMessages',
  // As Express routes: in any case, with one trailing slash.
  paths: /^\/v1\/(bulk-)?payee-verifications(\/|$)|^\/v1\/[^/]+\/[^/]+\/[^/]+\/creditor-confirmation\/?$/i,
};
