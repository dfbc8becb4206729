// jest's postgres project: every test database of the run is made in the cluster at TEST_POSTGRES_URL (engine.ts).
process.env.TEST_ENGINE = 'postgres';
