/**
 * The trusted-device cookie of the sign-in routes: sent only under
 * `/api/Auth`, never readable by scripts; set when a sign-in completes
 * (password alone, or its second step).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie, setCookie } from '../../lib/cookies';
import type { AppConfig } from '../../config/env';
import type { SignInResult } from './auth.service';
import { TRUSTED_DEVICE_TTL_MS } from './auth.service';

const DEVICE_COOKIE = 'exame_device';
const DEVICE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** What a sign-in step needs of the client: its address, browser and device token. */
export function clientOf(request: FastifyRequest) {
  const device = readCookie(request, DEVICE_COOKIE);
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    deviceToken: device && DEVICE_TOKEN.test(device) ? device : null,
  };
}

/** Sets the device cookie of a completed sign-in and returns its session. */
export function signedIn<T extends SignInResult>(
  reply: FastifyReply,
  config: Pick<AppConfig, 'nodeEnv'>,
  result: T,
): Omit<T, 'deviceToken'> {
  setCookie(reply, {
    name: DEVICE_COOKIE,
    value: result.deviceToken,
    path: '/api/Auth',
    maxAgeSeconds: TRUSTED_DEVICE_TTL_MS / 1000,
    secure: config.nodeEnv === 'production',
  });
  const { deviceToken: _kept, ...rest } = result;
  return rest;
}
