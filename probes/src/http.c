/* http.c - the standard "http" probe (ABI v2): a placeholder until it is written. */
#include "std.h"

GATE_EXPORT(probe) int probe(void) {
	gate_reason_str("the http probe is not built yet");
	return GATE_ERROR;
}
