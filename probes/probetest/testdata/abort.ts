// A probe with a bug: it asserts what its config does not hold. Built the
// default way (no --use abort=), AssemblyScript's assert calls env.abort,
// and gate ends the run as an error that says what failed and where.
import * as gate from "../../asc/gate";

export function probe(): i32 {
  __reset();
  const mode = gate.config("mode");
  assert(mode == "ok", "boom: mode is not ok");
  return gate.AVAILABLE;
}
