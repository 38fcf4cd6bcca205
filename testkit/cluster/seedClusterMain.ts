// `node dist/seedCluster.js --kubeconfig FILE [--context NAME] DIR…`: writes every manifest under the DIRs into that
// cluster with seedCluster.ts (as `kubectl apply` would: owners first, the server's uids, objects exported while
// terminating made terminating) and says what it did; exit 1 if the server refused any object.
// Bundled by esbuild.mjs so that `npm run demo -- --cluster`, plain Node after `npm run build`, can run it; like the
// bench it stays out of the .vsix (scripts/package.mjs bundles only the client, the server and the webview).

import { clusterWriter, manifestsIn, seedCluster } from './seedCluster';

const USAGE = 'usage: node dist/seedCluster.js --kubeconfig FILE [--context NAME] DIR...';

async function main(argv: string[]): Promise<number> {
  let kubeconfig: string | undefined;
  let context: string | undefined;
  const dirs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    if (flag === '--kubeconfig') kubeconfig = inline ?? argv[++i];
    else if (flag === '--context') context = inline ?? argv[++i];
    else if (argv[i].startsWith('-')) throw new Error(`unknown flag ${argv[i]}\n${USAGE}`);
    else dirs.push(argv[i]);
  }
  if (!kubeconfig || dirs.length === 0) throw new Error(USAGE);

  const manifests = dirs.flatMap((dir) => manifestsIn(dir));
  const result = await seedCluster(clusterWriter(kubeconfig, context), manifests);
  const name = (m: (typeof manifests)[number]) => `${m.kind} ${m.metadata?.namespace ? `${m.metadata.namespace}/` : ''}${m.metadata?.name}`;
  const terminating = manifests.filter((m) => m.metadata?.deletionTimestamp !== undefined).map(name);
  console.log(
    `Created ${result.created.size} of the ${manifests.length} objects in ${dirs.join(', ')}, owners first, ` +
      `their ownerReferences pointing at the uids the server gave (${result.uids.size} objects had an exported uid).`,
  );
  if (terminating.length > 0) console.log(`Deleted again, as they were exported terminating: ${terminating.join(', ')}.`);
  for (const f of result.failures) console.error(`refused: ${f.object}: ${f.status} ${f.message}`);
  console.log(`${result.failures.length} refused.`);
  return result.failures.length === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(2);
  },
);
