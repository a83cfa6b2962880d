import { performance } from 'node:perf_hooks';
import cliProgress from 'cli-progress';
import { sql } from 'kysely';
import { contexts } from '../contexts.js';
import { rebuildProjection } from '../platform/projections/rebuild-projection.js';
import { runCli, withEventCore } from './cli-support.js';

/**
 * `npm run projections:rebuild [name]`: empties read models and replays the whole log into them, with a
 * progress bar and the rate. Stop the app first: its projector would write the same rows meanwhile (with the
 * embedded Postgres, a running app holds the database and this refuses to start).
 */
runCli('projections:rebuild', async () => {
  const all = contexts.flatMap((c) => c.projections);
  const wanted = process.argv[2];
  const chosen = wanted ? all.filter((p) => p.name === wanted) : all;
  if (chosen.length === 0)
    throw new Error(`no projection named ${wanted}; there are: ${all.map((p) => p.name).join(', ')}`);

  await withEventCore(async ({ config, db, core }) => {
    const total = config.eventStoreUrl
      ? 0
      : Number((await sql<{ n: string }>`select count(*) as n from events`.execute(db)).rows[0]!.n);
    for (const projection of chosen) {
      const bar = new cliProgress.SingleBar(
        {
          format: `${projection.name} [{bar}] {percentage}% | {value}/{total} events | {rate} events/s`,
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      );
      const started = performance.now();
      bar.start(total, 0, { rate: 0 });
      const { events } = await rebuildProjection(db, core.store, projection, (n) =>
        bar.update(n, { rate: Math.round(n / ((performance.now() - started) / 1000)) }),
      );
      bar.stop();
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(
        `rebuilt ${projection.name}: ${events} events in ${seconds.toFixed(2)} s (${Math.round(events / Math.max(seconds, 0.001))} events/s)\n`,
      );
    }
  });
});
