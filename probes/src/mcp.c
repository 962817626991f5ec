/* mcp.c - the standard "mcp" probe (ABI v2): a placeholder until it is written. */
#include "std.h"

GATE_EXPORT(probe) int probe(void) {
	gate_reason_str("the mcp probe is not built yet");
	return GATE_ERROR;
}
