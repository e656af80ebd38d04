// An esbuild plugin: the named functions of Node builtins load their module on first call instead
// of when the bundle starts. commander requires child_process at load time (for executable
// subcommands, which harness does not have) and src/gitignore.ts spawns git only when a build
// prints; loading child_process (with the net, dgram and stream modules it pulls in) cost ~5 ms of
// every short command. Each listed builtin becomes an ES module of wrappers, so importing a name
// that is not listed fails the bundle instead of yielding undefined at run time.
export function lazyBuiltins(functionsByModule) {
  const names = Object.keys(functionsByModule);
  const filter = new RegExp(`^(?:node:)?(?:${names.join("|")})$`);
  return {
    name: "lazy-builtins",
    setup(build) {
      build.onResolve({ filter }, (args) =>
        // the wrapper module's own require is the real builtin
        args.namespace === "lazy-builtin"
          ? { path: args.path, external: true }
          : { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin" },
      );
      build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({
        loader: "js",
        contents: [
          "let loaded;",
          `const real = () => (loaded ??= require(${JSON.stringify(`node:${args.path}`)}));`,
          ...functionsByModule[args.path].map((fn) => `export function ${fn}(...args) { return real().${fn}(...args); }`),
        ].join("\n"),
      }));
    },
  };
}
