// The house's walls, checked by `npm run check:layout` (dependency-cruiser, part of `npm test`): no
// circles among the modules of src/ and workers/; core/ (pure logic: benchmarks, protocols, metrics,
// the run record, formats, notices) imports nothing outside core/; and neither src/lib nor the
// workers import the screen (src/ui). An import that breaks one fails the test command.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports: cut it by moving what both sides need into a module both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-stays-in-core',
      severity: 'error',
      comment: 'src/lib/core is the pure floor: it may import only core and packages, never storage, the engine, data or the screen.',
      from: { path: '^src/lib/core/' },
      to: { pathNot: ['^src/lib/core/', 'node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'lib-knows-no-screen',
      severity: 'error',
      comment: 'Dependencies point one way, ui → engine/store/data → core (../shared/design.md): nothing under src/lib imports the screen.',
      from: { path: '^src/lib/' },
      to: { path: '^src/ui/' },
    },
    {
      name: 'worker-knows-no-screen',
      severity: 'error',
      comment: 'The worker imports core, never ui.',
      from: { path: '^workers/' },
      to: { path: '^src/ui/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.svelte', '.json'] },
  },
};
