// An example probe in AssemblyScript: available when the environment
// variable that config "var" names is set and not empty. Without "var" its
// config is wrong, which is the probe's own failure, not the tool's: it
// answers ERROR, with its reason. probes/probetest/asc_test.go builds it
// and checks every answer.
import * as gate from "./gate";

export function probe(): i32 {
  // The stub runtime never frees: each run starts the heap afresh, as a
  // probe keeps nothing between runs (and holds nothing on the heap from
  // its top level).
  __reset();
  const name = gate.config("var");
  if (name === null || name.length == 0) {
    gate.reason('env probe: config "var" is not set');
    return gate.ERROR;
  }
  const n = gate.envLength(name);
  if (n == gate.DENIED) return gate.UNAVAILABLE; // the host has recorded why
  if (n <= 0) {
    gate.reason(name + " is not set");
    return gate.UNAVAILABLE;
  }
  return gate.AVAILABLE;
}
