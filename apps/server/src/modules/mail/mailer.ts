/**
 * Outgoing mail. Every message is first written to the outbox table inside
 * the caller's transaction, so a rolled-back change sends nothing; `flush`
 * delivers pending messages after commit: over SMTP when SMTP_URL is set,
 * otherwise to the log (the embedded default, where the log line carries the
 * link a person needs).
 */
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database, Executor } from '../../db/client';
import { mailOutbox } from '../../db/schema/index';

export type MailMessage = { to: string; subject: string; text: string; html: string };

const MAX_ATTEMPTS = 5;

export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
}) {
  const transport: Transporter | undefined = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : undefined;
  let flushing: Promise<void> | undefined;
  let again = false;

  async function deliver(db: Database): Promise<void> {
    const pending = await db
      .select()
      .from(mailOutbox)
      .where(and(isNull(mailOutbox.sentAt), lt(mailOutbox.attempts, MAX_ATTEMPTS)))
      .orderBy(asc(mailOutbox.createdAt))
      .limit(50);
    for (const message of pending) {
      try {
        if (transport) {
          await transport.sendMail({
            from: options.from,
            to: message.recipient,
            subject: message.subject,
            text: message.text,
            html: message.html,
          });
        } else {
          options.log.info(
            { mailId: message.id, to: message.recipient, subject: message.subject },
            `e-mail (sem SMTP configurado):\n${message.text}`,
          );
        }
        await db
          .update(mailOutbox)
          .set({ sentAt: new Date(), attempts: sql`${mailOutbox.attempts} + 1`, lastError: null })
          .where(eq(mailOutbox.id, message.id));
      } catch (error) {
        options.log.error({ err: error, mailId: message.id }, 'falha ao enviar e-mail');
        await db
          .update(mailOutbox)
          .set({
            attempts: sql`${mailOutbox.attempts} + 1`,
            lastError: error instanceof Error ? error.message.slice(0, 500) : 'erro desconhecido',
          })
          .where(eq(mailOutbox.id, message.id));
      }
    }
  }

  return {
    /** Queues a message; call inside the transaction of the change that causes it. */
    enqueue: async (db: Executor, message: MailMessage): Promise<void> => {
      await db.insert(mailOutbox).values({
        recipient: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
    /** Delivers what is pending; concurrent calls share one run and trigger one more pass. */
    flush: (db: Database): Promise<void> => {
      if (flushing) {
        again = true;
        return flushing;
      }
      flushing = (async () => {
        do {
          again = false;
          await deliver(db);
        } while (again);
      })().finally(() => {
        flushing = undefined;
      });
      return flushing;
    },
    close: () => transport?.close(),
  };
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
    input.link,
    '',
    `O link vale por ${input.validMinutes} minutos e pode ser usado uma única vez. Se você não fez este pedido, ignore este e-mail.`,
  ].join('\n');
  const html = `<p>Olá, ${escapeHtml(first)}.</p><p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(input.link)}">${escapeHtml(input.link)}</a></p><p>O link vale por ${input.validMinutes} minutos e pode ser usado uma única vez. Se você não fez este pedido, ignore este e-mail.</p>`;
  return { to: input.to, subject, text, html };
}
