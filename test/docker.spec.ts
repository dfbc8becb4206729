import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { Environment } from '../src/config/environment';

/** No Docker engine runs where the tests run: the files are checked as text, and by a compose client where one exists. */
const root = join(__dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true });
  const sandbox = compose.services.sandbox;

  it('runs one service built from the Dockerfile, on port 3000, unless a profile asks for more', () => {
    expect(Object.keys(compose.services).filter((name) => !compose.services[name].profiles)).toEqual(['sandbox']);
    expect(sandbox.build).toBe('.');
    expect(sandbox.ports).toEqual(['${HOST_PORT:-3000}:3000']);
  });

  it('keeps the SQLite file on a named volume', () => {
    expect(Object.keys(compose.volumes)).toEqual(['sandbox-data', 'postgres-data']);
    expect(sandbox.volumes).toEqual(['sandbox-data:/data']);
    expect(sandbox.environment.DATABASE_PATH).toBe('/data/sandbox.sqlite');
    expect(sandbox.environment.DATABASE_URL).toBe('');
    // Links and Location name the published port unless PUBLIC_BASE_URL says otherwise.
    expect(sandbox.environment.PUBLIC_BASE_URL).toBe('${PUBLIC_BASE_URL:-http://localhost:${HOST_PORT:-3000}}');
  });

  it('passes every setting of the sandbox through the environment', () => {
    expect(Object.keys(sandbox.environment).sort()).toEqual(Object.keys(new Environment()).sort());
    expect(Object.keys(compose.services['sandbox-postgres'].environment).sort()).toEqual(Object.keys(new Environment()).sort());
  });

  it('has a postgres profile: PostgreSQL on a named volume with a health check, replicas of the same image on it, one port in front', () => {
    const { postgres, 'sandbox-postgres': replica, balancer } = compose.services;
    for (const service of [postgres, replica, balancer]) expect(service.profiles).toEqual(['postgres']);
    expect(postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(postgres.healthcheck.test).toEqual(['CMD', 'pg_isready', '-U', 'sandbox', '-d', 'sandbox']);
    expect(replica.build).toBe('.');
    expect(replica.ports).toBeUndefined();
    expect(replica.environment.DATABASE_URL).toBe('postgres://sandbox:${POSTGRES_PASSWORD:-sandbox}@postgres:5432/sandbox');
    expect(replica.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(balancer.ports).toEqual(['${POSTGRES_HOST_PORT:-3100}:80']);
    expect(read('deploy/balancer.conf')).toContain('server sandbox-postgres:3000;');
    // Over plain HTTP the balancer has seen no QWAC: what a client sends as one is dropped (tpp.qwac: header).
    expect(read('deploy/balancer.conf')).toMatch(/^ {4}proxy_set_header X-SSL-Client-Cert "";$/m);
    // Where it ends TLS, the header is the session's client certificate, whatever the client sent.
    const qwac = read('deploy/balancer-qwac.conf');
    expect(qwac).toMatch(/^ {4}proxy_set_header X-SSL-Client-Cert "";$/m);
    expect(qwac).toMatch(/^ {2}ssl_verify_client optional_no_ca;$/m);
    expect(qwac).toMatch(/^ {4}proxy_set_header X-SSL-Client-Cert \$ssl_client_escaped_cert;$/m);
  });

  it('checks /health and leaves time for a graceful stop', () => {
    expect(sandbox.healthcheck.test.join(' ')).toContain('http://127.0.0.1:3000/health');
    expect(sandbox.stop_grace_period).toBe('30s');
  });

  it('is valid for a compose client, where one is installed', () => {
    const client = ['docker-compose', 'docker'].find((command) => {
      try {
        execFileSync(command, command === 'docker' ? ['compose', 'version'] : ['version'], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    });
    if (!client) return; // no client on this machine: the YAML checks above are what holds
    const args = client === 'docker' ? ['compose', 'config', '-q'] : ['config', '-q'];
    expect(() => execFileSync(client, args, { cwd: root, stdio: 'pipe' })).not.toThrow();
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('builds in one stage and runs from another, on the Node version the project uses', () => {
    expect(stages).toHaveLength(2);
    expect(stages[0]).toMatch(/^node:20-bookworm-slim AS build/);
    expect(stages[0]).toContain('RUN npm ci');
    expect(stages[0]).toContain('npm run build');
    expect(stages[1]).toContain('COPY --from=build /app/dist ./dist');
  });

  it("compiles better-sqlite3 against the image's own Node headers, and ships production dependencies only", () => {
    // node-gyp would otherwise download the headers, which a machine with only the npm registry cannot.
    expect(stages[0]).toMatch(/^ENV npm_config_nodedir=\/usr\/local$/m);
    // devOptional packages (ts-node, TypeScript: an optional peer of typeorm) survive --omit=dev alone.
    expect(stages[0]).toContain('npm prune --omit=dev --omit=optional');
    expect(stages[0]).toMatch(/rm -rf deps src build\/Release\/obj /);
  });

  it('runs as a non-root user, with a healthcheck on /health, on port 3000', () => {
    expect(stages[1]).toMatch(/^USER node$/m);
    expect(stages[1]).toMatch(/^HEALTHCHECK .*\n?.*\/health/m);
    expect(stages[1]).toMatch(/^EXPOSE 3000$/m);
  });

  it('starts the server exactly as `npm run start:prod` does (the command the benchmark measures)', () => {
    const command = JSON.parse(stages[1].match(/^CMD (.*)$/m)![1]) as string[];
    expect(command.join(' ')).toBe(JSON.parse(read('package.json')).scripts['start:prod']);
    expect(command.at(-1)).toBe('dist/src/main.js');
  });

  it('copies everything the build needs', () => {
    for (const path of [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'nest-cli.json',
      'src',
      'migrations',
      'seeds',
    ]) {
      expect(stages[0]).toContain(path);
    }
  });
});
