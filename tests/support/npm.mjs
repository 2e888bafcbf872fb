// `npm install` in a scratch project, as a user runs it there: quiet, no lock file written,
// from npm's cache where it can. `packages`: what to add (none: the project's package.json).
import { execFileSync } from 'node:child_process';

export function npmInstall(cwd, ...packages) {
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--prefer-offline',
      '--loglevel=error',
      ...packages,
    ],
    { cwd, stdio: 'pipe' },
  );
}
