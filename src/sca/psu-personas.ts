import { FIXTURE_PERSONAS } from '../fixtures/fixtures';

/** Berlin Group authenticationObject: one way a PSU receives a TAN. */
export interface ScaMethod {
  authenticationType: 'SMS_OTP' | 'CHIP_OTP' | 'PHOTO_OTP' | 'PUSH_OTP' | 'SMTP_OTP';
  authenticationMethodId: string;
  name: string;
}

/** How a test PSU behaves in SCA beyond the password (docs/sca-approaches.md, "Test PSUs"). */
export interface Persona {
  /** None: the PSU is exempted, the password finalises the authorisation. */
  scaMethods: ScaMethod[];
  /** The poll of the SCA status at which the PSU confirms in the app by itself (decoupled); null: only the page or the control API decide. */
  decoupledConfirmsAtPoll: number | null;
  /** Blocked by the bank: every authorisation is refused with 403 SERVICE_BLOCKED. */
  blocked: boolean;
}

/** Every test PSU's TAN, whatever the method. */
export const STATIC_TAN = '123456';

/** A scenario's PSU: one SMS method, and the decoupled app waits for the page or the control API. */
const SCENARIO_PERSONA: Persona = {
  scaMethods: [{ authenticationType: 'SMS_OTP', authenticationMethodId: 'sms', name: 'SMS OTP on the phone of the scenario PSU' }],
  decoupledConfirmsAtPoll: null,
  blocked: false,
};

export const personaOf = (psuId: string): Persona => (FIXTURE_PERSONAS.get(psuId) as Persona | undefined) ?? SCENARIO_PERSONA;

/** What the TPP shows for the TAN (Berlin Group challengeData). */
export const CHALLENGE_DATA = { otpMaxLength: STATIC_TAN.length, otpFormat: 'integer', additionalInformation: `Sandbox: the TAN is ${STATIC_TAN}.` } as const;
