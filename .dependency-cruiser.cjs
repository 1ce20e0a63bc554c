/**
 * Import rules of the workspaces, checked by dependency-cruiser in `npm run
 * lint` (and so in `npm test`) over packages/shared/{src,test},
 * apps/server/{src,test} and apps/web/src. Type-only imports count like any
 * other (tsPreCompilationDeps). apps/server/test/layers.test.ts shows each
 * kind of rule failing.
 *
 * Server layers, highest first; a layer imports only the layers below it:
 *
 *   main.ts -> app.ts -> jobs/, cli/ (and db/seed/) -> modules/ -> plugins/
 *     -> biometrics/ (face engine), db/ -> lib/ -> config/ -> packages/shared
 *
 * Modules import each other only through a module's `*.service.ts` files
 * and in one direction (MODULE_ORDER). SQL only in repositories. Web:
 * packages/shared <- apps/web/src/{api,lib,components,...} <- features/<name>
 * <- app/; a feature never imports another feature.
 *
 * Test files (`*.test.ts(x)`) may reach across layers (they build the app
 * and read the database to check it) but never form a loop.
 */

const SERVER = '^apps/server/src/';
const TEST_FILE = '\\.test\\.tsx?$';

/**
 * Server layers, lowest first. `path` matches the files of the layer;
 * `mayImport` lists the other layers it may import. packages/shared and
 * npm packages are open to every layer.
 */
const SERVER_LAYERS = [
  { name: 'config', path: `${SERVER}config/`, mayImport: [] },
  { name: 'lib', path: `${SERVER}lib/`, mayImport: ['config'] },
  // db/seed/ (the demo and first-start data, used by cli/ and main.ts) counts as the cli layer.
  { name: 'db', path: `${SERVER}db/(?!seed/)`, mayImport: ['lib', 'config'] },
  { name: 'biometrics', path: `${SERVER}biometrics/`, mayImport: ['lib', 'config'] },
  {
    name: 'plugins',
    path: `${SERVER}plugins/`,
    mayImport: ['biometrics', 'db', 'lib', 'config'],
  },
  {
    name: 'modules',
    path: `${SERVER}modules/`,
    mayImport: ['plugins', 'biometrics', 'db', 'lib', 'config'],
  },
  {
    name: 'jobs',
    path: `${SERVER}jobs/`,
    mayImport: ['modules', 'plugins', 'biometrics', 'db', 'lib', 'config'],
  },
  {
    name: 'cli',
    path: `${SERVER}(cli|db/seed)/`,
    mayImport: ['modules', 'plugins', 'biometrics', 'db', 'lib', 'config'],
  },
  {
    name: 'app',
    path: `${SERVER}app\\.ts$`,
    mayImport: ['jobs', 'cli', 'modules', 'plugins', 'biometrics', 'db', 'lib', 'config'],
  },
  {
    name: 'main',
    path: `${SERVER}main\\.ts$`,
    mayImport: ['app', 'jobs', 'cli', 'modules', 'plugins', 'biometrics', 'db', 'lib', 'config'],
  },
];
const layerPath = (name) => SERVER_LAYERS.find((layer) => layer.name === name).path;

/**
 * The modules of apps/server/src/modules, lowest first: a module imports only
 * modules listed before it, so module imports run one way and never loop. A
 * new module is added here, above what it uses.
 */
const MODULE_ORDER = [
  'activity',
  'mail',
  'federative-units',
  'scheduling-locals',
  'disqualification-reasons',
  'health',
  'backup',
  'exam-report',
  'users',
  'auth',
  'sign-in-providers',
  'realtime',
  'face-enrolment',
  'exams',
  'exam-rooms',
  'audits',
  'certificates',
  'fraud',
  'integration',
  'check-ins',
  'retention',
  'demo',
];
const MODULES = `${SERVER}modules/`;

/**
 * Files of apps/server/src that may build or run queries, that is import
 * drizzle-orm, db/schema or db/select-rows: repositories, the database's own
 * files, the seeds and tests. Routes, services, plugins, lib and the rest of
 * db/ run SQL through a repository.
 */
const MAY_QUERY = [
  '\\.repository\\.ts$',
  TEST_FILE,
  `${SERVER}db/client\\.ts$`,
  `${SERVER}db/prepared-statements\\.ts$`,
  `${SERVER}db/select-rows\\.ts$`,
  `${SERVER}db/schema/`,
  `${SERVER}db/seed/`,
];

const WEB = '^apps/web/src/';
const WEB_TEST_SUPPORT = `${WEB}test/`;
const WEB_APP = `${WEB}(app/|main\\.tsx$)`;
const WEB_FEATURES = `${WEB}features/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import loops between files of the project (type-only imports included). ' +
        'Move the shared piece down a layer or into packages/shared.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },

    // Server layers: one rule per layer, named server-<layer>-imports-upward.
    ...SERVER_LAYERS.map((layer) => ({
      name: `server-${layer.name}-imports-upward`,
      comment:
        `apps/server: ${layer.name} imports only ` +
        `${layer.mayImport.length ? layer.mayImport.join(', ') : 'nothing of the server'} ` +
        '(and packages/shared). Layers: main -> app -> jobs, cli (cli/, db/seed/) -> modules -> ' +
        'plugins -> biometrics, db -> lib -> config. Pass what a lower layer needs in from ' +
        'above (as app.ts gives the auth plugin its resolvers) or move it down.',
      severity: 'error',
      from: { path: layer.path, pathNot: TEST_FILE },
      to: {
        path: SERVER,
        pathNot: [layer.path, ...layer.mayImport.map(layerPath)],
      },
    })),
    {
      name: 'server-src-imports-test-support',
      comment: 'apps/server/test is for tests: only *.test.ts files import it.',
      severity: 'error',
      from: { path: SERVER, pathNot: TEST_FILE },
      to: { path: '^apps/server/test/' },
    },
    {
      name: 'server-imports-outside-server',
      comment: 'apps/server imports nothing of the other workspaces but packages/shared.',
      severity: 'error',
      from: { path: '^apps/server/' },
      to: { path: '^(apps/(?!server/)|e2e/|bench/)' },
    },

    {
      name: 'server-imports-research',
      comment:
        'research/ (the face studies) imports the server, never the other way: apps/server, ' +
        'apps/web and packages/shared import nothing of it. Move what the product needs into ' +
        'apps/server/src/biometrics.',
      severity: 'error',
      from: { path: '^(apps/|packages/shared/)' },
      to: { path: '^research/' },
    },

    // Modules.
    {
      name: 'module-imports-module-internals',
      comment:
        'A module imports another module only through its *.service.ts files (never its ' +
        'repositories, routes or other files). Add what is needed to that service.',
      severity: 'error',
      from: { path: `${MODULES}([^/]+)/`, pathNot: TEST_FILE },
      to: { path: MODULES, pathNot: [`${MODULES}$1/`, '\\.service\\.ts$'] },
    },
    ...MODULE_ORDER.map((name, index) => ({
      name: 'module-imports-higher-module',
      comment:
        `modules/${name} imports only modules listed before it in MODULE_ORDER ` +
        `(.dependency-cruiser.cjs): ${MODULE_ORDER.slice(0, index).join(', ') || 'none'}. ` +
        'Module imports run one way; a loop breaks this rule.',
      severity: 'error',
      from: { path: `${MODULES}${name}/`, pathNot: TEST_FILE },
      to: { path: `${MODULES}(?!(${MODULE_ORDER.slice(0, index + 1).join('|')})/)` },
    })),
    {
      name: 'module-not-in-module-order',
      comment:
        'Every folder of apps/server/src/modules is listed in MODULE_ORDER ' +
        '(.dependency-cruiser.cjs), above the modules it imports.',
      severity: 'error',
      from: { path: `${MODULES}(?!(${MODULE_ORDER.join('|')})/)` },
      to: {},
    },

    // SQL only in repositories.
    {
      name: 'sql-only-in-repositories',
      comment:
        'In apps/server/src only repositories (*.repository.ts), db/client.ts, ' +
        'db/prepared-statements.ts, db/select-rows.ts, db/schema/, db/seed/ and tests import ' +
        'drizzle-orm, db/schema or db/select-rows. Put the query in a repository.',
      severity: 'error',
      from: { path: SERVER, pathNot: MAY_QUERY },
      to: {
        path: [
          '(^|/)node_modules/drizzle-orm/',
          `${SERVER}db/schema/`,
          `${SERVER}db/select-rows\\.ts$`,
        ],
      },
    },

    // Shared package and web layers.
    {
      name: 'shared-imports-app',
      comment: 'packages/shared imports nothing of the apps (nor e2e, bench).',
      severity: 'error',
      from: { path: '^packages/shared/' },
      to: { path: '^(apps|e2e|bench)/' },
    },
    {
      name: 'web-imports-server',
      comment: 'apps/web talks to the server over HTTP; shared types come from packages/shared.',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^(apps/server|e2e|bench)/' },
    },
    {
      name: 'web-base-imports-feature-or-app',
      comment:
        'apps/web/src/{api,lib,components,...} import no feature and not the app (app/, main.tsx).',
      severity: 'error',
      from: { path: WEB, pathNot: [WEB_FEATURES, WEB_APP, WEB_TEST_SUPPORT] },
      to: { path: [WEB_FEATURES, WEB_APP] },
    },
    {
      name: 'web-feature-imports-app',
      comment: 'A feature does not import the app (app/, main.tsx); the app composes features.',
      severity: 'error',
      from: { path: WEB_FEATURES },
      to: { path: WEB_APP },
    },
    {
      name: 'web-feature-imports-other-feature',
      comment:
        'A feature never imports another feature; move what both need to api/, lib/ or components/.',
      severity: 'error',
      from: { path: `${WEB_FEATURES}([^/]+)/` },
      to: { path: WEB_FEATURES, pathNot: `${WEB_FEATURES}$1/` },
    },
    {
      name: 'web-test-support-outside-tests',
      comment: 'apps/web/src/test/ (renders the app for tests) is imported by test files only.',
      severity: 'error',
      from: { path: '^apps/web/', pathNot: [TEST_FILE, WEB_TEST_SUPPORT] },
      to: { path: WEB_TEST_SUPPORT },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)dist/' },
    // Type-only imports are dependencies too (a loop through types is a loop).
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.mts', '.d.mts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
