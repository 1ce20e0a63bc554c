/** The audits module's door for other modules: the exam lock and the decisions. */

// The door of this module for the others (modules import each other only through services).
export { lockExam } from './audit-claims.repository';
export { listDecisionsOf } from './audit-decisions.repository';
