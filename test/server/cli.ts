/**
 * `npm run serve -- [options]`: runs the local Model Access Service in the foreground.
 * The first line of stdout is exactly one JSON object `{"url": "...", "keys": {"<org>": "<key>"}}` so
 * scripts can read it; the request log goes to stderr. Ctrl+C / SIGTERM close it cleanly.
 */
import { USAGE, parseServeArgs } from './args';
import { startServer } from './index';
import { demoRegistryChanges } from './registryChanges';

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseServeArgs>;
  try {
    parsed = parseServeArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const { help, quiet, registryChanges, ...options } = parsed;
  if (help) {
    process.stdout.write(USAGE);
    return;
  }
  const server = await startServer({
    ...options,
    log: quiet ? undefined : (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
  });
  if (registryChanges) {
    const org = server.registry.organizations[0];
    server.changeRegistry(org, demoRegistryChanges(server.registry.models.filter((m) => m.organization === org)));
  }
  process.stdout.write(`${JSON.stringify({ url: server.url, keys: server.keys })}\n`);
  const models = server.registry.models.length;
  process.stderr.write(
    `Model Access Service (dialect ${server.dialect}, ${models} ${models === 1 ? 'model' : 'models'}) listening on ${server.url}; Ctrl+C to stop\n`,
  );
  if (registryChanges) {
    process.stderr.write(
      `Registry changes: organization "${server.registry.organizations[0]}" sees zephyr-1 new, aurora-1 gone, aurora-1.5 as 1.5.1 and aurora-2 retiring\n`,
    );
  }
  if (server.hostile) {
    const { organization, endlessOrganization } = server.hostile;
    const endless = endlessOrganization ? `; organization "${endlessOrganization}" lists forever` : '';
    process.stderr.write(
      `Hostile mode: organization "${organization}" serves hostile text and model "endless" streams forever${endless} (keys above)\n`,
    );
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    process.stderr.write(`${signal}: closing\n`);
    server.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`error while closing: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
