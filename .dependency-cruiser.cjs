// Import rules, checked by `npm run lint` over proto, backend, sfu and frontend. ../shared/DESIGN.md, Conventions:
// each backend context is a folder whose `public/` holds the only files another context may import, and a
// dependency checker in `npm run lint` enforces it. Paths are relative to the repository root; the fixture of
// backend/src/boundaries.unit.spec.ts has the same layout.

/** Backend folders that are not bounded contexts. Top-level files (app.module.ts, contexts.ts...) are not either. */
const NOT_A_CONTEXT = '(?:platform|config|cli|test-support)/';
/** Test code: specs, and the shared suites (`.contract.ts`) that specs run. */
const TEST_FILE = '\\.(?:spec|contract)\\.tsx?$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle: these modules can only be understood, tested and loaded together. Type-only imports ' +
        'count too: a type that two files both need belongs in a third file.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'context-boundaries',
      severity: 'error',
      comment:
        "A context imports only itself, platform/, config/, @serendip/proto, npm packages and other contexts' " +
        'public/ folders (../shared/DESIGN.md, Conventions).',
      from: { path: `^backend/src/(?!${NOT_A_CONTEXT})([^/]+)/`, pathNot: TEST_FILE },
      to: {
        path: '^backend/src/',
        pathNot: ['^backend/src/$1/', '^backend/src/(platform|config)/', '^backend/src/[^/]+/public/'],
      },
    },
    {
      // A spec may test its own context's internals and use test-support/ (which may import anything). A spec
      // that reaches into another context's internals breaks whenever that context restructures: it sets such
      // state up through the other context's public/ or a test-support/ helper instead.
      name: 'context-boundaries',
      severity: 'error',
      comment:
        'A spec in a context imports only its own context, platform/, config/, test-support/ and other ' +
        "contexts' public/ folders.",
      from: { path: `^backend/src/(?!${NOT_A_CONTEXT})([^/]+)/.*${TEST_FILE}` },
      to: {
        path: '^backend/src/',
        pathNot: ['^backend/src/$1/', '^backend/src/(platform|config|test-support)/', '^backend/src/[^/]+/public/'],
      },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'domain/ holds the pure decisions (decide, evolve, errors: ../shared/STYLE.md) and runs without Nest, ' +
        'HTTP, sockets or projections.',
      from: { path: '^backend/src/[^/]+/domain/' },
      to: {
        path: [
          // A package as resolved in node_modules, or its bare name when it cannot be resolved.
          '(^|node_modules/)(@types/)?(@nestjs/|express(/|$)|socket\\.io(/|$))',
          '^backend/src/.*/(http|gateway|projections)/',
        ],
      },
    },
    {
      // Platform specs are left out: a test that runs the platform against the real contexts (contexts.ts, a
      // context's projection) is a test of the whole application, and specs are not part of the build.
      name: 'platform-knows-no-context',
      severity: 'error',
      comment: 'platform/ serves every context, so it imports none of them: only platform/, config/ and packages.',
      from: { path: '^backend/src/platform/', pathNot: TEST_FILE },
      to: { path: '^backend/src/', pathNot: '^backend/src/(platform|config)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Built output repeats the sources (@serendip/sfu resolves into sfu/dist once that is built).
    exclude: { path: '(^|/)(dist|coverage)/' },
    // Type-only imports, which TypeScript erases, stay in the graph so that no-circular sees them.
    tsPreCompilationDeps: true,
    // NodeNext: `.js` imports of `.ts` files; its `paths` maps @serendip/proto to proto/src, as the tests see it.
    tsConfig: { fileName: 'tsconfig.tests.json' },
    // Packages that declare only `exports` (uuid, react-router/dom) resolve as Node and TypeScript resolve them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'require', 'node', 'default'],
    },
    skipAnalysisNotInRules: true,
  },
};
