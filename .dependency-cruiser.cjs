// The package boundaries of docs/architecture.md, checked by `npm run lint` (dependency-cruiser).
// Arrows allowed: server → roles (api, scheduler, dispatcher, operator) → core → contract; web → contract.
// A violation prints the rule's name; scripts/lint/boundaries.test.ts shows each rule failing on a forbidden import.

/** Test code may start the simulator and whole processes; production code may not. */
const TEST_CODE = [
  '\\.test\\.tsx?$',
  '/test-support/',
  '^services/[^/]+/test/',
  '[.-]test-helpers\\.ts$',
  '\\.sim-helpers\\.ts$',
  '^services/[^/]+/scripts/',
  '^scripts/',
  '^web/e2e/',
];
const ROLES = '(api|scheduler|dispatcher|operator)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-no-role',
      comment: 'core is what every role shares; it never knows the roles, the composition root or the dashboard.',
      severity: 'error',
      from: { path: '^services/core/' },
      to: { path: [`^services/${ROLES}/`, '^services/server/', '^web/'] },
    },
    {
      name: 'roles-never-import-each-other',
      comment: 'a role is a library the composition root starts; roles share code through core only.',
      severity: 'error',
      from: { path: `^services/${ROLES}/` },
      to: { path: `^services/${ROLES}/`, pathNot: '^services/$1/' },
    },
    {
      name: 'only-tests-import-the-composition-root',
      comment: 'services/server composes the roles; nothing but its own files and tests may import it.',
      severity: 'error',
      from: { path: '^(services|web)/', pathNot: ['^services/server/', ...TEST_CODE] },
      to: { path: '^services/server/' },
    },
    {
      name: 'web-imports-only-the-contract',
      comment: 'the dashboard talks to the server over HTTP; it shares the zod contract and nothing else.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^services/', pathNot: '^services/contract/' },
    },
    {
      name: 'contract-imports-nothing-of-reelstat',
      comment: 'the contract is shared with the browser: zod schemas only.',
      severity: 'error',
      from: { path: '^services/contract/' },
      to: { path: ['^services/', '^web/'], pathNot: '^services/contract/' },
    },
    {
      name: 'production-never-imports-the-simulator',
      comment: 'the simulator is for tests, benchmarks and the demo; the product must work without it.',
      severity: 'error',
      from: { path: '^(services|web)/', pathNot: ['^services/jellyfin-sim/', ...TEST_CODE] },
      to: { path: '^services/jellyfin-sim/' },
    },
    {
      name: 'simulator-imports-nothing-of-reelstat',
      comment: 'the simulator stands in for a real Jellyfin/Emby: it must not share code with what it tests.',
      severity: 'error',
      from: { path: '^services/jellyfin-sim/' },
      to: { path: ['^services/', '^web/'], pathNot: '^services/jellyfin-sim/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that resolves to nothing would hide a boundary crossing.',
      severity: 'error',
      from: { path: '^(services|web)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['/dist/', '/node_modules/', '^web/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['reelstat-source', 'import', 'require', 'node', 'types', 'default'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
