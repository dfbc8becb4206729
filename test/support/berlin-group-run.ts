// jest's berlin-group project: every sandbox of the run answers in PROFILE=berlin-group (profile.ts).
process.env.TEST_PROFILE = 'berlin-group';
