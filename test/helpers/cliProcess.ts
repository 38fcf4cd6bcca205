// kubectl-gc as a user runs it: the built dist/cli.js in its own process, with its exit code and both outputs.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const CLI = resolve(__dirname, '../../dist/cli.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args`, the environment plus `env` (colour off), and resolves once it has exited. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}
