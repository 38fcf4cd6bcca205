// Manifest texts shared by the stdio LSP tests: a Deployment and a ReplicaSet it owns (exact line layout matters:
// tests assert ranges in them).

export const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  uid: 11111111-1111-1111-1111-111111111111
spec:
  replicas: 1
`;

export const replicaSet = (ownerUid: string, ownerName = 'web') => `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-5d4f
  namespace: shop
  uid: 22222222-2222-2222-2222-222222222222
  ownerReferences:
  - apiVersion: apps/v1
    kind: Deployment
    name: ${ownerName}
    uid: ${ownerUid}
    controller: true
    blockOwnerDeletion: true
`;
