import { RulesetDefinition, Spectral } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import request from 'supertest';
import { builtInProfiles } from '../src/profile/load-profile';
import { startSandbox } from './support/sandbox';

/**
 * The served document is what TPPs generate clients from: in every built-in profile it passes
 * Spectral's OpenAPI ruleset without a finding: no error, and no warning either (every operation
 * described, every tag defined, a server named, no component left unused), with the control API
 * and without it, in either AUTH_MODE.
 * The document does not depend on the engine, so this runs once, on the bank project's engine.
 */
const SETTINGS = [{}, { AUTH_MODE: 'strict', SANDBOX_CONTROL: 'false' }];

describe.each(builtInProfiles())('the document served in PROFILE=%s', (profile) => {
  it.each(SETTINGS)('has no finding under spectral:oas, with %j', async (settings) => {
    const sandbox = await startSandbox({ PROFILE: profile, ...settings });
    try {
      const response = await request(sandbox.http).get('/docs-json').expect(200);
      const spectral = new Spectral();
      // The ruleset's declared type lacks the `extends` its own definition type asks for.
      spectral.setRuleset({ extends: [oas as RulesetDefinition], rules: {} });
      const results = await spectral.run(response.text);
      const findings = results.map((result) => `${result.code} ${result.path.join('.')}: ${result.message}`);
      expect(findings).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});
