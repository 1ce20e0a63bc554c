/** The database schema: one file per table group; drizzle-kit reads this file. */
export * from './federative-units';
export * from './identity';
export * from './exams';
export * from './biometrics';
export * from './rooms';
export * from './check-ins';
export * from './realtime';
export * from './audits';
export * from './demo';
export * from './sign-in-providers';
export * from './second-factor';
export * from './fraud';
