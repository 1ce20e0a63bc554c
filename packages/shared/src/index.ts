export * from './constants';
export * from './errors';
export * from './federative-units';
export * from './roles';
export * from './themes';
export * from './auth';
