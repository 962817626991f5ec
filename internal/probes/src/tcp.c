/*
 * tcp.c - the standard "tcp" probe.
 *
 * Config: "addr", "host:port" or "unix:/path"; optional "timeout_ms", a
 * decimal number of milliseconds (default 0: as long as the budget allows;
 * the host clips any timeout to the budget anyway). Available iff the host
 * can connect. Otherwise unavailable with the reason "<addr>: connection
 * refused" (or "timed out", "unreachable or name not resolved", "bad
 * address"); when the dial is denied the probe sets no reason because the
 * host already records a better one.
 */
#include "std.h"

GATE_EXPORT(probe) int probe(void) {
	int32_t n = std_config("tcp", "addr");
	if (n < 0)
		return GATE_ERROR;
	if (n == 0)
		return std_config_error("tcp", "addr", "is not set");
	int32_t timeout_ms = std_timeout("tcp");
	if (timeout_ms < 0)
		return GATE_ERROR;

	int32_t r = gate_dial(std_config_buf, (uint32_t)n, timeout_ms);
	if (r == GATE_OK)
		return GATE_AVAILABLE;
	if (r == GATE_DENIED)
		return GATE_UNAVAILABLE;

	/* Keep room for ": unreachable or name not resolved" and the like. */
	std_put_cut(std_config_buf, (uint32_t)n, 40);
	std_put(": ", 2);
	if (r >= GATE_BAD_ADDRESS && r <= GATE_REFUSED) {
		std_puts(gate_dial_status_text(r));
	} else {
		/* A status this probe doesn't know (a newer host): still say no. */
		std_puts("dial failed (status ");
		if (r < 0)
			std_puts("-");
		std_putu(r < 0 ? (uint32_t)0 - (uint32_t)r : (uint32_t)r);
		std_puts(")");
	}
	std_reason();
	return GATE_UNAVAILABLE;
}
