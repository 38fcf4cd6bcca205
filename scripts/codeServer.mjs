// Runs the packaged extension in a real VS Code: code-server 4.99.4 (installed by scripts/setupCodeServer.sh).
//
// CLI:
//   node scripts/codeServer.mjs start [WORKSPACE] [--vsix FILE] [--host 127.0.0.1] [--port N] [--dir DIR]
//       installs code-server if needed, installs the .vsix (default: the one `npm run package` made) into a fresh
//       profile, starts code-server on WORKSPACE (default: examples/), prints the URL and runs until Ctrl-C.
//   node scripts/codeServer.mjs install-extension FILE.vsix --extensions-dir DIR [--user-data-dir DIR]
//
// Module (for the end-to-end tests):
//   const server = await startCodeServer({ workspace, vsix });  // fresh profile, free port, answers HTTP
//   server.folderUrl  // open this in a browser
//   await server.stop();

import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.99.4';
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Settings of every fresh profile: no workspace-trust dialog, no welcome page, nothing phoning home. */
export const DEFAULT_SETTINGS = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  // the repository's .git is above examples/: no "open the repository in the parent folder?" notification
  'git.openRepositoryInParentFolders': 'never',
};

/**
 * With `workspaceTrust: true`: workspace trust on, and the folder opens in Restricted Mode (a fresh profile trusts
 * nothing) without the startup dialog asking; the Restricted Mode banner stays.
 */
export const UNTRUSTED_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
};

/** The .vsix `npm run package` writes. */
export function defaultVsix() {
  const { name, version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  return join(REPO, 'dist', `${name}-${version}.vsix`);
}

/** Where scripts/setupCodeServer.sh installs code-server (the same $KUBE_GC_LENS_CACHE rule). */
export function codeServerInstallDir() {
  return join(process.env.KUBE_GC_LENS_CACHE || join(REPO, '.cache'), `code-server-${CODE_SERVER_VERSION}`);
}

/** Whether scripts/setupCodeServer.sh completed an installation (its marker file), without installing anything. */
export function isCodeServerInstalled() {
  try {
    return readFileSync(join(codeServerInstallDir(), '.complete'), 'utf8').trim() === `code-server ${CODE_SERVER_VERSION} complete`;
  } catch {
    return false;
  }
}

/** Installs code-server (cached: instant once done) and returns the folder holding node_modules/code-server. */
export function ensureCodeServer() {
  const result = spawnSync('bash', [join(REPO, 'scripts', 'setupCodeServer.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`scripts/setupCodeServer.sh failed (exit ${result.status ?? result.signal})`);
  const lines = result.stdout.trim().split('\n');
  return lines[lines.length - 1];
}

function entry(installDir) {
  return join(installDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** Runs code-server's own --install-extension into `extensionsDir` (replacing an installed copy). */
export function installExtension({ vsix, extensionsDir, userDataDir, installDir = ensureCodeServer() }) {
  if (!existsSync(vsix)) throw new Error(`${vsix} does not exist: run \`npm run package\` first`);
  mkdirSync(extensionsDir, { recursive: true });
  const args = [entry(installDir), '--extensions-dir', extensionsDir, '--install-extension', resolve(vsix), '--force'];
  if (userDataDir) args.push('--user-data-dir', userDataDir);
  const result = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    // code-server writes a default config.yaml into $XDG_CONFIG_HOME on every run: keep it out of the home folder.
    env: { ...process.env, XDG_CONFIG_HOME: join(userDataDir ?? extensionsDir, '..', '.config') },
  });
  if (result.status !== 0 || !/successfully installed/i.test(result.stdout)) {
    throw new Error(`installing ${vsix} failed:\n${result.stdout}${result.stderr}`);
  }
  return result.stdout.trim();
}

/** A port nothing listens on right now. */
export async function freePort(host = '127.0.0.1') {
  const server = createServer();
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/** Polls `url` until it answers 2xx; fails early if `exited` resolves first, or after `timeoutMs`. */
async function waitForHttp(url, exited, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let stopped = false;
  void exited.then(() => {
    stopped = true;
  });
  let last = '';
  while (Date.now() < deadline) {
    if (stopped) throw new Error(`code-server exited before answering ${url}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`code-server did not answer ${url} within ${timeoutMs} ms (last: ${last})`);
}

/**
 * Starts code-server on `workspace` with a fresh profile in `dir` (default: a new temporary folder):
 * dir/user-data (settings.json from DEFAULT_SETTINGS + `settings`; code-server's logs in dir/user-data/logs),
 * dir/extensions (the .vsix installed there when `vsix` is given), dir/code-server.log (its output).
 * Workspace trust is disabled (everything is trusted) unless `workspaceTrust` (see UNTRUSTED_SETTINGS).
 * Resolves once it answers HTTP.
 */
export async function startCodeServer({
  workspace = join(REPO, 'examples'),
  vsix,
  dir = mkdtempSync(join(tmpdir(), 'kube-gc-lens-code-server-')),
  host = '127.0.0.1',
  port,
  settings = {},
  workspaceTrust = false,
  timeoutMs = 60_000,
} = {}) {
  const installDir = ensureCodeServer();
  const userDataDir = join(dir, 'user-data');
  const extensionsDir = join(dir, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const trustSettings = workspaceTrust ? UNTRUSTED_SETTINGS : {};
  writeFileSync(
    join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...DEFAULT_SETTINGS, ...trustSettings, ...settings }, null, 2),
  );
  if (vsix) installExtension({ vsix, extensionsDir, userDataDir, installDir });

  port ??= await freePort(host);
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, `bind-addr: ${host}:${port}\nauth: none\ncert: false\n`);
  const logFile = join(dir, 'code-server.log');
  const log = createWriteStream(logFile);
  const child = spawn(
    process.execPath,
    [
      entry(installDir),
      '--config',
      configFile,
      '--auth',
      'none',
      '--bind-addr',
      `${host}:${port}`,
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      '--disable-telemetry',
      '--disable-update-check',
      ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
      '--ignore-last-opened',
      resolve(workspace),
    ],
    {
      detached: true, // its own process group: stop() ends code-server and the extension hosts it forked
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, XDG_CONFIG_HOME: join(dir, '.config'), XDG_DATA_HOME: join(dir, '.local', 'share') },
    },
  );
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));

  const url = `http://${host}:${port}/`;
  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          /* already gone */
        }
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            /* gone */
          }
        }, 5000);
        await exited;
        clearTimeout(timer);
      }
      log.end();
    })();
    return stopping;
  };
  try {
    await waitForHttp(`${url}healthz`, exited, timeoutMs);
  } catch (e) {
    await stop();
    throw new Error(`${e instanceof Error ? e.message : e}\n--- ${logFile}:\n${readFileSync(logFile, 'utf8')}`);
  }
  return {
    url,
    /** The workbench on the workspace folder. */
    folderUrl: `${url}?folder=${encodeURIComponent(resolve(workspace))}`,
    port,
    dir,
    userDataDir,
    extensionsDir,
    /** VS Code's logs (one folder per window session: exthost logs under it). */
    logsDir: join(userDataDir, 'logs'),
    logFile,
    process: child,
    exited,
    stop,
  };
}

// --- CLI
function parseArgs(argv) {
  const options = {};
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2);
      options[name] = inline ?? argv[++i];
    } else {
      positional.push(arg);
    }
  }
  return { options, positional };
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { options, positional } = parseArgs(rest);
  if (command === 'install-extension') {
    if (!positional[0] || !options['extensions-dir'])
      throw new Error('usage: install-extension FILE.vsix --extensions-dir DIR [--user-data-dir DIR]');
    console.log(installExtension({ vsix: positional[0], extensionsDir: options['extensions-dir'], userDataDir: options['user-data-dir'] }));
    return;
  }
  if (command !== 'start') {
    throw new Error(
      'usage: node scripts/codeServer.mjs start [WORKSPACE] [--vsix FILE] [--host H] [--port N] [--dir DIR]\n' +
        '       node scripts/codeServer.mjs install-extension FILE.vsix --extensions-dir DIR [--user-data-dir DIR]',
    );
  }
  if (options.dir) mkdirSync(options.dir, { recursive: true });
  const server = await startCodeServer({
    workspace: positional[0] ?? join(REPO, 'examples'),
    vsix: options.vsix ?? defaultVsix(),
    host: options.host ?? '127.0.0.1',
    port: options.port ? Number(options.port) : undefined,
    dir: options.dir ? resolve(options.dir) : undefined,
  });
  console.log(`code-server ${CODE_SERVER_VERSION} with Kube GC Lens is running. Open:\n\n  ${server.folderUrl}\n`);
  console.log(`Profile and logs: ${server.dir} (VS Code's logs: ${server.logsDir}). Ctrl-C stops it.`);
  await runUntilInterrupted(server);
}

/**
 * Keeps `server` running until Ctrl-C (or SIGTERM), then stops it and exits 0; exits 1 if it dies by itself.
 * `others` ({ name, exited, stop, logFile }: the demo's control plane) run and stop with it, after it; `cleanup` runs
 * last (removing temporary state), in every case.
 */
export async function runUntilInterrupted(server, { others = [], cleanup = () => undefined } = {}) {
  const services = [{ name: 'code-server', exited: server.exited, stop: server.stop, logFile: server.logFile }, ...others];
  let stopping = false;
  const stopAll = async () => {
    stopping = true;
    for (const service of services) await service.stop();
    await cleanup();
  };
  const stopAndExit = () => void stopAll().then(() => process.exit(0));
  process.once('SIGINT', stopAndExit);
  process.once('SIGTERM', stopAndExit);
  const { service, code, signal } = await Promise.race(services.map((s) => s.exited.then((r) => ({ service: s, ...r }))));
  if (stopping) return;
  console.error(`${service.name} exited (${code ?? signal}); see ${service.logFile}`);
  await stopAll();
  process.exit(1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
