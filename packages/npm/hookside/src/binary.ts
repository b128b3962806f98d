import { existsSync } from "node:fs";

/** The platforms a hookside release ships a binary for (process.platform-process.arch). */
export const SUPPORTED_PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"] as const;

/** The npm package holding the binary for a platform, e.g. "@hookside/linux-x64". */
export function platformPackage(platform: string = process.platform, arch: string = process.arch): string {
  return `@hookside/${platform}-${arch}`;
}

/** Thrown when no hookside binary can be found; `message` says what to install or set. */
export class BinaryNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BinaryNotFoundError";
  }
}

/**
 * The path of the hookside binary: $HOOKSIDE_BINARY when set (it must exist),
 * else bin/hookside (bin/hookside.exe on Windows) of the platform package
 * `@hookside/<platform>-<arch>`, which npm installs through the main
 * package's optionalDependencies on that platform only.
 */
export function resolveBinary(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.HOOKSIDE_BINARY;
  if (override) {
    if (!existsSync(override)) {
      throw new BinaryNotFoundError(`hookside: HOOKSIDE_BINARY=${override} does not exist`);
    }
    return override;
  }
  const pkg = platformPackage();
  const exe = process.platform === "win32" ? "hookside.exe" : "hookside";
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    const key = `${process.platform}-${process.arch}`;
    const supported = (SUPPORTED_PLATFORMS as readonly string[]).includes(key);
    throw new BinaryNotFoundError(
      supported
        ? `hookside: the platform package ${pkg} is not installed. It is an optional dependency of "hookside": ` +
          `reinstall without --omit=optional / --no-optional (and with the same platform as where it runs), or set HOOKSIDE_BINARY to a hookside binary.`
        : `hookside: no binary is published for ${key} (platform package ${pkg}; supported: ${SUPPORTED_PLATFORMS.join(", ")}). ` +
          `Build hookside from source and set HOOKSIDE_BINARY to it.`,
    );
  }
}
