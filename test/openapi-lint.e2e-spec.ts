import { RulesetDefinition, Spectral } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import request from 'supertest';
import { builtInProfiles } from '../src/profile/load-profile';
import { startSandbox } from './support/sandbox';

/**
 * The served document is what TPPs generate clients from: in every built-in profile it passes
 * Spectral's OpenAPI ruleset without an error (its warnings are style: descriptions, tags, ids).
 * The document does not depend on the engine, so this runs once, on the bank project's engine.
 */
describe.each(builtInProfiles())('the document served in PROFILE=%s', (profile) => {
  it('has no error under spectral:oas', async () => {
    const sandbox = await startSandbox({ PROFILE: profile });
    try {
      const response = await request(sandbox.http).get('/docs-json').expect(200);
      const spectral = new Spectral();
      // The ruleset's declared type lacks the `extends` its own definition type asks for.
      spectral.setRuleset({ extends: [oas as RulesetDefinition], rules: {} });
      const results = await spectral.run(response.text);
      const errors = results
        .filter((result) => result.severity === 0)
        .map((result) => `${result.code} ${result.path.join('.')}: ${result.message}`);
      expect(errors).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});
