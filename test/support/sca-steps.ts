import type { Test } from 'supertest';

/** Susanne's one SCA method and the challenge every embedded TAN step shows (profiles/bank/fixtures/psus.json, docs/sca-approaches.md). */
export const SUSANNE_SMS = { authenticationType: 'SMS_OTP', authenticationMethodId: 'sms', name: 'SMS OTP on phone +43 660 xxxxx 76' };
export const CHALLENGE = { otpMaxLength: 6, otpFormat: 'integer', additionalInformation: 'Sandbox: the TAN is 123456.' };
export const DECOUPLED_MESSAGE = 'Please confirm in your SandboxBank app.';

/**
 * Embedded SCA by susanne.mustermann on the authorisation at `path`, each answer whole (Berlin Group
 * shape): the password selects her only method, the TAN finalises it.
 */
export async function authoriseAsSusanne(put: (path: string, body: object) => Test, path: string): Promise<void> {
  expect((await put(path, { psuData: { password: 'sandbox' } }).expect(200)).body).toEqual({
    scaStatus: 'scaMethodSelected',
    chosenScaMethod: SUSANNE_SMS,
    challengeData: CHALLENGE,
    _links: { authoriseTransaction: { href: path }, scaStatus: { href: path } },
  });
  expect((await put(path, { scaAuthenticationData: '123456' }).expect(200)).body).toEqual({
    scaStatus: 'finalised',
    _links: { scaStatus: { href: path } },
  });
}

/** Decoupled SCA: susanne's app confirms at the third poll of the authorisation at `path`. */
export async function confirmedAtThirdPoll(get: (path: string) => Test, path: string): Promise<void> {
  for (let poll = 1; poll < 3; poll++)
    expect((await get(path).expect(200)).body).toEqual({ scaStatus: 'started', psuMessage: DECOUPLED_MESSAGE });
  expect((await get(path).expect(200)).body).toEqual({ scaStatus: 'finalised' });
}
