/**
 * The bundled server's first-run set-up as the extension runs it (src/environment.ts without VS Code): find the
 * wheel in <extension>/bundled, run src/bundled.ts's install steps with the given Python into <storage>, write the
 * marker, probe the private environment. Prints one JSON line: what happened, and how the server would be started.
 *   node firstRun.js <extension dir> <storage dir> <python>
 * tests/packaging/test_vsix_first_run.py bundles and runs it.
 */
import {
  commandLine,
  findBundledWheel,
  installSteps,
  readyPython,
  runStep,
  venvDir,
  venvPython,
  writeMarker,
} from '../../src/bundled';
import { probeInterpreter, pythonLaunch } from '../../src/probe';

async function main(): Promise<void> {
  const [extensionDir, storageDir, python] = process.argv.slice(2);
  const wheel = findBundledWheel(extensionDir);
  if (wheel === undefined) {
    throw new Error(`no bundled wheel in ${extensionDir}`);
  }
  const steps: { command: string; ok: boolean; exitCode: number | null; tail: string[] }[] = [];
  for (const step of installSteps(python, storageDir, wheel)) {
    const result = await runStep(step, storageDir, () => undefined);
    steps.push({ command: commandLine(step), ok: result.ok, exitCode: result.exitCode, tail: result.tail });
    if (!result.ok) {
      process.stdout.write(`${JSON.stringify({ ok: false, steps })}\n`);
      return;
    }
  }
  writeMarker(storageDir, wheel, python);
  const server = venvPython(venvDir(storageDir));
  const probe = await probeInterpreter(server, { cwd: storageDir, isolated: true });
  const launch = pythonLaunch(['-m', 'toolsense', 'serve'], { cwd: storageDir, isolated: true });
  process.stdout.write(
    `${JSON.stringify({ ok: true, steps, wheelhouse: wheel.wheelhouse ?? null, ready: readyPython(storageDir, wheel) ?? null, probe, server, launch })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
