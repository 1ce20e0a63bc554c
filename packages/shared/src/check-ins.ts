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
import {
  deviceIdSchema,
  FACE_BURST_MAX_FRAMES,
  FACE_CAPTURE_MAX_CHARS,
  similarityLevelSchema,
} from './biometrics';
import { cpfSchema } from './cpf';
import { errorCatalogue } from './errors';
import { challengeIdSchema } from './face-challenge';
import { EXAM_RESULTS, EXAM_STATUSES } from './exams';
import { pageOf, pageQueryParams } from './pagination';
import { periodDateSchema } from './period';
import { ROLES } from './roles';

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
   * A face is never the only proof of who a person is (issue 29): whoever is
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
/* Configuration of the unit: `GET getConfig?federativeUnit`                  */
/* ------------------------------------------------------------------------ */

export const checkInConfigSchema = z.object({
  federativeUnit: z.string(),
  /** Face validation at check-in and check-out (spec 5: only DF). */
  faceValidationRequired: z.boolean(),
  secondExaminerAllowed: z.boolean(),
  maxViewers: z.number().int(),
  proctoringEnabled: z.boolean(),
  /**
   * The unit lets an examiner who is not signed in enter by face alone,
   * without typing their password (off by default; such an entry says so).
   */
  faceAloneAllowed: z.boolean(),
});
export type CheckInConfig = z.infer<typeof checkInConfigSchema>;

/* ------------------------------------------------------------------------ */
/* The unit's own setting: `GET|PUT api/FederativeUnit/settings` (ADMIN)      */
/* ------------------------------------------------------------------------ */

export const unitSettingsSchema = z.object({
  federativeUnit: z.string(),
  faceAloneAllowed: z.boolean(),
});
export type UnitSettings = z.infer<typeof unitSettingsSchema>;

/** The unit is the ADMIN's own (from the session), never named in the body. */
export const unitSettingsUpdateSchema = z.object({ faceAloneAllowed: z.boolean() });
export type UnitSettingsUpdate = z.infer<typeof unitSettingsUpdateSchema>;

/* ------------------------------------------------------------------------ */
/* How an examiner proved who they are besides the face                      */
/* ------------------------------------------------------------------------ */

/**
 * The person's own factor that came with a face check: their signed-in
 * session, their password typed in the capture flow, or examiner 2's
 * password confirmed by `api/Auth/viewer-checkin` (`proctoringToken`).
 */
export const OWN_FACTORS = ['session', 'password', 'proctoring'] as const;
export type OwnFactor = (typeof OWN_FACTORS)[number];

/** How an examiner was admitted into a room's custody: a factor, or the face alone where the unit allows it. */
export const ADMITTED_BY = [...OWN_FACTORS, 'face_only'] as const;
export type AdmittedBy = (typeof ADMITTED_BY)[number];
export const ADMITTED_BY_LABELS: Readonly<Record<AdmittedBy, string>> = {
  session: 'Confirmado pela própria sessão',
  password: 'Confirmado por senha',
  proctoring: 'Confirmado por senha (examinador 2)',
  face_only: 'Admitido só pelo rosto (sem senha)',
};

/* ------------------------------------------------------------------------ */
/* Examiner 2 and the face verification of an examiner                       */
/* ------------------------------------------------------------------------ */

/** `POST api/Auth/viewer-checkin`: examiner 2's e-mail and password, checked without a session. */
export const viewerCheckinRequestSchema = z.object({
  email: z.string().trim().min(1, 'Informe o e-mail.').max(254),
  password: z.string().min(1, 'Informe a senha.').max(4096),
  /** Examiner 1's CPF when it is not the signed-in user's (the `cpfViewer` of spec 5). */
  firstViewerCpf: cpfSchema.optional(),
});
export type ViewerCheckinRequest = z.input<typeof viewerCheckinRequestSchema>;

/** Examiner 2 as the web keeps it (`userProctoring`), and the proof of the password check. */
export const proctoringUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  cpf: z.string(),
  federativeUnit: z.string(),
  roleDescription: z.enum(ROLES),
});
export type ProctoringUser = z.infer<typeof proctoringUserSchema>;

export const viewerCheckinResponseSchema = z.object({
  user: proctoringUserSchema,
  /** Names examiner 2 in the check-in that follows; bound to the signed-in examiner 1. */
  proctoringToken: z.string(),
  expiresAt: z.string(),
});
export type ViewerCheckinResponse = z.infer<typeof viewerCheckinResponseSchema>;

const capture = z
  .string()
  .min(16, 'Envie a imagem capturada.')
  .max(FACE_CAPTURE_MAX_CHARS, 'A imagem é grande demais.');

/** `POST api/Auth/biometric-viewer-checkin` (spec 3 biometric request, with the burst of the capture). */
export const biometricViewerCheckinRequestSchema = z
  .object({
    /** The examiner's CPF; at check-out, `checkInViewerId` may name them instead. */
    cpf: cpfSchema.optional(),
    /** An examiner of an open record the caller is in (check-out on any device). */
    checkInViewerId: z.uuid('Examinador inválido.').optional(),
    /** Examiner 2, named by the proof of `api/Auth/viewer-checkin`. */
    proctoringToken: z.string().max(1000).optional(),
    /**
     * The examiner's own password, typed in the capture flow when they are
     * neither the signed-in user nor named by `proctoringToken` (the separate
     * viewer identity): checked as a sign-in is, before the face.
     */
    password: z.string().max(4096).optional(),
    /** The challenge the take answers (face-challenge.ts); without it the take is refused. */
    challengeId: challengeIdSchema.optional(),
    image: capture,
    frames: z.array(capture).max(FACE_BURST_MAX_FRAMES).optional(),
    uf: z.string().max(4).optional(),
    local: z.string().trim().max(80).nullable().optional(),
    deviceId: deviceIdSchema.nullable().optional(),
  })
  .refine(
    (body) =>
      body.cpf !== undefined ||
      body.checkInViewerId !== undefined ||
      body.proctoringToken !== undefined,
    {
      message: 'Informe o CPF do examinador.',
      path: ['cpf'],
    },
  );
export type BiometricViewerCheckinRequest = z.input<typeof biometricViewerCheckinRequestSchema>;

/** Spec 7: the response is read for name, cpf, faceUrl and currentDate. */
export const biometricViewerCheckinResponseSchema = z.object({
  verificationId: z.string(),
  name: z.string(),
  /** Masked (`***.456.789-**`). */
  cpf: z.string(),
  /** Signed, expiring address of the capture. */
  faceUrl: z.string(),
  currentDate: z.string(),
  /**
   * How alike the capture is to the enrolment, in plain words; examiners
   * (the only ones who check in) never get the raw numbers.
   */
  similarityLevel: similarityLevelSchema,
});
export type BiometricViewerCheckinResponse = z.infer<typeof biometricViewerCheckinResponseSchema>;

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

/* ------------------------------------------------------------------------ */
/* Records                                                                   */
/* ------------------------------------------------------------------------ */

export const CHECK_IN_STATUSES = ['open', 'closed', 'force_closed'] as const;
export type CheckInStatus = (typeof CHECK_IN_STATUSES)[number];
export const CHECK_IN_STATUS_LABELS: Readonly<Record<CheckInStatus, string>> = {
  open: 'Aberta',
  closed: 'Encerrada',
  force_closed: 'Encerrada pelo administrador',
};

/** Spec 3: the viewer check-in record of the dashboard. */
export const checkInViewerSchema = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  /** Masked. */
  cpf: z.string(),
  faceUrl: z.string().nullable(),
  checkInDate: z.string(),
  checkOutValidated: z.boolean(),
  checkOutDate: z.string().nullable(),
  checkOutFaceUrl: z.string().nullable(),
  /** Removed from the room while it was open (update-checkIn). */
  removedAt: z.string().nullable(),
  /** How the examiner proved who they are; null for entries recorded before this was kept. */
  admittedBy: z.enum(ADMITTED_BY).nullable(),
});
export type CheckInViewer = z.infer<typeof checkInViewerSchema>;

export const CHECK_IN_EVENT_TYPES = [
  'open',
  'viewer_add',
  'viewer_remove',
  'viewer_check_out',
  'close',
  'force_close',
  'examiner_transfer',
] as const;
export type CheckInEventType = (typeof CHECK_IN_EVENT_TYPES)[number];
export const CHECK_IN_EVENT_LABELS: Readonly<Record<CheckInEventType, string>> = {
  open: 'Sala aberta',
  viewer_add: 'Examinador incluído',
  viewer_remove: 'Examinador removido',
  viewer_check_out: 'Saída registrada',
  close: 'Sala encerrada',
  force_close: 'Sala encerrada pelo administrador',
  examiner_transfer: 'Sala transferida',
};

export const checkInEventSchema = z.object({
  type: z.enum(CHECK_IN_EVENT_TYPES),
  at: z.string(),
  actorName: z.string().nullable(),
  /** Whom it concerns (an examiner's name), when it concerns one. */
  subject: z.string().nullable(),
  reason: z.string().nullable(),
  /** Who handed the room over (`examiner_transfer`). */
  transferredFrom: z.string().nullable(),
  /** How the examiner who entered proved who they are (`viewer_add`, `examiner_transfer`). */
  admittedBy: z.enum(ADMITTED_BY).nullable(),
});
export type CheckInEvent = z.infer<typeof checkInEventSchema>;

export const checkInRecordSchema = z.object({
  id: z.string(),
  federativeUnit: z.string(),
  schedulingLocal: z.string(),
  schedulingLocalDescription: z.string(),
  /** The room the record holds; null when the post had no rooms at check-in. */
  examRoom: z.object({ id: z.string(), name: z.string(), code: z.string() }).nullable(),
  status: z.enum(CHECK_IN_STATUSES),
  checkInDate: z.string(),
  checkOutDate: z.string().nullable(),
  openedBy: z.object({ id: z.string(), name: z.string() }),
  deviceId: z.string().nullable(),
  closeReason: z.string().nullable(),
  faceValidationRequired: z.boolean(),
  /** Sorted by check-in date (spec 4). */
  viewers: z.array(checkInViewerSchema),
  history: z.array(checkInEventSchema),
});
export type CheckInRecord = z.infer<typeof checkInRecordSchema>;

export const findCheckInQuerySchema = z.object({
  viewerCpf: cpfSchema,
  schedulingLocal: z.string().trim().min(1).max(80),
});

export const CHECK_IN_SEARCH_STATUSES = ['open', 'closed'] as const;

export const searchCheckInQuerySchema = z.object({
  ...pageQueryParams(),
  schedulingLocal: z.string().trim().max(80).optional(),
  /** Name or CPF of an examiner. */
  examiner: z.string().trim().max(120).optional(),
  status: z.enum(CHECK_IN_SEARCH_STATUSES).optional(),
  startDate: periodDateSchema,
  endDate: periodDateSchema,
});
export type SearchCheckInQuery = z.input<typeof searchCheckInQuerySchema>;

export const checkInSummarySchema = z.object({
  id: z.string(),
  schedulingLocal: z.string(),
  schedulingLocalDescription: z.string(),
  /** The room's name, when the record holds one. */
  examRoomName: z.string().nullable(),
  status: z.enum(CHECK_IN_STATUSES),
  checkInDate: z.string(),
  checkOutDate: z.string().nullable(),
  viewers: z.array(
    z.object({
      name: z.string(),
      cpf: z.string(),
      checkOutDate: z.string().nullable(),
      checkOutValidated: z.boolean(),
    }),
  ),
});
export type CheckInSummary = z.infer<typeof checkInSummarySchema>;
export const checkInPageSchema = pageOf(checkInSummarySchema);
export type CheckInPage = z.infer<typeof checkInPageSchema>;

/** `GET exams?checkInId`: the exams of the record's post and day (spec 3 check-in exam: id, cpf). */
export const checkInExamsQuerySchema = z.object({
  checkInId: z.uuid('Registro de entrada inválido.'),
  ...pageQueryParams({ defaultSize: 50, maxSize: 200 }),
});

export const checkInExamSchema = z.object({
  id: z.string(),
  /** The candidate's CPF, masked. */
  cpf: z.string(),
  schedulingId: z.string(),
  candidateName: z.string(),
  schedulingDate: z.string(),
  status: z.enum(EXAM_STATUSES),
  result: z.enum(EXAM_RESULTS).nullable(),
  room: z.string().nullable(),
  station: z.string().nullable(),
});
export type CheckInExam = z.infer<typeof checkInExamSchema>;
export const checkInExamPageSchema = pageOf(checkInExamSchema);
export type CheckInExamPage = z.infer<typeof checkInExamPageSchema>;

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
