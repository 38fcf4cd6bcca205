// The graphs of issue 17's measurements, as the language server sends them (server/src/app/graph.ts: the whole
// inventory, with each object's findings): the 3,075-object OpenShift 4.8 must-gather (../shared/corpus, read where it
// is, nothing copied) and a generated cluster of N objects (bench/generateCluster.ts, its namespaces, workloads, custom
// resources and stuck objects). bench/webviewBench.ts draws both.

import { join } from 'node:path';
import { analyze } from '../server/src/engine/analysis/analyze';
import { selectGraph } from '../server/src/engine/graph/graphScope';
import { buildInventory, type Inventory } from '../server/src/engine/inventory';
import { graphData, stuckNotes } from '../server/src/app/graph';
import { terminatingItems } from '../server/src/app/stuck';
import { loadPaths } from '../server/src/sources/files';
import { parseManifestText } from '../server/src/sources/manifests/parseManifest';
import type { GraphData } from '../shared/src/protocol';
import { clusterJson, generateCluster } from './generateCluster';
import { dumpsFolder } from './realism';

export interface NamedGraph {
  name: string;
  /** A file name for its screenshot. */
  slug: string;
  graph: GraphData;
}

function graphOf(inventory: Inventory): GraphData {
  const stuck = inventory.terminating.size
    ? stuckNotes(terminatingItems(inventory, { controllers: 'builtin', finalizerOwners: [] }, undefined))
    : new Map();
  return graphData(inventory, selectGraph(inventory, {}), analyze(inventory), stuck);
}

/** The must-gather's graph, or undefined when the corpus is not next to the repository. */
export async function mustGatherGraph(from: string): Promise<NamedGraph | undefined> {
  const dumps = dumpsFolder(from);
  if (!dumps) return undefined;
  const loaded = await loadPaths([join(dumps, 'openshift-must-gather-aws')]);
  const inventory = buildInventory(loaded.objects, { defaultNamespace: 'default' });
  return { name: `OpenShift must-gather (${loaded.files} files)`, slug: 'must-gather', graph: graphOf(inventory) };
}

/** A generated cluster of about `objects` objects (its largest namespace a quarter of them). */
export function generatedGraph(objects: number): NamedGraph {
  const cluster = generateCluster({ objects, bigNamespaceObjects: Math.max(200, Math.floor(objects / 4)) });
  const parsed = parseManifestText(clusterJson(cluster), 'cluster.json');
  const inventory = buildInventory(parsed.objects, { defaultNamespace: 'default' });
  return { name: `generated cluster (seed ${cluster.options.seed})`, slug: `generated-${objects}`, graph: graphOf(inventory) };
}
