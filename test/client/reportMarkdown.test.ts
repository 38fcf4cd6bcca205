// The Simulate Delete report: exact markdown for a realistic report, then hostile names from user files.

import { describe, expect, it } from 'vitest';
import type { ObjectIdentity } from '../../server/src/engine/model';
import type { SimulateReport, SourceLocation } from '../../shared/src/protocol';
import { commandUri } from '../../client/src/logic/markdown';
import { renderSimulateReport, reportTitle } from '../../client/src/logic/reportMarkdown';
import { simulateReportOf, type ReportParts } from '../../testkit/reports/simulateReports';

const id = (kind: string, namespace: string, name: string, apiVersion = 'v1'): ObjectIdentity => ({
  apiVersion,
  kind,
  namespace,
  name,
  uid: `uid-${kind}-${name}`,
});
const at = (file: string, line: number): SourceLocation => ({
  uri: `file:///ws/${file}`,
  range: { start: { line, character: 8 }, end: { line, character: 14 } },
});
const reveal = (loc: SourceLocation) => commandUri('kubeGcLens.revealLocation', [loc.uri, loc.range]);

const deploy = id('Deployment', 'shop', 'web', 'apps/v1');
const rs = id('ReplicaSet', 'shop', 'web-7d9', 'apps/v1');
const pod = id('Pod', 'shop', 'web-7d9-x');
const pvc = id('PersistentVolumeClaim', 'shop', 'data');
const cm = id('ConfigMap', 'shop', 'settings');

function parts(): ReportParts {
  return {
    target: deploy,
    policy: 'Background',
    controllers: 'builtin',
    result: {
      deleted: [
        { ...deploy, step: 3 },
        { ...rs, step: 6 },
      ],
      orphaned: [
        { ...cm, ownerUID: deploy.uid },
        { ...id('Secret', 'shop', 'token'), ownerUID: 'uid-gone' },
      ],
      stuck: [
        {
          ...pvc,
          finalizers: ['kubernetes.io/pvc-protection'],
          reason: 'PersistentVolumeClaim shop/data stays Terminating: still mounted by Pod shop/web-7d9-x',
          blockedBy: [
            {
              type: 'finalizer',
              finalizer: 'kubernetes.io/pvc-protection',
              controller: 'pvc-protection-controller',
              message: 'still mounted by Pod shop/web-7d9-x',
              blockedBy: [
                {
                  type: 'graceful-termination',
                  object: pod,
                  message: 'Pod shop/web-7d9-x uses the claim (Terminating)',
                  blockedBy: [
                    { type: 'graceful-termination', controller: 'kubelet', message: 'waits for the kubelet on node-1 (grace period 30s)' },
                  ],
                },
              ],
            },
          ],
        },
      ],
      steps: [
        { step: 1, actor: 'garbage-collector', action: 'remove', target: cm, detail: 'settling' },
        {
          step: 2,
          actor: 'apiserver',
          action: 'delete',
          target: deploy,
          detail: 'requested by the user; propagationPolicy=Background',
          request: 0,
        },
        { step: 3, actor: 'apiserver', action: 'remove', target: deploy, detail: 'no finalizers left' },
      ],
      notes: ['Timing may differ (a race).'],
    },
    locations: { [deploy.uid]: at('web.yaml', 2), [pvc.uid]: at('data.yaml', 4), [pod.uid]: at('pods.yaml', 0) },
    counts: { deletedByKind: { Deployment: 1, ReplicaSet: 1, Pod: 3 }, orphaned: 2, stuck: 1, stuckBecause: 'pvc-protection' },
    outcome: 'deleted',
    title: 'Delete: also 1 ReplicaSet, 3 Pods · 2 orphaned · 1 stuck (pvc-protection)',
  };
}

const sample = (): SimulateReport => simulateReportOf(parts());

describe('renderSimulateReport', () => {
  it('renders title, summary, lists, why-chain, timeline and notes, each object linked to its source', () => {
    const web = `[Deployment shop/web](${reveal(at('web.yaml', 2))})`;
    const data = `[PersistentVolumeClaim shop/data](${reveal(at('data.yaml', 4))})`;
    const podLink = `[Pod shop/web-7d9-x](${reveal(at('pods.yaml', 0))})`;
    expect(renderSimulateReport(sample())).toBe(
      [
        '# Simulate Delete\\: Deployment shop/web \\(Background\\)',
        '',
        '**Deleting Deployment shop/web\\: 5 objects deleted \\(1 Deployment\\, 1 ReplicaSet\\, 3 Pods\\)\\, 1 stuck \\(pvc-protection\\)\\, 2 orphaned**',
        '',
        `- **Object:** ${web}, apps/v1, uid \`uid-Deployment-web\``,
        '- **Policy:** Background: the object goes at once\\, then the garbage collector deletes its dependents',
        "- **Controllers:** builtin: the kubelet\\, the namespace controller\\, pvc/pv-protection\\, the CRD cleanup and each custom finalizer\\'s controller \\(while its workload runs\\) act besides the apiserver and the garbage collector",
        '',
        '## Deleted by this DELETE (2)',
        '',
        '**Deployment \\(1\\)**',
        '',
        `- ${web}: step 3`,
        '',
        '**ReplicaSet \\(1\\)**',
        '',
        '- ReplicaSet shop/web-7d9: step 6',
        '',
        '## Left stuck by this DELETE (1)',
        '',
        '**PersistentVolumeClaim \\(1\\)**',
        '',
        `- ${data}, finalizers \`kubernetes.io/pvc-protection\``,
        '  - **finalizer** `kubernetes.io/pvc-protection`: still mounted by Pod shop/web-7d9-x',
        `    - ${podLink}: uses the claim \\(Terminating\\)`,
        '      - **graceful termination**: waits for the kubelet on node-1 \\(grace period 30s\\)',
        '',
        '## Orphaned by this DELETE (2)',
        '',
        '**ConfigMap \\(1\\)**',
        '',
        `- ConfigMap shop/settings: no longer owned by ${web}`,
        '',
        '**Secret \\(1\\)**',
        '',
        '- Secret shop/token: no longer owned by uid `uid-gone`',
        '',
        '## Timeline (3 steps)',
        '',
        '<details>',
        '<summary>Before the request: 1 step of the garbage collector settling the input as given</summary>',
        '',
        '| Step | Actor | Action | Object | Detail |',
        '|---:|---|---|---|---|',
        '| 1 | garbage-collector | remove | ConfigMap shop/settings | settling |',
        '',
        '</details>',
        '',
        'The request:',
        '',
        '| Step | Actor | Action | Object | Detail |',
        '|---:|---|---|---|---|',
        `| 2 | apiserver | delete | ${web} | requested by the user\\; propagationPolicy\\=Background |`,
        `| 3 | apiserver | remove | ${web} | no finalizers left |`,
        '',
        '## Notes',
        '',
        '- Timing may differ \\(a race\\)\\.',
        '',
      ].join('\n'),
    );
  });

  it('lists what the garbage collector deletes or leaves stuck without this DELETE too in a collapsed section', () => {
    const report = simulateReportOf({ ...parts(), settling: { deleted: [rs.uid], stuck: [pvc.uid] } });
    const md = renderSimulateReport(report);
    const caused = md.slice(0, md.indexOf('<details>'));
    const anyway = md.slice(md.indexOf('<details>'), md.indexOf('</details>'));
    expect(caused).toContain('## Deleted by this DELETE (1)\n');
    expect(caused).toMatch(/^- \[Deployment shop\/web\]\(.*\): step 3$/m);
    expect(caused).not.toContain('web-7d9: step 6');
    expect(caused).toContain('## Left stuck by this DELETE (0)\n\n_None._\n');
    expect(anyway).toContain(
      '<summary>What the garbage collector does anyway, without this DELETE too: 1 deleted, 1 stuck, 0 orphaned</summary>\n',
    );
    expect(anyway).toContain('### Deleted anyway (1)\n\n**ReplicaSet \\(1\\)**\n\n- ReplicaSet shop/web-7d9: step 6\n');
    expect(anyway).toMatch(/^- \[PersistentVolumeClaim shop\/data\]\(.*\), finalizers `kubernetes\.io\/pvc-protection`$/m);
    expect(renderSimulateReport(sample())).not.toContain('anyway');
  });

  it('collapses a long list of one kind under its count', () => {
    const pods = Array.from({ length: 12 }, (_, i) => ({ ...id('Pod', 'shop', `p${i}`), step: i + 4 }));
    const r = simulateReportOf({ ...parts(), result: { ...parts().result, deleted: [...parts().result.deleted, ...pods] } });
    const md = renderSimulateReport(r);
    expect(md).toContain('<details>\n<summary>Pods (12)</summary>\n\n- Pod shop/p0: step 4\n');
    expect(md).toContain('**Deployment \\(1\\)**');
  });

  it('says when the request itself changed nothing', () => {
    const r = sample();
    r.targets = [{ ...r.targets[0], afterStep: 1, unchanged: 'Deployment shop/web is already terminating; nothing changes' }];
    r.steps = r.steps.filter((st) => st.request === undefined && st.step === 1);
    const md = renderSimulateReport(r);
    expect(md).toContain('The request:\n\n_The apiserver: Deployment shop/web is already terminating\\; nothing changes (no step)._\n');
  });

  it('says when a list is empty, shows the abort and the stuck reason when there is no chain', () => {
    const r = simulateReportOf({
      ...parts(),
      policy: 'default',
      controllers: 'gc',
      result: {
        deleted: [],
        orphaned: [],
        steps: [],
        notes: [],
        aborted: 'maxSteps (10) reached',
        stuck: [
          {
            ...pvc,
            finalizers: [],
            reason: 'PersistentVolumeClaim shop/data is terminating and nothing is left to finish it',
            blockedBy: [],
          },
        ],
      },
      counts: { deletedByKind: {}, orphaned: 0, stuck: 1 },
    });
    const md = renderSimulateReport(r);
    expect(md).toContain('# Simulate Delete\\: Deployment shop/web \\(API default\\)\n');
    expect(md).toContain(
      "- **Policy:** API default: no propagationPolicy is sent\\, so the type\\'s own default applies \\(the first step says which\\)\n",
    );
    expect(md).toContain(
      '- **Controllers:** gc: strict\\: only the apiserver and the garbage collector act\\; nobody else removes a finalizer\n',
    );
    expect(md).toContain('**Deleting Deployment shop/web\\: 0 objects deleted\\, 1 stuck\\, 0 orphaned**\n');
    expect(md).toContain('> **Aborted, the result is partial:** maxSteps \\(10\\) reached\n');
    expect(md).toContain('## Deleted by this DELETE (0)\n\n_None._\n');
    expect(md).toContain('## Orphaned by this DELETE (0)\n\n_None._\n');
    expect(md).toContain('  - PersistentVolumeClaim shop/data is terminating and nothing is left to finish it\n');
    expect(md).toContain('## Timeline (0 steps)\n\n_Nothing happened._\n');
    expect(md).not.toContain('## Notes');
  });

  it('renders hostile names, finalizers and messages as text', () => {
    const evil = { ...id('Pod', 'ns', '<img src=x onerror=alert(1)>'), uid: 'u-evil' };
    const linky = { ...id('ConfigMap', 'a|b', '[x](command:workbench.action.terminal.new)'), uid: 'u-linky' };
    const r = simulateReportOf({
      ...parts(),
      target: evil,
      locations: {
        'u-evil': { uri: 'file:///ws/a (1).yaml', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } },
      },
      result: {
        deleted: [{ ...evil, step: 1 }],
        orphaned: [],
        stuck: [
          {
            ...linky,
            finalizers: ['`rm -rf`', 'x<b>y</b>'],
            reason: 'r',
            blockedBy: [{ type: 'finalizer', finalizer: '**f**', message: 'nobody removes **f**:\n# not a heading', object: evil }],
          },
        ],
        steps: [{ step: 1, actor: 'op|erator', action: 'remove', target: linky, detail: '<script>alert(1)</script> | cell' }],
        notes: ['![img](http://evil.example/x.png)'],
      },
      counts: { deletedByKind: { '<b>Pod</b>': 1 }, orphaned: 0, stuck: 1, stuckBecause: '_f_' },
    });
    const md = renderSimulateReport(r);
    const evilLink = `[Pod ns/\\<img src\\=x onerror\\=alert\\(1\\)\\>](${commandUri('kubeGcLens.revealLocation', ['file:///ws/a (1).yaml', r.locations['u-evil'].range])})`;
    const linkyText = 'ConfigMap a\\|b/\\[x\\]\\(command\\:workbench\\.action\\.terminal\\.new\\)';
    expect(md).toContain('# Simulate Delete\\: Pod ns/\\<img src\\=x onerror\\=alert\\(1\\)\\> \\(Background\\)\n');
    expect(md).toContain(`- ${evilLink}: step 1\n`);
    expect(md).toContain(
      '**Deleting Pod ns/\\<img src\\=x onerror\\=alert\\(1\\)\\>\\: 1 object deleted \\(1 \\<b\\>Pod\\</b\\>\\)\\, 1 stuck \\(\\_f\\_\\)\\, 0 orphaned**',
    );
    expect(md).toContain(`- ${linkyText}, finalizers \`\` \`rm -rf\` \`\`, \`x<b>y</b>\`\n`);
    expect(md).toContain(`  - **finalizer** \`**f**\`: nobody removes \\*\\*f\\*\\*\\: \\# not a heading (${evilLink})\n`);
    expect(md).toContain(`| 1 | op\\|erator | remove | ${linkyText} | \\<script\\>alert\\(1\\)\\</script\\> \\| cell |\n`);
    expect(md).toContain('- \\!\\[img\\]\\(http\\://evil\\.example/x\\.png\\)\n');
    // Nothing outside our own markup: no raw `<` but in a code span, no line that a name could have started.
    // Our own collapsed sections are the only HTML, and their summaries hold no user text here.
    const ours = md.replace('`x<b>y</b>`', '').replace(/^(<details>|<\/details>|<summary>[^<]*<\/summary>)$/gm, '');
    expect(ours).not.toMatch(/(^|[^\\])</m);
    for (const line of ours.split('\n')) expect(line).toMatch(/^(|#{1,3} .*|\s*(- |\d+\. ).*|\*\*.*|> .*|\|.*\||_.*_|[A-Z].*:)$/);
  });

  it('ignores inherited keys of the locations object', () => {
    const r = sample();
    r.target = { ...deploy, uid: 'constructor' };
    expect(renderSimulateReport(r)).toContain('- **Object:** Deployment shop/web, apps/v1, uid `constructor`\n');
  });
});

describe('reportTitle', () => {
  it('titles a report in plain text', () => {
    expect(reportTitle({ target: id('Namespace', '', 'kafka'), policy: 'Foreground' })).toBe(
      'Simulate Delete: Namespace kafka (Foreground)',
    );
  });
});

describe('a report on the live cluster', () => {
  const live = (notes: string[]): SimulateReport => {
    const r = sample();
    return { ...r, locations: {}, notes };
  };

  it('says it is the live cluster, in the title and the header', () => {
    const md = renderSimulateReport(live([]), { cluster: 'kind-dev' });
    expect(reportTitle(sample(), { cluster: 'kind-dev' })).toBe('Simulate Delete on kind-dev: Deployment shop/web (Background)');
    expect(
      md.startsWith(
        [
          '# Simulate Delete on kind-dev\\: Deployment shop/web \\(Background\\)',
          '',
          '**Deleting Deployment shop/web\\: 5 objects deleted \\(1 Deployment\\, 1 ReplicaSet\\, 3 Pods\\)\\, 1 stuck \\(pvc-protection\\)\\, 2 orphaned**',
          '',
          '- **Graph:** the live cluster of context `kind-dev`, as listed and watched (a preview: nothing is sent to the cluster)',
          '- **Object:** Deployment shop/web, apps/v1, uid `uid-Deployment-web`',
        ].join('\n'),
      ),
    ).toBe(true);
    expect(md).not.toContain('incomplete');
  });

  it('puts what could not be read first after the summary, and keeps the other notes last', () => {
    const md = renderSimulateReport(
      live(['this preview is incomplete: cannot list secrets in team-a (secrets is forbidden)', 'Timing may differ (a race).']),
      { cluster: 'kind-dev' },
    );
    expect(md).toContain(
      [
        ' 2 orphaned**',
        '',
        '> **This preview is incomplete:** not every resource of the cluster could be read, so objects may be missing from it.',
        '>',
        '> - cannot list secrets in team-a \\(secrets is forbidden\\)',
        '',
        '- **Graph:**',
      ].join('\n'),
    );
    expect(md.endsWith('## Notes\n\n- Timing may differ \\(a race\\)\\.\n')).toBe(true);
  });

  it("a workspace report is unchanged by the option's absence", () => {
    expect(renderSimulateReport(sample(), {})).toBe(renderSimulateReport(sample()));
    expect(reportTitle(sample(), {})).toBe(reportTitle(sample()));
  });
});

describe("the report's Show in Graph link", () => {
  it('plays the same deletion out on the graph of the same source', async () => {
    const { renderSimulateReport: render } = await import('../../client/src/logic/reportMarkdown');
    const { deploymentReport } = await import('../../testkit/webview/fixtures');
    const report = deploymentReport();
    const decode = (md: string) =>
      JSON.parse(decodeURIComponent(/\[Show in Graph\]\(command:kubeGcLens\.showInGraph\?([^)]*)\)/.exec(md)![1]));
    expect(decode(render(report, { graphLink: true }))).toEqual([{ uid: 'd1', source: 'workspace', policy: 'Background' }]);
    expect(decode(render(report, { graphLink: true, cluster: 'kind-dev' }))).toEqual([
      { uid: 'd1', source: 'cluster', policy: 'Background' },
    ]);
    expect(render(report)).not.toContain('Show in Graph');
  });
});
