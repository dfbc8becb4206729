import type { BankProfile, Persona } from '../profile/bank-profile';

/** Every test PSU's TAN, whatever the method. */
export const STATIC_TAN = '123456';

/** A scenario's PSU: one SMS method, and the decoupled app waits for the page or the control API. */
const SCENARIO_PERSONA: Persona = {
  scaMethods: [{ authenticationType: 'SMS_OTP', authenticationMethodId: 'sms', name: 'SMS OTP on the phone of the scenario PSU' }],
  decoupledConfirmsAtPoll: null,
  blocked: false,
};

/** A fixture PSU's persona, from the profile's psus.json; a scenario's PSU has the scenario persona. */
export const personaOf = (profile: BankProfile, psuId: string): Persona => profile.personaOf(psuId) ?? SCENARIO_PERSONA;

/** What the TPP shows for the TAN (Berlin Group challengeData). */
export const CHALLENGE_DATA = {
  otpMaxLength: STATIC_TAN.length,
  otpFormat: 'integer',
  additionalInformation: `Sandbox: the TAN is ${STATIC_TAN}.`,
} as const;
