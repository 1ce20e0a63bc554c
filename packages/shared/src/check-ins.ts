/**
 * Check-in and check-out of examiners at a service post (spec 2-9): the
 * bodies and replies of `api/SchedulingLocalCheckIn/...`,
 * `api/Auth/viewer-checkin` and `api/Auth/biometric-viewer-checkin`, the
 * rules both sides apply, and the errors with their pt-BR texts.
 *
 * An open check-in record is the custody of a post's room for the day: who
 * (each examiner, admitted by which face verification where the unit
 * requires one), where (post, device), from when to when (check-out,
 * validated by face where required).
 */
import { z } from 'zod';
import { deviceIdSchema } from './biometrics';
import { cpfSchema } from './cpf';
import { errorCatalogue } from './errors';

/** A room opens with one examiner or with two (spec 2: Examinador 1 and Examinador 2). */
export const CHECK_IN_MAX_VIEWERS = 2;
/** A face verification admits its examiner to a check-in or a check-out for this long, once. */
export const CHECK_IN_FACE_TICKET_TTL_MS = 10 * 60_000;
/** Examiner 2's confirmed identity (after e-mail and password) is good for this long. */
export const PROCTORING_TOKEN_TTL_MS = 30 * 60_000;
export const FORCE_CLOSE_REASON_MIN = 10;

/** Spec 5 and 8: the texts of the second-examiner rules and of the check-in screens. */
export const CHECK_IN_TEXTS = {
  sameExaminer: 'O examinador 2 não pode ser o mesmo que o examinador 1.',
  userNotFound: 'Usuário não encontrado!',
  notAllowed: 'Usuário não tem permissão para participar da sala!',
  associated: 'Examinador associado com sucesso!',
  halfFilledTitle: 'Atenção',
  halfFilled: 'Limpe o formulário ou faça login com o examinador 2 para abrir a sala',
  missingLocal:
    'O local da sala não foi informado. Verifique se o certificado foi gerado corretamente.',
} as const;

export const CHECK_IN_ERRORS = errorCatalogue({
  CHECKIN_LOCAL_REQUIRED: { status: 400, message: CHECK_IN_TEXTS.missingLocal },
  CHECKIN_LOCAL_NOT_FOUND: {
    status: 404,
    message: 'Posto de atendimento não encontrado ou desativado nesta unidade.',
  },
  CHECKIN_NOT_FOUND: { status: 404, message: 'Registro de entrada não encontrado.' },
  CHECKIN_ALREADY_OPEN: {
    status: 409,
    message: 'Este examinador já tem uma entrada aberta. Registre a saída antes de abrir outra.',
  },
  CHECKIN_CLOSED: { status: 409, message: 'Este registro de entrada já foi encerrado.' },
  CHECKIN_SAME_EXAMINER: { status: 400, message: CHECK_IN_TEXTS.sameExaminer },
  CHECKIN_DUPLICATE_VIEWER: {
    status: 400,
    message: 'O mesmo examinador foi informado mais de uma vez.',
  },
  CHECKIN_EXAMINER_NOT_FOUND: { status: 404, message: CHECK_IN_TEXTS.userNotFound },
  CHECKIN_EXAMINER_NOT_ALLOWED: { status: 403, message: CHECK_IN_TEXTS.notAllowed },
  CHECKIN_TOO_MANY_VIEWERS: {
    status: 400,
    message: `A sala é aberta por até ${CHECK_IN_MAX_VIEWERS} examinadores.`,
  },
  CHECKIN_IDENTITY_REQUIRED: {
    status: 403,
    message:
      'A identidade deste examinador não foi confirmada: ele precisa digitar a própria senha no formulário do examinador 2 (ou entrar no sistema com a própria conta).',
  },
  /**
   * A face is never the only proof of who a person is: whoever is
   * not the signed-in user nor examiner 2 confirmed by password types their
   * own password with the face check, unless the unit allows face alone.
   */
  FACE_OWN_FACTOR_REQUIRED: {
    status: 403,
    message:
      'O rosto sozinho não confirma quem é o examinador: ele precisa digitar a própria senha na validação facial (ou entrar no sistema com a própria conta).',
  },
  CHECKIN_FACE_REQUIRED: {
    status: 422,
    message: 'Nesta unidade cada examinador valida o rosto antes de entrar ou sair da sala.',
  },
  CHECKIN_FACE_INVALID: {
    status: 422,
    message:
      'A validação facial informada não vale para este examinador, já foi usada ou expirou. Valide o rosto novamente.',
  },
  CHECKIN_NOT_A_VIEWER: {
    status: 403,
    message: 'Somente os examinadores desta sala podem alterá-la.',
  },
  CHECKIN_VIEWER_NOT_FOUND: {
    status: 404,
    message: 'Examinador não encontrado neste registro de entrada.',
  },
  CHECKIN_VIEWER_ALREADY_OUT: {
    status: 409,
    message: 'A saída deste examinador já foi registrada.',
  },
  CHECKIN_LAST_VIEWER: {
    status: 400,
    message: 'O último examinador não pode ser removido: registre a saída para encerrar a sala.',
  },
  CHECKIN_VIEWER_REQUIRED: {
    status: 400,
    message: 'Informe o examinador que está saindo da sala.',
  },
  CHECKIN_ROOM_REQUIRED: {
    status: 400,
    message: 'Escolha a sala de prova em que vai trabalhar.',
  },
  CHECKIN_ROOM_NOT_FOUND: {
    status: 404,
    message: 'Sala de prova não encontrada ou desativada neste posto.',
  },
  CHECKIN_ROOM_TAKEN: {
    status: 409,
    message:
      'Esta sala já tem uma entrada aberta. Peça a um examinador da sala para incluí-lo ou escolha outra sala.',
  },
  CHECKIN_UPDATE_EMPTY: {
    status: 400,
    message: 'Informe o examinador a incluir ou a remover.',
  },
  CHECKIN_OTHER_UNIT: {
    status: 403,
    message: 'Você só pode consultar a configuração da sua unidade.',
  },
  PROCTORING_TOKEN_INVALID: {
    status: 401,
    message:
      'A confirmação do examinador 2 expirou ou não é válida. Faça login com o examinador 2 novamente.',
  },
  FACE_NOT_VERIFIED: {
    status: 422,
    message: 'O rosto capturado não corresponde ao cadastro facial deste CPF.',
  },
});
export type CheckInErrorCode = keyof typeof CHECK_IN_ERRORS;

/* ------------------------------------------------------------------------ */
/* Check-in, update, check-out                                               */
/* ------------------------------------------------------------------------ */

/**
 * A viewer entry of a check-in request (spec 3: name, cpf, faceUrl,
 * checkInDate). The server reads only the CPF and the proofs: the signed-in
 * examiner is proven by the session, another one by `proctoringToken`
 * (examiner 2's password) or, where the unit requires face validation, by the
 * verification that admitted them (`verificationId`).
 */
export const viewerEntryInputSchema = z
  .object({
    /** The examiner's CPF; examiner 2 may be named by `proctoringToken` alone. */
    cpf: cpfSchema.optional(),
    name: z.string().max(120).optional(),
    faceUrl: z.string().max(2000).nullable().optional(),
    checkInDate: z.string().max(64).nullable().optional(),
    verificationId: z.uuid('Validação facial inválida.').nullable().optional(),
    proctoringToken: z.string().max(1000).nullable().optional(),
  })
  .refine((entry) => entry.cpf !== undefined || Boolean(entry.proctoringToken), {
    message: 'Informe o CPF do examinador.',
    path: ['cpf'],
  });
export type ViewerEntryInput = z.input<typeof viewerEntryInputSchema>;

export const checkInRequestSchema = z.object({
  viewers: z
    .array(viewerEntryInputSchema)
    .min(1, 'Informe o examinador.')
    .max(CHECK_IN_MAX_VIEWERS, CHECK_IN_ERRORS.CHECKIN_TOO_MANY_VIEWERS.message),
  /** The post identifier (`DEMO.POSTO01`), as `EP_SCHEDULING_LOCAL` keeps it. */
  schedulingLocal: z.string().trim().max(80).nullable().optional(),
  /**
   * The room of the post the examiners take (required when the post has
   * active rooms): its open record is the room's custody.
   */
  examRoomId: z.uuid('Sala de prova inválida.').nullable().optional(),
  deviceId: deviceIdSchema.nullable().optional(),
});
export type CheckInRequest = z.input<typeof checkInRequestSchema>;

export const checkInResponseSchema = z.object({ id: z.string(), checkInDate: z.string() });
export type CheckInResponse = z.infer<typeof checkInResponseSchema>;

export const updateCheckInRequestSchema = z.object({
  add: viewerEntryInputSchema.optional(),
  removeViewerId: z.uuid('Examinador inválido.').optional(),
});
export type UpdateCheckInRequest = z.input<typeof updateCheckInRequestSchema>;

export const checkOutRequestSchema = z.object({
  checkInId: z.uuid('Registro de entrada inválido.'),
  /** The examiner leaving; without it (units without face validation) every examiner leaves. */
  viewerId: z.uuid('Examinador inválido.').optional(),
  /** The face verification of that examiner (units with face validation). */
  verificationId: z.uuid('Validação facial inválida.').optional(),
});
export type CheckOutRequest = z.input<typeof checkOutRequestSchema>;

/** `POST transfer`: the room passes from an examiner in it to another (spec 2 `/change-examiner`). */
export const transferRequestSchema = z.object({
  checkInId: z.uuid('Registro de entrada inválido.'),
  fromViewerId: z.uuid('Examinador inválido.'),
  to: viewerEntryInputSchema,
});
export type TransferRequest = z.input<typeof transferRequestSchema>;

export const forceCloseRequestSchema = z.object({
  checkInId: z.uuid('Registro de entrada inválido.'),
  reason: z
    .string()
    .trim()
    .min(
      FORCE_CLOSE_REASON_MIN,
      `Descreva o motivo do encerramento (mínimo de ${FORCE_CLOSE_REASON_MIN} caracteres).`,
    )
    .max(500, 'Motivo longo demais (máximo de 500 caracteres).'),
});
export type ForceCloseRequest = z.input<typeof forceCloseRequestSchema>;

/**
 * Whether the exam's local (`DEMO.POSTO01-S2`) belongs to the post
 * `identifier`: outside CE the room follows the first dash; CE keeps the
 * whole local, with or without its `CE.` prefix (spec 7).
 */
export function examLocalBelongsToPost(
  unit: string,
  examLocal: string | null,
  identifier: string,
): boolean {
  if (!examLocal) return false;
  if (unit.toUpperCase() === 'CE') {
    return examLocal === identifier || `CE.${examLocal}` === identifier;
  }
  return examLocal.split('-')[0] === identifier;
}

/**
 * The post and the room an exam's local names: outside CE the post up to the
 * first dash and the room after it (`DEMO.POSTO01-S2`: `DEMO.POSTO01`, `S2`);
 * CE's local is the post as a whole, written with its `CE.` prefix (spec 7).
 */
export function postAndRoomOf(
  unit: string,
  examLocal: string | null,
): { post: string; room: string | null } | null {
  if (!examLocal) return null;
  if (unit.toUpperCase() === 'CE') {
    return { post: examLocal.startsWith('CE.') ? examLocal : `CE.${examLocal}`, room: null };
  }
  const [post = '', ...rest] = examLocal.split('-');
  if (post === '') return null;
  return { post, room: rest.length > 0 ? rest.join('-') : null };
}

/**
 * Spec 4: the room opens when examiner 2 is validated or both fields are
 * empty (a single examiner); a half-filled form blocks it.
 */
export function secondExaminerState(form: {
  email: string;
  password: string;
  validated: boolean;
}): 'validated' | 'empty' | 'half-filled' {
  if (form.validated) return 'validated';
  if (form.email.trim() === '' && form.password === '') return 'empty';
  return 'half-filled';
}

/** Spec 5: `Enviar` is enabled when both fields are filled or examiner 2 is already validated. */
export function canSendSecondExaminer(form: {
  email: string;
  password: string;
  validated: boolean;
}): boolean {
  return form.validated || (form.email.trim() !== '' && form.password !== '');
}
