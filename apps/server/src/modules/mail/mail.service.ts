/** The mail module's door: what other modules use of it. */

// The door of this module for the others (modules import each other only through services).
export { clearExpiredMailLinks, deleteMailCreatedBefore } from './mail.repository';
export { passwordLinkMessage, securityNoticeMessage, type Mailer } from './mailer';
