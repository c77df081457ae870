// `ordinal manifests [--target crd|native|both] [--namespace NS] [--image IMAGE] [--observability
// [--runbook-url URL]] [--write DIR]`: prints the CRD, RBAC, Deployment and Service (and, opted in, the
// observability package) as one YAML stream, or writes deploy/'s files and the Helm chart (`--write deploy`
// regenerates the checked-in manifests; test/deploy/manifests.test.ts checks them).

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Option, type Command } from 'commander';
import { isDNS1123Label } from '../../api/validation/index.js';
import { helmChartFiles } from '../manifests/helm-chart.js';
import { DEFAULT_OBSERVABILITY, observabilityManifests } from '../manifests/observability.js';
import type { Target } from '../manifests/options.js';
import { allManifests, deployFiles, manifestOptions, toYaml } from '../manifests/render.js';

export interface ManifestsCommandOptions {
  target: Target;
  namespace?: string;
  image?: string;
  write?: string;
  /** Also print the ServiceMonitor, PrometheusRule and dashboard ConfigMap. */
  observability?: boolean;
  runbookUrl?: string;
}

/** Files `--write DIR` produces, by path relative to DIR. */
export function generatedFiles(version: string): Record<string, string> {
  const files: Record<string, string> = { ...deployFiles(manifestOptions(version)) };
  for (const [path, text] of Object.entries(helmChartFiles(version))) files[join('helm', 'ordinal', path)] = text;
  return files;
}

export function manifestsCommand(version: string, opts: ManifestsCommandOptions, out: (text: string) => void): void {
  if (opts.write) {
    for (const [path, text] of Object.entries(generatedFiles(version))) {
      const full = join(opts.write, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, text);
      out(`wrote ${full}\n`);
    }
    return;
  }
  const o = manifestOptions(version, {
    target: opts.target,
    ...(opts.namespace ? { namespace: opts.namespace } : {}),
    ...(opts.image ? { image: opts.image } : {}),
  });
  const observability = opts.observability ? observabilityManifests(o, { ...DEFAULT_OBSERVABILITY, ...(opts.runbookUrl ? { runbookUrl: opts.runbookUrl } : {}) }) : [];
  out(toYaml([...allManifests(o), ...observability], '# ordinal manifests\n'));
}

export function register(program: Command): void {
  program
    .command('manifests')
    .description('Print the CRD, RBAC and Deployment to install Ordinal (kubectl apply -f -), or write deploy/ with --write.')
    .addOption(new Option('--target <target>', 'which StatefulSets the controller manages').choices(['crd', 'native', 'both']).default('crd'))
    .option('-n, --namespace <ns>', 'namespace of the controller (default: ordinal-system)')
    .option('--image <image>', 'controller image (default: ordinal:<version>)')
    .option('--observability', 'also print the observability package: a ServiceMonitor, a PrometheusRule of alerts and a Grafana dashboard ConfigMap (Prometheus Operator CRDs needed)')
    .option('--runbook-url <url>', `with --observability: prefix of each alert's runbook_url (default: ${DEFAULT_OBSERVABILITY.runbookUrl})`)
    .option('--write <dir>', 'write deploy/ files and the Helm chart into DIR instead of printing')
    .action((opts: ManifestsCommandOptions, cmd: Command) => {
      const bad = opts.namespace === undefined ? [] : isDNS1123Label(opts.namespace);
      if (bad.length) cmd.error(`error: --namespace=${opts.namespace}: ${bad.join('; ')}`, { exitCode: 2 });
      if (opts.runbookUrl !== undefined && !opts.observability) cmd.error('error: --runbook-url needs --observability', { exitCode: 2 });
      manifestsCommand(program.version() ?? '0.0.0', opts, (t) => process.stdout.write(t));
    });
}
