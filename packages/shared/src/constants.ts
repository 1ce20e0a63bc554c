/** Business constants and limits of spec section 9, shared by server and web. */

/** Timeouts of the API client (spec 9). */
export const SHARED_CLIENT_TIMEOUT_MS = 180_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 45_000;
export const LONG_REQUEST_TIMEOUT_MS = 300_000;

/**
 * The calls that get the long timeout (spec 9): the locals of a unit, the
 * check-out, the exams of a check-in, the biometric check-in and the check-in
 * update. Matched against the request path without the leading slash.
 */
export const LONG_TIMEOUT_PATHS: readonly RegExp[] = [
  /^api\/SchedulingLocalCheckIn\/schedulingLocalsByFederativeUnit\//,
  /^api\/SchedulingLocalCheckIn\/checkOut$/,
  /^api\/SchedulingLocalCheckIn\/exams$/,
  /^api\/Auth\/biometric-viewer-checkin$/,
  /^api\/SchedulingLocalCheckIn\/update-checkIn\//,
];

export const LOGOUT_RELOAD_DELAY_MS = 500;
export const MODAL_ACTION_DELAY_MS = 300;
export const DASHBOARD_DATE_RELOAD_DELAY_MS = 100;

export const DEFAULT_MODAL_WIDTH = '340px';
export const WIDE_MODAL_WIDTH = '68vw';
export const TOOLTIP_OFFSET = 12;
export const TOOLTIP_Z_INDEX = 9999;

export const DEFAULT_ALERT_TITLE = 'Opss...';
export const DEFAULT_ALERT_ACTION = 'Ok';
export const API_DEFAULT_ERROR_TEXT = 'Por favor, tente novamente em breve';

/** The product's name: browser tabs and the logo's alternative text. */
export const PRODUCT_NAME = 'Exame Teórico';
