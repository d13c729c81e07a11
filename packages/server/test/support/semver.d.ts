// The part of semver that test/dependencies/node-engines.test.ts uses. @types/semver is not installed,
// and semver itself (a dependency of dependencies, CommonJS) ships no declarations.
declare module "semver" {
  interface SemVer {
    version: string;
  }
  const semver: {
    /** The lowest version that satisfies `range`, or null when none does. */
    minVersion(range: string): SemVer | null;
    satisfies(version: string, range: string): boolean;
  };
  export = semver;
}
