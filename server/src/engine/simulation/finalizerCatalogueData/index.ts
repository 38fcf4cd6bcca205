// The catalogue of well-known finalizers, as data. To add an entry: read the code that removes the finalizer in its
// project, say what the controller does before removing it, and cite that file (and the commit read);
// test/engine/finalizerCatalogue.test.ts checks every entry's form. MetalLB was read too (metallb/metallb at
// 7938d3f89b8bd808dae2e42d97d6ae7e18e9ed54): it adds no finalizer of its own, so it has no entry.

import { FINALIZERS_OF_GITOPS } from './gitOps';
import { FINALIZERS_OF_PLATFORMS } from './platforms';
import { FINALIZERS_OF_STORAGE_AND_CLOUD } from './storageAndCloud';

export const FINALIZER_CATALOGUE_DATA = [...FINALIZERS_OF_PLATFORMS, ...FINALIZERS_OF_GITOPS, ...FINALIZERS_OF_STORAGE_AND_CLOUD];
