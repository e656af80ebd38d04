// The audit's view of the run controller's state (src/adapter/controller/): on a host with a
// controller, <project>/.harness/controller/ is controller-owned, not exempt. A state file a stage
// changed counts only when the controller wrote it (signed with its key and named by its record
// outside the project, ctlVerify); anything else there (a rewrite, an old copy, a deletion, a stray
// file) is a violation: restored like any other, and marked in the controller's record, so its next
// hook stops the run (fail closed). JavaScript source text (rules in src/adapter/guard/render.ts);
// the controller's state source (ctlPaths, ctlVerify, ctlMarkTampered) is pasted beside it.
export const AUDIT_CONTROLLER_SOURCE = String.raw`
/** undefined: not the controller's; false: the controller wrote it; true: a violation (the run is marked tampered) */
function auditControllerChange(ctx, rel, change) {
  if (!POLICY.controller) return undefined;
  const dir = POLICY.controller.stateDir + "/controller/";
  if (rel.indexOf(dir) !== 0) return undefined;
  const name = rel.slice(dir.length);
  // the controller's atomic writes: a temporary file beside the state, renamed over it a moment later
  if (change.status !== "D" && /^[A-Za-z0-9._-]+\.json\.\d+\.[0-9a-f]{6}\.tmp$/.test(name)) return false;
  const m = /^([A-Za-z0-9._-]+)\.json$/.exec(name);
  const home = ctlHome();
  if (!m || home === null) return true;
  const P = ctlPaths(POLICY.controller, ctx.root, home, m[1]);
  // the controller never deletes a state: a deletion is put back (and the old copy it restores no longer matches)
  const why = change.status === "D" ? "it was deleted" : ctlVerify(P);
  if (why === null) return false;
  ctlMarkTampered(P, "the stage-end audit found " + rel + " changed outside the controller: " + why);
  return true;
}
`;
