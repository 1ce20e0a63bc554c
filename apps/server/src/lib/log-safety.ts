/**
 * What request addresses may show in the logs (security guide: CPF masked as
 * ***.456.789-**, never tokens): CPFs and e-mails in paths and queries are
 * masked and signatures of temporary addresses are dropped.
 */
import { maskCpf } from '@exame/shared';

const CPF_FORMATTED = /\d{3}\.\d{3}\.\d{3}-\d{2}/g;
const CPF_DIGITS = /(?<!\d)\d{11}(?!\d)/g;
const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*(@|%40)([A-Za-z0-9.-]+)/g;
const SECRETS = /([?&](?:signature|token|key)=)[^&#]*/gi;

export function sanitizeUrl(url: string): string {
  return url
    .replace(SECRETS, '$1[oculto]')
    .replace(CPF_FORMATTED, (cpf) => maskCpf(cpf))
    .replace(CPF_DIGITS, (cpf) => maskCpf(cpf))
    .replace(EMAIL, '$1***$2$3');
}

type LoggedRequest = {
  method: string;
  url: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
};

export function requestSerializer(request: LoggedRequest) {
  return {
    method: request.method,
    url: sanitizeUrl(request.url),
    hostname: request.hostname,
    remoteAddress: request.ip,
  };
}
