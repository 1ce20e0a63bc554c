/**
 * Outgoing mail. Every message is first written to the outbox table inside
 * the caller's transaction, so a rolled-back change sends nothing; `flush`
 * delivers pending messages after commit over SMTP when SMTP_URL is set.
 * Without SMTP (the embedded default) messages wait in the outbox and the
 * operator reads them with `npm run mail:outbox`.
 *
 * A secret link (one-time token) is kept apart from the bodies, which hold
 * `{{link}}` instead: it is put in only to send, dropped from the row once the
 * message is delivered, and dropped when the link expires. The log never
 * carries a body or a link, in any mode.
 */
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { maskEmail } from '@exame/shared';
import type { Database, Executor } from '../../db/client';
import { coalescedRuns } from '../../lib/coalesced-runs';
import {
  countDeliverableMail,
  insertMail,
  listDeliverableMail,
  listUnsentMail,
  markMailSent,
  recordMailFailure,
  type OutboxRow,
} from './mail.repository';

export const LINK_PLACEHOLDER = '{{link}}';
const LINK_GONE = '[link expirado: peça um novo]';

export type MailMessage = {
  to: string;
  subject: string;
  /** Bodies with `{{link}}` where the link goes. */
  text: string;
  html: string;
  link?: { url: string; expiresAt: Date };
};

/** The bodies as the recipient reads them: the link put back while it is still kept. */
export function renderMail(row: Pick<OutboxRow, 'text' | 'html' | 'link'>): {
  text: string;
  html: string;
} {
  const link = row.link ?? LINK_GONE;
  return {
    text: row.text.replaceAll(LINK_PLACEHOLDER, link),
    html: row.html.replaceAll(LINK_PLACEHOLDER, escapeHtml(link)),
  };
}

const MAX_ATTEMPTS = 5;

export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
}) {
  const transport: Transporter | undefined = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : undefined;
  // The database of the latest flush: the app has one, and each flush names it.
  let target: Database | undefined;
  const flushes = coalescedRuns(() => (target ? deliver(target) : Promise.resolve()));

  async function deliver(db: Database): Promise<void> {
    if (!transport) {
      const pending = await countDeliverableMail(db, MAX_ATTEMPTS);
      if (pending > 0) {
        options.log.info(
          { pending },
          'e-mails aguardando na caixa de saída (sem SMTP_URL): leia-os com `npm run mail:outbox`',
        );
      }
      return;
    }
    for (const message of await listDeliverableMail(db, MAX_ATTEMPTS, 50)) {
      try {
        await transport.sendMail({
          from: options.from,
          to: message.recipient,
          subject: message.subject,
          ...renderMail(message),
        });
        // Delivered: the outbox keeps the record of it, not a usable token.
        await markMailSent(db, message.id, new Date());
      } catch (error) {
        options.log.error(
          { mailId: message.id, to: maskEmail(message.recipient), reason: describe(error) },
          'falha ao enviar e-mail',
        );
        await recordMailFailure(db, message.id, describe(error).slice(0, 500));
      }
    }
  }

  return {
    delivers: transport !== undefined,
    /** Queues a message; call inside the transaction of the change that causes it. */
    enqueue: async (db: Executor, message: MailMessage): Promise<void> => {
      await insertMail(db, {
        recipient: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        link: message.link?.url ?? null,
        linkExpiresAt: message.link?.expiresAt ?? null,
      });
    },
    /** Delivers what is pending; concurrent calls share one run and trigger one more pass. */
    flush: (db: Database): Promise<void> => {
      target = db;
      return flushes.run();
    },
    close: () => transport?.close(),
  };
}

/** An SMTP failure's reason without the message it was sending (nodemailer errors may quote it). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'erro desconhecido';
  const code = (error as { code?: unknown }).code;
  const response = (error as { responseCode?: unknown }).responseCode;
  return (
    [typeof code === 'string' ? code : null, typeof response === 'number' ? response : null]
      .filter((part) => part !== null)
      .join(' ') || error.name
  );
}

/** Pending messages with their links, for the operator (`npm run mail:outbox`). */
export async function listPendingMail(db: Executor, now: Date = new Date()) {
  const rows = await listUnsentMail(db, 200);
  return rows.map((row) => ({
    id: row.id,
    to: row.recipient,
    subject: row.subject,
    createdAt: row.createdAt.toISOString(),
    linkExpiresAt: row.linkExpiresAt?.toISOString() ?? null,
    text: renderMail(row.linkExpiresAt && row.linkExpiresAt <= now ? { ...row, link: null } : row)
      .text,
  }));
}

export type Mailer = ReturnType<typeof createMailer>;

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export function passwordLinkMessage(input: {
  to: string;
  name: string;
  purpose: 'reset' | 'register';
  link: string;
  expiresAt: Date;
  validMinutes: number;
}): MailMessage {
  const first = input.name.split(' ')[0] ?? input.name;
  const subject =
    input.purpose === 'register' ? 'Cadastre sua senha de acesso' : 'Redefinição de senha';
  const intro =
    input.purpose === 'register'
      ? 'Sua conta no sistema de administração e auditoria do exame teórico foi criada. Para cadastrar sua senha, acesse o link abaixo:'
      : 'Recebemos um pedido para redefinir a sua senha. Para escolher uma nova senha, acesse o link abaixo:';
  const text = [
    `Olá, ${first}.`,
    '',
    intro,
    LINK_PLACEHOLDER,
    '',
    `O link vale por ${input.validMinutes} minutos e pode ser usado uma única vez. Se você não fez este pedido, ignore este e-mail.`,
  ].join('\n');
  const html = `<p>Olá, ${escapeHtml(first)}.</p><p>${escapeHtml(intro)}</p><p><a href="${LINK_PLACEHOLDER}">${LINK_PLACEHOLDER}</a></p><p>O link vale por ${input.validMinutes} minutos e pode ser usado uma única vez. Se você não fez este pedido, ignore este e-mail.</p>`;
  return {
    to: input.to,
    subject,
    text,
    html,
    link: { url: input.link, expiresAt: input.expiresAt },
  };
}

/**
 * A change to how an account signs in, told to its owner: if it was not
 * them, they know at once and whom to ask. No link: the person opens the
 * product as usual.
 */
export function securityNoticeMessage(input: {
  to: string;
  name: string;
  /** What changed, as a sentence ("Um aplicativo autenticador foi cadastrado..."). */
  change: string;
  at: Date;
  appUrl: string;
}): MailMessage {
  const first = input.name.split(' ')[0] ?? input.name;
  const when = input.at.toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo' });
  const advice =
    'Se foi você, nada a fazer. Se não foi, avise já o administrador da sua unidade e troque a sua senha.';
  const text = [
    `Olá, ${first}.`,
    '',
    `${input.change} (${when}, horário de Brasília).`,
    '',
    advice,
    `Acesso: ${input.appUrl}`,
  ].join('\n');
  const html = `<p>Olá, ${escapeHtml(first)}.</p><p>${escapeHtml(input.change)} (${escapeHtml(when)}, horário de Brasília).</p><p>${escapeHtml(advice)}</p><p>Acesso: ${escapeHtml(input.appUrl)}</p>`;
  return { to: input.to, subject: 'Alteração na segurança da sua conta', text, html };
}
