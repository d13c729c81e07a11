// Installs one Debian package with apt-get, as the legs that are a Debian package do (chromium,
// dovecot): `apt-get install -y --no-install-recommends <package>`, and when that fails (the usual
// cause is a machine whose package lists are missing or stale) `apt-get update` and once more.
const APT_ENV = { DEBIAN_FRONTEND: "noninteractive" };

/**
 * @param {typeof import("./machine.mjs").machine} machine
 * @param {string} debianPackage
 * @returns {Promise<{ ok: true } | { ok: false, tail: string }>}
 */
export async function aptInstall(machine, debianPackage) {
  const install = ["install", "-y", "--no-install-recommends", debianPackage];
  let installed = await machine.run("apt-get", install, { env: APT_ENV });
  if (installed.code !== 0) {
    const updated = await machine.run("apt-get", ["update"], { env: APT_ENV });
    if (updated.code === 0) installed = await machine.run("apt-get", install, { env: APT_ENV });
  }
  if (installed.code === 0) return { ok: true };
  return { ok: false, tail: installed.output.trim().split("\n").slice(-3).join(" | ") };
}
