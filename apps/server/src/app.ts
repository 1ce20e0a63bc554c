/**
 * Builds the Fastify application: external plugins first, then the app's own
 * plugins, then the feature routes. The database handle is opened by the
 * caller (main or a test) and passed in, so tests choose PGlite or PostgreSQL.
 */
import qs from 'qs';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppConfig } from './config/env';
import type { DatabaseHandle } from './db/client';
import { logSerializers } from './lib/log-safety';
import { REQUEST_ID_HEADER, requestIdGenerator } from './lib/request-id';
import { createPasswordHasher, type PasswordHasher } from './lib/password-hash';
import { findRoutesWithoutPolicy, type RegisteredRoute } from './lib/route-policy';
import { resolveOperatorToken } from './lib/operator-token';
import { createSecretBox } from './lib/secret-box';
import { createPseudonymizer, type Pseudonymizer } from './lib/pseudonym';
import { createRateLimiter, type RateLimitOverrides } from './db/rate-limit';
import { createAdmission, type Admission } from './lib/admission';
import { createMetrics, type Metrics } from './plugins/metrics-registry';
import { createSessionCache } from './lib/session-cache';
import { authRoutes } from './modules/auth/auth.routes';
import { secondFactorRoutes } from './modules/auth/second-factor.routes';
import { signInProviderRoutes } from './modules/sign-in-providers/sign-in-providers.routes';
import { issuePasswordLink, revokeUserSessions } from './modules/auth/auth.service';
import type { IdentityDeps } from './modules/auth/identity-deps';
import { resolveSession } from './modules/auth/sessions.service';
import { resolveApiKey } from './modules/integration/api-keys.service';
import {
  createLinkRequestWorker,
  type LinkRequestWorker,
} from './modules/auth/password-links.service';
import { createMailer, type Mailer } from './modules/mail/mailer';
import { mailRoutes } from './modules/mail/mail.routes';
import { backupRoutes } from './modules/backup/backup.routes';
import { userRoutes } from './modules/users/users.routes';
import { activityRoutes } from './modules/activity/activity.routes';
import { examReportRoutes } from './modules/exam-report/exam-report.routes';
import { examRoutes } from './modules/exams/exams.routes';
import { integrationRoutes } from './modules/integration/integration.routes';
import { schedulingLocalRoutes } from './modules/scheduling-locals/scheduling-locals.routes';
import { disqualificationReasonRoutes } from './modules/disqualification-reasons/disqualification-reasons.routes';
import { auditRoutes } from './modules/audits/audits.routes';
import {
  createFaceReadNotices,
  type FaceReadNotices,
} from './modules/audits/face-read-queue.service';
import { certificateRoutes } from './modules/certificates/certificates.routes';
import { revokeForResult } from './modules/certificates/certificates.service';
import { fraudSearch, type FraudSearch } from './modules/fraud/fraud-detection.service';
import { fraudCaseRoutes } from './modules/fraud/fraud.routes';
import { demoRoutes } from './modules/demo/demo.routes';
import { createFileStorage, resolveFileKey, type FileStorage } from './lib/file-storage';
import { fileStoreFor } from './lib/object-storage';
import type { FaceService } from './biometrics/face-engine';
import { faceServiceFromConfig } from './biometrics/face-pool';
import { biopassRoutes } from './modules/face-enrolment/face-enrolment.routes';
import { checkInRoutes } from './modules/check-ins/check-ins.routes';
import { challengeSubjectCpf } from './modules/check-ins/check-in-face.service';
import { examRoomRoutes } from './modules/exam-rooms/exam-rooms.routes';
import { createRealtimeHub, type RealtimeHub } from './modules/realtime/realtime-hub';
import { realtimeRoutes } from './modules/realtime/realtime.routes';
import { createStreamSessions, type StreamSessions } from './modules/realtime/stream-sessions';
import { chainAnchors } from './modules/activity/chain-upkeep.service';
import { registerAdmission } from './plugins/admission';
import { registerAuth } from './plugins/auth';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerInputGuard } from './plugins/input-guard';
import { registerMetrics } from './plugins/metrics';
import { federativeUnitRoutes } from './modules/federative-units/federative-units.routes';
import { healthRoutes } from './modules/health/health.routes';
import { frameworkErrorHandler, registerErrorHandler } from './plugins/error-handler';
import { registerOpenApi } from './plugins/openapi';
import { registerWeb } from './plugins/web';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    database: DatabaseHandle;
    lifecycle: { shuttingDown: boolean };
    registeredRoutes: RegisteredRoute[];
    identity: IdentityDeps & { linkRequests: LinkRequestWorker };
    files: FileStorage;
    /** Keyed pseudonyms of personal data (rate-limit keys, retention). */
    pseudonym: Pseudonymizer;
    /** This instance's realtime fan-out (LISTEN -> its SSE clients). */
    realtime: RealtimeHub;
    /** The sessions behind this instance's open event streams. */
    realtimeSessions: StreamSessions;
    /** The line of API requests waiting for the database (DB_MAX_ACTIVE_REQUESTS...). */
    admission: Admission;
    /** This instance's Prometheus metrics (GET /metrics). */
    metrics: Metrics;
    /** The face engine, its analyses measured. */
    face: FaceService;
    /** Photos stored, to the `face-read` queue once the job queue started (jobs/scheduled-jobs.ts). */
    faceReads: FaceReadNotices;
    /** The search for the same face in other exams, told after each exam's reading. */
    fraud: FraudSearch;
  }
}

export type BuildAppOptions = {
  config: AppConfig;
  database: DatabaseHandle;
  logger?: FastifyServerOptions['logger'];
  /** The face engine, warmed by the caller; when absent one is created on first use. */
  faceService?: FaceService;
  /** Tests may pass a cheaper hasher; production uses the configured argon2id cost. */
  hasher?: PasswordHasher;
  mailer?: Mailer;
  /**
   * Link requests are worked off right after each answer (`auto`, the
   * default); tests that look at the answer alone take `manual` and run the
   * worker themselves.
   */
  linkRequests?: 'auto' | 'manual';
  /** Tests that make many calls on purpose raise the limits they are not about. */
  rateLimits?: RateLimitOverrides;
};

export function loggerOptions(config: AppConfig): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    serializers: logSerializers,
    // Secrets never reach the log (security guide: passwords, tokens, images).
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        '*.password',
        '*.token',
        '*.image',
      ],
      censor: '[oculto]',
    },
  };
}

function contentSecurityPolicy(config: AppConfig) {
  const widgetOrigin = config.librasWidgetUrl ? new URL(config.librasWidgetUrl).origin : undefined;
  const apiOrigin = config.publicApiBaseUrl ? new URL(config.publicApiBaseUrl).origin : undefined;
  const extra = (...origins: Array<string | undefined>) =>
    origins.filter((o): o is string => Boolean(o));
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      // 'wasm-unsafe-eval' lets the page compile WebAssembly (the face landmarks of the capture
      // screen run on TensorFlow.js's wasm backend, ~20x faster than its plain JavaScript one);
      // it does not allow evaluating JavaScript.
      scriptSrc: ["'self'", ...extra(widgetOrigin), "'wasm-unsafe-eval'"],
      // Mantine and the Libras widget set inline styles.
      styleSrc: ["'self'", "'unsafe-inline'", ...extra(widgetOrigin)],
      imgSrc: ["'self'", 'data:', 'blob:', ...extra(widgetOrigin)],
      fontSrc: ["'self'", 'data:', ...extra(widgetOrigin)],
      connectSrc: ["'self'", ...extra(apiOrigin, widgetOrigin)],
      mediaSrc: ["'self'", 'blob:', 'data:'],
      workerSrc: ["'self'", 'blob:', ...extra(widgetOrigin)],
      frameSrc: ["'self'", ...extra(widgetOrigin)],
    },
  };
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Request ids (lib/request-id.ts): on every log line, in `x-request-id` and in error bodies.
    genReqId: requestIdGenerator(config.trustProxy),
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: 1024 * 1024,
    // Refusals of the router itself (bad escapes, over-long parameters) answer `{ Error, code }` too.
    frameworkErrors: frameworkErrorHandler,
    // The web client sends bracket arrays (`status[]=done&status[]=absence`).
    routerOptions: {
      querystringParser: (query: string) =>
        qs.parse(query, { arrayLimit: 100, depth: 2, parameterLimit: 200, allowPrototypes: false }),
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('lifecycle', { shuttingDown: false });
  app.decorate('registeredRoutes', [] as RegisteredRoute[]);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // Read lazily: hooks of inner scopes run after this one and may set the policy.
      app.registeredRoutes.push({
        method,
        url: route.url,
        get access() {
          return route.config?.access;
        },
        get reauth() {
          return route.config?.reauth === true;
        },
      });
    }
  });

  // External tier.
  registerSecurityHeaders(app, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.nodeEnv === 'production',
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  // Off in production unless API_DOCS=true: /docs then answers 404 like any unknown path.
  if (config.apiDocs) await registerOpenApi(app);

  // App tier.
  registerErrorHandler(app);
  registerInputGuard(app);
  const sessions = createSessionCache({ ttlMs: config.sessionCacheMs });
  registerAuth(
    app,
    {
      session: (token, now, cache) =>
        resolveSession(app.database.db, app.config, token, now, cache),
      apiKey: (key) => resolveApiKey({ db: app.database.db }, key),
    },
    resolveOperatorToken(config.dataDir),
    sessions,
    config.metricsToken,
    config.reauthWindowMs,
  );
  const admission = createAdmission(config.database.admission);
  app.decorate('admission', admission);
  registerAdmission(app, admission);
  const metrics = createMetrics({
    dbPool: () => database.poolStats(),
    admission: () => admission.stats(),
    activityChains: () => chainAnchors(database.db),
  });
  app.decorate('metrics', metrics);
  registerMetrics(app, metrics);
  const mailer =
    options.mailer ??
    createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log });
  const masterKey = resolveFileKey(config.dataDir, config.fileEncryptionKey);
  const pseudonym = createPseudonymizer(masterKey);
  app.decorate('pseudonym', pseudonym);
  const limiter = createRateLimiter(database.db, pseudonym, {
    verifyPerCpfAll: { limit: config.faceVerifyCpfLimit },
    activityEventsPerUser: { limit: config.activity.clientEventsPerHour },
    ...options.rateLimits,
  });
  const linkRequests = createLinkRequestWorker(
    { db: database.db, config, mailer, log: app.log, limiter },
    { auto: (options.linkRequests ?? 'auto') === 'auto' },
  );
  const identity = {
    db: database.db,
    config,
    hasher: options.hasher ?? createPasswordHasher(config.argon2),
    secrets: createSecretBox(masterKey, 'second-factor'),
    mailer,
    log: app.log,
    limiter,
    linkRequests,
  } satisfies IdentityDeps;
  app.decorate('identity', identity);
  app.addHook('onReady', async () => {
    linkRequests.start();
  });
  app.addHook('onClose', async () => {
    linkRequests.stop();
    await linkRequests.idle();
    mailer.close();
  });

  const store = fileStoreFor(config.fileStorage);
  app.addHook('onClose', async () => store.close());
  const files = createFileStorage({ store, key: masterKey });
  app.decorate('files', files);

  // Routes: each module gets what it needs from the parts built once above.
  const db = database.db;
  await app.register(healthRoutes({ database }));
  await app.register(federativeUnitRoutes({ db }));
  await app.register(authRoutes(identity));
  await app.register(secondFactorRoutes(identity));
  await app.register(
    signInProviderRoutes({
      db,
      config,
      secrets: createSecretBox(masterKey, 'identity-provider'),
      limiter,
      log: app.log,
      mailer,
    }),
  );
  await app.register(
    userRoutes({
      db,
      mailer,
      log: app.log,
      // Auth sits above users: its steps of a user change come in from here.
      issueRegisterLink: (tx, user) =>
        issuePasswordLink({ config, mailer, tx }, user, { purpose: 'register' }),
      revokeSessions: revokeUserSessions,
    }),
  );
  await app.register(activityRoutes({ db: database.db, pseudonym, limiter }));
  await app.register(mailRoutes({ db }));
  await app.register(backupRoutes({ database, fileStorage: config.fileStorage, key: masterKey }));
  await app.register(examReportRoutes({ db, prefixes: config.reportLocalPrefixes }));
  await app.register(schedulingLocalRoutes({ db }));
  await app.register(disqualificationReasonRoutes({ db }));
  await app.register(examRoutes({ db, files, signedUrlTtlMs: config.signedUrlTtlMs }));
  await app.register(certificateRoutes({ db, publicAppUrl: config.publicAppUrl, limiter }));
  // Each photo stored is read through the `face-read` queue, sent after its commit.
  const faceReads = createFaceReadNotices(app.log);
  app.decorate('faceReads', faceReads);
  const photosStored = faceReads.photosStored;
  await app.register(integrationRoutes({ db, files, photosStored }));
  const face = options.faceService ?? faceServiceFromConfig(config.face);
  const stopMeasuringFace = metrics.measureFace(face);
  app.addHook('onClose', async () => {
    stopMeasuringFace();
    if (!options.faceService) await face.close();
  });
  app.decorate('face', face);
  const fraud = fraudSearch({
    db,
    descriptorVersion: face.descriptorVersion,
    settings: config.fraud,
    log: app.log,
  });
  app.decorate('fraud', fraud);
  const audits = {
    db,
    files,
    face,
    afterExamRead: fraud.afterExamRead,
    claimMs: config.auditClaimMs,
    signedUrlTtlMs: config.signedUrlTtlMs,
    twoPersonRule: config.audit.twoPersonRule,
    recheckRate: config.audit.recheckRate,
    // Certificates sit above audits: a disqualified or reopened result revokes them from here.
    resultChanged: revokeForResult,
  };
  await app.register(auditRoutes(audits));
  // The cases of possible fraud send exams back to audit the same way.
  await app.register(fraudCaseRoutes(audits));
  const biopass = { db, files, face, signedUrlTtlMs: config.signedUrlTtlMs, limiter, pseudonym };
  const checkIns = { ...biopass, identity };
  await app.register(
    biopassRoutes({
      ...biopass,
      // Challenges of the check-in flows name the person as the capture will.
      resolveSubject: (actor, subject) => challengeSubjectCpf(checkIns, actor, subject),
    }),
  );
  await app.register(demoRoutes(biopass));
  await app.register(checkInRoutes(checkIns));
  await app.register(examRoomRoutes({ db, files, photosStored }));
  const realtime = createRealtimeHub({ db, listen: database.listen, log: app.log });
  app.decorate('realtime', realtime);
  app.addHook('onReady', () => realtime.start());
  // Before the server stops accepting: open streams end, so closing does not wait on them.
  app.addHook('preClose', () => realtime.close());
  const streamSessions = createStreamSessions({
    db,
    listen: database.listen,
    log: app.log,
    idleMs: config.session.idleMs,
    maxStreamsPerUser: config.realtime.maxStreamsPerUser,
    checkMs: config.realtime.sessionCheckMs,
  });
  app.decorate('realtimeSessions', streamSessions);
  app.addHook('onReady', () => streamSessions.start());
  app.addHook('preClose', () => streamSessions.close());
  await app.register(realtimeRoutes({ db, hub: realtime, sessions: streamSessions }));
  await registerWeb(app, config);

  app.addHook('onReady', async () => {
    const missing = findRoutesWithoutPolicy(app.registeredRoutes);
    if (missing.length > 0) {
      const list = missing.map((route) => `${route.method} ${route.url}`).join(', ');
      throw new Error(`Rotas sem política de acesso declarada: ${list}`);
    }
  });
  return app;
}
